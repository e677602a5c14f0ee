#pragma once
// The ask/tell seam between the sweep driver and every proposer (docs/architecture.md,
// "Where to add"): rank 0 asks a proposer for a batch of design points, the engine
// evaluates them on the workers, and tells the proposer the results sorted by candidate id.
// Proposers never call the evaluator, never see MPI or HDF5, and are deterministic for a seed.
//
// Contract that makes resume and any-rank-count determinism work: the points returned by
// propose() depend only on (the proposer's kind and options, the seed, the batch index, and
// the observations told so far, in order). A resumed sweep builds a fresh proposer, tells it
// every stored batch through observe(), sets the next batch index and continues; it must
// propose exactly what the uninterrupted run proposed. Proposers may cache (a fitted model),
// but a cache must never change a result. Points proposed earlier but not yet observed (the
// batches in flight under the engine's lag) are told through exclude() before each propose(),
// so that no point is evaluated twice; the engine tells a resumed proposer the same points.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/design_point.hpp"
#include "pimdse/core/design_space.hpp"
#include "pimdse/tuner/encoding.hpp"

namespace pimdse::tuner {

/// How one candidate's evaluation ended, as the proposer sees it.
enum class Outcome : std::uint8_t {
    ok,          ///< evaluated; cost and objectives are finite
    infeasible,  ///< some workload could not be mapped (e.g. weights exceed DRAM)
    failed,      ///< the evaluation threw or hit its time limit
};

/// One evaluated candidate.
struct Observation {
    std::int64_t candidate = 0;  ///< the candidate id (0, 1, 2, ... over the whole sweep)
    DesignPoint params;
    Outcome outcome = Outcome::ok;
    double cost = 0;                 ///< NicePIM Eq. 1 over the workloads; +inf unless ok
    std::vector<double> objectives;  ///< the archive's objectives (minimised), e.g. latency, energy, area
};

/// What every proposer is built from.
struct ProposerContext {
    DesignSpace space;   ///< the family's configured space
    LegalityTest legal;  ///< the family's legality, area budget included
    std::uint64_t seed = 1;
    int samples_per_round = 16384;  ///< legal points a model-based proposer scores per batch
    int batch_size = 0;             ///< the sweep's batch size ("amosa" runs as many chains); 0: unknown
    /// The filter's second level (`cheap_fidelity`): NicePIM Eq. 1's cost of each point
    /// evaluated at the cheap fidelity, in the order given, +inf where that evaluation is not
    /// ok. Each cost is a pure function of its point (no wall-clock limit), so that proposals
    /// stay deterministic. One call per proposal with all its points: the engine spreads them
    /// over its workers and the call blocks until every cost is back; it may throw to abandon
    /// the proposal (the sweep stopping), and the proposer is not used after that. Empty when
    /// not configured.
    std::function<std::vector<double>(std::span<const DesignPoint>)> cheap_costs;
};

/// What the last propose() did, for the per-batch tuner rows of the output file.
struct ProposalStats {
    double fit_seconds = 0;      ///< fitting the surrogate model (0 without a model)
    double propose_seconds = 0;  ///< sampling and scoring, excluding the fit
    std::int64_t samples = 0;    ///< points sampled and scored
    /// The model's prediction for each point returned, in the order returned, made before any
    /// is evaluated; lower is better. Empty when the batch had no model (warm-up, random).
    std::vector<double> predicted;
    /// `predicted` is NicePIM Eq. 1's cost itself (the filter's predictor), not a model's
    /// standardised target: only then is its relative error meaningful.
    bool predicted_is_cost = false;
    /// The cheap fidelity's Eq. 1 cost of each point returned, in the order returned (+inf
    /// where that evaluation was not ok); empty without the filter's second level.
    std::vector<double> cheap;
    /// Getting this proposal's cheap costs: waiting for the workers, or evaluating them alone;
    /// part of propose_seconds.
    double cheap_seconds = 0;
};

class Proposer {
public:
    virtual ~Proposer() = default;

    /// The config name: "random", "grid", "annealing", "evolution", "gp", "nicepim", "amosa",
    /// "xgboost".
    [[nodiscard]] virtual std::string_view name() const = 0;

    /// Up to `count` legal points (the family's legality test passes, area included) for batch `batch`
    /// (0-based), distinct from each other, from every point observed so far and from every
    /// point excluded. Fewer only when the space has no such point left; none when it is
    /// exhausted.
    [[nodiscard]] virtual std::vector<DesignPoint> propose(std::int64_t batch, int count) = 0;

    /// Points already proposed whose results have not been told yet (the batches in flight):
    /// no later proposal returns them. Telling a point again, or observing it later, is
    /// harmless.
    virtual void exclude(std::span<const DesignPoint> points) = 0;

    /// How many observations must exist before a proposal can use the proposer's model: 0
    /// for a proposer without one. A function of the proposer's name and options only; the
    /// engine holds back the first batch past it until that many are observed
    /// (docs/engine.md, "The protocol").
    [[nodiscard]] virtual std::int64_t warmup() const { return 0; }

    /// The results of one batch, sorted by candidate id.
    virtual void observe(std::span<const Observation> batch) = 0;

    [[nodiscard]] virtual ProposalStats last_stats() const { return {}; }
};

}  // namespace pimdse::tuner
