#pragma once
// The order in which rank 0 hands out a batch's candidates: slowest first.
//
// A batch ends with its last result, and one evaluation takes from a tenth of a second (a 2x2
// array) to over ten (16x16), so a slow candidate handed out last leaves every other worker
// idle while it runs. Dispatching the longest jobs first (Graham's LPT rule) bounds a batch's
// wall time by 4/3 of the best possible split; in id order it can be nearly twice that.
//
// Evaluation times are predicted by a log-linear model: ln(seconds) is an affine function of
// the log2 of the design point's parameters, fitted by ridge regression (toward the family's
// prior, family::Family::eval_time_prior) to the evaluations seen so far. The order only decides which
// rank evaluates what and when: rank 0 sorts a batch's results by id before anyone sees them,
// so the output is the same for any order (docs/model.md, "Determinism").

#include <Eigen/Core>

#include <cstddef>
#include <span>
#include <vector>

#include "pimdse/core/design_point.hpp"

namespace pimdse::engine {

class EvalTimeModel {
public:
    using Vector = Eigen::VectorXd;

    /// The prior alone (no evaluation seen): an intercept and one slope per parameter.
    explicit EvalTimeModel(Vector prior);

    /// One finished evaluation of `p` that took `seconds` (> 0; others are ignored).
    void observe(const DesignPoint& p, double seconds);

    /// The predicted wall time of evaluating `p`, in seconds.
    [[nodiscard]] double predict(const DesignPoint& p) const;

    /// The current coefficients: ln(seconds) = c[0] + sum_i c[1 + i] log2(param i).
    [[nodiscard]] const Vector& coefficients() const;

    [[nodiscard]] std::size_t observations() const { return observations_; }

    /// Weight of the prior on the slopes, in observations: it decides the order of the first
    /// batch and fades as evaluations come in.
    static constexpr double kPriorWeight = 1.0;

private:
    [[nodiscard]] Vector features(const DesignPoint& p) const;

    Vector prior_;
    Eigen::MatrixXd gram_;  // sum of x x^T
    Vector moment_;         // sum of x ln(seconds)
    std::size_t observations_ = 0;
    mutable Vector coefficients_;
    mutable bool stale_ = false;
};

/// The indices of `points`, slowest predicted first (ties: lower index first).
[[nodiscard]] std::vector<std::size_t> slowest_first(std::span<const DesignPoint> points,
                                                     const EvalTimeModel& model);

}  // namespace pimdse::engine
