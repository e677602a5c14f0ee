// The slowest-first dispatch order (include/pimdse/engine/dispatch.hpp).

#include "pimdse/engine/dispatch.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace pimdse::engine {
EvalTimeModel::Vector EvalTimeModel::features(const DesignPoint& p) const {
    Vector x(prior_.size());
    x(0) = 1.0;
    for (Eigen::Index i = 1; i < x.size(); ++i) {
        x(i) = std::log2(static_cast<double>(std::max(1, p[static_cast<std::size_t>(i - 1)])));
    }
    return x;
}

EvalTimeModel::EvalTimeModel(Vector prior) : prior_(std::move(prior)), coefficients_(prior_) {
    // The slopes lean on the prior; the intercept (the machine's speed, which only scales
    // every prediction) barely: the first evaluations set it.
    Vector weight = Vector::Constant(prior_.size(), kPriorWeight);
    if (weight.size() > 0) weight(0) = 1e-6;
    gram_ = weight.asDiagonal();
    moment_ = weight.cwiseProduct(prior_);
}

void EvalTimeModel::observe(const DesignPoint& p, double seconds) {
    if (!(seconds > 0) || !std::isfinite(seconds)) return;
    const Vector x = features(p);
    gram_.noalias() += x * x.transpose();
    moment_ += x * std::log(seconds);
    ++observations_;
    stale_ = true;
}

const EvalTimeModel::Vector& EvalTimeModel::coefficients() const {
    if (stale_) {
        // (sum x x^T + w I) c = sum x ln t + w prior: ridge regression toward the prior.
        coefficients_ = gram_.ldlt().solve(moment_);
        stale_ = false;
    }
    return coefficients_;
}

double EvalTimeModel::predict(const DesignPoint& p) const {
    return std::exp(coefficients().dot(features(p)));
}

std::vector<std::size_t> slowest_first(std::span<const DesignPoint> points, const EvalTimeModel& model) {
    std::vector<double> predicted(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) predicted[i] = model.predict(points[i]);
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return predicted[a] > predicted[b]; });
    return order;
}

}  // namespace pimdse::engine
