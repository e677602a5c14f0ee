#pragma once
// Mapping selection (NicePIM VI-B, Algorithm 2): a multiple-choice knapsack over the node's
// DRAM. Every segment picks one SM candidate, every layer one (LM, WR) option of the region
// its branch runs on; a region's latency is the sum of its layers', a segment's the maximum
// over its regions (they run in parallel), the network's the sum over segments. Capacity is
// counted per node in integer units: a segment's regions lie on different nodes, so a
// segment needs the largest of its regions' footprints, and segments add up.

#include <cstdint>
#include <vector>

namespace pimdse::mapper {

/// The options of one layer: latency (cycles) and footprint (capacity units) per option.
struct LayerChoices {
    std::vector<double> latency;
    std::vector<std::int64_t> units;
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
    double latency = 0;            ///< the objective: sum over segments of max over regions of sums
    std::vector<std::int32_t> sm;  ///< per segment: the chosen SM candidate
    /// per segment, per region of the chosen SM, per layer: the chosen option
    std::vector<std::vector<std::vector<std::int32_t>>> option;
    std::int64_t units = 0;  ///< capacity used
};

/// The latency-optimal choice under `capacity` units per node; infeasible when even the
/// smallest footprints do not fit. Ties go to the lower index. O(layers x options x C +
/// segments x C^2) time with C = capacity + 1 (segments without footprint cost O(C)).
[[nodiscard]] Selection select_mappings(const std::vector<SegmentChoices>& segments, std::int64_t capacity);

}  // namespace pimdse::mapper
