// The LM search's sharing model (include/pimdse/mapper/search_sharing.hpp; docs/mapper.md,
// "Sharing in the search"): the LayerSearch members that cost a layer's data sharing.

#include <algorithm>
#include <functional>
#include <utility>

#include "pimdse/mapper/layer_search.hpp"

namespace pimdse::mapper {

using sim::kPartDims;
using sim::PartDim;
using sim::SharingKind;

namespace {

/// Ungrouped compute layers get the search's model; the others the timeline's exact costing.
bool exact_costing(const workload::Layer& l) {
    return !l.is_compute() || (l.is_convolution() && l.groups > 1);
}

/// The group of a node in event `kind`, as sim::sharing_events keys it for an ungrouped
/// compute layer: inputs by (B, P, Q, C parts), weights by (K, C parts, replica), partial
/// sums by (B, P, Q, K parts). `rank` counts the nodes seen per (K, C) for the replicas.
std::size_t group_of(SharingKind kind, const std::array<std::int32_t, kPartDims>& idx, const Counts& n,
                     std::int32_t replicas, std::int32_t shard, std::vector<std::int32_t>& rank) {
    const std::int32_t bpq =
        (idx[index_of(PartDim::b)] * n[index_of(PartDim::p)] + idx[index_of(PartDim::p)]) *
            n[index_of(PartDim::q)] +
        idx[index_of(PartDim::q)];
    const std::int32_t k = idx[index_of(PartDim::k)];
    const std::int32_t c = idx[index_of(PartDim::c)];
    switch (kind) {
        case SharingKind::inputs:
            return static_cast<std::size_t>(bpq * n[index_of(PartDim::c)] + c);
        case SharingKind::weights: {
            const std::int32_t kc = k * n[index_of(PartDim::c)] + c;
            const std::int32_t r = rank[static_cast<std::size_t>(kc)]++;
            return static_cast<std::size_t>(kc * replicas + r / shard);
        }
        case SharingKind::partial_sums:
            break;
    }
    return static_cast<std::size_t>(bpq * n[index_of(PartDim::k)] + k);
}

}  // namespace

namespace {

/// Every node's group in event `kind` (row-major over the region) into scratch.group and
/// each group's member count into scratch.count; returns the number of groups.
std::size_t node_groups(const sim::LayerMapping& m, std::int32_t rows, std::int32_t cols, SharingKind kind,
                        std::int32_t shard, SetsScratch& scratch) {
    Counts n{};
    for (PartDim d : sim::kAllPartDims) n[index_of(d)] = m.part(d).count();
    const std::int32_t n_k = n[index_of(PartDim::k)], n_c = n[index_of(PartDim::c)];
    const std::int32_t n_node = n[index_of(PartDim::b)] * n[index_of(PartDim::p)] * n[index_of(PartDim::q)];
    const std::int32_t replicas = (n_node + shard - 1) / shard;
    const std::int32_t groups = kind == SharingKind::inputs    ? n_node * n_c
                                : kind == SharingKind::weights ? n_k * n_c * replicas
                                                               : n_node * n_k;
    scratch.rank.assign(static_cast<std::size_t>(n_k * n_c), 0);
    scratch.count.assign(static_cast<std::size_t>(groups), 0);
    // A part index is (row digit) x Pw + (column digit) (sim::part_indices): the row's and
    // the column's contributions, computed once each, only for the loops split that way.
    auto& by_row = scratch.by_row;
    auto& by_col = scratch.by_col;
    by_row.assign(static_cast<std::size_t>(rows), {});
    by_col.assign(static_cast<std::size_t>(cols), {});
    auto [row_block, col_block] = m.shape();  // as sim::part_indices divides them
    for (PartDim d : m.order) {
        const sim::Partition p = m.part(d);
        row_block /= p.h;
        col_block /= p.w;
        if (p.h > 1)
            for (std::int32_t y = 0; y < rows; ++y)
                by_row[static_cast<std::size_t>(y)][index_of(d)] = (y / row_block) % p.h * p.w;
        if (p.w > 1)
            for (std::int32_t x = 0; x < cols; ++x)
                by_col[static_cast<std::size_t>(x)][index_of(d)] = (x / col_block) % p.w;
    }
    scratch.group.resize(static_cast<std::size_t>(rows * cols));
    std::size_t at = 0;
    for (std::int32_t y = 0; y < rows; ++y)
        for (std::int32_t x = 0; x < cols; ++x) {
            std::array<std::int32_t, kPartDims> idx{};
            for (std::size_t d = 0; d < kPartDims; ++d)
                idx[d] = by_row[static_cast<std::size_t>(y)][d] + by_col[static_cast<std::size_t>(x)][d];
            const std::size_t g = group_of(kind, idx, n, replicas, shard, scratch.rank);
            scratch.group[at++] = static_cast<std::int32_t>(g);
            ++scratch.count[g];
        }
    return static_cast<std::size_t>(groups);
}

}  // namespace

void event_sets_key(const sim::LayerMapping& m, std::int32_t rows, std::int32_t cols, const sim::Mesh& mesh,
                    SharingKind kind, std::int32_t shard, SetsScratch& scratch, SetsKey& key) {
    const std::size_t groups = node_groups(m, rows, cols, kind, shard, scratch);
    // A counting sort: each set of two or more members as [size, members in node order], in
    // group order; scratch.next holds where a set's next member goes (-1: fewer than two).
    scratch.next.resize(groups);
    std::int32_t size = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        const std::int32_t members = scratch.count[g];
        scratch.next[g] = members < 2 ? -1 : size + 1;
        if (members >= 2) size += members + 1;
    }
    key.flat.resize(static_cast<std::size_t>(size));
    for (std::size_t g = 0; g < groups; ++g)
        if (scratch.next[g] >= 0) key.flat[static_cast<std::size_t>(scratch.next[g] - 1)] = scratch.count[g];
    std::size_t at = 0;
    for (std::int32_t y = 0; y < rows; ++y)
        for (std::int32_t x = 0; x < cols; ++x) {
            std::int32_t& next = scratch.next[static_cast<std::size_t>(scratch.group[at++])];
            if (next >= 0) key.flat[static_cast<std::size_t>(next++)] = mesh.node(y, x);
        }
}

std::vector<std::vector<sim::NodeId>> event_sets(const sim::LayerMapping& m, std::int32_t rows,
                                                 std::int32_t cols, const sim::Mesh& mesh, SharingKind kind,
                                                 std::int32_t shard) {
    SetsScratch scratch;
    SetsKey key;
    event_sets_key(m, rows, cols, mesh, kind, shard, scratch, key);
    return key.sets();
}

namespace {

/// The size classes of an event's sets: class 0 the largest sets, class 1 the smaller ones.
std::array<std::int32_t, 2> size_classes(const std::vector<sim::SharingCycle>& cycles) {
    std::array<std::int32_t, 2> size{};
    for (const sim::SharingCycle& c : cycles) {
        const auto members = static_cast<std::int32_t>(c.order.size());
        if (size[0] == 0 || members == size[0]) {
            size[0] = members;
        } else if (members > size[0]) {
            size[1] = size[0];
            size[0] = members;
        } else {
            size[1] = members;
        }
    }
    return size;
}

/// The channels of a phase reduced to the lines that can be its maximum: per distinct
/// (class0, class1) crossing pair the longest pipeline, then only the lines no other line
/// dominates in all three coordinates. `cls0` holds the loads of the class-0 cycles that
/// move in the phase, `cls1` those of class 1 (null when class 1 does not move); a channel's
/// pipeline is that of both classes' routes together. Few distinct crossing pairs exist, so
/// linear scans.
std::vector<ChannelLine> dominant_lines(const sim::ChannelLoads& cls0, const sim::ChannelLoads* cls1) {
    std::vector<ChannelLine> lines;
    const auto add = [&](const ChannelLine& line) {
        const auto same = std::find_if(lines.begin(), lines.end(), [&](const ChannelLine& o) {
            return o.class0 == line.class0 && o.class1 == line.class1;
        });
        if (same == lines.end())
            lines.push_back(line);
        else
            same->pipeline = std::max(same->pipeline, line.pipeline);
    };
    // Loaded channels in any order: the lines are distinct per crossing pair and sorted below.
    const auto before0 = cls0.min_hops_before();
    const auto after0 = cls0.max_hops_after();
    for (const std::int32_t id : cls0.loaded()) {
        const auto c = static_cast<std::size_t>(id);
        std::int32_t before = before0[c];
        std::int32_t after = after0[c];
        const std::int64_t crossings1 = cls1 == nullptr ? 0 : (*cls1)[id];
        if (crossings1 > 0) {
            before = std::min(before, cls1->min_hops_before()[c]);
            after = std::max(after, cls1->max_hops_after()[c]);
        }
        add({cls0[id], crossings1, std::int64_t{before} + after});
    }
    if (cls1 != nullptr) {
        const auto before1 = cls1->min_hops_before();
        const auto after1 = cls1->max_hops_after();
        for (const std::int32_t id : cls1->loaded()) {
            if (cls0[id] > 0) continue;  // counted above
            const auto c = static_cast<std::size_t>(id);
            add({0, (*cls1)[id], std::int64_t{before1[c]} + after1[c]});
        }
    }
    std::sort(lines.begin(), lines.end(), std::greater<>());
    std::vector<ChannelLine> kept;
    for (const ChannelLine& line : lines) {
        const bool beaten = std::any_of(kept.begin(), kept.end(), [&](const ChannelLine& o) {
            return o.class0 >= line.class0 && o.class1 >= line.class1 && o.pipeline >= line.pipeline;
        });
        if (!beaten) kept.push_back(line);
    }
    return kept;
}

}  // namespace

std::vector<SharingPhase> LayerSearch::phases_of(const std::vector<sim::SharingCycle>& cycles,
                                                 const std::array<std::int32_t, 2>& size) {
    const auto class_of = [&](std::size_t members) {
        return static_cast<std::int32_t>(members) == size[0] ? 0 : 1;
    };
    // Phase 1: every set moves for (smallest size - 1) steps; phase 2: the larger class
    // alone for the remaining steps. Each class's cycles are routed once: phase 2's loads
    // are phase 1's class-0 loads.
    const std::int32_t small = size[1] > 0 ? size[1] : size[0];
    const bool two_classes = size[1] > 0;
    for (std::int32_t cls = 0; cls < (two_classes ? 2 : 1); ++cls) {
        sim::ChannelLoads& loads = class_loads_[static_cast<std::size_t>(cls)];
        loads.reset(system_.mesh);
        for (const sim::SharingCycle& c : cycles) {
            if (class_of(c.order.size()) != cls) continue;
            for (std::size_t i = 0; i < c.order.size(); ++i)
                (void)loads.add_route(system_.mesh, c.order[i], c.order[(i + 1) % c.order.size()], 1);
        }
    }
    std::vector<SharingPhase> phases;
    for (std::int32_t phase = 0; phase < (two_classes ? 2 : 1); ++phase) {
        SharingPhase ph;
        ph.repeats = phase == 0 ? small - 1 : size[0] - small;
        if (ph.repeats <= 0) continue;
        ph.lines = dominant_lines(class_loads_[0], phase == 0 && two_classes ? &class_loads_[1] : nullptr);
        phases.push_back(std::move(ph));
    }
    return phases;
}

const EventGeometry& LayerSearch::event_geometry(const sim::LayerMapping& m, std::int32_t rows,
                                                 std::int32_t cols, SharingKind kind, std::int32_t shard) {
    // The inputs and partial-sum events do not depend on WR: one geometry per arrangement
    // serves every WR; the weight event's also depends on the group size.
    GeometryKey key;
    key.rows = rows;
    key.cols = cols;
    for (std::size_t d = 0; d < kPartDims; ++d) {
        key.ph[d] = m.parts[d].h;
        key.pw[d] = m.parts[d].w;
    }
    key.order = m.order;
    key.shards = kind == SharingKind::weights ? shard : 0;
    key.kind = kind;
    if (const auto it = geometry_.find(key); it != geometry_.end()) return *it->second;
    // The sets' key is built in reused buffers: most arrangements have a known geometry.
    event_sets_key(m, rows, cols, system_.mesh, kind, shard, sets_scratch_, sets_key_);
    if (const auto it = geometry_by_sets_.find(sets_key_); it != geometry_by_sets_.end())
        return *geometry_.emplace(key, &it->second).first->second;
    ++stats_.geometries;
    SetsKey by_sets = sets_key_;
    std::vector<std::vector<sim::NodeId>> sets = by_sets.sets();
    EventGeometry eg;
    if (!sets.empty()) {
        eg.present = true;
        std::vector<sim::SharingSet> event;
        event.reserve(sets.size());
        for (auto& members : sets) event.push_back(sim::SharingSet{std::move(members), Bytes(0)});
        const std::vector<sim::SharingCycle> cycles = scheduler_.schedule(system_.mesh, event);
        eg.size = size_classes(cycles);
        eg.phases = phases_of(cycles, eg.size);
    }
    const EventGeometry& stored = geometry_by_sets_.emplace(std::move(by_sets), std::move(eg)).first->second;
    return *geometry_.emplace(key, &stored).first->second;
}

PerSharingKind<std::int64_t> LayerSearch::largest_chunks(const workload::Layer& l,
                                                         const sim::LayerMapping& m) const {
    // sim::sharing_events' bytes of a set, maximised over the parts.
    const auto largest = [&](PartDim d) {
        return sim::split(sim::loop_bound(l, d), m.part(d).count(), 0).size();
    };
    const auto extent = [&](PartDim d) {
        std::int64_t most = 0;
        const std::int64_t len = sim::loop_bound(l, d);
        for (std::int32_t i = 0; i < m.part(d).count(); ++i) {
            const sim::Range r = sim::split(len, m.part(d).count(), i);
            const auto [lo, hi] = l.input_rows(r.begin, r.end, d == PartDim::q);
            most = std::max(most, hi - lo);
        }
        return most;
    };
    const std::int64_t b = largest(PartDim::b);
    const std::int64_t k = largest(PartDim::k);
    const std::int64_t c = largest(PartDim::c);
    PerSharingKind<std::int64_t> bytes;
    bytes[SharingKind::inputs] = system_.data_bytes(b * c * extent(PartDim::p) * extent(PartDim::q));
    bytes[SharingKind::weights] = system_.data_bytes(l.has_weights() ? k * c * l.R * l.S : k * c * b);
    bytes[SharingKind::partial_sums] = system_.psum_bytes(b * k * largest(PartDim::p) * largest(PartDim::q));
    return bytes;
}

double LayerSearch::sharing_lower_bound(const workload::Layer& l, const sim::LayerMapping& m) const {
    // Every member of a set ejects one chunk per step through its own port, N - 1 steps; the
    // set with the largest chunk bounds the event. Grouped and auxiliary layers: 0.
    if (exact_costing(l)) return 0;
    const PerSharingKind<std::int64_t> bytes = largest_chunks(l, m);
    const auto bound = [&](std::int64_t group_bytes, std::int64_t members) {
        const std::int64_t per_node = (group_bytes + members - 1) / members;
        return static_cast<double>(members - 1) *
               static_cast<double>(sim::flits_of(Bytes(per_node), system_.noc.flit_bits));
    };
    double total = 0;
    const std::int32_t n_k = m.part(PartDim::k).count();
    const std::int32_t n_c = m.part(PartDim::c).count();
    if (n_k > 1) total += bound(bytes[SharingKind::inputs], n_k);
    const std::int32_t n_node = sim::nodes_sharing_weights(m);
    const std::int32_t wr = l.has_weights() ? m.wr : 1;
    const std::int32_t shards = (n_node + wr - 1) / wr;
    // Sets of unequal size (shards not dividing N_node) run in phases: bounded by 0.
    if (n_node > 1 && wr < n_node && n_node % shards == 0)
        total += bound(bytes[SharingKind::weights], shards);
    if (n_c > 1) total += bound(bytes[SharingKind::partial_sums], n_c);
    return total;
}

double LayerSearch::sharing_latency(const workload::Layer& l, const sim::LayerMapping& m) {
    const auto [rows, cols] = m.shape();
    if (exact_costing(l)) {
        sim::LayerCost c;
        sim::add_sharing_cost(l, m, sim::Region{0, 0, rows, cols}, system_, scheduler_, loads_, c);
        return c.sharing.value();
    }
    const std::int32_t n_node = sim::nodes_sharing_weights(m);
    const bool weighted = l.has_weights();
    const bool gathers = weighted || (l.kind == workload::LayerKind::matmul && l.weights_are_activations);
    const std::int32_t wr = weighted ? m.wr : 1;
    PerSharingKind<bool> happens;
    happens[SharingKind::inputs] = m.part(PartDim::k).count() > 1;
    happens[SharingKind::weights] = gathers && n_node > 1 && wr < n_node;
    happens[SharingKind::partial_sums] = m.part(PartDim::c).count() > 1;
    const PerSharingKind<std::int64_t> bytes = largest_chunks(l, m);
    const double hop = system_.noc.hop_cycles;
    double total = 0;
    for (SharingKind kind : kSharingKinds) {
        if (!happens[kind]) continue;
        const EventGeometry& g = event_geometry(m, rows, cols, kind, (n_node + wr - 1) / wr);
        if (!g.present) continue;
        std::array<double, 2> flits{};
        for (std::size_t cls = 0; cls < 2; ++cls) {
            const std::int64_t members = g.size[cls];
            if (members == 0) continue;
            flits[cls] = static_cast<double>(
                sim::flits_of(Bytes((bytes[kind] + members - 1) / members), system_.noc.flit_bits));
        }
        for (const SharingPhase& ph : g.phases) {
            double step = 0;
            for (const ChannelLine& line : ph.lines)
                step = std::max(step, flits[0] * static_cast<double>(line.class0) +
                                          flits[1] * static_cast<double>(line.class1) +
                                          static_cast<double>(line.pipeline) * hop);
            total += step * ph.repeats;
        }
    }
    return total;
}

}  // namespace pimdse::mapper
