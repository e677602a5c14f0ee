#pragma once
// The greedy step of OverlaPIM III-E after the PIM-Mapper's selection: walking the layers in
// execution order, each layer takes, among its candidate mappings, the one whose overlapped
// finish is earliest given the choices already made for the layers before it. It owns the
// walk only; the overlapped composition is sim::OverlapComposer's, and whether the walk's
// mapping is kept (only when the whole network's overlapped cost improves) is Mapper::map's.
// docs/mapper.md, "Ranking with overlap".

#include <vector>

#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper {

/// What the walk costs with: the network, the hardware, the node model and the scheduler of
/// the data-sharing events, and whether each node's steps may be transformed (OverlaPIM III-D).
struct GreedyContext {
    const workload::Network& network;
    const workload::Segmentation& seg;
    const sim::System& system;
    sim::IntraNodeMapper& intra;
    sim::SharingScheduler& scheduler;
    bool transform = false;
    /// Redistributions already gathered for this network (or null).
    sim::RedistributionMemo* memo = nullptr;
};

/// The walk's result: the mapping and how many layers changed their LM or WR.
struct GreedyResult {
    sim::NetworkMapping mapping;
    std::int32_t changed = 0;
};

/// `start` with each layer's LM and WR chosen greedily among `candidates[layer]` (its
/// layouts kept; `start`'s own choice is always a candidate and wins ties). A candidate that
/// would overflow a node's DRAM, or that the cost model finds infeasible, is skipped.
/// Deterministic: the candidates are tried in the order given. `start_cost`, if given, is
/// evaluate_mapping's cost of `start` under ctx's node model and scheduler: a layer still
/// mapped as in `start` whose producers are too then takes its layer cost from there instead
/// of costing it again (the same numbers, since a layer's cost depends only on those).
[[nodiscard]] GreedyResult overlap_greedy(const GreedyContext& ctx, const sim::NetworkMapping& start,
                                          const std::vector<std::vector<sim::LayerMapping>>& candidates,
                                          const sim::NetworkCost* start_cost = nullptr);

}  // namespace pimdse::mapper
