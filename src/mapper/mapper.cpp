#include "pimdse/mapper/mapper.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/mapper/overlap_greedy.hpp"
#include "pimdse/mapper/segment_candidates.hpp"
#include "pimdse/sim/overlap_timeline.hpp"

namespace pimdse::mapper {

using workload::LayerIndex;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double latency_or_inf(const sim::NetworkCost& c) {
    return c.status == sim::EvalStatus::ok ? c.latency.value() : kInf;
}

/// The most nodes a region running the whole segment may have (every layer must fill it).
std::int64_t most_nodes(const workload::Network& network, const workload::Segment& segment) {
    std::int64_t most = std::numeric_limits<std::int64_t>::max();
    for (const workload::Branch& b : segment.branches)
        for (LayerIndex l : b.layers) most = std::min(most, mapper::most_nodes(network.layer(l)));
    return most;
}

/// Union-find over layers plus the network input (index n).
struct Groups {
    std::vector<std::int32_t> parent;
    explicit Groups(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
    std::int32_t find(std::int32_t x) {
        while (parent[static_cast<std::size_t>(x)] != x)
            x = parent[static_cast<std::size_t>(x)] =
                parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
        return x;
    }
    void unite(std::int32_t a, std::int32_t b) {
        a = find(a);
        b = find(b);
        if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    }
};

/// The tensors of a network for the layout choice: one group per tensor, the inputs of a
/// multi-input layer (concat, add) united since they are read in one layout. Index n is the
/// network input.
struct Tensors {
    std::int32_t n;
    Groups groups;
    explicit Tensors(const workload::Network& network)
        : n(static_cast<std::int32_t>(network.size())), groups(static_cast<std::size_t>(n) + 1) {
        for (LayerIndex l = 0; l < n; ++l) {
            const auto& inputs = network.layer(l).inputs;
            for (std::size_t j = 1; j < inputs.size(); ++j)
                groups.unite(producer(inputs[0]), producer(inputs[j]));
        }
    }
    [[nodiscard]] std::int32_t producer(LayerIndex p) const { return p == workload::kNetworkInput ? n : p; }
    /// The group layer l reads (its first input's) and the group it writes.
    std::size_t in_group(const workload::Network& network, LayerIndex l) {
        return static_cast<std::size_t>(groups.find(producer(network.layer(l).inputs.front())));
    }
    std::size_t out_group(LayerIndex l) { return static_cast<std::size_t>(groups.find(l)); }
};

/// Each group's layout starts as its representative's current DL_o (the network input's: its
/// first reader's DL_i); then every DL is made consistent with its group. Per group, its layout.
std::vector<sim::DataLayout> consistent_layouts(const workload::Network& network, Tensors& t,
                                                sim::NetworkMapping& mapping, sim::DataLayout fallback) {
    const auto size = static_cast<std::size_t>(t.n) + 1;
    std::vector<sim::DataLayout> layout(size, fallback);
    std::vector<bool> set(size, false);
    for (LayerIndex l = 0; l < t.n; ++l) {
        const std::size_t g = t.out_group(l);
        if (!set[g]) layout[g] = mapping.layers[static_cast<std::size_t>(l)].dl_out, set[g] = true;
    }
    for (LayerIndex l = 0; l < t.n; ++l) {
        const std::size_t g = t.in_group(network, l);
        if (!set[g]) layout[g] = mapping.layers[static_cast<std::size_t>(l)].dl_in, set[g] = true;
    }
    for (LayerIndex l = 0; l < t.n; ++l) {
        sim::LayerMapping& m = mapping.layers[static_cast<std::size_t>(l)];
        m.dl_in = layout[t.in_group(network, l)];
        m.dl_out = layout[t.out_group(l)];
    }
    return layout;
}

/// The mapping the selection chose. Infeasible: the smallest footprints of the first
/// candidate; the timeline then reports which node's DRAM overflows.
sim::NetworkMapping selected_mapping(const Mapper::RoundInputs& in, const Selection& sel, std::size_t n) {
    sim::NetworkMapping mapping;
    mapping.layers.resize(n);
    mapping.segments.resize(in.sms.size());
    for (std::size_t s = 0; s < in.sms.size(); ++s) {
        const std::size_t k = sel.feasible ? static_cast<std::size_t>(sel.sm[s]) : 0;
        mapping.segments[s] = in.sms[s][k];
        for (std::size_t r = 0; r < in.layers[s][k].size(); ++r)
            for (std::size_t i = 0; i < in.layers[s][k][r].size(); ++i) {
                const std::size_t j = sel.feasible ? static_cast<std::size_t>(sel.option[s][r][i]) : 0;
                mapping.layers[static_cast<std::size_t>(in.layers[s][k][r][i])] =
                    in.options[s][k][r][i][j]->mapping;
            }
    }
    return mapping;
}

/// Per layer, the mappings of every option the selection had for it on the SM it chose.
std::vector<std::vector<sim::LayerMapping>> round_candidates(const Mapper::RoundInputs& in,
                                                             const Selection& sel, std::size_t n) {
    std::vector<std::vector<sim::LayerMapping>> out(n);
    for (std::size_t s = 0; s < in.sms.size(); ++s) {
        const auto k = static_cast<std::size_t>(sel.sm[s]);
        for (std::size_t r = 0; r < in.layers[s][k].size(); ++r)
            for (std::size_t i = 0; i < in.layers[s][k][r].size(); ++i) {
                auto& c = out[static_cast<std::size_t>(in.layers[s][k][r][i])];
                for (const LayerOption* o : in.options[s][k][r][i]) c.push_back(o->mapping);
            }
    }
    return out;
}

}  // namespace

Mapper::Mapper(const sim::System& system, MapperOptions options, sim::IntraNodeMapper& intra,
               sim::CycleScheduler& search, sim::SharingScheduler& final, const sim::Timeline& timeline)
    : system_(system),
      options_(std::move(options)),
      intra_(intra),
      search_scheduler_(search),
      final_scheduler_(final),
      timeline_(timeline),
      select_timeline_(timeline.wants_spaces() ? sim::sequential_timeline() : timeline),
      search_(system, intra, search, options_.max_arrangements) {
    if (options_.max_optim_iter < 1) throw ModelError("Mapper: max_optim_iter must be >= 1");
    if (options_.capacity_units < 1) throw ModelError("Mapper: capacity_units must be >= 1");
    if (options_.layouts.empty()) throw ModelError("Mapper: at least one data layout");
}

void Mapper::check_cancelled() const {
    if (options_.cancelled && options_.cancelled()) throw std::runtime_error("cancelled");
}

sim::NetworkCost Mapper::evaluate(const workload::Network& network, const workload::Segmentation& seg,
                                  const sim::NetworkMapping& mapping, bool final) {
    return sim::evaluate_mapping(network, seg, mapping, system_, intra_,
                                 final ? final_scheduler_ : search_scheduler_, timeline_,
                                 memo_on_ ? &memo_ : nullptr);
}

Mapper::RoundInputs Mapper::round_inputs(const workload::Network& network, const workload::Segmentation& seg,
                                         const std::vector<sim::DataLayout>& dl_in,
                                         const std::vector<sim::DataLayout>& dl_out) {
    RoundInputs in;
    const std::int64_t capacity = system_.dram_capacity.value();
    in.unit_bytes =
        std::max<std::int64_t>(1, (capacity + options_.capacity_units - 1) / options_.capacity_units);
    const std::int32_t rows = system_.node_rows();
    const std::int32_t cols = system_.node_cols();
    for (const workload::Segment& segment : seg.segments) {
        check_cancelled();
        std::vector<sim::SegmentMapping> candidates = segment_candidates(network, segment, rows, cols);
        if (options_.freeze_sm)
            std::erase_if(candidates, [](const sim::SegmentMapping& sm) { return sm.regions.size() > 1; });
        auto& kept_sms = in.sms.emplace_back();
        auto& kept_layers = in.layers.emplace_back();
        auto& choices = in.choices.emplace_back();
        auto& options = in.options.emplace_back();
        const auto try_candidate = [&](const sim::SegmentMapping& sm) {
            std::vector<std::vector<LayerIndex>> layers(sm.regions.size());
            for (std::size_t b = 0; b < segment.branches.size(); ++b)
                for (LayerIndex l : segment.branches[b].layers)
                    layers[static_cast<std::size_t>(sm.branch_region[b])].push_back(l);
            SmChoices sc;
            std::vector<std::vector<std::vector<const LayerOption*>>> per_region;
            std::vector<LayerIndex> earlier;  // the SM's layers region by region, for the timeline
            for (std::size_t r = 0; r < sm.regions.size(); ++r) {
                auto& region_choices = sc.regions.emplace_back();
                auto& region_opts = per_region.emplace_back();
                for (LayerIndex l : layers[r]) {
                    const auto li = static_cast<std::size_t>(l);
                    const std::vector<LayerOption>& o = search_.options(
                        network.layer(l), sm.regions[r].rows, sm.regions[r].cols, dl_in[li], dl_out[li]);
                    LayerChoices lc;
                    std::vector<const LayerOption*> ptrs;
                    for (const LayerOption& x : o) {
                        // Frozen WR: only full replication (reduced after the selection).
                        if (options_.freeze_wr && network.layer(l).has_weights() &&
                            x.mapping.wr != sim::nodes_sharing_weights(x.mapping))
                            continue;
                        lc.latency.push_back(x.latency);
                        lc.units.push_back((x.bytes + in.unit_bytes - 1) / in.unit_bytes);
                        ptrs.push_back(&x);
                    }
                    if (ptrs.empty()) return false;
                    lc.producers = sim::producers_in(network, l, earlier);
                    earlier.push_back(l);
                    region_choices.push_back(std::move(lc));
                    region_opts.push_back(std::move(ptrs));
                }
            }
            kept_sms.push_back(sm);
            kept_layers.push_back(std::move(layers));
            choices.sms.push_back(std::move(sc));
            options.push_back(std::move(per_region));
            return true;
        };
        for (const sim::SegmentMapping& sm : candidates) (void)try_candidate(sm);
        if (kept_sms.empty()) {
            const std::int64_t most = most_nodes(network, segment);
            for (const auto& [r, c] : shrinking_shapes(rows, cols)) {
                if (std::int64_t{r} * c > most) continue;  // some layer cannot fill it
                const sim::SegmentMapping sm{{sim::Region{0, 0, r, c}},
                                             std::vector<std::int32_t>(segment.branches.size(), 0)};
                if (try_candidate(sm)) break;
            }
        }
        if (kept_sms.empty()) {
            std::string what = "no region can run every layer of the segment starting at layer '";
            what += network.layer(segment.branches.front().layers.front()).name;
            what += "' (a part-layer fits no tiling of the node's buffers)";
            throw Unmappable(what);
        }
    }
    return in;
}

sim::DataLayout Mapper::row_aligned_candidate(const workload::Network& network,
                                              const std::vector<LayerIndex>& writers,
                                              const std::vector<LayerIndex>& readers) const {
    // The tensor's width: its writer's output width, or (the network's input) its reader's.
    const std::int64_t width =
        !writers.empty() ? network.layer(writers.front()).Q : network.layer(readers.front()).W;
    return sim::row_aligned_for(width, system_.node.row_buffer.value() * 8 / system_.data_bits);
}

void Mapper::optimise_layouts(const workload::Network& network, const workload::Segmentation& seg,
                              sim::NetworkMapping& mapping) {
    (void)seg;
    Tensors tensors(network);
    const std::int32_t n = tensors.n;
    std::vector<sim::DataLayout> layout =
        consistent_layouts(network, tensors, mapping, options_.layouts.front());
    const auto in_group = [&](LayerIndex l) { return tensors.in_group(network, l); };
    const auto out_group = [&](LayerIndex l) { return tensors.out_group(l); };
    if (options_.layouts.size() < 2) return;

    // Members (DL_o) and readers (DL_i) of every group.
    std::vector<std::vector<LayerIndex>> writers(static_cast<std::size_t>(n) + 1);
    std::vector<std::vector<LayerIndex>> readers(static_cast<std::size_t>(n) + 1);
    for (LayerIndex l = 0; l < n; ++l) {
        writers[out_group(l)].push_back(l);
        readers[in_group(l)].push_back(l);
    }
    // A layer's compute cycles and, to break ties (compute-bound layers), its DRAM energy:
    // among layouts equally fast, the one that moves fewer words and opens fewer rows.
    using Score = std::pair<double, double>;
    const auto compute = [&](LayerIndex l, sim::DataLayout in, sim::DataLayout out) -> Score {
        sim::LayerMapping m = mapping.layers[static_cast<std::size_t>(l)];
        m.dl_in = in;
        m.dl_out = out;
        const auto [rows, cols] = m.shape();
        sim::LayerCost c;
        sim::add_compute_cost(network.layer(l), m, rows, cols, system_, intra_, c);
        if (c.status != sim::EvalStatus::ok) return {kInf, kInf};
        return {c.compute.value(), (c.energy.dram_access + c.energy.dram_activation).value()};
    };
    // Coordinate descent: each group takes the layout that minimises the compute of the
    // layers writing and reading it (then their DRAM energy), the other groups fixed; two sweeps.
    for (int sweep = 0; sweep < 2; ++sweep) {
        bool changed = false;
        for (std::size_t g = 0; g <= static_cast<std::size_t>(n); ++g) {
            if (writers[g].empty() && readers[g].empty()) continue;
            const auto total = [&](sim::DataLayout candidate) {
                Score t{0, 0};
                const auto add = [&](Score x) {
                    t.first += x.first;
                    t.second += x.second;
                };
                for (LayerIndex l : writers[g])
                    add(compute(l, mapping.layers[static_cast<std::size_t>(l)].dl_in, candidate));
                for (LayerIndex l : readers[g]) {
                    // A layer that reads and writes the same group cannot exist in a DAG.
                    add(compute(l, candidate, mapping.layers[static_cast<std::size_t>(l)].dl_out));
                }
                return t;
            };
            Score best = total(layout[g]);
            sim::DataLayout choice = layout[g];
            const auto consider = [&](sim::DataLayout candidate) {
                const Score t = total(candidate);
                if (t < best) {
                    best = t;
                    choice = candidate;
                }
            };
            for (const sim::DataLayout& candidate : options_.layouts) consider(candidate);
            if (options_.row_aligned) consider(row_aligned_candidate(network, writers[g], readers[g]));
            if (choice == layout[g]) continue;
            changed = true;
            layout[g] = choice;
            for (LayerIndex l : writers[g]) mapping.layers[static_cast<std::size_t>(l)].dl_out = choice;
            for (LayerIndex l : readers[g]) mapping.layers[static_cast<std::size_t>(l)].dl_in = choice;
        }
        if (!changed) break;
    }
}

// The rounds, both schedulers' costings, the greedy step and the baselines gather many
// layers' inputs from the same producers again; the memo serves them for one network.
Mapper::MemoScope::MemoScope(Mapper& m) : mapper(m) {
    mapper.memo_.clear();
    mapper.memo_on_ = true;
}

Mapper::MemoScope::~MemoScope() {
    mapper.memo_.clear();
    mapper.memo_on_ = false;
}

MapResult Mapper::map(const workload::Network& network, const workload::Segmentation& seg) {
    const auto n = static_cast<std::size_t>(network.size());
    // Restores the layout candidates however map() ends (a frozen DL narrows them).
    struct Restore {
        std::vector<sim::DataLayout>& target;
        std::vector<sim::DataLayout> saved;
        ~Restore() { target = std::move(saved); }
    } restore{options_.layouts, options_.layouts};
    const MemoScope memo_scope(*this);
    if (options_.freeze_dl) {
        // The baseline's single layout for every tensor, and no layout search.
        const sim::NetworkMapping b = baseline_mapping(network, seg, BaselineLm::compute_delay);
        options_.layouts = {b.layers.front().dl_in};
    }
    std::vector<sim::DataLayout> dl_in(n, options_.layouts.front());
    std::vector<sim::DataLayout> dl_out(n, options_.layouts.front());
    MapResult best;
    sim::NetworkCost search_cost;  // best's mapping under the search scheduler
    double best_latency = kInf;
    bool have = false;
    std::vector<std::vector<sim::LayerMapping>> candidates;  // the best round's options per layer
    for (std::int32_t round = 1; round <= options_.max_optim_iter; ++round) {
        check_cancelled();
        const RoundInputs in = round_inputs(network, seg, dl_in, dl_out);
        const Selection sel = select_mappings(in.choices, options_.capacity_units, select_timeline_);
        sim::NetworkMapping mapping = selected_mapping(in, sel, n);
        if (options_.freeze_wr) reduce_replication(network, mapping);
        optimise_layouts(network, seg, mapping);
        const sim::NetworkCost cost = evaluate(network, seg, mapping, false);
        if (!have || latency_or_inf(cost) < best_latency) {
            best_latency = latency_or_inf(cost);
            best.mapping = mapping;
            best.cost = cost;
            search_cost = cost;
            best.dp_latency = sel.feasible ? sel.latency : kInf;
            have = true;
            candidates = sel.feasible ? round_candidates(in, sel, n) : decltype(candidates){};
        }
        best.rounds = round;
        if (!sel.feasible) break;
        bool same = true;
        for (std::size_t l = 0; l < n; ++l) {
            same = same && dl_in[l] == mapping.layers[l].dl_in && dl_out[l] == mapping.layers[l].dl_out;
            dl_in[l] = mapping.layers[l].dl_in;
            dl_out[l] = mapping.layers[l].dl_out;
        }
        if (same) break;  // the next round would generate the same candidates
    }
    best.cost = evaluate(network, seg, best.mapping, true);
    greedy_step(network, seg, candidates, search_cost, best);
    options_.layouts = restore.saved;
    if (options_.keep_baseline_if_better) {
        // The sequential whole-array mappings (the baseline under both LM rules) are points of
        // the same space; the DP cannot see the redistribution between layers, so either may
        // be faster in the timeline. Compared under the final scheduler, which costs the
        // returned mapping.
        for (const BaselineLm lm :
             {BaselineLm::compute_delay, BaselineLm::compute_delay_sharing, BaselineLm::full_latency}) {
            check_cancelled();
            sim::NetworkMapping b = baseline_mapping(network, seg, lm);
            sim::NetworkCost cost = evaluate(network, seg, b, true);
            if (latency_or_inf(cost) < latency_or_inf(best.cost)) {
                best.mapping = std::move(b);
                best.cost = std::move(cost);
                best.dp_latency = 0;
                best.from_baseline = true;
            }
        }
    }
    return best;
}

void Mapper::greedy_step(const workload::Network& network, const workload::Segmentation& seg,
                         const std::vector<std::vector<sim::LayerMapping>>& candidates,
                         const sim::NetworkCost& search_cost, MapResult& best) {
    const auto* overlapped = dynamic_cast<const sim::OverlapTimeline*>(&timeline_);
    if (overlapped == nullptr || !options_.overlap_greedy || candidates.empty()) return;
    if (best.cost.status != sim::EvalStatus::ok) return;
    check_cancelled();
    const GreedyContext ctx{network,
                            seg,
                            system_,
                            intra_,
                            search_scheduler_,
                            overlapped->transform(),
                            memo_on_ ? &memo_ : nullptr};
    GreedyResult g = overlap_greedy(ctx, best.mapping, candidates, &search_cost);
    if (g.changed == 0) return;
    sim::NetworkCost cost = evaluate(network, seg, g.mapping, true);
    // Kept only when the network's overlapped latency improves: never worse, by construction.
    if (latency_or_inf(cost) < latency_or_inf(best.cost)) {
        best.mapping = std::move(g.mapping);
        best.cost = std::move(cost);
        best.greedy_changed = g.changed;
    }
}

MapResult Mapper::baseline(const workload::Network& network, const workload::Segmentation& seg) {
    MapResult out;
    out.mapping = baseline_mapping(network, seg, options_.baseline_lm);
    out.from_baseline = true;
    out.cost = evaluate(network, seg, out.mapping, true);
    return out;
}

sim::NetworkMapping Mapper::baseline_mapping(const workload::Network& network,
                                             const workload::Segmentation& seg, BaselineLm lm) {
    const auto n = static_cast<std::size_t>(network.size());
    const std::int32_t rows = system_.node_rows();
    const std::int32_t cols = system_.node_cols();
    // VIII-D: the LMs are chosen once, under the first layout; the layout is chosen after.
    const sim::DataLayout first = options_.layouts.front();
    const auto lm_options = [&](LayerIndex l, std::int32_t r,
                                std::int32_t c) -> const std::vector<LayerOption>& {
        switch (lm) {
            case BaselineLm::compute_delay:
                return search_.fastest_compute_blind(network.layer(l), r, c, first, first);
            case BaselineLm::compute_delay_sharing:
                return search_.fastest_compute(network.layer(l), r, c, first, first);
            case BaselineLm::full_latency:
                break;
        }
        return search_.options(network.layer(l), r, c, first, first, true);
    };
    check_cancelled();
    sim::NetworkMapping mapping;
    mapping.layers.resize(n);
    for (const workload::Segment& segment : seg.segments) {
        bool placed = false;
        const std::int64_t most = most_nodes(network, segment);
        for (const auto& [r, c] : shrinking_shapes(rows, cols)) {
            if (std::int64_t{r} * c > most) continue;  // some layer cannot fill it
            std::vector<std::pair<LayerIndex, sim::LayerMapping>> chosen;
            bool ok = true;
            for (const workload::Branch& b : segment.branches) {
                for (LayerIndex l : b.layers) {
                    const std::vector<LayerOption>& o = lm_options(l, r, c);
                    if (o.empty()) {
                        ok = false;
                        break;
                    }
                    // The fastest; among equals the first (the front is by bytes).
                    const auto it = std::min_element(
                        o.begin(), o.end(),
                        [](const LayerOption& x, const LayerOption& y) { return x.latency < y.latency; });
                    chosen.emplace_back(l, it->mapping);
                }
                if (!ok) break;
            }
            if (!ok) continue;
            for (auto& [l, m] : chosen) mapping.layers[static_cast<std::size_t>(l)] = m;
            mapping.segments.push_back(sim::SegmentMapping{
                {sim::Region{0, 0, r, c}}, std::vector<std::int32_t>(segment.branches.size(), 0)});
            placed = true;
            break;
        }
        if (!placed) {
            std::string what = "baseline: no region can run every layer of the segment starting at layer '";
            what += network.layer(segment.branches.front().layers.front()).name;
            what += "'";
            throw Unmappable(what);
        }
    }
    reduce_replication(network, mapping);
    // One DL for every tensor, the fastest with the LMs fixed.
    sim::NetworkMapping best;
    double best_latency = kInf;
    bool have = false;
    for (const sim::DataLayout& dl : options_.layouts) {
        check_cancelled();
        for (sim::LayerMapping& m : mapping.layers) m.dl_in = m.dl_out = dl;
        const sim::NetworkCost cost = evaluate(network, seg, mapping, false);
        if (!have || latency_or_inf(cost) < best_latency) {
            best_latency = latency_or_inf(cost);
            best = mapping;
            have = true;
        }
    }
    return best;
}

void Mapper::reduce_replication(const workload::Network& network, sim::NetworkMapping& mapping) const {
    std::vector<LayerIndex> all(mapping.layers.size());
    std::iota(all.begin(), all.end(), 0);
    reduce_replication(network, mapping, all);
}

void Mapper::reduce_replication(const workload::Network& network, sim::NetworkMapping& mapping,
                                std::span<const LayerIndex> layers) const {
    // WR reduction (VIII-D): from full replication down, the layers with the most weights
    // first, until the weights fit. The layers given share a node that stores the most (node
    // (0, 0) of their region's corner lies in every one of their regions).
    const auto stored = [&] {
        std::int64_t sum = 0;
        for (LayerIndex l : layers)
            sum += system_.data_bytes(
                sim::stored_weights_per_node(network.layer(l), mapping.layers[static_cast<std::size_t>(l)]));
        return sum;
    };
    while (stored() > system_.dram_capacity.value()) {
        std::optional<LayerIndex> pick;
        for (LayerIndex l : layers) {
            if (mapping.layers[static_cast<std::size_t>(l)].wr <= 1 || !network.layer(l).has_weights())
                continue;
            if (!pick || network.layer(l).weights() > network.layer(*pick).weights()) pick = l;
        }
        if (!pick) break;  // WR = 1 everywhere: the timeline reports the overflow
        sim::LayerMapping& m = mapping.layers[static_cast<std::size_t>(*pick)];
        const std::vector<std::int32_t> wrs = distinct_wr(sim::nodes_sharing_weights(m));
        const auto next = std::find_if(wrs.begin(), wrs.end(), [&](std::int32_t w) { return w < m.wr; });
        m.wr = next == wrs.end() ? 1 : *next;
    }
}

}  // namespace pimdse::mapper
