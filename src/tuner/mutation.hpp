#pragma once
// Local moves in the design space, shared by annealing, evolution and the Bayesian proposers'
// local candidates. Private to src/tuner/.

#include <array>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/encoding.hpp"

namespace pimdse::tuner {

using ParamWeights = std::array<double, kMaxDesignParams>;  // the first dimensions() are used

/// A copy of `from` with one or more parameters moved: the first parameter always, each further
/// one with probability 1/2, chosen without replacement with probability proportional to
/// `weights` (uniform if all are zero); a chosen coordinate takes a Gaussian step of sd `step`
/// in the encoding and at least one index step, clamped to its range. Parameters with one value
/// never move. The result need not be legal.
[[nodiscard]] DesignPoint mutate(const Encoding& encoding, const DesignPoint& from, Rng& rng, double step,
                                 const ParamWeights& weights);

/// Up to `count` distinct legal points outside `exclude`, the i-th a mutant of
/// parents[i % parents.size()], with at most `attempts` tries per point; the points found are
/// added to `exclude`.
[[nodiscard]] std::vector<DesignPoint> mutants(const LegalSampler& sampler, const Encoding& encoding,
                                               const std::vector<DesignPoint>& parents, int count, Rng& rng,
                                               double step, const ParamWeights& weights, PointSet& exclude,
                                               int attempts = 64);

}  // namespace pimdse::tuner
