#include "pimdse/engine/dispatch.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pimdse::engine {
namespace {

EvalTimeModel::Vector features(const hw::HardwareParams& p) {
    EvalTimeModel::Vector x;
    x(0) = 1.0;
    for (std::size_t i = 0; i < hw::kParamCount; ++i) {
        x(static_cast<int>(i) + 1) = std::log2(static_cast<double>(std::max(1, p.get(hw::kAllParams[i]))));
    }
    return x;
}

}  // namespace

EvalTimeModel::Vector EvalTimeModel::prior() {
    // Fitted to the default sweep's first evaluations (see prior() in dispatch.hpp). More nodes:
    // more partitions, regions and sharing events to search; larger PE arrays:
    // fewer compute-bound tilings survive the pruning; buffers matter little.
    Vector c;
    c << 1.2, 0.4, 0.4, -0.15, -0.15, -0.05, -0.05, -0.05;
    return c;
}

EvalTimeModel::EvalTimeModel() : coefficients_(prior()) {
    // The slopes lean on the prior; the intercept (the machine's speed, which only scales
    // every prediction) barely: the first evaluations set it.
    Vector weight = Vector::Constant(kPriorWeight);
    weight(0) = 1e-6;
    gram_ = weight.asDiagonal();
    moment_ = weight.cwiseProduct(prior());
}

void EvalTimeModel::observe(const hw::HardwareParams& p, double seconds) {
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

double EvalTimeModel::predict(const hw::HardwareParams& p) const {
    return std::exp(coefficients().dot(features(p)));
}

std::vector<std::size_t> slowest_first(std::span<const hw::HardwareParams> points,
                                       const EvalTimeModel& model) {
    std::vector<double> predicted(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) predicted[i] = model.predict(points[i]);
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return predicted[a] > predicted[b]; });
    return order;
}

}  // namespace pimdse::engine
