#pragma once
// The event-driven reference of the overlapped timeline (docs/model.md, "Overlapped
// layers"): it plays every node's tile loops iteration by iteration, stamps every output
// element with the finish of the step that wrote it, and finds each step's ready time as
// the latest stamp among the input elements its outputs read, element by element. It
// shares with sim::OverlapTimeline only the layers' costs and the model's rules (barriers,
// the input pipe, the compute shares), none of its interval arithmetic.

#include <vector>

#include "pimdse/sim/timeline.hpp"

namespace pimdse::sim::reference {

struct OverlapRun {
    double latency = 0;
    std::vector<double> start;   ///< per layer, in network order
    std::vector<double> finish;  ///< per layer
};

/// The overlapped timeline of `mapping` on `system`, given the layers' sequential costs
/// (`cost`, from evaluate_mapping with any timeline); with `transform`, each streamed layer
/// also in the transformed order of its steps (docs/model.md, "The overlap-friendly
/// transformation"), as OverlapTimeline(true) chooses.
[[nodiscard]] OverlapRun overlap_reference(const workload::Network& network,
                                           const workload::Segmentation& seg, const NetworkMapping& mapping,
                                           const System& system, const NetworkCost& cost,
                                           bool transform = false);

/// One play of every layer, transformed or not (no choice between the two at the end).
[[nodiscard]] OverlapRun play_all(const workload::Network& network, const workload::Segmentation& seg,
                                  const NetworkMapping& mapping, const System& system,
                                  const NetworkCost& cost, bool transform);

}  // namespace pimdse::sim::reference
