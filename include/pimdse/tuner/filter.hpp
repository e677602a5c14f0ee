#pragma once
// The predictor filter (docs/tuner.md, "Predictor filter"), after Gibbon's multilevel joint
// simulator (Sun et al., "Gibbon: Efficient Co-Exploration of NN Model and Processing-In-Memory
// Architecture", §V-VI): any proposer is asked for `filter_pool` times the batch, a predictor
// fitted on the sweep's successful evaluations ranks that pool, and only the best-predicted
// batch goes to the workers; with `cheap_fidelity` the predictor keeps `cheap_pool` times the
// batch instead, each of those is evaluated at a cheap fidelity (on the engine's workers), and the batch of
// lowest cheap cost goes to the workers (docs/tuner.md, "Cheap fidelity"). This module owns the predictor
// (CostPredictor), the choice of the kept points (best_predicted) and the Proposer that wraps another one
// (make_filtered).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "pimdse/core/proposer_options.hpp"
#include "pimdse/tuner/boosted_trees.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/model.hpp"
#include "pimdse/tuner/proposer.hpp"

namespace pimdse::tuner {

/// The indices of the `count` lowest of `predicted` (all when fewer), lowest first; ties and
/// NaN (which go last) keep the lower index first.
[[nodiscard]] std::vector<std::size_t> best_predicted(std::span<const double> predicted, int count);

/// NicePIM Eq. 1's cost predicted from the design point: boosted trees (an ensemble of
/// xgb_ensemble boosters, their mean) or a plain GP (on at most fit_max observations, the
/// fit_best lowest and the rest drawn), on the log cost of the successful observations,
/// standardised. A fit is a function of (kind, options, seed, those observations in order).
class CostPredictor {
public:
    CostPredictor(FilterPredictor kind, const DesignSpace& space, const ProposerOptions& options,
                  std::uint64_t seed);

    /// Fits on the observations of `history` whose outcome is ok; false (and no model) when
    /// fewer than two are. Refits only when that count changed (the history only grows).
    bool fit(std::span<const Observation> history);
    /// The predicted cost of every point, after a fit that returned true.
    [[nodiscard]] std::vector<double> predict(std::span<const DesignPoint> points) const;

private:
    FilterPredictor kind_;
    Encoding encoding_;
    ProposerOptions options_;
    std::uint64_t seed_;
    std::size_t fitted_ = 0;       // successful observations of the fit
    double mean_ = 0, scale_ = 1;  // of the log costs: the model predicts (log cost - mean) / scale
    std::optional<BoostedEnsemble> trees_;
    std::unique_ptr<DeepKernelGp> gp_;
};

/// `inner` behind the predictor filter of `options.filter` and `options.filter_pool` (one of
/// filter and cheap_fidelity not none): propose(k, n) asks inner for filter_pool x n points and
/// keeps the n best predicted, whose predicted costs it reports in last_stats(); before two
/// successes (or with filter none) it keeps inner's first n. With cheap_fidelity it keeps
/// cheap_pool x n that way, scores them with one call of context.cheap_costs and keeps the n cheapest,
/// reporting their cheap costs (ProposalStats::cheap) beside the predictions.
[[nodiscard]] std::unique_ptr<Proposer> make_filtered(std::unique_ptr<Proposer> inner,
                                                      const ProposerContext& context,
                                                      const ProposerOptions& options);

}  // namespace pimdse::tuner
