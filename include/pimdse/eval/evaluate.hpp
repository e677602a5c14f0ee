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
    /// Keep each data-sharing event's schedule (NetworkResult::schedules, the /schedules
    /// table): costs a TSP and an SHP baseline per event of the costed mapping.
    bool record_schedules = false;
    FaultInjection faults;
};

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
