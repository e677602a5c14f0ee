#pragma once
// Acquisition over sampled candidates and the diverse batch (docs/tuner.md, "Acquisition"):
// expected improvement or a lower confidence bound on the minimised target, and a batch of q
// points chosen by the Kriging believer (Ginsbourger et al. 2010): after each choice the GP is
// told its own mean at the chosen point, which leaves the mean unchanged and shrinks the
// variance around the point, so the next choice goes elsewhere. A batch larger than
// `believer_max` takes its first picks from the believer and the rest by a local-penalisation
// rule on the design grid (fill_by_exclusion), whose cost does not grow with the batch squared.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/core/design_space.hpp"

#include "pimdse/tuner/gp.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace pimdse::tuner {

/// E[max(best - f, 0)] for f ~ N(mean, sd^2): (best - mean) Phi(z) + sd phi(z), z = (best - mean) / sd.
[[nodiscard]] double expected_improvement(double mean, double sd, double best);

/// The score to maximise: EI, or -(mean - kappa sd) for the confidence bound.
[[nodiscard]] double acquisition(AcquisitionKind kind, double mean, double sd, double best, double kappa);

struct BatchOptions {
    AcquisitionKind kind = AcquisitionKind::expected_improvement;
    double kappa = 2.0;
    /// The believer re-scores only the `pool` best candidates of the first scoring (scores
    /// only fall as the believer shrinks variances, so a candidate far down the list rarely
    /// rises to the top); at least 64 per batch point.
    int pool = 1024;
};

/// One scoring of every candidate: posterior mean, latent variance and acquisition score.
struct Scores {
    Vector mean;
    Vector variance;
    std::vector<double> score;
};

/// The scores of candidates whose model gives `mean` and `variance` (of the latent target);
/// `best` is the lowest target observed.
[[nodiscard]] Scores scores_from(Vector mean, Vector variance, double best, const BatchOptions& options);

/// Scores every row of `candidates` (features) in chunks of 2048 rows (one matrix product
/// per chunk); `best` is the lowest target observed.
[[nodiscard]] Scores score_candidates(const GpPosterior& posterior, const Matrix& candidates, double best,
                                      const BatchOptions& options);

/// Up to q indices of rows of `candidates` (features, as the posterior's inputs), best first,
/// chosen by the Kriging believer; `best` is the lowest target observed. Ties go to the lower index.
[[nodiscard]] std::vector<std::size_t> kriging_believer(const GpPosterior& posterior,
                                                        const Matrix& candidates, double best, int q,
                                                        const BatchOptions& options);
/// The same, from scores computed once by score_candidates.
[[nodiscard]] std::vector<std::size_t> kriging_believer(const GpPosterior& posterior,
                                                        const Matrix& candidates, const Scores& scores,
                                                        double best, int q, const BatchOptions& options);

/// Tops `picks` up to q indices of candidates by local penalisation with a hard penaliser of
/// one grid step: walking the candidates by descending `score` (ties: lower index), a candidate
/// is taken unless it, or a point one index step away in one parameter, is already picked.
/// If that pass leaves the batch short, the skipped candidates follow in the same order.
/// `grid[i]` is candidate i's index in the design space. O(S log S + 15 S) hash look-ups.
[[nodiscard]] std::vector<std::size_t> fill_by_exclusion(std::vector<std::size_t> picks,
                                                         std::span<const double> score,
                                                         std::span<const DesignSpace::Index> grid,
                                                         const DesignSpace& space, int q);

}  // namespace pimdse::tuner
