#pragma once
// One candidate's evaluation (docs/architecture.md, "The path of one candidate"): every workload DNN is
// mapped onto the hardware point and costed by the network timeline; the candidate gets its
// area and the NicePIM Eq. 1 cost over all workloads. A pure function of (context, candidate):
// no global state, no dependence on rank, time or order, which is what makes a sweep's file
// the same for any number of ranks. Outcomes expected during a search are a status with a
// message, never an exception: an exception inside becomes `failed`, a spent work limit
// `work_limit`, a wall-clock safety net that fired `timeout`.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/deadline.hpp"
#include "pimdse/core/design_point.hpp"
#include "pimdse/core/enum_names.hpp"
#include "pimdse/core/proposer_options.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::eval {

/// How one candidate's evaluation ended. The values are stored in output files: append only.
enum class Status : std::int32_t {
    ok,          ///< every workload mapped and costed; the cost is finite
    infeasible,  ///< some workload has no feasible mapping (e.g. weights exceed a node's DRAM)
    failed,      ///< the evaluation threw; the message says what
    /// A wall-clock safety net fired: the per-candidate time limit expired, or an ILP event
    /// hit `schedule.time_limit`. The one status that depends on the machine's speed and load.
    timeout,
    /// The per-candidate work limit (`engine.work_limit`, mapper steps) ran out before every
    /// workload was costed. Deterministic: the same candidate runs out on any machine.
    work_limit,
};
inline constexpr std::size_t kStatusCount = 5;
inline constexpr EnumNames<Status, kStatusCount> kStatusNames{{{Status::ok, "ok"},
                                                               {Status::infeasible, "infeasible"},
                                                               {Status::failed, "failed"},
                                                               {Status::timeout, "timeout"},
                                                               {Status::work_limit, "work_limit"}}};
/// "ok", "infeasible", "failed", "timeout", "work_limit"
[[nodiscard]] std::string_view to_string(Status s) noexcept;

/// One workload DNN, decomposed once per sweep.
struct Workload {
    workload::Network network;
    workload::Segmentation segmentation;
    double weight = 1.0;  ///< gamma of NicePIM Eq. 1
};

/// Testing only (docs/config.md, `engine.fault_injection`): candidates whose evaluation is
/// made to throw, or to stall (sleep kStallSeconds, then end as if its work limit had run
/// out: a deterministic outcome with a moment to kill the run in), so that tests can check
/// that a sweep records such candidates and goes on.
struct FaultInjection {
    static constexpr double kStallSeconds = 5.0;
    std::vector<std::int64_t> throw_candidates;
    std::vector<std::int64_t> stall_candidates;
    [[nodiscard]] bool empty() const noexcept { return throw_candidates.empty() && stall_candidates.empty(); }
};

/// Everything an evaluation depends on besides the candidate; read-only during a sweep.
struct EvalContext {
    hw::Constraints constraints;
    hw::Technology technology;
    std::vector<Workload> workloads;
    double alpha = 1.0;                      ///< energy exponent of Eq. 1
    double beta = 1.0;                       ///< latency exponent of Eq. 1
    sched::ScheduleOptions schedule;         ///< how data-sharing events are scheduled (`schedule:`)
    sim::ModelOptions model;                 ///< the node model and the timeline (`model:`)
    std::optional<std::int64_t> work_limit;  ///< mapper steps per candidate (`engine.work_limit`)
    /// Keep each data-sharing event's schedule (NetworkResult::schedules, the /schedules
    /// table): costs a TSP and an SHP baseline per event of the costed mapping.
    bool record_schedules = false;
    FaultInjection faults;
    /// The fidelity (docs/tuner.md, "Cheap fidelity"); the defaults are the full evaluation.
    /// Cost every mapping with the snake ring instead of the `schedule` Data-Scheduler.
    bool snake_costing = false;
    std::int32_t mapper_rounds = 3;  ///< PIM-Mapper rounds (MAX_OPTIM_ITER of NicePIM Algorithm 1)
};

/// `full` at the cheap fidelity `fidelity` (snake: snake_costing; one_round: mapper_rounds 1),
/// keeping no schedules and injecting no faults; `full` itself for CheapFidelity::none.
[[nodiscard]] EvalContext at_fidelity(EvalContext full, CheapFidelity fidelity);

struct Candidate {
    std::int64_t id = 0;  ///< 0, 1, 2, ... over the whole sweep
    hw::HardwareParams params;
};

/// One data-sharing event of the costed mapping (NicePIM VII) and how the configured
/// Data-Scheduler settled it: a row of the sweep file's /schedules (docs/output.md).
struct EventSchedule {
    workload::LayerIndex layer = 0;
    std::int32_t event = 0;  ///< index among the layer's events, in the order they run
    sim::SharingKind kind = sim::SharingKind::inputs;
    sched::ScheduleRecord record;  ///< sets, chosen cycles' cost, solver status, baselines
};

/// The events of every layer of `mapping` whose cost is ok, each scheduled with
/// `scheduler`'s record (DataScheduler::schedule: the cached ILP answer of the costing,
/// plus the TSP and SHP baselines of the same event).
[[nodiscard]] std::vector<EventSchedule> schedule_events(
    const workload::Network& network, const workload::Segmentation& seg, const sim::NetworkMapping& mapping,
    const sim::NetworkCost& cost, const sim::System& system, sched::DataScheduler& scheduler);

/// One workload's result: its mapping and the timeline's cost of it.
struct NetworkResult {
    sim::NetworkMapping mapping;
    sim::NetworkCost cost;
    double cost_term = 0;                  ///< this network's term of Eq. 1 (+inf when infeasible)
    std::vector<EventSchedule> schedules;  ///< per data-sharing event, when EvalContext::record_schedules
    /// The energy components of `cost`, pJ, in the order of the family's energy parts
    /// (family::Family::energy_parts): the /metrics columns after energy_j, written in J.
    std::vector<double> energy_parts_pj;
};

struct Evaluation {
    std::int64_t candidate = 0;
    DesignPoint point;  ///< the candidate's design point (its family's parameters)
    Status status = Status::ok;
    std::string message;                  ///< why, unless ok
    double area_mm2 = 0;                  ///< NN engines of all nodes (what the area budget covers)
    double area_total_mm2 = 0;            ///< with routers and DRAM controllers
    std::vector<NetworkResult> networks;  ///< in workload order; only those costed before a failure
    double latency_seconds = 0;           ///< sum over the costed workloads
    double energy_joules = 0;             ///< sum over the costed workloads
    double cost = 0;                      ///< NicePIM Eq. 1 over all workloads; +inf unless ok
    /// The family's per-candidate metrics (family::Family::metrics), in its order; NaN where
    /// missing. Empty for a family with none.
    std::vector<double> metrics;
    double seconds = 0;  ///< wall time of the evaluation (the one non-deterministic field)
};

/// Thrown by map_network (and anything below it) when the deadline has passed; evaluate()
/// turns it into Status::timeout.
class DeadlineExpired : public std::runtime_error {
public:
    DeadlineExpired() : std::runtime_error("the per-candidate time limit expired") {}
};

/// Thrown by StepBudget::step past the limit; evaluate() turns it into Status::work_limit.
class WorkLimitReached : public std::runtime_error {
public:
    explicit WorkLimitReached(const std::string& what) : std::runtime_error(what) {}
};

/// The per-candidate work limit (`engine.work_limit`), counted in mapper steps: one per
/// workload and one per check of the mapper's cancellation hook (each segment of each search
/// round, each layout tried, each baseline compared). The mapper is deterministic, so a
/// candidate takes the same steps on any machine and runs out at the same point; the count
/// is machine-independent where a wall-clock limit is not.
class StepBudget {
public:
    explicit StepBudget(std::optional<std::int64_t> limit = std::nullopt) : limit_(limit) {}
    /// Counts one step; throws WorkLimitReached once more than the limit have been taken.
    void step() {
        ++used_;
        if (limit_ && used_ > *limit_) {
            throw WorkLimitReached("the per-candidate work limit (engine.work_limit = " +
                                   std::to_string(*limit_) + " mapper steps) ran out");
        }
    }
    [[nodiscard]] std::int64_t used() const noexcept { return used_; }
    [[nodiscard]] const std::optional<std::int64_t>& limit() const noexcept { return limit_; }

private:
    std::optional<std::int64_t> limit_;
    std::int64_t used_ = 0;
};

/// The network mapping of one workload on one system: the single place where the sweep
/// decides a mapping, the PIM-Mapper (docs/mapper.md), with a fresh node model of the kind
/// `model` names, run for `rounds` rounds of Algorithm 1. `scheduler` costs the candidate mappings it
/// compares at the end (the Data-Scheduler the evaluation uses). Counts its steps in `steps` (throws
/// WorkLimitReached past the limit) and checks `deadline` cooperatively (throws
/// DeadlineExpired once it has passed).
[[nodiscard]] sim::NetworkMapping map_network(const workload::Network& network,
                                              const workload::Segmentation& seg, const sim::System& system,
                                              const sim::ModelOptions& model,
                                              sim::SharingScheduler& scheduler, const Deadline& deadline,
                                              StepBudget& steps, std::int32_t rounds = 3);

/// Evaluates `candidate` on every workload of `context`. Never throws for a candidate's own
/// failure: the status and message say what happened.
[[nodiscard]] Evaluation evaluate(const EvalContext& context, const Candidate& candidate,
                                  const Deadline& deadline);

}  // namespace pimdse::eval
