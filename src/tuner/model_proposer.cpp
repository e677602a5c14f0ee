// The model-based proposers' batch (docs/tuner.md, "Acquisition and batches"): uniform legal
// points before the model, then candidates (uniform legal samples and mutants of the best
// observations) scored by the surrogate, its own picks first and the rest of the batch by
// exclusion on the design grid.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "history.hpp"
#include "mutation.hpp"
#include "pimdse/tuner/targets.hpp"
#include "surrogate.hpp"

namespace pimdse::tuner {

namespace {

// The 8 observations of the lowest targets (ties to the earlier one), best first: the
// parents of the local candidates.
std::vector<DesignPoint> best_points(std::span<const Observation> history, double failure_margin) {
    const std::vector<double> targets = log_cost_targets(history, failure_margin);
    std::vector<std::size_t> order(history.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const std::size_t top = std::min<std::size_t>(order.size(), 8);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                      [&](std::size_t a, std::size_t b) {
                          return targets[a] < targets[b] || (targets[a] == targets[b] && a < b);
                      });
    std::vector<DesignPoint> out;
    for (std::size_t i = 0; i < top; ++i) out.push_back(history[order[i]].params);
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
        surrogate_->fit(FitInput{history_, encoding_, options_, context_.seed, stream()});
        const auto fit_end = clock::now();
        stats_.fit_seconds = std::chrono::duration<double>(fit_end - fit_start).count();

        const std::vector<DesignPoint> cands = candidates(rng, count);
        Matrix x;
        encode_rows(
            encoding_, cands.size(), [&](std::size_t i) { return cands[i]; }, x);
        BatchOptions b;
        b.kind = options_.acquisition;
        b.kappa = options_.ucb_kappa;
        Choice choice = surrogate_->choose(x, std::min(count, options_.believer_max), b);
        std::vector<std::size_t> picks = std::move(choice.picks);
        if (std::ssize(picks) < count) {
            std::vector<DesignSpace::Index> grid;
            grid.reserve(cands.size());
            for (const DesignPoint& c : cands) grid.push_back(*context_.space.index_of(c));
            picks = fill_by_exclusion(std::move(picks), choice.scores.score, grid, context_.space, count);
        }
        std::vector<DesignPoint> out;
        for (std::size_t i : picks) out.push_back(cands[i]);
        stats_.propose_seconds = std::chrono::duration<double>(clock::now() - fit_end).count();
        stats_.samples = std::ssize(cands);
        return out;
    }

private:
    // Uniform legal samples, plus mutants of the best points so that the acquisition can
    // refine around them (a uniform sample of 10^10 points rarely lands next to the incumbent).
    std::vector<DesignPoint> candidates(Rng& rng, int count) const {
        const int total = static_cast<int>(std::min<std::int64_t>(
            std::max<std::int64_t>(context_.samples_per_round,
                                   std::int64_t{options_.samples_per_candidate} * count),
            std::int64_t{1} << 24));
        const int local = static_cast<int>(std::lround(options_.local_fraction * total));
        PointSet exclude = seen_;
        std::vector<DesignPoint> cands =
            mutants(sampler_, encoding_, best_points(history_, options_.failure_margin), local, rng,
                    options_.local_step, ParamWeights{}, exclude, 8);
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
