// "gp" and "nicepim": Bayesian optimisation with a GP on the encoding or a deep-kernel GP
// (NicePIM section V's suggestion model), expected improvement or a confidence bound over
// legal samples, and a Kriging-believer batch filled by grid exclusion beyond believer_max;
// the model is retrained on a geometric schedule of history sizes and, by default, conditioned
// on every observation through the FITC approximation (docs/tuner.md, "Scale").

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

#include "history.hpp"
#include "pimdse/tuner/model.hpp"
#include "pimdse/tuner/targets.hpp"
#include "surrogate.hpp"

namespace pimdse::tuner {

namespace {

constexpr std::uint64_t kSubsetStream = 0x53554253;  // "SUBS"
constexpr std::uint64_t kInitStream = 0x494E4954;    // "INIT"

struct FitData {
    Matrix x;
    Vector y;  ///< standardised log-cost targets
};

// The fitted subset of `history` (its first n observations, with `targets`): encoded inputs
// and standardised targets; the subset's random part is drawn from a stream of
// (seed, stream, n) only.
FitData fit_data(std::span<const Observation> history, std::span<const double> targets,
                 const Encoding& encoding, const ProposerOptions& options, std::uint64_t seed,
                 std::uint64_t stream) {
    Rng subset_rng = Rng(seed, stream ^ kSubsetStream).split(history.size());
    const std::vector<std::size_t> subset =
        fit_subset({targets.begin(), targets.end()}, options.fit_max, options.fit_best, subset_rng);
    const auto n = std::ssize(subset);
    FitData d{Matrix(n, 0), Vector(n)};
    encode_rows(
        encoding, subset.size(), [&](std::size_t i) { return history[subset[i]].params; }, d.x);
    for (Eigen::Index i = 0; i < n; ++i) d.y(i) = targets[subset[static_cast<std::size_t>(i)]];
    const double mean = d.y.mean();
    const double sd = std::sqrt((d.y.array() - mean).square().mean());
    d.y = (d.y.array() - mean) / (sd > 0 ? sd : 1.0);
    return d;
}

// Every observation of `history`: encoded inputs and targets standardised over all of them.
FitData all_data(std::span<const Observation> history, std::span<const double> targets,
                 const Encoding& encoding) {
    const auto n = std::ssize(history);
    FitData d{Matrix(n, 0), Vector(n)};
    encode_rows(
        encoding, history.size(), [&](std::size_t i) { return history[i].params; }, d.x);
    for (Eigen::Index i = 0; i < n; ++i) d.y(i) = targets[static_cast<std::size_t>(i)];
    const double mean = d.y.mean();
    const double sd = std::sqrt((d.y.array() - mean).square().mean());
    d.y = (d.y.array() - mean) / (sd > 0 ? sd : 1.0);
    return d;
}

// The prefix of the history the model is trained on: the training schedule's point, unless
// that prefix has fewer than two successes (then the whole history).
std::size_t trained_prefix(std::span<const Observation> history, const ProposerOptions& options) {
    const std::size_t m =
        training_prefix(history.size(), static_cast<std::size_t>(std::max(options.initial_random, 1)),
                        options.retrain_growth);
    const auto ok = std::count_if(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(m),
                                  [](const Observation& o) { return o.outcome == Outcome::ok; });
    return ok >= 2 ? m : history.size();
}

/// The trained parameters of the last training (network weights and kernel hyperparameters)
/// and the history prefix they were trained on: a cache that never changes a result, since a
/// training is a function of (seed, stream, prefix) only.
struct Training {
    std::size_t prefix = 0;
    Vector parameters;
};

// The model of one batch: the parameters trained on the history's training prefix
// (trained_prefix; trained afresh, from a network initialised from (seed, stream), unless
// `cache` holds that prefix's), conditioned on the fitted subset of the whole history, or
// (posterior fitc, more observations than fit_max) on all of it through that subset.
class GpSurrogate final : public Surrogate {
public:
    explicit GpSurrogate(std::vector<int> hidden) : hidden_(std::move(hidden)) {}

    void fit(const FitInput& in) override {
        ModelOptions m;
        m.kernel = in.options.kernel;
        m.hidden = hidden_;
        m.steps = hidden_.empty() ? in.options.gp_steps : in.options.dkl_steps;
        m.kernel_learning_rate = in.options.gp_learning_rate;
        m.network_learning_rate = in.options.dkl_learning_rate;
        // The same initial network for every training of a seed: a training depends on the data only.
        const auto fresh_model = [&] {
            Rng init(in.seed, in.stream ^ kInitStream);
            return std::make_unique<DeepKernelGp>(static_cast<int>(in.encoding.features().size()), m, init);
        };
        model_ = fresh_model();
        const FitData data = fit_data(in.history, in.targets, in.encoding, in.options, in.seed, in.stream);
        const std::size_t prefix = trained_prefix(in.history, in.options);
        if (!cache_ || cache_->prefix != prefix) {
            cache_.reset();
            if (prefix == in.history.size() && in.targets_are_training) {
                (void)model_->fit(data.x, data.y);  // trains, then conditions on the same data
                cache_ = Training{prefix, model_->parameters()};
            } else {
                const std::span<const Observation> first = in.history.first(prefix);
                const FitData old =
                    fit_data(first, in.training(first), in.encoding, in.options, in.seed, in.stream);
                const std::unique_ptr<DeepKernelGp> trained = fresh_model();
                (void)trained->fit(old.x, old.y);
                cache_ = Training{prefix, trained->parameters()};
            }
        }
        if (!model_->has_posterior()) {
            model_->set_parameters(cache_->parameters);
            try {
                model_->condition(data.x, data.y);
            } catch (const std::runtime_error&) {
                // The trained parameters do not give a positive-definite K on the new data: train
                // on it (a function of the history too, so still deterministic).
                model_ = fresh_model();
                (void)model_->fit(data.x, data.y);
            }
        }
        best_target_ = data.y.minCoeff();
        if (in.options.posterior == GpPosteriorKind::fitc &&
            std::ssize(in.history) > static_cast<std::ptrdiff_t>(in.options.fit_max)) {
            // Every observation, the fitted subset as the inducing points. Should K(Z, Z) not
            // factor, the subset's exact posterior above stays (a function of the history too).
            const FitData all = all_data(in.history, in.targets, in.encoding);
            try {
                model_->condition_fitc(data.x, all.x, all.y);
                best_target_ = all.y.minCoeff();
            } catch (const std::runtime_error&) {
            }
        }
    }

    [[nodiscard]] Choice choose(const Matrix& x, int q, const BatchOptions& b) const override {
        Choice c;
        const Matrix features = model_->features(x);
        c.scores = score_candidates(model_->posterior(), features, best_target_, b);
        c.picks = kriging_believer(model_->posterior(), features, c.scores, best_target_, q, b);
        return c;
    }

private:
    std::vector<int> hidden_;
    std::unique_ptr<DeepKernelGp> model_;
    double best_target_ = 0;         // lowest standardised target of the fit
    std::optional<Training> cache_;  // the last training: reused until the schedule's next point
};

}  // namespace

std::unique_ptr<Proposer> make_bayes(std::string_view name, const ProposerContext& context,
                                     const ProposerOptions& options) {
    if (name == "gp")
        return make_model_proposer("gp", context, options, kGpStream,
                                   std::make_unique<GpSurrogate>(std::vector<int>{}));
    return make_model_proposer("nicepim", context, options, kNicepimStream,
                               std::make_unique<GpSurrogate>(options.hidden));
}

}  // namespace pimdse::tuner
