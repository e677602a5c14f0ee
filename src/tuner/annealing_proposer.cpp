// "annealing": batch-parallel simulated annealing over the legal points (the baseline of
// NicePIM VIII-C). Each batch is `count` neighbours of the current point; when the batch is
// told, its best point replaces the current one by the Metropolis rule at the batch's
// temperature. The state is a function of the observations told (in order) and the seed.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include "history.hpp"
#include "mutation.hpp"

namespace pimdse::tuner {
namespace {

class AnnealingProposer final : public HistoryProposer {
public:
    AnnealingProposer(const ProposerContext& context, const ProposerOptions& options)
        : HistoryProposer(context, options, kAnnealingStream) {}

    [[nodiscard]] std::string_view name() const override { return "annealing"; }

    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t batch, int count) override {
        const auto start = std::chrono::steady_clock::now();
        Rng rng = batch_rng(batch);
        PointSet exclude = seen_;
        std::vector<DesignPoint> out;
        if (current_) {
            ParamWeights uniform;
            uniform.fill(1.0);
            out = mutants(sampler_, encoding_, {current_->params}, count, rng, options_.anneal_step, uniform,
                          exclude);
        }
        // No current point yet, or a neighbourhood used up: uniform legal points.
        return finish_with_uniform(std::move(out), rng, count, exclude, start);
    }

    void observe(std::span<const Observation> batch) override {
        HistoryProposer::observe(batch);
        for (const Observation& o : batch) {
            if (o.outcome != Outcome::ok || !(o.cost > 0) || !std::isfinite(o.cost)) continue;
            const double l = std::log(o.cost);
            sum_ += l;
            sum2_ += l * l;
            ++ok_;
        }
        const Observation* best = nullptr;
        for (const Observation& o : batch) {
            if (o.outcome != Outcome::ok || !(o.cost > 0) || !std::isfinite(o.cost)) continue;
            if (best == nullptr || o.cost < best->cost) best = &o;
        }
        const double temperature =
            options_.anneal_initial_temperature * std::pow(options_.anneal_cooling, told_);
        ++told_;
        if (best == nullptr) return;  // failures never move the walk
        const double l = std::log(best->cost);
        if (!current_ || l <= current_->log_cost) {
            current_ = State{best->params, l};
            return;
        }
        // Metropolis, with the temperature in units of the spread of the observed log costs.
        const double mean = sum_ / ok_;
        const double sd = ok_ > 1 ? std::sqrt(std::max(sum2_ / ok_ - mean * mean, 0.0)) : 1.0;
        const double scale = temperature * (sd > 0 ? sd : 1.0);
        Rng accept(context_.seed, kAnnealingStream ^ 0x41435054);  // "ACPT"
        Rng draw = accept.split(static_cast<std::uint64_t>(best->candidate));
        if (scale > 0 && draw.uniform01() < std::exp(-(l - current_->log_cost) / scale)) {
            current_ = State{best->params, l};
        }
    }

private:
    struct State {
        DesignPoint params;
        double log_cost = 0;
    };
    std::optional<State> current_;
    int told_ = 0;
    double sum_ = 0, sum2_ = 0;
    int ok_ = 0;
};

}  // namespace

std::unique_ptr<Proposer> make_annealing(const ProposerContext& context, const ProposerOptions& options) {
    return std::make_unique<AnnealingProposer>(context, options);
}

}  // namespace pimdse::tuner
