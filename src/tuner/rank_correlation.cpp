// Kendall's rank correlation (include/pimdse/tuner/rank_correlation.hpp).

#include "pimdse/tuner/rank_correlation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

PredictionQuality prediction_quality(std::span<const double> predicted, std::span<const double> cost,
                                     bool predicted_is_cost) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    PredictionQuality q{nan, nan};
    if (predicted.empty()) return q;
    if (predicted.size() != cost.size()) {
        throw ModelError("prediction_quality: " + std::to_string(predicted.size()) + " predictions for " +
                         std::to_string(cost.size()) + " candidates");
    }
    std::vector<double> truth, guess, relative;
    for (std::size_t i = 0; i < cost.size(); ++i) {
        if (!std::isfinite(cost[i]) || std::isnan(predicted[i])) continue;
        truth.push_back(cost[i]);
        guess.push_back(predicted[i]);
        if (cost[i] != 0) relative.push_back(std::abs(predicted[i] - cost[i]) / std::abs(cost[i]));
    }
    if (truth.size() < 2) return q;
    q.tau = kendall_tau(truth, guess);
    if (predicted_is_cost && !relative.empty()) {
        // The median: the mean of the middle two of an even count.
        std::sort(relative.begin(), relative.end());
        const std::size_t n = relative.size();
        q.error = n % 2 ? relative[n / 2] : (relative[n / 2 - 1] + relative[n / 2]) / 2;
    }
    return q;
}

}  // namespace pimdse::tuner
