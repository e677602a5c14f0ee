#pragma once
// One candidate's evaluation (docs/architecture.md, "The path of one candidate"): every workload DNN is
// mapped onto the hardware point and costed by the network timeline; the candidate gets its
// area and the NicePIM Eq. 1 cost over all workloads. A pure function of (context, candidate):
// no global state, no dependence on rank, time or order, which is what makes a sweep's file
// the same for any number of ranks. Outcomes expected during a search are a status with a
// message, never an exception: an exception inside becomes `failed`, an expired deadline
// `timeout`.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/deadline.hpp"
#include "pimdse/core/enum_names.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/mapping.hpp"
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
    timeout,     ///< the per-candidate time limit expired before every workload was costed
};
inline constexpr std::size_t kStatusCount = 4;
inline constexpr EnumNames<Status, kStatusCount> kStatusNames{{{Status::ok, "ok"},
                                                               {Status::infeasible, "infeasible"},
                                                               {Status::failed, "failed"},
                                                               {Status::timeout, "timeout"}}};
[[nodiscard]] std::string_view to_string(Status s) noexcept;  ///< "ok", "infeasible", "failed", "timeout"

/// One workload DNN, decomposed once per sweep.
struct Workload {
    workload::Network network;
    workload::Segmentation segmentation;
    double weight = 1.0;  ///< gamma of NicePIM Eq. 1
};

/// Testing only (docs/config.md, `engine.fault_injection`): candidates whose evaluation is
/// made to throw, or to stall until its time limit expires, so that tests can check that a
/// sweep records such candidates and goes on.
struct FaultInjection {
    std::vector<std::int64_t> throw_candidates;
    std::vector<std::int64_t> stall_candidates;
    [[nodiscard]] bool empty() const noexcept { return throw_candidates.empty() && stall_candidates.empty(); }
};

/// Everything an evaluation depends on besides the candidate; read-only during a sweep.
struct EvalContext {
    hw::Constraints constraints;
    hw::Technology technology;
    std::vector<Workload> workloads;
    double alpha = 1.0;               ///< energy exponent of Eq. 1
    double beta = 1.0;                ///< latency exponent of Eq. 1
    sched::ScheduleOptions schedule;  ///< how data-sharing events are scheduled (`schedule:`)
    FaultInjection faults;
};

struct Candidate {
    std::int64_t id = 0;  ///< 0, 1, 2, ... over the whole sweep
    hw::HardwareParams params;
};

/// How a data-sharing event was scheduled, as the /schedules table stores it (docs/output.md).
/// The values are stored in output files: append only.
enum class ScheduleMethod : std::int32_t { snake, ilp, tsp, shp };
inline constexpr std::size_t kScheduleMethodCount = 4;
inline constexpr EnumNames<ScheduleMethod, kScheduleMethodCount> kScheduleMethodNames{
    {{ScheduleMethod::snake, "snake"},
     {ScheduleMethod::ilp, "ilp"},
     {ScheduleMethod::tsp, "tsp"},
     {ScheduleMethod::shp, "shp"}}};
/// How its schedule was settled (the Data-Scheduler's statuses); append only.
enum class ScheduleOutcome : std::int32_t {
    optimal,
    gap_reached,
    time_limit_incumbent,
    model_too_large,
    failed,
    baseline,
};
inline constexpr std::size_t kScheduleOutcomeCount = 6;
inline constexpr EnumNames<ScheduleOutcome, kScheduleOutcomeCount> kScheduleOutcomeNames{
    {{ScheduleOutcome::optimal, "optimal"},
     {ScheduleOutcome::gap_reached, "gap_reached"},
     {ScheduleOutcome::time_limit_incumbent, "time_limit_incumbent"},
     {ScheduleOutcome::model_too_large, "model_too_large"},
     {ScheduleOutcome::failed, "failed"},
     {ScheduleOutcome::baseline, "baseline"}}};

/// One scheduled data-sharing event of one layer (NicePIM VII), for the /schedules table.
/// The evaluation records none today (docs/output.md, "Why /schedules is empty"); the
/// Data-Scheduler's records fill them once a sweep asks for them.
struct ScheduleEntry {
    workload::LayerIndex layer = 0;
    std::int32_t event = 0;  ///< index among the layer's events
    sim::SharingKind kind = sim::SharingKind::inputs;
    ScheduleMethod method = ScheduleMethod::snake;
    ScheduleOutcome outcome = ScheduleOutcome::baseline;
    std::int32_t sets = 0;     ///< sharing sets moved at once
    std::int32_t members = 0;  ///< members of the largest set
    std::int64_t bytes_per_node = 0;
    std::string members_text;  ///< "0,1,4,5;2,3,6,7": each set's node ids, in cycle order if any
    sim::ShareCost cost;
    std::int64_t tsp_max_link_flits = 0;  ///< the TSP baseline on the same event
    std::int64_t shp_max_link_flits = 0;  ///< the SHP baseline on the same event
    std::int64_t bound_flits = 0;         ///< proven lower bound of the heaviest link
    double gap = 0;                       ///< relative gap of the ILP
    double solve_seconds = 0;             ///< timing: depends on the machine and the cache
    std::string reason;                   ///< why not optimal
};

/// One workload's result: its mapping and the timeline's cost of it.
struct NetworkResult {
    sim::NetworkMapping mapping;
    sim::NetworkCost cost;
    double cost_term = 0;                  ///< this network's term of Eq. 1 (+inf when infeasible)
    std::vector<ScheduleEntry> schedules;  ///< per data-sharing event, when recorded (none today)
};

struct Evaluation {
    std::int64_t candidate = 0;
    hw::HardwareParams params;
    Status status = Status::ok;
    std::string message;                  ///< why, unless ok
    double area_mm2 = 0;                  ///< NN engines of all nodes (what the area budget covers)
    double area_total_mm2 = 0;            ///< with routers and DRAM controllers
    std::vector<NetworkResult> networks;  ///< in workload order; only those costed before a failure
    double latency_seconds = 0;           ///< sum over the costed workloads
    double energy_joules = 0;             ///< sum over the costed workloads
    double cost = 0;                      ///< NicePIM Eq. 1 over all workloads; +inf unless ok
    double seconds = 0;                   ///< wall time of the evaluation (the one non-deterministic field)
};

/// The network mapping of one workload on one system: the single place where the sweep
/// decides a mapping, the PIM-Mapper (docs/mapper.md). `scheduler` costs the candidate
/// mappings it compares at the end (the Data-Scheduler the evaluation uses). Checks
/// `deadline` cooperatively and throws DeadlineExpired once it has passed.
[[nodiscard]] sim::NetworkMapping map_network(const workload::Network& network,
                                              const workload::Segmentation& seg, const sim::System& system,
                                              sim::SharingScheduler& scheduler, const Deadline& deadline);

/// Thrown by map_network (and anything below it) when the deadline has passed; evaluate()
/// turns it into Status::timeout.
class DeadlineExpired : public std::runtime_error {
public:
    DeadlineExpired() : std::runtime_error("the per-candidate time limit expired") {}
};

/// Evaluates `candidate` on every workload of `context`. Never throws for a candidate's own
/// failure: the status and message say what happened.
[[nodiscard]] Evaluation evaluate(const EvalContext& context, const Candidate& candidate,
                                  const Deadline& deadline);

}  // namespace pimdse::eval
