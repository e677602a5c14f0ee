#pragma once
// The Data-Scheduler of NicePIM VII: one ILP (Eq. 2-4) chooses the Hamilton cycles of all
// sharing sets of a data-sharing event at once so that the heaviest mesh link of a step is
// as light as possible. Solved with COIN-OR CBC/Clp behind the solver module's adapter
// (solver/mip.hpp). docs/model.md, section "Data-Scheduler", states the formulation, the
// solution strategy and the measurements.

#include <chrono>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "pimdse/core/schedule_options.hpp"
#include "pimdse/sched/schedule_status.hpp"
#include "pimdse/sched/tsp_scheduler.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sched {

namespace detail {
class Solver;   // the phases after the warm start (src/sched/ilp_solver.hpp)
struct VarSet;  // a set whose cycle is a decision
}  // namespace detail

// Defaults of IlpOptions and of the `schedule:` section (core/schedule_options.hpp).
using pimdse::kDefaultTimeLimitSeconds;
using pimdse::kDefaultWorkLimit;

struct IlpOptions {
    /// Work limit of one solve: simplex iterations of all its LPs (Clp's and those inside
    /// CBC), >= 1. Deterministic: past it the incumbent is used, at the same point on any
    /// machine (status work_limit_incumbent). The default lets every event of the default
    /// sweep and of docs/model.md's measurements that finished within the old 1 s limit
    /// finish unchanged (docs/model.md, "Work limit, time limit, gap and status").
    std::int64_t work_limit = kDefaultWorkLimit;
    /// Wall-clock safety net of one solve, seconds (> 0), everything included. Past it the
    /// incumbent is used (status time_limit_incumbent), which depends on the machine's speed
    /// and load: it should never bind before the work limit.
    double time_limit_seconds = kDefaultTimeLimitSeconds;
    /// Stop once (incumbent - bound) / incumbent <= this; 0 asks for proven optimality.
    double relative_gap = 0.0;
    /// The solution phases after the warm start and the combinatorial bound (all on by
    /// default; switched off only to measure what each contributes, see bench_sched).
    bool pool = true;               ///< restricted master over the baselines and all min-hop cycles
    bool column_generation = true;  ///< price cycles by Held-Karp on the link duals (bound + columns)
    bool compact = true;            ///< the full Eq. 2-4 model on CBC for what is left
    /// Largest compact model (binaries) built; above, the incumbent is kept with its bound.
    /// Building and presolving a model of 16 000 binaries (four sets of 64) takes ~0.6 s
    /// before Clp can look at the clock, and such a model gets nowhere within seconds;
    /// 10 000 keeps Fig. 12's 16 x 16 model (3840) and several sets of up to 50 members.
    std::int64_t max_compact_binaries = 10000;
    /// Let CBC print its log to stdout (off: library code stays quiet).
    bool log = false;
};

/// Throws ModelError for a time limit not in (0, infinity), a work limit < 1, a gap not in
/// [0, infinity) or a compact size < 1: the same limits as validate(ScheduleOptions).
void validate(const IlpOptions& options);

/// What settled the answer (the last phase that ran).
enum class IlpPhase : std::uint8_t {
    trivial,            ///< no set with a choice (every set has fewer than three members)
    warm_start,         ///< the warm start met the combinatorial bound
    pool,               ///< the restricted master over the initial pool
    column_generation,  ///< column generation (its bound and/or the master over its columns)
    compact,            ///< the compact Eq. 2-4 model on CBC
};

[[nodiscard]] const char* to_string(IlpPhase phase) noexcept;

struct IlpResult {
    /// One cycle per input set, same order; always valid (validate_cycles).
    std::vector<sim::SharingCycle> cycles;
    /// Heaviest mesh link of one step for `cycles`, flits.
    std::int64_t max_link_flits = 0;
    /// NicePIM Eq. 4: the heaviest link of the best cycles the solver found, flits. Equal
    /// to max_link_flits unless `latency_fallback`.
    std::int64_t objective_flits = 0;
    /// Lower bound on Eq. 4 proven for every choice of cycles, flits.
    std::int64_t best_bound_flits = 0;
    /// (objective_flits - best_bound_flits) / objective_flits, 0 when proven optimal.
    double gap = 0.0;
    /// True when `cycles` are a baseline's (TSP or the warm start) because they are faster
    /// under the latency model than the solver's despite a heavier link (chunks of a few
    /// flits, where the hop pipeline outweighs link load; docs/model.md).
    bool latency_fallback = false;
    /// How the event was settled (schedule_status.hpp); never `baseline`. When the work or
    /// time limit stopped it, the best cycles found (at worst the warm start); when the
    /// compact model exceeds max_compact_binaries or CBC gave up, the best cycles found too.
    ScheduleStatus status = ScheduleStatus::optimal;
    IlpPhase phase = IlpPhase::trivial;
    /// Why the status is not optimal (CBC's codes, the size cap...); empty otherwise.
    std::string reason;
    /// Wall-clock time of the whole solve, seconds.
    double solve_seconds = 0.0;
    /// Max link load of the warm start (best of snake ring and TSP and their reversals).
    std::int64_t warm_start_flits = 0;
    /// The combinatorial bound alone (max_link_lower_bound), flits.
    std::int64_t combinatorial_bound_flits = 0;
    /// Groups of sets that share no link, solved separately.
    std::size_t components = 0;
    /// Columns (cycles) in the restricted masters, over all components.
    std::size_t columns = 0;
    /// Column-generation rounds, over all components.
    std::size_t pricing_rounds = 0;
    /// Simplex iterations spent, the unit of IlpOptions::work_limit.
    std::int64_t simplex_iterations = 0;
};

/// NicePIM Eq. 2-4. Sets with fewer than three members have one cycle only and enter as
/// constant link loads. The cycles returned are those of lowest event latency
/// (share_along_cycles) among the solver's answer, the TSP cycles and the warm start (ties:
/// the lighter heaviest link, then the solver's), so the ILP is never slower than TSP.
/// Events equal up to a common factor of their chunks are solved once (a memo of
/// geometries in load units; sched::DataScheduler caches whole events). The memos make an
/// instance not thread-safe: use one per thread.
class IlpCycleScheduler {
public:
    explicit IlpCycleScheduler(IlpOptions options = {});

    /// Throws std::out_of_range for a member outside the mesh, std::invalid_argument for
    /// repeated members or NoC parameters sim::validate rejects.
    [[nodiscard]] IlpResult solve(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                  const sim::NocParams& noc);

    [[nodiscard]] const IlpOptions& options() const noexcept { return options_; }
    /// The TSP baseline this scheduler warm-starts from, with its memo of set shapes.
    [[nodiscard]] TspCycleScheduler& tsp() noexcept { return tsp_; }
    /// Solves answered from the memo of geometries in load units.
    [[nodiscard]] std::size_t geometry_hits() const noexcept { return geometry_hits_; }

private:
    struct Baselines {
        std::vector<sim::SharingCycle> snake, tsp, warm;
    };
    void add_pools(detail::Solver& solver, const sim::Mesh& mesh, std::span<const detail::VarSet> vars,
                   const Baselines& b, std::span<const std::int64_t> min_hops,
                   std::chrono::steady_clock::time_point deadline);

    // What the phases after the warm start settled for one event, in load units: the
    // answer's cycle orders (one per input set) and the solver's bound, status and counts.
    struct Settled {
        std::vector<std::vector<sim::NodeId>> orders;
        std::int64_t bound_units = 0;
        IlpPhase phase = IlpPhase::trivial;
        ScheduleStatus status = ScheduleStatus::optimal;
        std::string reason;
        std::size_t components = 0, columns = 0, pricing_rounds = 0;
        std::int64_t simplex_iterations = 0;
    };
    static constexpr std::size_t kMaxSettled = 4096;

    [[nodiscard]] Settled run_solver(const sim::Mesh& mesh, std::span<const detail::VarSet> vars,
                                     std::span<const std::int64_t> const_load, const Baselines& b,
                                     std::span<const std::int64_t> min_hops, std::int64_t bound_units,
                                     std::chrono::steady_clock::time_point deadline);
    static void apply(const Settled& s, std::int64_t unit, IlpResult& r);

    IlpOptions options_;
    TspCycleScheduler tsp_;
    // Solved events by their geometry in load units (mesh shape; per set its members in order
    // and its chunk in units): an event whose chunks are those of a solved one times a common
    // factor (other bytes, another flit width) builds the same models and gets the same
    // answer, so only the latency choice of finish() is made again. Events stopped by the
    // wall clock are not kept (their answer depends on the machine).
    std::map<std::vector<std::int64_t>, Settled> settled_;
    std::size_t geometry_hits_ = 0;
    // Min-hop cycles of each set shape, as member-index tours (see hamilton.hpp).
    std::map<std::vector<std::int32_t>, std::vector<std::vector<std::uint16_t>>> min_hop_cycles_;
};

}  // namespace pimdse::sched
