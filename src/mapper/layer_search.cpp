// The LM search (include/pimdse/mapper/layer_search.hpp; docs/mapper.md, "LM search"): the
// memoised entry points and the pruned search over a region's count vectors. The LMs come
// from lm_enumeration.cpp, their sharing is costed by search_sharing.cpp.

#include "pimdse/mapper/layer_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pimdse::mapper {

using sim::kPartDims;
using sim::PartDim;

namespace {

bool dominated(const std::vector<LayerOption>& front, double latency, std::int64_t bytes) {
    return std::any_of(front.begin(), front.end(),
                       [&](const LayerOption& o) { return o.latency <= latency && o.bytes <= bytes; });
}

void insert(std::vector<LayerOption>& front, LayerOption o) {
    if (dominated(front, o.latency, o.bytes)) return;
    std::erase_if(front, [&](const LayerOption& f) { return o.latency <= f.latency && o.bytes <= f.bytes; });
    front.push_back(std::move(o));
}

// The part-layer of the node at part index 0 of every loop under count vector `n`: one of
// the vector's part-layers, and the largest (balanced splits make the first parts longest).
sim::PartLayer first_part_layer(const workload::Layer& l, const Counts& n, const sim::System& system) {
    std::array<sim::Range, kPartDims> first{};
    for (PartDim d : sim::kAllPartDims)
        first[index_of(d)] = sim::split(sim::loop_bound(l, d), n[index_of(d)], 0);
    return sim::part_layer_of(l, first, system);
}

sim::LayerMapping with_layouts(sim::DataLayout in, sim::DataLayout out) {
    sim::LayerMapping m;
    m.dl_in = in;
    m.dl_out = out;
    return m;
}

}  // namespace

LayerSearch::LayerSearch(const sim::System& system, sim::IntraNodeMapper& intra,
                         sim::CycleScheduler& scheduler, std::int64_t max_arrangements)
    : system_(system),
      intra_(intra),
      scheduler_(scheduler),
      loads_(system.mesh),
      max_arrangements_(max_arrangements) {}

SearchKey LayerSearch::key_of(const workload::Layer& l, std::int32_t rows, std::int32_t cols,
                              sim::DataLayout in, sim::DataLayout out, bool full) {
    return SearchKey{LayerShape::of(l), rows, cols, in, out, full};
}

double LayerSearch::compute_cycles(const workload::Layer& l, const sim::LayerMapping& m, std::int32_t rows,
                                   std::int32_t cols) {
    // The part-layers depend on each loop's partition count only (not on the split or the
    // order), so the compute of a count vector is shared by every region of its node count.
    ComputeKey key{key_of(l, rows * cols, 0, m.dl_in, m.dl_out, false), {}};
    for (std::size_t d = 0; d < kPartDims; ++d) key.counts[d] = m.parts[d].count();
    if (const auto it = compute_.find(key); it != compute_.end()) return it->second;
    sim::LayerCost c;
    sim::add_compute_cost(l, m, rows, cols, system_, intra_, c);
    const double cycles =
        c.status == sim::EvalStatus::ok ? c.compute.value() : std::numeric_limits<double>::infinity();
    compute_.emplace(key, cycles);
    return cycles;
}

const std::vector<LayerOption>& LayerSearch::options(const workload::Layer& l, std::int32_t rows,
                                                     std::int32_t cols, sim::DataLayout in,
                                                     sim::DataLayout out, bool full_replication) {
    const SearchKey key = key_of(l, rows, cols, in, out, full_replication);
    if (const auto it = memo_.find(key); it != memo_.end()) {
        ++stats_.memo_hits;
        return it->second;
    }
    ++stats_.searches;
    return memo_.emplace(key, search(Request{l, rows, cols, in, out, full_replication, true})).first->second;
}

std::vector<LayerOption> LayerSearch::enumerate_all(const workload::Layer& l, std::int32_t rows,
                                                    std::int32_t cols, sim::DataLayout in,
                                                    sim::DataLayout out) {
    return search(Request{l, rows, cols, in, out, false, false});
}

double LayerSearch::latency(const workload::Layer& l, const sim::LayerMapping& m) {
    const auto [rows, cols] = m.shape();
    sim::LayerCost c;
    sim::add_compute_cost(l, m, rows, cols, system_, intra_, c);
    if (c.status != sim::EvalStatus::ok) return std::numeric_limits<double>::infinity();
    return c.compute.value() + sharing_latency(l, m);
}

std::pair<double, std::vector<const Counts*>> LayerSearch::fastest_vectors(
    const workload::Layer& l, std::int32_t rows, std::int32_t cols, sim::DataLayout in, sim::DataLayout out,
    const RegionSplits& splits) {
    // Compute depends on the counts only: one probe split per vector.
    double best = std::numeric_limits<double>::infinity();
    std::vector<const Counts*> fastest;
    sim::LayerMapping m = with_layouts(in, out);
    for (const auto& [n, pairs] : splits.by_counts) {
        splits.apply(pairs[0].first, pairs[0].second, m);
        const double c = compute_cycles(l, m, rows, cols);
        if (c < best) {
            best = c;
            fastest.clear();
        }
        if (c == best && !std::isinf(c)) fastest.push_back(&n);
    }
    return {best, std::move(fastest)};
}

const std::vector<LayerOption>& LayerSearch::fastest_compute(const workload::Layer& l, std::int32_t rows,
                                                             std::int32_t cols, sim::DataLayout in,
                                                             sim::DataLayout out) {
    const SearchKey key = key_of(l, rows, cols, in, out, true);
    if (const auto it = compute_first_.find(key); it != compute_first_.end()) return it->second;
    const RegionSplits splits = region_splits(l, rows, cols);
    const auto [best, fastest] = fastest_vectors(l, rows, cols, in, out, splits);
    sim::LayerMapping m = with_layouts(in, out);
    std::vector<LayerOption> result;
    // The first option of the least latency wins; one without sharing (latency = compute,
    // as for most elementwise layers) cannot be beaten, so the search stops there.
    [&] {
        for (const Counts* n : fastest) {
            std::int64_t arrangements = 0;  // capped as in search()
            for (const auto& [i, j] : splits.by_counts.at(*n)) {
                if (max_arrangements_ > 0 && arrangements >= max_arrangements_) break;
                splits.apply(i, j, m);
                m.wr = l.has_weights() ? sim::nodes_sharing_weights(m) : 1;
                for (const auto& order : distinct_orders(splits.hs[i], splits.ws[j])) {
                    if (max_arrangements_ > 0 && arrangements++ >= max_arrangements_) break;
                    m.order = order;
                    const double latency = best + sharing_latency(l, m);
                    if (result.empty() || latency < result.front().latency) {
                        result.assign(
                            1,
                            LayerOption{latency, system_.data_bytes(sim::stored_weights_per_node(l, m)), m});
                    }
                    if (result.front().latency <= best) return;
                }
            }
        }
    }();
    return compute_first_.emplace(key, std::move(result)).first->second;
}

const std::vector<LayerOption>& LayerSearch::fastest_compute_blind(const workload::Layer& l,
                                                                   std::int32_t rows, std::int32_t cols,
                                                                   sim::DataLayout in, sim::DataLayout out) {
    const SearchKey key = key_of(l, rows, cols, in, out, true);
    if (const auto it = compute_blind_.find(key); it != compute_blind_.end()) return it->second;
    const RegionSplits splits = region_splits(l, rows, cols);
    // Tie-break priority of the partitioned loops: K, P, Q, B, C (most partitions first).
    const auto rank = [](const Counts& n) {
        return Counts{n[index_of(PartDim::k)], n[index_of(PartDim::p)], n[index_of(PartDim::q)],
                      n[index_of(PartDim::b)], n[index_of(PartDim::c)]};
    };
    const auto [best, fastest] = fastest_vectors(l, rows, cols, in, out, splits);
    const Counts* pick = nullptr;
    for (const Counts* n : fastest)
        if (pick == nullptr || rank(*n) > rank(*pick)) pick = n;
    sim::LayerMapping m = with_layouts(in, out);
    std::vector<LayerOption> result;
    if (pick != nullptr) {
        const auto [i, j] = splits.by_counts.at(*pick).front();
        splits.apply(i, j, m);
        m.order = distinct_orders(splits.hs[i], splits.ws[j]).front();
        m.wr = l.has_weights() ? sim::nodes_sharing_weights(m) : 1;
        // The latency is reported for the mapper's use; it took no part in the choice.
        result.push_back(LayerOption{best + sharing_latency(l, m),
                                     system_.data_bytes(sim::stored_weights_per_node(l, m)), m});
    }
    return compute_blind_.emplace(key, std::move(result)).first->second;
}

std::vector<LayerOption> LayerSearch::search(const Request& r) {
    const workload::Layer& l = r.layer;
    const RegionSplits splits = region_splits(l, r.rows, r.cols);
    // Lower bound of the compute cycles: the largest part-layer (every loop's first, longest
    // part) on the PE array with every lane busy (sim::compute_cycles_lower_bound), and at
    // least its MACs at one MAC per PE per cycle.
    const double pes = static_cast<double>(system_.node.pe_rows) * system_.node.pe_cols;
    const auto lower_bound_of = [&](const Counts& n) {
        if (!l.is_compute()) return 0.0;
        const sim::PartLayer p = first_part_layer(l, n, system_);
        return std::max(static_cast<double>(p.macs()) / pes,
                        sim::compute_cycles_lower_bound(p, system_.node).value());
    };
    // Cheapest bound first, so that good options are found early and prune the rest.
    std::vector<std::pair<double, const Counts*>> vectors;
    for (const auto& [n, pairs] : splits.by_counts) vectors.emplace_back(lower_bound_of(n), &n);
    std::stable_sort(vectors.begin(), vectors.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });

    std::vector<LayerOption> front;
    for (const auto& [lower_bound, counts] : vectors) search_vector(r, splits, *counts, lower_bound, front);
    if (r.prune)
        std::sort(front.begin(), front.end(), [](const LayerOption& a, const LayerOption& b) {
            return a.bytes != b.bytes ? a.bytes < b.bytes : a.latency < b.latency;
        });
    return front;
}

void LayerSearch::search_vector(const Request& r, const RegionSplits& splits, const Counts& n,
                                double lower_bound, std::vector<LayerOption>& front) {
    const workload::Layer& l = r.layer;
    ++stats_.count_vectors;
    const std::int32_t n_node = n[index_of(PartDim::b)] * n[index_of(PartDim::p)] * n[index_of(PartDim::q)];
    const std::vector<std::int32_t> wrs = !l.has_weights() ? std::vector<std::int32_t>{1}
                                          : r.full         ? std::vector<std::int32_t>{n_node}
                                                           : distinct_wr(n_node);
    const auto& pairs = splits.by_counts.at(n);
    sim::LayerMapping m = with_layouts(r.in, r.out);
    splits.apply(pairs[0].first, pairs[0].second, m);
    m.wr = wrs.back();
    const std::int64_t min_bytes = system_.data_bytes(sim::stored_weights_per_node(l, m));
    // Every option of the vector shares its inputs and partial sums whatever its WR (only the
    // weights event depends on WR, and it vanishes at the largest): that part of the sharing
    // bound (pruning 4) adds to both compute bounds below.
    m.wr = wrs.front();
    const double share_floor = r.prune ? sharing_lower_bound(l, m) : 0.0;
    m.wr = wrs.back();
    if (r.prune && dominated(front, lower_bound + share_floor, min_bytes)) {
        ++stats_.pruned_vectors;
        return;
    }
    // The vector's compute is the slowest of its part-layers; the first part of every loop
    // is one of them (the node at part index 0) and the largest, so its intra-node cost is a
    // tighter floor than the PE-array bound, at one search instead of one per distinct part.
    if (r.prune && l.is_compute()) {
        const sim::IntraNodeCost part =
            intra_.map(first_part_layer(l, n, system_), system_.node, r.in, r.out);
        if (part.status != sim::MapStatus::ok) return;  // compute_cycles would be infinite
        if (dominated(front, part.total_cycles.value() + share_floor, min_bytes)) {
            ++stats_.pruned_vectors;
            return;
        }
    }
    const double c = compute_cycles(l, m, r.rows, r.cols);
    if (std::isinf(c)) return;
    if (r.prune && dominated(front, c + share_floor, min_bytes)) {
        ++stats_.pruned_vectors;
        return;
    }
    // Pruning 4: the sharing sets' sizes and bytes do not depend on the split or the order,
    // only their placement does; each set of N members needs N - 1 steps that each eject
    // one chunk per member, so sum over events of max (N - 1) x chunk flits bounds the
    // sharing latency of every arrangement of this count vector and WR.
    std::vector<double> share_bound(wrs.size(), 0.0);
    if (r.prune)
        for (std::size_t w = 0; w < wrs.size(); ++w) {
            m.wr = wrs[w];
            share_bound[w] = sharing_lower_bound(l, m);
        }
    const bool capped = r.prune && max_arrangements_ > 0;
    std::int64_t arrangements = 0;
    for (const auto& [i, j] : pairs) {
        if (capped && arrangements >= max_arrangements_) break;
        splits.apply(i, j, m);
        for (const auto& order : distinct_orders(splits.hs[i], splits.ws[j])) {
            if (capped && arrangements++ >= max_arrangements_) break;
            m.order = order;
            for (std::size_t w = 0; w < wrs.size(); ++w) {
                m.wr = wrs[w];
                const std::int64_t bytes = system_.data_bytes(sim::stored_weights_per_node(l, m));
                if (r.prune && dominated(front, c + share_bound[w], bytes)) continue;
                ++stats_.options_costed;
                LayerOption o{c + sharing_latency(l, m), bytes, m};
                if (r.prune)
                    insert(front, std::move(o));
                else
                    front.push_back(std::move(o));
            }
        }
    }
}

}  // namespace pimdse::mapper
