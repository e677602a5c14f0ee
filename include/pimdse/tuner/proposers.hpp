#pragma once
// The proposers of the sweep (docs/tuner.md) behind the Proposer seam of proposer.hpp, made
// by name: "random", "grid", "gp", "nicepim", "annealing", "evolution". Every option has a documented
// default; the config may override them.

#include <memory>
#include <string_view>
#include <vector>

#include "pimdse/tuner/proposer.hpp"

namespace pimdse::tuner {

enum class KernelKind { rbf, matern52 };
enum class AcquisitionKind { expected_improvement, ucb };

struct ProposerOptions {
    // ---- Bayesian proposers ("gp", "nicepim") ---------------------------------------------
    int initial_random = 16;  ///< uniform random points until this many observations exist
    KernelKind kernel = KernelKind::matern52;
    AcquisitionKind acquisition = AcquisitionKind::expected_improvement;
    double ucb_kappa = 2.0;                ///< UCB on the minimised target: mean - kappa * sd
    std::vector<int> hidden{256, 64, 16};  ///< "nicepim": MLP layer widths; the last is the feature size
    int fit_max = 256;                     ///< at most this many observations in one GP fit
    int fit_best = 128;                    ///< of which the lowest-cost ones; the rest uniformly drawn
    /// The network and kernel are retrained when the observations have grown by this factor
    /// since the last training (and conditioned on the current data in between); 1 retrains
    /// for every batch, as NicePIM does (docs/tuner.md, "Scale: retraining").
    double retrain_growth = 1.25;
    int gp_steps = 100;  ///< Adam steps of a plain GP fit
    double gp_learning_rate = 0.05;
    int dkl_steps = 150;  ///< Adam steps of a deep-kernel fit
    double dkl_learning_rate = 0.005;
    double failure_margin = 0.5;   ///< failed/infeasible target: worst log cost + margin * (log-cost range)
    double local_fraction = 0.25;  ///< share of the scored samples that are mutants of the 8 best points
    double local_step = 0.1;       ///< sd of those mutants' Gaussian step in the encoding
    /// Candidates scored per batch: max(samples_per_round, samples_per_candidate x batch size).
    int samples_per_candidate = 4;
    /// Picks of a batch made by the exact Kriging believer (O(pool x picks^2)); the rest of a
    /// larger batch by local penalisation on the design grid (docs/tuner.md, "Large batches").
    int believer_max = 64;

    // ---- "annealing" ------------------------------------------------------------------------
    double anneal_initial_temperature = 1.0;  ///< in units of the observed log costs' standard deviation
    double anneal_cooling = 0.9;              ///< temperature factor per batch
    double anneal_step = 0.15;                ///< neighbour: Gaussian step of this sd in the encoding

    // ---- "evolution" (Gibbon's ESAPP) ----------------------------------------------------
    int evolution_parents = 16;            ///< the best observations that breed each batch
    double evolution_mutation_step = 0.2;  ///< sd of a mutated coordinate's Gaussian step
};

/// The proposer called `name` ("random", "grid", "gp", "nicepim", "annealing", "evolution"). Throws
/// std::invalid_argument for another name or invalid options.
[[nodiscard]] std::unique_ptr<Proposer> make_proposer(std::string_view name, const ProposerContext& context,
                                                      const ProposerOptions& options = {});

/// The names make_proposer accepts, in the order of docs/tuner.md.
[[nodiscard]] const std::vector<std::string_view>& proposer_names();

}  // namespace pimdse::tuner
