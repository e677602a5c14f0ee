// The predictor filter around any proposer (include/pimdse/tuner/filter.hpp; docs/tuner.md,
// "Predictor filter").

#include <algorithm>
#include <chrono>
#include <limits>

#include "pimdse/tuner/filter.hpp"

namespace pimdse::tuner {

namespace {

class FilteredProposer final : public Proposer {
public:
    FilteredProposer(std::unique_ptr<Proposer> inner, const ProposerContext& context,
                     const ProposerOptions& options)
        : inner_(std::move(inner)),
          pool_(options.filter_pool),
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
        const auto start = clock::now();
        // The fit sees only what was told through observe(), in order: a resumed sweep fits the same.
        if (!predictor_.fit(history_)) {
            if (std::ssize(pool) > count) pool.resize(static_cast<std::size_t>(count));
            if (stats_.predicted.size() > pool.size()) stats_.predicted.resize(pool.size());
            return pool;
        }
        const auto fitted = clock::now();
        const std::vector<double> predicted = predictor_.predict(pool);
        std::vector<DesignPoint> out;
        stats_.predicted.clear();
        for (std::size_t i : best_predicted(predicted, count)) {
            out.push_back(pool[i]);
            stats_.predicted.push_back(predicted[i]);
        }
        stats_.predicted_is_cost = true;
        stats_.fit_seconds += std::chrono::duration<double>(fitted - start).count();
        stats_.propose_seconds += std::chrono::duration<double>(clock::now() - fitted).count();
        return out;
    }

    [[nodiscard]] ProposalStats last_stats() const override { return stats_; }

private:
    std::unique_ptr<Proposer> inner_;
    int pool_;
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
