// The predictor filter around any proposer (include/pimdse/tuner/filter.hpp; docs/tuner.md,
// "Predictor filter").

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/tuner/filter.hpp"

namespace pimdse::tuner {

namespace {

class FilteredProposer final : public Proposer {
public:
    FilteredProposer(std::unique_ptr<Proposer> inner, const ProposerContext& context,
                     const ProposerOptions& options)
        : inner_(std::move(inner)),
          pool_(options.filter_pool),
          cheap_pool_(options.cheap_pool),
          cheap_(options.cheap_fidelity == CheapFidelity::none ? nullptr : context.cheap_costs),
          predictor_(options.filter, context.space, options, context.seed) {}

    [[nodiscard]] std::string_view name() const override { return inner_->name(); }
    [[nodiscard]] std::int64_t warmup() const override { return inner_->warmup(); }
    void exclude(std::span<const DesignPoint> points) override { inner_->exclude(points); }

    void observe(std::span<const Observation> batch) override {
        history_.insert(history_.end(), batch.begin(), batch.end());
        inner_->observe(batch);
    }

    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t batch, int count) override {
        using clock = std::chrono::steady_clock;
        const auto asked = static_cast<int>(
            std::min<std::int64_t>(std::int64_t{count} * pool_, std::numeric_limits<int>::max()));
        std::vector<DesignPoint> pool = inner_->propose(batch, asked);
        stats_ = inner_->last_stats();
        std::vector<double> predicted = std::move(stats_.predicted);
        stats_.predicted.clear();
        // The predictor's level keeps the batch, or cheap_pool x the batch for the cheap level.
        const auto narrow = static_cast<int>(std::min<std::int64_t>(
            std::int64_t{count} * (cheap_ ? cheap_pool_ : 1), std::numeric_limits<int>::max()));
        const auto start = clock::now();
        // The fit sees only what was told through observe(), in order: a resumed sweep fits the same.
        if (predictor_.fit(history_)) {
            const auto fitted = clock::now();
            predicted = predictor_.predict(pool);
            keep(pool, predicted, best_predicted(predicted, narrow));
            stats_.predicted_is_cost = true;
            stats_.fit_seconds += std::chrono::duration<double>(fitted - start).count();
            stats_.propose_seconds += std::chrono::duration<double>(clock::now() - fitted).count();
        } else {
            std::vector<std::size_t> first(std::min(pool.size(), static_cast<std::size_t>(narrow)));
            std::iota(first.begin(), first.end(), std::size_t{0});
            keep(pool, predicted, first);
        }
        if (cheap_) rank_cheap(pool, predicted, count);
        stats_.predicted = std::move(predicted);
        return pool;
    }

    [[nodiscard]] ProposalStats last_stats() const override { return stats_; }

private:
    // Keeps the points `order` of `pool`, and of `predicted` when it has one per point.
    static void keep(std::vector<DesignPoint>& pool, std::vector<double>& predicted,
                     const std::vector<std::size_t>& order) {
        const bool ranked = predicted.size() == pool.size();
        std::vector<DesignPoint> points;
        std::vector<double> values;
        for (std::size_t i : order) {
            points.push_back(std::move(pool[i]));
            if (ranked) values.push_back(predicted[i]);
        }
        pool = std::move(points);
        predicted = std::move(values);
    }

    // The second level: every point of `pool` evaluated at the cheap fidelity in one call (the
    // engine spreads them over its workers; the costs depend on the points alone), and the
    // `count` cheapest kept.
    void rank_cheap(std::vector<DesignPoint>& pool, std::vector<double>& predicted, int count) {
        const auto start = std::chrono::steady_clock::now();
        const std::vector<double> cheap = cheap_(pool);
        if (cheap.size() != pool.size()) {
            throw Error("the cheap level returned " + std::to_string(cheap.size()) + " costs for " +
                        std::to_string(pool.size()) + " points");
        }
        const std::vector<std::size_t> order = best_predicted(cheap, count);
        std::vector<double> kept;
        for (std::size_t i : order) kept.push_back(cheap[i]);
        keep(pool, predicted, order);
        stats_.cheap = std::move(kept);
        stats_.cheap_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        stats_.propose_seconds += stats_.cheap_seconds;
    }

    std::unique_ptr<Proposer> inner_;
    int pool_;
    int cheap_pool_;
    std::function<std::vector<double>(std::span<const DesignPoint>)> cheap_;
    CostPredictor predictor_;
    std::vector<Observation> history_;
    ProposalStats stats_;
};

}  // namespace

std::unique_ptr<Proposer> make_filtered(std::unique_ptr<Proposer> inner, const ProposerContext& context,
                                        const ProposerOptions& options) {
    return std::make_unique<FilteredProposer>(std::move(inner), context, options);
}

}  // namespace pimdse::tuner
