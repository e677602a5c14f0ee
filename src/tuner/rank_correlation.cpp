// Kendall's rank correlation (include/pimdse/tuner/rank_correlation.hpp).

#include "pimdse/tuner/rank_correlation.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::tuner {

namespace {

// The sign of a - b by comparison: two equal infinities are a tie.
int order(double a, double b) {
    return (a > b) - (a < b);
}

}  // namespace

double kendall_tau(std::span<const double> truth, std::span<const double> predicted) {
    if (truth.size() != predicted.size() || truth.size() < 2) {
        throw ModelError("kendall_tau: need two sequences of one length of at least 2, got " +
                         std::to_string(truth.size()) + " and " + std::to_string(predicted.size()) +
                         " values");
    }
    for (std::size_t i = 0; i < truth.size(); ++i) {
        if (std::isnan(truth[i]) || std::isnan(predicted[i])) throw ModelError("kendall_tau: a NaN value");
    }
    // O(M^2): predictors are judged on thousands of points at most, where this takes
    // milliseconds and is Eq. 6 as written.
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        for (std::size_t j = i + 1; j < truth.size(); ++j) {
            sum += order(truth[i], truth[j]) * order(predicted[i], predicted[j]);
        }
    }
    const double m = static_cast<double>(truth.size());
    return static_cast<double>(sum) / (m * (m - 1) / 2);
}

}  // namespace pimdse::tuner
