#pragma once
// Acquisition over sampled candidates and the diverse batch (docs/tuner.md, "Acquisition"):
// expected improvement or a lower confidence bound on the minimised target, and a batch of q
// points chosen by the Kriging believer (Ginsbourger et al. 2010): after each choice the GP is
// told its own mean at the chosen point, which leaves the mean unchanged and shrinks the
// variance around the point, so the next choice goes elsewhere.

#include <cstddef>
#include <vector>

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

/// Up to q indices of rows of `candidates` (features, as the posterior's inputs), best first,
/// chosen by the Kriging believer; `best` is the lowest target observed. Ties go to the lower index.
[[nodiscard]] std::vector<std::size_t> kriging_believer(const GpPosterior& posterior,
                                                        const Matrix& candidates, double best, int q,
                                                        const BatchOptions& options);

}  // namespace pimdse::tuner
