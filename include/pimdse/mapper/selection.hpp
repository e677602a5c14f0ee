#pragma once
// Mapping selection (NicePIM VI-B, Algorithm 2): a multiple-choice knapsack over the node's
// DRAM. Every segment picks one SM candidate, every layer one (LM, WR) option of the region
// its branch runs on. Each region's table adds the latencies of its layers' options; a
// segment's latency for the options chosen is the timeline's (sim/timeline.hpp: the
// sequential one takes the slowest region), the network's the sum over segments. Capacity
// is counted per node in integer units: a segment's regions lie on different nodes, so a
// segment needs the largest of its regions' footprints, and segments add up.

#include <cstdint>
#include <vector>

#include "pimdse/sim/timeline.hpp"

namespace pimdse::mapper {

/// The options of one layer: latency (cycles) and footprint (capacity units) per option.
struct LayerChoices {
    std::vector<double> latency;
    std::vector<std::int64_t> units;
    /// The layers of the same SM whose outputs it reads, as positions in the SM's layers
    /// taken region by region (the order the timeline is given them).
    std::vector<std::int32_t> producers;
};

/// One SM candidate: per region, the layers that run on it, in execution order.
struct SmChoices {
    std::vector<std::vector<LayerChoices>> regions;
};

struct SegmentChoices {
    std::vector<SmChoices> sms;
};

struct Selection {
    bool feasible = false;
    double latency = 0;            ///< the objective: sum over segments of the timeline's latency
    std::vector<std::int32_t> sm;  ///< per segment: the chosen SM candidate
    /// per segment, per region of the chosen SM, per layer: the chosen option
    std::vector<std::vector<std::vector<std::int32_t>>> option;
    std::int64_t units = 0;  ///< capacity used
};

/// The latency-optimal choice under `capacity` units per node; infeasible when even the
/// smallest footprints do not fit. Each region's table minimises the sum of its layers'
/// latencies; `timeline` gives the segment's latency of the options so chosen, per SM and
/// capacity. Ties go to the lower index. O(layers x options x C + segments x C^2) time with
/// C = capacity + 1 (segments without footprint cost O(C)), plus one timeline call per SM
/// and capacity.
[[nodiscard]] Selection select_mappings(const std::vector<SegmentChoices>& segments, std::int64_t capacity,
                                        const sim::Timeline& timeline = sim::sequential_timeline());

}  // namespace pimdse::mapper
