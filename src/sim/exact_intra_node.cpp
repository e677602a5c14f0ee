// The exact intra-node optimum by enumeration (include/pimdse/sim/exact_intra_node.hpp).

#include "pimdse/sim/exact_intra_node.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "pimdse/sim/dram.hpp"

namespace pimdse::sim {

std::vector<std::int64_t> exact_tile_candidates(std::int64_t extent, std::int64_t unit) {
    std::vector<std::int64_t> v;
    for (std::int64_t d = 1; d * d <= extent; ++d) {
        if (extent % d != 0) continue;
        v.push_back(d);
        v.push_back(extent / d);
    }
    for (std::int64_t t = 1; t < extent; t *= 2) v.push_back(t);
    for (std::int64_t t = unit; t < extent; t *= 2) v.push_back(t);
    v.push_back(extent);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

std::vector<SpatialUnroll> exact_unrolls() {
    std::vector<SpatialUnroll> u;
    for (std::size_t r = 0; r < kFastLoopDims; ++r)
        for (std::size_t c = 0; c < kFastLoopDims; ++c)
            if (r != c) u.push_back({static_cast<LoopDim>(r), static_cast<LoopDim>(c)});
    return u;
}

double node_objective(const IntraNodeCost& cost, const PartLayer& layer, const IntraNodeEnergyCoefficients& k,
                      NodeObjective objective) noexcept {
    const double cycles = cost.total_cycles.value();
    if (objective == NodeObjective::latency) return cycles;
    const double energy = intra_node_energy(cost, layer.macs(), k).value();
    return objective == NodeObjective::energy ? energy : energy * cycles;
}

bool exact_better(const IntraNodeCost& a, const IntraNodeCost& b, const PartLayer& layer,
                  const IntraNodeEnergyCoefficients& k, NodeObjective objective) noexcept {
    const double oa = node_objective(a, layer, k, objective);
    const double ob = node_objective(b, layer, k, objective);
    if (oa != ob) return oa < ob;
    const NodeObjective tie =
        objective == NodeObjective::latency ? NodeObjective::energy : NodeObjective::latency;
    return node_objective(a, layer, k, tie) < node_objective(b, layer, k, tie);
}

namespace {

std::int64_t unit_of(const SpatialUnroll& u, LoopDim d, const NodeSpec& node) {
    if (u.row == d) return node.pe_rows;
    if (u.col == d) return node.pe_cols;
    return 1;
}

// One search's state: the incumbent, the work counts and the tile sums its tilings share.
struct ExactState {
    const PartLayer& layer;
    const NodeSpec& node;
    DataLayout in;
    DataLayout out;
    const IntraNodeEnergyCoefficients& k;
    const ExactNodeOptions& options;
    ExactOrders orders;
    TileSumsStore store;
    TileSumsCache cache;
    ExactNodeResult result;
    bool found = false;
};

// The orders that cost `t` differently, each the first of all_loop_orders() with its
// sequence of the loops that have more than one tile: the others repeat its traffic (a loop
// of one tile changes no tensor and no visit count), so they could not win the tie-break.
// The first order with a given sequence is the merge that takes, at each place, the lower of
// the sequence's next loop and the lowest loop of one tile left; those firsts are listed in
// all_loop_orders()'s (lexicographic) order.
std::vector<LoopOrder> distinct_orders(const PartLayer& layer, const Tiling& t) {
    std::vector<LoopDim> multi, single;
    for (std::size_t i = 0; i < kLoopDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        (extent(layer, d) > t[d] ? multi : single).push_back(d);
    }
    std::vector<LoopOrder> orders;
    do {
        LoopOrder o;
        std::size_t m = 0, u = 0;
        for (LoopDim& d : o.loops)
            d = u == single.size() || (m < multi.size() && multi[m] < single[u]) ? multi[m++] : single[u++];
        orders.push_back(o);
    } while (std::next_permutation(multi.begin(), multi.end()));
    std::sort(orders.begin(), orders.end(),
              [](const LoopOrder& a, const LoopOrder& b) { return a.loops < b.loops; });
    return orders;
}

// Costs one fitting tiling under every order; false once the work limit is spent.
bool cost_tiling(ExactState& s, const Tiling& t) {
    ExactNodeResult& r = s.result;
    // The total is at least the compute and latency ranks first: a tiling whose compute
    // exceeds the incumbent's total cannot win.
    if (s.found && s.options.objective == NodeObjective::latency &&
        static_cast<double>(tiling_compute_cycles(s.layer, s.node, t)) > r.cost.total_cycles.value()) {
        ++r.tilings_pruned;
        return true;
    }
    if (r.tilings_costed >= s.options.work_limit) {
        r.status = ExactStatus::work_limit;
        return false;
    }
    ++r.tilings_costed;
    // Entries are searched linearly: keep them to this tiling, the store holds the rest.
    for (auto& e : s.cache.entries) e.clear();
    const auto costs = [&] {
        if (s.orders == ExactOrders::fast) {
            const auto four = evaluate_tiling_all_orders(s.layer, s.node, t, s.in, s.out, &s.cache);
            return std::vector<IntraNodeCost>(four.begin(), four.end());
        }
        return evaluate_tiling_orders(s.layer, s.node, t, s.in, s.out, distinct_orders(s.layer, t), &s.cache);
    }();
    for (const IntraNodeCost& c : costs) {
        if (!s.found || exact_better(c, r.cost, s.layer, s.k, s.options.objective)) {
            r.cost = c;
            s.found = true;
        }
    }
    return true;
}

using Candidates = std::array<std::vector<std::int64_t>, kLoopDims>;

// Every fitting tiling of unrolling `u` in odometer order (dim B fastest); false once the
// work limit is spent.
bool search_unroll(ExactState& s, const SpatialUnroll& u, const Candidates& cand) {
    std::array<std::size_t, kLoopDims> idx{};
    Tiling t;
    t.unroll = u;
    while (true) {
        for (std::size_t i = 0; i < kLoopDims; ++i) t.tile[i] = cand[i][idx[i]];
        if (fits(footprint(s.layer, t), s.node)) {
            if (!cost_tiling(s, t)) return false;
        } else {
            // Footprints grow with every tile: with dims below z at their first candidate,
            // every tiling up to dim z's roll-over misfits too.
            std::size_t z = 0;
            while (z < kLoopDims && idx[z] == 0) ++z;
            for (std::size_t i = 0; i <= z && i < kLoopDims; ++i) idx[i] = cand[i].size() - 1;
        }
        std::size_t i = 0;
        for (; i < kLoopDims; ++i) {
            if (++idx[i] < cand[i].size()) break;
            idx[i] = 0;
        }
        if (i == kLoopDims) return true;
    }
}

}  // namespace

ExactNodeResult exact_search(const PartLayer& layer, const NodeSpec& node, DataLayout in, DataLayout out,
                             const IntraNodeEnergyCoefficients& k, const ExactNodeOptions& options,
                             ExactOrders orders) {
    ExactState s{layer, node, in, out, k, options, orders, {}, {}, {}, false};
    s.cache.store = &s.store;
    // The fast search's choice is the first incumbent: a stopped search is never worse.
    const IntraNodeCost fast = AnalyticIntraNodeMapper::search(layer, node, in, out, nullptr, &k);
    if (fast.status == MapStatus::ok) {
        s.result.cost = fast;
        s.found = true;
    }
    Candidates cand;
    for (const SpatialUnroll& u : exact_unrolls()) {
        for (std::size_t i = 0; i < kLoopDims; ++i) {
            const auto d = static_cast<LoopDim>(i);
            // R and S stay whole until the DRAM model costs kernel tiles.
            cand[i] = i < kFastLoopDims ? exact_tile_candidates(extent(layer, d), unit_of(u, d, node))
                                        : std::vector<std::int64_t>{extent(layer, d)};
        }
        if (!search_unroll(s, u, cand)) break;
    }
    if (!s.found) {
        s.result.cost = IntraNodeCost{};
        s.result.cost.status = MapStatus::infeasible;
        s.result.cost.reason = "no tiling fits the buffers, even with tiles of one element";
        return s.result;
    }
    s.result.objective = node_objective(s.result.cost, layer, k, options.objective);
    return s.result;
}

IntraNodeCost ExactIntraNodeMapper::map(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                        DataLayout out) {
    NodeSearchKey key{layer, node, in, out};
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    const ExactNodeResult r = exact_search(layer, node, in, out, energy_, options_);
    if (r.status == ExactStatus::work_limit) ++unproven_;
    memo_.emplace(std::move(key), r.cost);
    return r.cost;
}

}  // namespace pimdse::sim
