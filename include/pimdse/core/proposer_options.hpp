#pragma once
// The proposers' options (docs/tuner.md): the `sweep.proposer_options:` section of a
// configuration (docs/config.md). Plain values with no behaviour: the proposers that read
// them live in tuner (tuner/proposers.hpp, which re-exports these names), and the
// configuration reader (io) fills them in without depending on the tuner or on Eigen
// (docs/architecture.md, "Why io sits beside sim").

#include <vector>

#include "pimdse/core/enum_names.hpp"

namespace pimdse {

/// The Gaussian process's covariance.
enum class KernelKind { rbf, matern52 };
inline constexpr EnumNames<KernelKind, 2> kKernelKindNames{
    {{KernelKind::rbf, "rbf"}, {KernelKind::matern52, "matern52"}}};

/// What the Bayesian proposers maximise over the scored samples.
enum class AcquisitionKind { expected_improvement, ucb };
inline constexpr EnumNames<AcquisitionKind, 2> kAcquisitionKindNames{
    {{AcquisitionKind::expected_improvement, "expected_improvement"}, {AcquisitionKind::ucb, "ucb"}}};

/// What the model-based proposers' fits target (docs/tuner.md, "Multi-objective proposals"):
/// the log of NicePIM Eq. 1's cost, or ParEGO's augmented Tchebycheff scalarisation of the
/// archive's objectives under a random weight vector per group of batch slots.
enum class Scalarisation { eq1, parego };
inline constexpr EnumNames<Scalarisation, 2> kScalarisationNames{
    {{Scalarisation::eq1, "eq1"}, {Scalarisation::parego, "parego"}}};

/// What the GP-based proposers condition on once the history outgrows `fit_max` (docs/tuner.md,
/// "Scale: every observation"): the fitted subset exactly, or every observation through the
/// FITC sparse approximation with the fitted subset as its inducing points.
enum class GpPosteriorKind { subset, fitc };
inline constexpr EnumNames<GpPosteriorKind, 2> kGpPosteriorKindNames{
    {{GpPosteriorKind::subset, "subset"}, {GpPosteriorKind::fitc, "fitc"}}};

/// The predictor of the candidate filter (docs/tuner.md, "Predictor filter"): none (off), boosted
/// trees on XGBoost, or a plain Gaussian process, fitted on the sweep's successful evaluations.
enum class FilterPredictor { none, xgboost, gp };
inline constexpr EnumNames<FilterPredictor, 3> kFilterPredictorNames{
    {{FilterPredictor::none, "none"}, {FilterPredictor::xgboost, "xgboost"}, {FilterPredictor::gp, "gp"}}};

/// The filter's second level (docs/tuner.md, "Cheap fidelity"): none (off), or the candidate's
/// evaluation at a cheaper fidelity: its mapping costed with the snake ring instead of the
/// configured Data-Scheduler, the PIM-Mapper run for one round instead of three, or both.
enum class CheapFidelity { none, snake, one_round, snake_one_round };
inline constexpr EnumNames<CheapFidelity, 4> kCheapFidelityNames{
    {{CheapFidelity::none, "none"},
     {CheapFidelity::snake, "snake"},
     {CheapFidelity::one_round, "one_round"},
     {CheapFidelity::snake_one_round, "snake_one_round"}}};

/// The options of every proposer; each reads those of its own.
struct ProposerOptions {
    // ---- Bayesian proposers ("gp", "nicepim"; "xgboost" shares the batch options) -----------
    int initial_random = 16;  ///< uniform random points until this many observations exist
    KernelKind kernel = KernelKind::matern52;
    AcquisitionKind acquisition = AcquisitionKind::expected_improvement;
    double ucb_kappa = 2.0;                ///< UCB on the minimised target: mean - kappa * sd
    std::vector<int> hidden{256, 64, 16};  ///< "nicepim": MLP layer widths; the last is the feature size
    int fit_max = 256;   ///< at most this many observations in one GP training (fitc: inducing points)
    int fit_best = 128;  ///< of which the lowest-cost ones; the rest uniformly drawn
    /// subset: the posterior conditions on the fitted subset only; fitc: on every observation,
    /// the fitted subset being the inducing points (docs/tuner.md, "Scale: every observation").
    GpPosteriorKind posterior = GpPosteriorKind::fitc;
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
    /// eq1: every fit targets log(cost); parego: each group of a batch's slots targets its own
    /// random scalarisation of the objectives (docs/tuner.md, "Multi-objective proposals").
    Scalarisation scalarisation = Scalarisation::eq1;
    int parego_weights = 8;  ///< parego: at most this many weight vectors (groups of slots) per batch

    // ---- "annealing" ------------------------------------------------------------------------
    double anneal_initial_temperature = 1.0;  ///< in units of the observed log costs' standard deviation
    double anneal_cooling = 0.9;              ///< temperature factor per batch
    double anneal_step = 0.15;                ///< neighbour: Gaussian step of this sd in the encoding

    // ---- "evolution" (Gibbon's ESAPP) ----------------------------------------------------
    int evolution_parents = 16;            ///< the best observations that breed each batch
    double evolution_mutation_step = 0.2;  ///< sd of a mutated coordinate's Gaussian step

    // ---- "amosa" (archived multi-objective simulated annealing, docs/tuner.md) ------------
    double amosa_t_max = 200;    ///< T_max: the temperature the schedule starts (and restarts) at
    double amosa_t_min = 1e-7;   ///< T_min: below it the schedule restarts at T_max
    double amosa_alpha = 0.8;    ///< the cooling factor of the geometric schedule
    int amosa_iterations = 500;  ///< evaluations told per temperature (over all chains)
    int amosa_hard_limit = 100;  ///< HL: the archive's size after clustering
    int amosa_soft_limit = 110;  ///< SL: the archive is clustered when it grows past this
    double amosa_step = 0.15;    ///< a neighbour's Gaussian step (sd) in the encoding

    // ---- "xgboost" (boosted trees as the suggestion model, docs/tuner.md) -----------------
    int xgb_trees = 100;    ///< boosting rounds of each booster
    int xgb_depth = 6;      ///< max_depth of a tree (XGBoost's default)
    double xgb_eta = 0.3;   ///< learning rate (XGBoost's default)
    int xgb_ensemble = 10;  ///< boosters on bootstrap resamples: their spread is the model's sd

    // ---- the predictor filter, around any proposer (docs/tuner.md, "Predictor filter") ------
    FilterPredictor filter = FilterPredictor::none;  ///< none: every proposed point is evaluated
    int filter_pool = 8;  ///< the proposer proposes filter_pool x batch points; the best batch are kept
    /// none: the predictor keeps the batch. Otherwise the predictor keeps cheap_pool x batch
    /// of the pool, each is evaluated at this fidelity, and the batch of lowest cheap cost is kept.
    CheapFidelity cheap_fidelity = CheapFidelity::none;
    int cheap_pool = 2;  ///< points per batch slot the cheap fidelity ranks (<= filter_pool)

    friend bool operator==(const ProposerOptions&, const ProposerOptions&) = default;
};

}  // namespace pimdse
