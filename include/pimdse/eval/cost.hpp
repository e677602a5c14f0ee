#pragma once
// NicePIM Eq. 1, the one cost a sweep minimises: the networks' energies and latencies, each
// from the timeline (sim/timeline.hpp), weighed into one number. Every place that computes
// Eq. 1 (an evaluation's cost and its per-network terms, the synthetic evaluator) calls
// cost_eq1.

#include <span>

#include "pimdse/sim/timeline.hpp"

namespace pimdse::eval {

/// NicePIM Eq. 1: sum over networks of energy^alpha x latency^beta x gamma, with energy in
/// joules and latency in seconds. Any infeasible network makes the cost +infinity. Throws
/// ModelError unless costs and gammas have the same size, alpha, beta >= 0 and
/// every gamma > 0.
[[nodiscard]] double cost_eq1(std::span<const sim::NetworkCost> costs, std::span<const double> gammas,
                              double alpha, double beta);

}  // namespace pimdse::eval
