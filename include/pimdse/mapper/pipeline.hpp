#pragma once
// The DDAM-style pipelined mapping, NicePIM's second baseline (VIII-D, Fig. 11): the network
// is cut at segment boundaries into parts, each part runs on its own band of the node array,
// and samples stream through the parts one after another, so throughput is set by the
// slowest part. A dynamic programme over (segments, bands) picks the cuts and band widths
// that minimise the slowest part's estimated latency (load balance), and among the cuts that
// reach it a second one the least time of one sample through all parts. As in DDAM, branches
// run one after another on their part's band, every tensor has one layout (the first of
// MapperOptions::layouts) and each layer's LM is the baseline's (fewest compute cycles,
// blind to sharing). docs/mapper.md, "The DDAM pipeline".

#include <cstdint>
#include <vector>

#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/timeline.hpp"

namespace pimdse::mapper {

/// One part of the pipeline: segments [first, end) on one band of the array.
struct PipelineStage {
    std::int32_t first_segment = 0;
    std::int32_t end_segment = 0;
    sim::Region band;   ///< the band the part owns (its layers may use a corner of it)
    double cycles = 0;  ///< one sample through the part (the timeline's segment latencies)
};

struct PipelineResult {
    sim::NetworkMapping mapping;  ///< every segment on (a corner of) its part's band
    sim::NetworkCost cost;        ///< one sample through every part, one after another
    std::vector<PipelineStage> stages;
    std::int64_t batch = 1;  ///< samples streamed through the pipeline
    /// The dynamic programme's objective: the slowest part by the per-layer estimates (the
    /// baseline LM's compute + sharing), before the timeline costs the chosen cuts.
    double estimated_interval = 0;
    /// The second objective, among the cuts with that slowest part: the parts' estimates
    /// summed (one sample through the pipeline).
    double estimated_sample = 0;
    double interval_cycles = 0;  ///< the slowest part: a new sample leaves every interval
    double batch_cycles = 0;     ///< first sample in to last out: sum of parts + (batch - 1) x interval
    double batch_seconds = 0;
    /// Energy of the whole batch: batch x one sample's energy without the DRAM background,
    /// plus the background over batch_cycles.
    sim::EnergyBreakdown batch_energy;
    [[nodiscard]] double throughput() const noexcept {  ///< samples per second
        return batch_seconds > 0 ? static_cast<double>(batch) / batch_seconds : 0.0;
    }
};

}  // namespace pimdse::mapper
