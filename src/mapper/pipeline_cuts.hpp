#pragma once
// Where the DDAM pipeline cuts a network (src/mapper/pipeline_cuts.cpp; docs/mapper.md, "The
// DDAM pipeline"): from each segment's estimated cycles on a band of every width, the parts
// (contiguous segments, each on its own band) that minimise the slowest part, and among the
// cuts that reach it, the least sum of parts (one sample through the pipeline). The pipeline
// (pipeline.cpp) lays the chosen parts on the array and costs them.

#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace pimdse::mapper::detail {

/// estimate[s][w]: segment s's estimated cycles on a band w units wide (w = 1..units; index
/// 0 unused); infinity where the segment does not fit such a band.
using BandEstimates = std::vector<std::vector<double>>;

/// The parts of the pipeline: (first segment, band width) in order, the slowest part's
/// estimated cycles and the parts' estimated sum; no parts when no cut fits.
struct Cuts {
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    double interval = std::numeric_limits<double>::infinity();
    double sum = std::numeric_limits<double>::infinity();
};

/// DDAM's load balance over at most `units` units of the array (unused units allowed), then
/// the least sum among the cuts with that slowest part; ties go to the first cut found and
/// then to the fewest units.
[[nodiscard]] Cuts balance(const BandEstimates& estimate, std::size_t units);

}  // namespace pimdse::mapper::detail
