// NicePIM Eq. 1 (include/pimdse/eval/cost.hpp).

#include "pimdse/eval/cost.hpp"

#include <cmath>
#include <limits>

#include "pimdse/core/error.hpp"

namespace pimdse::eval {

double cost_eq1(std::span<const sim::NetworkCost> costs, std::span<const double> gammas, double alpha,
                double beta) {
    if (costs.size() != gammas.size()) throw ModelError("cost_eq1: one gamma per network");
    if (!(alpha >= 0) || !(beta >= 0)) throw ModelError("cost_eq1: alpha and beta must be >= 0");
    double sum = 0;
    for (std::size_t i = 0; i < costs.size(); ++i) {
        if (!(gammas[i] > 0)) throw ModelError("cost_eq1: every gamma must be > 0");
        if (costs[i].status != sim::EvalStatus::ok) return std::numeric_limits<double>::infinity();
        const double joules = costs[i].energy.total().value() * 1e-12;
        sum += std::pow(joules, alpha) * std::pow(costs[i].seconds, beta) * gammas[i];  // NicePIM Eq. 1
    }
    return sum;
}

}  // namespace pimdse::eval
