#pragma once
// ParEGO's scalarisation of the archive's objectives (Knowles, "ParEGO: A Hybrid Algorithm
// With On-Line Landscape Approximation for Expensive Multiobjective Optimization Problems",
// IEEE TEC 10(1), 2006; docs/tuner.md, "Multi-objective proposals"): weight vectors drawn
// uniformly on the simplex, the observations' objectives normalised to [0, 1] over their
// observed ranges, and the augmented Tchebycheff function that turns them into the one
// target a model-based proposer fits, failures imputed as log_cost_targets does.

#include <cstddef>
#include <span>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/proposer.hpp"

namespace pimdse::tuner {

/// rho of the augmented Tchebycheff function (Knowles 2006, section III-B).
inline constexpr double kTchebycheffRho = 0.05;

/// `count` weight vectors of `objectives` entries, each uniform on the simplex (a flat
/// Dirichlet: normalised standard exponentials), drawn in order from `rng`.
[[nodiscard]] std::vector<std::vector<double>> simplex_weights(Rng& rng, int count, std::size_t objectives);

/// max_i(w_i f_i) + rho * sum_i(w_i f_i). Sizes must match.
[[nodiscard]] double augmented_tchebycheff(std::span<const double> f, std::span<const double> w,
                                           double rho = kTchebycheffRho);

/// The observations' objectives normalised to [0, 1]: per objective, over the usable
/// observations (ok, every objective finite), log(f) when every such value is positive
/// (latency, energy, area and the other objectives of a sweep span decades; the log keeps
/// the good end of the range resolved) and f otherwise, mapped linearly from its observed
/// [min, max] to [0, 1] (to 0 when the range is empty). Rows of unusable observations are
/// empty.
class NormalisedObjectives {
public:
    /// Throws ModelError when usable observations disagree on the number of objectives;
    /// with none usable, objectives() is 0.
    explicit NormalisedObjectives(std::span<const Observation> history);

    [[nodiscard]] std::size_t objectives() const { return objectives_; }
    [[nodiscard]] const std::vector<std::vector<double>>& rows() const { return rows_; }
    /// Whether objective k was taken in log.
    [[nodiscard]] bool logged(std::size_t k) const { return logged_[k]; }

    /// The scalarised target of every observation under `weights` (lower is better): the
    /// augmented Tchebycheff value of a usable one, and for the others the worst usable
    /// value plus failure_margin times the usable values' spread (1 if none), as
    /// log_cost_targets imputes failures. All 0 when no observation is usable.
    [[nodiscard]] std::vector<double> targets(std::span<const double> weights, double failure_margin) const;

private:
    std::size_t objectives_ = 0;
    std::vector<bool> logged_;
    std::vector<std::vector<double>> rows_;
};

}  // namespace pimdse::tuner
