// "evolution": Gibbon's evolutionary search with adaptive parameter priority (ESAPP, Gibbon
// section V, Algorithm 1). Each batch mutates the best observations (the parents); which
// parameters mutate is drawn with probability proportional to a priority, the product of the
// parents' entropy over the parameter's values (Gibbon Eq. 4: a converged parameter has low
// entropy) and its intensity (Eq. 5: std / max of the mean performance per value; a parameter
// that barely changes performance has low intensity). The priorities are a running average
// over the batches told (the history priority table), updated in observe().

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <utility>

#include "history.hpp"
#include "mutation.hpp"

namespace pimdse::tuner {
namespace {

bool usable(const Observation& o) {
    return o.outcome == Outcome::ok && o.cost > 0 && std::isfinite(o.cost);
}

class EvolutionProposer final : public HistoryProposer {
public:
    EvolutionProposer(const ProposerContext& context, const ProposerOptions& options)
        : HistoryProposer(context, options, kEvolutionStream) {
        priority_.fill(0.0);
    }

    [[nodiscard]] std::string_view name() const override { return "evolution"; }

    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t batch, int count) override {
        const auto start = std::chrono::steady_clock::now();
        Rng rng = batch_rng(batch);
        PointSet exclude = seen_;
        std::vector<DesignPoint> out;
        const std::vector<std::size_t> parents = parent_indices();
        if (parents.size() >= 2) {
            std::vector<DesignPoint> points;
            for (std::size_t i : parents) points.push_back(history_[i].params);
            out = mutants(sampler_, encoding_, points, count, rng, options_.evolution_mutation_step,
                          mutation_probabilities(), exclude);
        }
        return finish_with_uniform(std::move(out), rng, count, exclude, start);
    }

    void observe(std::span<const Observation> batch) override {
        HistoryProposer::observe(batch);
        const std::vector<std::size_t> parents = parent_indices();
        if (parents.size() < 2) return;
        ParamWeights now{};
        for (std::size_t k = 0; k < encoding_.space().dimensions(); ++k)
            now[k] = entropy(parents, k) * intensity(k);
        for (std::size_t k = 0; k < encoding_.space().dimensions(); ++k) {
            priority_[k] = rows_ == 0 ? now[k] : 0.5 * priority_[k] + 0.5 * now[k];
        }
        ++rows_;
    }

    /// Prob_x of Algorithm 1 line 15, with a floor of a tenth of the top priority so that no
    /// parameter is pruned for good (Gibbon: pruned parameters must be able to return).
    [[nodiscard]] ParamWeights mutation_probabilities() const {
        const double top = *std::max_element(priority_.begin(), priority_.end());
        ParamWeights w{};
        double total = 0;
        for (std::size_t k = 0; k < encoding_.space().dimensions(); ++k) {
            if (encoding_.space().range(k).size() < 2) continue;  // a fixed parameter cannot move
            w[k] = priority_[k] + 0.1 * top + 1e-12;
            total += w[k];
        }
        for (double& v : w) v /= total;
        return w;
    }

private:
    // The bins a parameter's values fall into: at most 8 equal bins of its encoding, so that a
    // 256-value buffer can converge in the entropy's sense.
    [[nodiscard]] std::size_t bins(std::size_t k) const {
        return std::min<std::size_t>(encoding_.space().range(k).size(), 8);
    }
    [[nodiscard]] std::size_t bin(const DesignPoint& p, std::size_t k) const {
        const double u = encoding_.encode(p)[k];
        const std::size_t b = bins(k);
        return std::min(b - 1, static_cast<std::size_t>(u * static_cast<double>(b)));
    }

    // The best evolution_parents usable observations (ties by order told).
    [[nodiscard]] std::vector<std::size_t> parent_indices() const {
        std::vector<std::size_t> idx;
        for (std::size_t i = 0; i < history_.size(); ++i) {
            if (usable(history_[i])) idx.push_back(i);
        }
        const std::size_t p =
            std::min<std::size_t>(idx.size(), static_cast<std::size_t>(options_.evolution_parents));
        std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(p), idx.end(),
                          [&](std::size_t a, std::size_t b) {
                              return history_[a].cost < history_[b].cost ||
                                     (history_[a].cost == history_[b].cost && a < b);
                          });
        idx.resize(p);
        return idx;
    }

    // Gibbon Eq. 4 over the parents, normalised by its maximum log2(min(bins, parents)).
    [[nodiscard]] double entropy(const std::vector<std::size_t>& parents, std::size_t k) const {
        std::vector<double> freq(bins(k), 0.0);
        for (std::size_t i : parents) freq[bin(history_[i].params, k)] += 1.0;
        double h = 0;
        for (double f : freq) {
            if (f > 0) {
                const double q = f / static_cast<double>(parents.size());
                h -= q * std::log2(q);
            }
        }
        const double hmax = std::log2(static_cast<double>(std::min(bins(k), parents.size())));
        return hmax > 0 ? h / hmax : 0.0;
    }

    // Gibbon Eq. 5 over every usable observation, performance being the reciprocal cost
    // (NicePIM's design quality): std over the values' mean performance divided by its max.
    [[nodiscard]] double intensity(std::size_t k) const {
        std::vector<double> sum(bins(k), 0.0), n(bins(k), 0.0);
        double best = 0;
        for (const Observation& o : history_) {
            if (usable(o)) best = std::max(best, 1.0 / o.cost);
        }
        for (const Observation& o : history_) {
            if (!usable(o)) continue;
            const std::size_t b = bin(o.params, k);
            sum[b] += (1.0 / o.cost) / best;  // relative to the best: Eq. 5 is scale-free
            n[b] += 1.0;
        }
        std::vector<double> perf;
        for (std::size_t b = 0; b < sum.size(); ++b) {
            if (n[b] > 0) perf.push_back(sum[b] / n[b]);
        }
        if (perf.size() < 2) return 0.0;
        const double mean = std::accumulate(perf.begin(), perf.end(), 0.0) / static_cast<double>(perf.size());
        double var = 0;
        for (double v : perf) var += (v - mean) * (v - mean);
        const double sd = std::sqrt(var / static_cast<double>(perf.size()));
        const double top = *std::max_element(perf.begin(), perf.end());
        return top > 0 ? sd / top : 0.0;
    }

    ParamWeights priority_;
    int rows_ = 0;
};

}  // namespace

std::unique_ptr<Proposer> make_evolution(const ProposerContext& context, const ProposerOptions& options) {
    return std::make_unique<EvolutionProposer>(context, options);
}

}  // namespace pimdse::tuner
