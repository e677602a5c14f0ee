#pragma once
// How well a predictor ranks design points (Gibbon Eq. 6): Kendall's rank correlation of
// predicted against evaluated values. A predictor that filters candidates is judged by its
// ranking, not by its linear fit: [0, 0.49, 0.5, 0.51, 1] against [0, 0.51, 0.5, 0.49, 1]
// correlate linearly at 0.9992 but rank at 0.4 (Gibbon's own example).

#include <span>
#include <vector>

namespace pimdse::tuner {

/// Kendall's tau as Gibbon Eq. 6 defines it: the sum over pairs i < j of
/// sign(truth_i - truth_j) * sign(predicted_i - predicted_j), over the M (M - 1) / 2 pairs.
/// A tie in either sequence contributes 0 (tau-a). 1: the same order; -1: reversed.
/// Throws ModelError unless both have the same length, at least 2, and no NaN.
[[nodiscard]] double kendall_tau(std::span<const double> truth, std::span<const double> predicted);

/// How well one batch's predictions, made before it was evaluated, matched the evaluations.
struct PredictionQuality {
    double tau = 0;    ///< kendall_tau of the ok candidates' true costs against their predictions
    double error = 0;  ///< median over them of |predicted - true| / true
};

/// The quality of predictions `predicted` (one per candidate of a batch, lower is better)
/// against the candidates' true Eq. 1 costs `cost` (+inf or NaN unless the evaluation was ok):
/// over the candidates whose cost is finite, Kendall's tau and, when `predicted_is_cost`, the
/// median relative error (NaN otherwise). Both NaN when `predicted` is empty or fewer than two
/// costs are finite. Throws ModelError unless the spans have one length (or `predicted` is empty).
[[nodiscard]] PredictionQuality prediction_quality(std::span<const double> predicted,
                                                   std::span<const double> cost, bool predicted_is_cost);

}  // namespace pimdse::tuner
