#pragma once
// The seam of the model-based proposers ("gp", "nicepim", "xgboost"; docs/tuner.md): one
// proposer (model_proposer.cpp) owns the warm-up, the candidates and the batch, and asks a
// Surrogate, fitted on the history before each model batch, to score the candidates and to
// make the picks it can make itself (the GP's Kriging believer). Private to src/tuner/.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "pimdse/tuner/acquisition.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/gp.hpp"
#include "pimdse/tuner/proposer.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace pimdse::tuner {

/// The targets (lower is better) of a run of observations, one per observation.
using TargetsOf = std::function<std::vector<double>(std::span<const Observation>)>;

/// What a surrogate is fitted from: the observations told, in order, the proposer's
/// encoding, options, seed and stream, and the targets: `targets` (one per observation of
/// `history`) are what the model is conditioned on, `training` gives those of a prefix of the
/// history that a training of parameters uses (a function of the prefix only, so that a
/// cached training never changes a result). `targets_are_training`: `targets` is
/// `training(history)`, so a training on the whole history may condition on its own data.
struct FitInput {
    std::span<const Observation> history;
    const Encoding& encoding;
    const ProposerOptions& options;
    std::uint64_t seed = 0;
    std::uint64_t stream = 0;
    std::span<const double> targets;
    const TargetsOf& training;
    bool targets_are_training = true;
};

/// Row i of x: the model's inputs of point(i), the encoding's coordinates of its features
/// (the parameters of more than one value: a constant input would change a network's initial
/// weights and a kernel's length scales, so an axis fixed to one value leaves every model as
/// it was).
template <typename PointAt>
void encode_rows(const Encoding& encoding, std::size_t n, PointAt point, Matrix& x) {
    const std::vector<std::size_t>& features = encoding.features();
    x.resize(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(features.size()));
    for (std::size_t i = 0; i < n; ++i) {
        const Unit u = encoding.encode(point(i));
        for (std::size_t j = 0; j < features.size(); ++j)
            x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = u[features[j]];
    }
}

/// A batch as the surrogate sees it: every candidate's scores and its own first picks.
struct Choice {
    Scores scores;
    std::vector<std::size_t> picks;  ///< indices of candidates, best first; may be empty
};

class Surrogate {
public:
    virtual ~Surrogate() = default;
    /// Fits the model of one batch. The model must be a function of the input only: a
    /// surrogate may keep a cache between fits that never changes a result.
    virtual void fit(const FitInput& in) = 0;
    /// Scores every row of `x` (encoded candidates) with the acquisition `b` against the
    /// lowest standardised target of the fit, and picks up to q of them if the model can make
    /// a diverse batch itself; the proposer fills the rest by exclusion on the grid.
    [[nodiscard]] virtual Choice choose(const Matrix& x, int q, const BatchOptions& b) const = 0;
};

/// The model-based proposer called `name` drawing from `stream`: uniform legal points until
/// `options.initial_random` observations (two of them successes) exist, then the surrogate's
/// choice over the sampled and mutated candidates.
[[nodiscard]] std::unique_ptr<Proposer> make_model_proposer(std::string_view name,
                                                            const ProposerContext& context,
                                                            const ProposerOptions& options,
                                                            std::uint64_t stream,
                                                            std::unique_ptr<Surrogate> surrogate);

}  // namespace pimdse::tuner
