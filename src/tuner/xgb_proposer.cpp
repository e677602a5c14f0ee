// "xgboost": the model-based proposer with boosted trees as its suggestion model (NicePIM
// VIII-C, Fig. 9's XGBoost baseline): an ensemble of XGBoost boosters on bootstrap resamples
// of every observation gives a mean and a spread, scored by the Bayesian proposers'
// acquisition; the batch is filled by exclusion on the design grid (docs/tuner.md, "xgboost").

#include <cmath>
#include <memory>
#include <optional>

#include "history.hpp"
#include "pimdse/tuner/boosted_trees.hpp"
#include "surrogate.hpp"

namespace pimdse::tuner {

namespace {

constexpr std::uint64_t kBootstrapStream = 0x424F4F54;  // "BOOT"

class XgbSurrogate final : public Surrogate {
public:
    void fit(const FitInput& in) override {
        // The history only grows: a fit of as many observations with the same targets is a
        // fit of the same data.
        const std::vector<double> targets(in.targets.begin(), in.targets.end());
        if (model_ && fitted_ == in.history.size() && targets == targets_) return;
        const auto n = std::ssize(in.history);
        Matrix x;
        encode_rows(
            in.encoding, in.history.size(), [&](std::size_t i) { return in.history[i].params; }, x);
        Vector y(n);
        for (Eigen::Index i = 0; i < n; ++i) y(i) = targets[static_cast<std::size_t>(i)];
        const double mean = y.mean();
        const double sd = std::sqrt((y.array() - mean).square().mean());
        y = (y.array() - mean) / (sd > 0 ? sd : 1.0);
        BoosterOptions b;
        b.trees = in.options.xgb_trees;
        b.depth = in.options.xgb_depth;
        b.eta = in.options.xgb_eta;
        // The resamples of n observations come from a stream of (seed, n) only, so a resumed
        // sweep fits what the uninterrupted one fitted.
        Rng rng = Rng(in.seed, in.stream ^ kBootstrapStream).split(static_cast<std::uint64_t>(n));
        model_.emplace(x, y, b, in.options.xgb_ensemble, rng);
        fitted_ = in.history.size();
        targets_ = targets;
        best_target_ = y.minCoeff();
    }

    [[nodiscard]] Choice choose(const Matrix& x, int /*q*/, const BatchOptions& b) const override {
        Vector mean, sd;
        model_->predict(x, mean, sd);
        Vector variance = sd.cwiseAbs2();
        return Choice{scores_from(std::move(mean), std::move(variance), best_target_, b), {}};
    }

private:
    std::optional<BoostedEnsemble> model_;
    std::size_t fitted_ = 0;
    std::vector<double> targets_;  // of the fitted history
    double best_target_ = 0;
};

}  // namespace

std::unique_ptr<Proposer> make_xgboost(const ProposerContext& context, const ProposerOptions& options) {
    return make_model_proposer("xgboost", context, options, kXgboostStream, std::make_unique<XgbSurrogate>());
}

}  // namespace pimdse::tuner
