#pragma once
// What the Bayesian proposers fit (docs/tuner.md, "Training"): log-cost targets with failures
// imputed, and the bounded subset of observations one fit uses.

#include <cstddef>
#include <span>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/proposer.hpp"

namespace pimdse::tuner {

/// log(cost) of every observation; a failed or infeasible one (or one with a non-finite or
/// non-positive cost) gets the worst observed log cost plus failure_margin times the spread of
/// the observed log costs (1 when there is no spread): never dropped, always worse than anything seen.
[[nodiscard]] std::vector<double> log_cost_targets(std::span<const Observation> history,
                                                   double failure_margin);

/// The indices (ascending) of at most fit_max targets: the fit_best lowest (ties by index),
/// then a uniform draw without replacement from the others.
[[nodiscard]] std::vector<std::size_t> fit_subset(const std::vector<double>& targets, int fit_max,
                                                  int fit_best, Rng& rng);

/// The training schedule (docs/tuner.md, "Scale: retraining"): the points s_0 = first,
/// s_{j+1} = max(s_j + 1, floor(s_j * growth)); returns the largest s_j <= n (n when n < first).
/// With growth 1 every n is a point: the model is retrained for every batch.
[[nodiscard]] std::size_t training_prefix(std::size_t n, std::size_t first, double growth);

}  // namespace pimdse::tuner
