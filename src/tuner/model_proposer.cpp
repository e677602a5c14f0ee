// The model-based proposers' batch (docs/tuner.md, "Acquisition and batches"): uniform legal
// points before the model, then candidates (uniform legal samples and mutants of the best
// observations) scored by the surrogate, its own picks first and the rest of the batch by
// exclusion on the design grid. Under `scalarisation: parego` the batch's slots fall into
// groups, each with its own random scalarisation of the objectives, fit and picks
// (docs/tuner.md, "Multi-objective proposals").

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "history.hpp"
#include "mutation.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/tuner/scalarisation.hpp"
#include "pimdse/tuner/targets.hpp"
#include "surrogate.hpp"

namespace pimdse::tuner {

namespace {

constexpr std::uint64_t kWeightStream = 0x57454947;  // "WEIG"

// Up to 8 distinct observations, best first: the parents of the local candidates. With one
// target vector, the 8 lowest (ties to the earlier one); with several, their best ones in
// turn (each one's best, then each one's second, ...).
std::vector<DesignPoint> best_points(std::span<const Observation> history,
                                     const std::vector<std::vector<double>>& targets) {
    constexpr std::size_t kParents = 8;
    const std::size_t top = std::min(history.size(), kParents);
    std::vector<std::vector<std::size_t>> orders;
    for (const std::vector<double>& t : targets) {
        std::vector<std::size_t> order(history.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::partial_sort(
            order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
            [&](std::size_t a, std::size_t b) { return t[a] < t[b] || (t[a] == t[b] && a < b); });
        order.resize(top);
        orders.push_back(std::move(order));
    }
    std::vector<std::size_t> chosen;
    for (std::size_t r = 0; r < top && chosen.size() < top; ++r)
        for (const std::vector<std::size_t>& order : orders)
            if (chosen.size() < top && std::find(chosen.begin(), chosen.end(), order[r]) == chosen.end())
                chosen.push_back(order[r]);
    std::vector<DesignPoint> out;
    for (std::size_t i : chosen) out.push_back(history[i].params);
    return out;
}

// The fits of one batch: one target vector per group of slots (one group under eq1) and the
// training targets of a history prefix.
struct BatchTargets {
    std::vector<std::vector<double>> groups;
    TargetsOf training;
    bool targets_are_training = true;
};

// eq1: log(cost) for every slot. parego: min(parego_weights, count) weight vectors from the
// batch's own stream; the training of a prefix targets the equal-weight scalarisation of it.
BatchTargets batch_targets(std::span<const Observation> history, const ProposerOptions& options,
                           Rng weight_rng, int count) {
    const double margin = options.failure_margin;
    BatchTargets out;
    if (options.scalarisation == Scalarisation::eq1) {
        out.groups.push_back(log_cost_targets(history, margin));
        out.training = [margin](std::span<const Observation> h) { return log_cost_targets(h, margin); };
        return out;
    }
    const NormalisedObjectives norm(history);
    const std::size_t m = norm.objectives();
    if (m == 0)
        throw ModelError("tuner: scalarisation parego needs the observations' objectives, and none has any");
    const int groups = std::max(1, std::min(options.parego_weights, count));
    for (const std::vector<double>& w : simplex_weights(weight_rng, groups, m))
        out.groups.push_back(norm.targets(w, margin));
    out.training = [margin, m](std::span<const Observation> h) {
        const std::vector<double> equal(m, 1.0 / static_cast<double>(m));
        return NormalisedObjectives(h).targets(equal, margin);
    };
    out.targets_are_training = false;
    return out;
}

class ModelProposer final : public HistoryProposer {
public:
    ModelProposer(std::string_view name, const ProposerContext& context, const ProposerOptions& options,
                  std::uint64_t stream, std::unique_ptr<Surrogate> surrogate)
        : HistoryProposer(context, options, stream), name_(name), surrogate_(std::move(surrogate)) {}

    [[nodiscard]] std::string_view name() const override { return name_; }
    [[nodiscard]] std::int64_t warmup() const override { return options_.initial_random; }

    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t batch, int count) override {
        using clock = std::chrono::steady_clock;
        stats_ = {};
        const auto start = clock::now();
        Rng rng = batch_rng(batch);
        const auto ok = std::count_if(history_.begin(), history_.end(),
                                      [](const Observation& o) { return o.outcome == Outcome::ok; });
        if (std::ssize(history_) < options_.initial_random || ok < 2) {
            auto out = sampler_.sample(rng, count, seen_);
            stats_.propose_seconds = std::chrono::duration<double>(clock::now() - start).count();
            stats_.samples = std::ssize(out);
            return out;
        }
        const BatchTargets targets = batch_targets(
            history_, options_,
            Rng(context_.seed, stream() ^ kWeightStream).split(static_cast<std::uint64_t>(batch)), count);
        // eq1 fits before it draws the candidates, as it always has: the fit draws from its own streams.
        if (targets.groups.size() == 1) fit(targets, 0);
        const std::vector<DesignPoint> cands = candidates(rng, count, targets.groups);
        Matrix x;
        encode_rows(
            encoding_, cands.size(), [&](std::size_t i) { return cands[i]; }, x);
        std::vector<std::size_t> picks;
        for (std::size_t g = 0; g < targets.groups.size(); ++g) {
            const auto groups = static_cast<std::int64_t>(targets.groups.size());
            const auto end = static_cast<int>((static_cast<std::int64_t>(g) + 1) * count / groups);
            if (targets.groups.size() > 1) fit(targets, g);
            picks = pick_group(std::move(picks), x, cands, end, stats_.predicted);
        }
        // Each parego group's mean is of its own scalarisation: not one ranking of the batch.
        if (targets.groups.size() > 1) stats_.predicted.clear();
        std::vector<DesignPoint> out;
        for (std::size_t i : picks) out.push_back(cands[i]);
        const double total = std::chrono::duration<double>(clock::now() - start).count();
        stats_.propose_seconds = total - stats_.fit_seconds;
        stats_.samples = std::ssize(cands);
        return out;
    }

private:
    // Fits the surrogate on group g's targets; adds the time to the batch's fit_seconds.
    void fit(const BatchTargets& t, std::size_t g) {
        const auto start = std::chrono::steady_clock::now();
        surrogate_->fit(FitInput{history_, encoding_, options_, context_.seed, stream(), t.groups[g],
                                 t.training, t.targets_are_training});
        stats_.fit_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    // `picks` topped up to `end` candidates by the fitted surrogate: its own picks that are not
    // yet taken, then the rest by exclusion on the grid (around every earlier pick too).
    // `predicted` gets the fitted model's mean (its standardised target) at each new pick.
    std::vector<std::size_t> pick_group(std::vector<std::size_t> picks, const Matrix& x,
                                        const std::vector<DesignPoint>& cands, int end,
                                        std::vector<double>& predicted) const {
        const int q = end - static_cast<int>(picks.size());
        if (q <= 0) return picks;
        const std::size_t before = picks.size();
        BatchOptions b;
        b.kind = options_.acquisition;
        b.kappa = options_.ucb_kappa;
        const Choice choice = surrogate_->choose(x, std::min(q, options_.believer_max), b);
        for (std::size_t i : choice.picks)
            if (std::ssize(picks) < end && std::find(picks.begin(), picks.end(), i) == picks.end())
                picks.push_back(i);
        if (std::ssize(picks) < end) {
            std::vector<DesignSpace::Index> grid;
            grid.reserve(cands.size());
            for (const DesignPoint& c : cands) grid.push_back(*context_.space.index_of(c));
            picks = fill_by_exclusion(std::move(picks), choice.scores.score, grid, context_.space, end);
        }
        for (std::size_t k = before; k < picks.size(); ++k)
            predicted.push_back(choice.scores.mean(static_cast<Eigen::Index>(picks[k])));
        return picks;
    }

    // Uniform legal samples, plus mutants of the best points so that the acquisition can
    // refine around them (a uniform sample of 10^10 points rarely lands next to the incumbent).
    std::vector<DesignPoint> candidates(Rng& rng, int count,
                                        const std::vector<std::vector<double>>& targets) const {
        const int total = static_cast<int>(std::min<std::int64_t>(
            std::max<std::int64_t>(context_.samples_per_round,
                                   std::int64_t{options_.samples_per_candidate} * count),
            std::int64_t{1} << 24));
        const int local = static_cast<int>(std::lround(options_.local_fraction * total));
        PointSet exclude = seen_;
        std::vector<DesignPoint> cands = mutants(sampler_, encoding_, best_points(history_, targets), local,
                                                 rng, options_.local_step, ParamWeights{}, exclude, 8);
        std::vector<DesignPoint> uniform = sampler_.sample(rng, total - std::ssize(cands), exclude);
        cands.insert(cands.end(), uniform.begin(), uniform.end());
        return cands;
    }

    std::string_view name_;
    std::unique_ptr<Surrogate> surrogate_;
};

}  // namespace

std::unique_ptr<Proposer> make_model_proposer(std::string_view name, const ProposerContext& context,
                                              const ProposerOptions& options, std::uint64_t stream,
                                              std::unique_ptr<Surrogate> surrogate) {
    return std::make_unique<ModelProposer>(name, context, options, stream, std::move(surrogate));
}

}  // namespace pimdse::tuner
