// "gp" and "nicepim": Bayesian optimisation with a GP on the encoding or a deep-kernel GP
// (NicePIM section V's suggestion model), expected improvement or a confidence bound over
// legal samples, and a Kriging-believer batch filled by grid exclusion beyond believer_max;
// the model is retrained on a geometric schedule of history sizes (docs/tuner.md, "Scale").

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "bayes.hpp"
#include "history.hpp"
#include "mutation.hpp"
#include "pimdse/tuner/acquisition.hpp"
#include "pimdse/tuner/model.hpp"

namespace pimdse::tuner {

namespace {

class BayesProposer final : public HistoryProposer {
public:
    BayesProposer(std::string_view name, const ProposerContext& context, const ProposerOptions& options,
                  std::uint64_t stream, std::vector<int> hidden)
        : HistoryProposer(context, options, stream), name_(name), hidden_(std::move(hidden)) {}

    [[nodiscard]] std::string_view name() const override { return name_; }
    [[nodiscard]] std::int64_t warmup() const override { return options_.initial_random; }

    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t batch, int count) override {
        using clock = std::chrono::steady_clock;
        stats_ = {};
        Rng rng = batch_rng(batch);
        const auto ok = std::count_if(history_.begin(), history_.end(),
                                      [](const Observation& o) { return o.outcome == Outcome::ok; });
        if (std::ssize(history_) < options_.initial_random || ok < 2) {
            const auto start = clock::now();
            auto out = sampler_.sample(rng, count, seen_);
            stats_.propose_seconds = std::chrono::duration<double>(clock::now() - start).count();
            stats_.samples = std::ssize(out);
            return out;
        }
        const auto fit_start = clock::now();
        const FittedModel fitted =
            fit_model(history_, encoding_, options_, hidden_, context_.seed, stream(), training_);
        const auto fit_end = clock::now();
        stats_.fit_seconds = std::chrono::duration<double>(fit_end - fit_start).count();

        // Candidates: uniform legal samples, plus mutants of the best points so that the
        // acquisition can refine around them (a uniform sample of 10^10 points rarely lands
        // next to the incumbent).
        const int total = static_cast<int>(std::min<std::int64_t>(
            std::max<std::int64_t>(context_.samples_per_round,
                                   std::int64_t{options_.samples_per_candidate} * count),
            std::int64_t{1} << 24));
        const int local = static_cast<int>(std::lround(options_.local_fraction * total));
        PointSet exclude = seen_;
        std::vector<DesignPoint> cands = mutants(sampler_, encoding_, fitted.best_points, local, rng,
                                                 options_.local_step, ParamWeights{}, exclude, 8);
        std::vector<DesignPoint> uniform = sampler_.sample(rng, total - std::ssize(cands), exclude);
        cands.insert(cands.end(), uniform.begin(), uniform.end());
        Matrix x(std::ssize(cands), static_cast<Eigen::Index>(context_.space.dimensions()));
        for (std::size_t i = 0; i < cands.size(); ++i) {
            const Unit u = encoding_.encode(cands[i]);
            for (std::size_t k = 0; k < context_.space.dimensions(); ++k)
                x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = u[k];
        }
        BatchOptions b;
        b.kind = options_.acquisition;
        b.kappa = options_.ucb_kappa;
        const Matrix features = fitted.model->features(x);
        const Scores scores = score_candidates(fitted.model->posterior(), features, fitted.best_target, b);
        std::vector<std::size_t> picks =
            kriging_believer(fitted.model->posterior(), features, scores, fitted.best_target,
                             std::min(count, options_.believer_max), b);
        if (count > options_.believer_max) {
            std::vector<DesignSpace::Index> grid;
            grid.reserve(cands.size());
            for (const DesignPoint& c : cands) grid.push_back(*context_.space.index_of(c));
            picks = fill_by_exclusion(std::move(picks), scores.score, grid, context_.space, count);
        }
        std::vector<DesignPoint> out;
        for (std::size_t i : picks) out.push_back(cands[i]);
        stats_.propose_seconds = std::chrono::duration<double>(clock::now() - fit_end).count();
        stats_.samples = std::ssize(cands);
        return out;
    }

private:
    std::string_view name_;
    std::vector<int> hidden_;
    std::optional<Training> training_;  // the last training: reused until the schedule's next point
};

}  // namespace

namespace {

constexpr std::uint64_t kSubsetStream = 0x53554253;  // "SUBS"
constexpr std::uint64_t kInitStream = 0x494E4954;    // "INIT"

struct FitData {
    Matrix x;
    Vector y;  ///< standardised log-cost targets
};

// The fitted subset of `history` (its first n observations): encoded inputs and standardised
// targets; the subset's random part is drawn from a stream of (seed, stream, n) only.
FitData fit_data(std::span<const Observation> history, const Encoding& encoding,
                 const ProposerOptions& options, std::uint64_t seed, std::uint64_t stream) {
    const std::vector<double> targets = log_cost_targets(history, options.failure_margin);
    Rng subset_rng = Rng(seed, stream ^ kSubsetStream).split(history.size());
    const std::vector<std::size_t> subset =
        fit_subset(targets, options.fit_max, options.fit_best, subset_rng);
    const auto n = std::ssize(subset);
    FitData d{Matrix(n, static_cast<Eigen::Index>(encoding.space().dimensions())), Vector(n)};
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t h = subset[static_cast<std::size_t>(i)];
        const Unit u = encoding.encode(history[h].params);
        for (std::size_t k = 0; k < encoding.space().dimensions(); ++k)
            d.x(i, static_cast<Eigen::Index>(k)) = u[k];
        d.y(i) = targets[h];
    }
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

}  // namespace

FittedModel fit_model(std::span<const Observation> history, const Encoding& encoding,
                      const ProposerOptions& options, const std::vector<int>& hidden, std::uint64_t seed,
                      std::uint64_t stream, std::optional<Training>& cache) {
    ModelOptions m;
    m.kernel = options.kernel;
    m.hidden = hidden;
    m.steps = hidden.empty() ? options.gp_steps : options.dkl_steps;
    m.kernel_learning_rate = options.gp_learning_rate;
    m.network_learning_rate = options.dkl_learning_rate;
    // The same initial network for every training of a seed: a training depends on the data only.
    const auto fresh_model = [&] {
        Rng init(seed, stream ^ kInitStream);
        return std::make_unique<DeepKernelGp>(static_cast<int>(encoding.space().dimensions()), m, init);
    };
    FittedModel out;
    out.model = fresh_model();
    const FitData data = fit_data(history, encoding, options, seed, stream);
    const std::size_t prefix = trained_prefix(history, options);
    if (!cache || cache->prefix != prefix) {
        cache.reset();
        if (prefix == history.size()) {
            (void)out.model->fit(data.x, data.y);  // trains, then conditions on the same data
            cache = Training{prefix, out.model->parameters()};
        } else {
            const FitData old = fit_data(history.first(prefix), encoding, options, seed, stream);
            const std::unique_ptr<DeepKernelGp> trained = fresh_model();
            (void)trained->fit(old.x, old.y);
            cache = Training{prefix, trained->parameters()};
        }
    }
    if (!out.model->has_posterior()) {
        out.model->set_parameters(cache->parameters);
        try {
            out.model->condition(data.x, data.y);
        } catch (const std::runtime_error&) {
            // The trained parameters do not give a positive-definite K on the new data: train
            // on it (a function of the history too, so still deterministic).
            out.model = fresh_model();
            (void)out.model->fit(data.x, data.y);
        }
    }
    out.best_target = data.y.minCoeff();
    // The few best observations seed the local candidates.
    const std::vector<double> targets = log_cost_targets(history, options.failure_margin);
    std::vector<std::size_t> order(history.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const std::size_t top = std::min<std::size_t>(order.size(), 8);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                      [&](std::size_t a, std::size_t b) {
                          return targets[a] < targets[b] || (targets[a] == targets[b] && a < b);
                      });
    for (std::size_t i = 0; i < top; ++i) out.best_points.push_back(history[order[i]].params);
    return out;
}

std::unique_ptr<Proposer> make_bayes(std::string_view name, const ProposerContext& context,
                                     const ProposerOptions& options) {
    if (name == "gp")
        return std::make_unique<BayesProposer>("gp", context, options, kGpStream, std::vector<int>{});
    return std::make_unique<BayesProposer>("nicepim", context, options, kNicepimStream, options.hidden);
}

}  // namespace pimdse::tuner
