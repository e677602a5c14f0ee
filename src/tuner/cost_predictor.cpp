// The predictor filter's cost model and its choice of points (include/pimdse/tuner/filter.hpp).

#include <algorithm>
#include <cmath>
#include <numeric>

#include "pimdse/tuner/filter.hpp"
#include "pimdse/tuner/targets.hpp"
#include "surrogate.hpp"

namespace pimdse::tuner {

namespace {

// Streams of the filter's own fits, apart from every proposer's.
constexpr std::uint64_t kFilterTreesStream = 0x46494C54;  // "FILT"
constexpr std::uint64_t kFilterGpStream = 0x46494C47;     // "FILG"

}  // namespace

std::vector<std::size_t> best_predicted(std::span<const double> predicted, int count) {
    std::vector<std::size_t> order(predicted.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto before = [&](std::size_t a, std::size_t b) {
        const double x = predicted[a], y = predicted[b];
        if (std::isnan(x) != std::isnan(y)) return std::isnan(y);
        if (!std::isnan(x) && x != y) return x < y;
        return a < b;
    };
    const std::size_t keep = std::min(order.size(), static_cast<std::size_t>(std::max(count, 0)));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(), before);
    order.resize(keep);
    return order;
}

CostPredictor::CostPredictor(FilterPredictor kind, const DesignSpace& space, const ProposerOptions& options,
                             std::uint64_t seed)
    : kind_(kind), encoding_(space), options_(options), seed_(seed) {}

bool CostPredictor::fit(std::span<const Observation> history) {
    std::vector<const Observation*> ok;
    for (const Observation& o : history)
        if (o.outcome == Outcome::ok && std::isfinite(o.cost) && o.cost > 0) ok.push_back(&o);
    if (kind_ == FilterPredictor::none || ok.size() < 2) return false;
    if (ok.size() == fitted_) return true;
    std::vector<double> targets;
    for (const Observation* o : ok) targets.push_back(std::log(o->cost));
    // The GP conditions on at most fit_max of them (its cost is cubic); the trees take every one.
    std::vector<std::size_t> rows(ok.size());
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    if (kind_ == FilterPredictor::gp) {
        Rng subset = Rng(seed_, kFilterGpStream).split(ok.size());
        rows = fit_subset(targets, options_.fit_max, options_.fit_best, subset);
    }
    Matrix x;
    encode_rows(
        encoding_, rows.size(), [&](std::size_t i) { return ok[rows[i]]->params; }, x);
    Vector y(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) y(static_cast<Eigen::Index>(i)) = targets[rows[i]];
    mean_ = y.mean();
    const double sd = std::sqrt((y.array() - mean_).square().mean());
    scale_ = sd > 0 ? sd : 1.0;
    y = (y.array() - mean_) / scale_;
    const Rng rng = Rng(seed_, kind_ == FilterPredictor::gp ? kFilterGpStream : kFilterTreesStream)
                        .split(static_cast<std::uint64_t>(ok.size()) << 1U | 1U);
    if (kind_ == FilterPredictor::gp) {
        ModelOptions m;
        m.kernel = options_.kernel;
        m.steps = options_.gp_steps;
        m.kernel_learning_rate = options_.gp_learning_rate;
        Rng init = rng;
        gp_ = std::make_unique<DeepKernelGp>(static_cast<int>(encoding_.features().size()), m, init);
        (void)gp_->fit(x, y);
    } else {
        BoosterOptions b;
        b.trees = options_.xgb_trees;
        b.depth = options_.xgb_depth;
        b.eta = options_.xgb_eta;
        Rng boot = rng;
        trees_.emplace(x, y, b, options_.xgb_ensemble, boot);
    }
    fitted_ = ok.size();
    return true;
}

std::vector<double> CostPredictor::predict(std::span<const DesignPoint> points) const {
    Matrix x;
    encode_rows(
        encoding_, points.size(), [&](std::size_t i) { return points[i]; }, x);
    Vector mean, spread;
    if (kind_ == FilterPredictor::gp)
        gp_->predict(x, mean, spread);
    else
        trees_->predict(x, mean, spread);
    std::vector<double> cost(points.size());
    for (std::size_t i = 0; i < cost.size(); ++i)
        cost[i] = std::exp(mean(static_cast<Eigen::Index>(i)) * scale_ + mean_);
    return cost;
}

}  // namespace pimdse::tuner
