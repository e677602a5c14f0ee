// "gp" and "nicepim": Bayesian optimisation with a GP on the encoding or a deep-kernel GP
// (NicePIM section V's suggestion model), expected improvement or a confidence bound over
// legal samples, and a Kriging-believer batch (docs/tuner.md).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "bayes.hpp"
#include "history.hpp"
#include "mutation.hpp"
#include "pimdse/tuner/acquisition.hpp"
#include "pimdse/tuner/model.hpp"

namespace pimdse::tuner {

std::vector<double> log_cost_targets(std::span<const Observation> history, double failure_margin) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    std::vector<double> t(history.size());
    for (std::size_t i = 0; i < history.size(); ++i) {
        const Observation& o = history[i];
        const bool ok = o.outcome == Outcome::ok && std::isfinite(o.cost) && o.cost > 0;
        t[i] = ok ? std::log(o.cost) : std::numeric_limits<double>::quiet_NaN();
        if (ok) {
            lo = std::min(lo, t[i]);
            hi = std::max(hi, t[i]);
        }
    }
    // A failure is worse than anything seen, by a margin relative to the observed spread.
    const double worst = std::isfinite(hi) ? hi : 0.0;
    const double spread = std::isfinite(hi) && hi > lo ? hi - lo : 1.0;
    for (double& v : t) {
        if (std::isnan(v)) v = worst + failure_margin * spread;
    }
    return t;
}

std::vector<std::size_t> fit_subset(const std::vector<double>& targets, int fit_max, int fit_best, Rng& rng) {
    const std::size_t n = targets.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (n <= static_cast<std::size_t>(fit_max)) return order;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return targets[a] < targets[b]; });
    const auto best = static_cast<std::size_t>(std::clamp(fit_best, 0, fit_max));
    std::vector<std::size_t> out(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(best));
    // The rest: uniform without replacement over the others, in history order for determinism.
    std::vector<std::size_t> rest(order.begin() + static_cast<std::ptrdiff_t>(best), order.end());
    std::sort(rest.begin(), rest.end());
    const std::size_t want = static_cast<std::size_t>(fit_max) - best;
    for (std::size_t i = 0; i < want; ++i) {
        const auto j = static_cast<std::size_t>(
            rng.uniform_int(static_cast<std::int64_t>(i), static_cast<std::int64_t>(rest.size()) - 1));
        std::swap(rest[i], rest[j]);
        out.push_back(rest[i]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

namespace {

class BayesProposer final : public HistoryProposer {
public:
    BayesProposer(std::string_view name, const ProposerContext& context, const ProposerOptions& options,
                  std::uint64_t stream, std::vector<int> hidden)
        : HistoryProposer(context, options, stream), name_(name), hidden_(std::move(hidden)) {}

    [[nodiscard]] std::string_view name() const override { return name_; }

    [[nodiscard]] std::vector<hw::HardwareParams> propose(std::int64_t batch, int count) override {
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
            fit_model(history_, encoding_, options_, hidden_, context_.seed, stream(), rng);
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
        std::vector<hw::HardwareParams> cands = mutants(sampler_, encoding_, fitted.best_points, local, rng,
                                                        options_.local_step, ParamWeights{}, exclude, 8);
        std::vector<hw::HardwareParams> uniform = sampler_.sample(rng, total - std::ssize(cands), exclude);
        cands.insert(cands.end(), uniform.begin(), uniform.end());
        Matrix x(std::ssize(cands), static_cast<Eigen::Index>(hw::kParamCount));
        for (std::size_t i = 0; i < cands.size(); ++i) {
            const Unit u = encoding_.encode(cands[i]);
            for (std::size_t k = 0; k < hw::kParamCount; ++k)
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
            std::vector<hw::DesignSpace::Index> grid;
            grid.reserve(cands.size());
            for (const hw::HardwareParams& c : cands) grid.push_back(*context_.space.index_of(c));
            picks = fill_by_exclusion(std::move(picks), scores.score, grid, context_.space, count);
        }
        std::vector<hw::HardwareParams> out;
        for (std::size_t i : picks) out.push_back(cands[i]);
        stats_.propose_seconds = std::chrono::duration<double>(clock::now() - fit_end).count();
        stats_.samples = std::ssize(cands);
        return out;
    }

private:
    std::string_view name_;
    std::vector<int> hidden_;
};

}  // namespace

FittedModel fit_model(std::span<const Observation> history, const Encoding& encoding,
                      const ProposerOptions& options, const std::vector<int>& hidden, std::uint64_t seed,
                      std::uint64_t stream, Rng& rng) {
    const std::vector<double> targets = log_cost_targets(history, options.failure_margin);
    Rng subset_rng = rng.split(1);
    const std::vector<std::size_t> subset =
        fit_subset(targets, options.fit_max, options.fit_best, subset_rng);
    const auto n = std::ssize(subset);
    Matrix x(n, static_cast<Eigen::Index>(hw::kParamCount));
    Vector y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t h = subset[static_cast<std::size_t>(i)];
        const Unit u = encoding.encode(history[h].params);
        for (std::size_t k = 0; k < hw::kParamCount; ++k) x(i, static_cast<Eigen::Index>(k)) = u[k];
        y(i) = targets[h];
    }
    const double mean = y.mean();
    const double sd = std::sqrt((y.array() - mean).square().mean());
    y = (y.array() - mean) / (sd > 0 ? sd : 1.0);

    ModelOptions m;
    m.kernel = options.kernel;
    m.hidden = hidden;
    m.steps = hidden.empty() ? options.gp_steps : options.dkl_steps;
    m.kernel_learning_rate = options.gp_learning_rate;
    m.network_learning_rate = options.dkl_learning_rate;
    // The same initial network for every batch of a seed: the fit depends on the data only.
    Rng init(seed, stream ^ 0x494E4954);  // "INIT"
    FittedModel out;
    out.model = std::make_unique<DeepKernelGp>(static_cast<int>(hw::kParamCount), m, init);
    (void)out.model->fit(x, y);
    out.best_target = y.minCoeff();
    // The few best observations seed the local candidates.
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
