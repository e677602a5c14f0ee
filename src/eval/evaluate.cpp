// One candidate's evaluation (include/pimdse/eval/evaluate.hpp).

#include "pimdse/eval/evaluate.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <thread>

#include "pimdse/eval/cost.hpp"
#include "pimdse/hw/area.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/nodemip/node_mip.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/sim/overlap_timeline.hpp"

namespace pimdse::eval {

std::string_view to_string(Status s) noexcept {
    return name_of(kStatusNames, s);
}

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool listed(const std::vector<std::int64_t>& ids, std::int64_t id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// An ILP event stopped by schedule.time_limit, the Data-Scheduler's wall-clock safety net:
// the cycles it used depend on the machine, so the candidate is recorded as `timeout`.
class ScheduleSafetyNet : public std::runtime_error {
public:
    explicit ScheduleSafetyNet(const std::string& what) : std::runtime_error(what) {}
};

// fault_injection.stall: a moment to kill the run in (kStallSeconds, or until the wall-clock
// safety net fires), then the outcome of a spent work limit, the same on any machine.
void stall(const Deadline& deadline) {
    const auto until =
        std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(FaultInjection::kStallSeconds));
    while (std::chrono::steady_clock::now() < until) {
        if (deadline.expired()) throw DeadlineExpired();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    throw WorkLimitReached(
        "fault injection: the candidate stalled (engine.fault_injection.stall) and is "
        "recorded as if its work limit had run out");
}

// The body of evaluate(); may throw, evaluate() turns exceptions into statuses.
void run(const EvalContext& ctx, const Candidate& candidate, const Deadline& deadline, StepBudget& steps,
         Evaluation& e) {
    if (listed(ctx.faults.throw_candidates, candidate.id)) {
        std::string what = "fault injection: candidate ";
        what += std::to_string(candidate.id);
        what += " is listed in engine.fault_injection.throw";
        throw std::runtime_error(what);
    }

    const hw::Legality legality = hw::check(candidate.params, ctx.constraints, ctx.technology);
    const hw::AreaBreakdown area = hw::area(candidate.params, ctx.constraints, ctx.technology);
    e.area_mm2 = area.nn_engines.value();
    e.area_total_mm2 = area.total.value();
    if (!legality.legal()) {
        e.status = Status::infeasible;
        e.message = "illegal hardware point: ";
        e.message += legality.str();
        return;
    }
    const sim::System system = sim::make_system(ctx.constraints, candidate.params, ctx.technology);
    // Where a limit would stop a real evaluation: after the area, before the first workload.
    if (listed(ctx.faults.stall_candidates, candidate.id)) stall(deadline);

    for (const Workload& w : ctx.workloads) {
        steps.step();
        if (deadline.expired()) throw DeadlineExpired();
        NetworkResult r;
        // A fresh scheduler and memo per network keep the evaluation a pure function of its
        // inputs (the scheduler's cache would otherwise carry results between candidates).
        const std::unique_ptr<sched::DataScheduler> scheduler = sched::make_scheduler(ctx.schedule);
        sim::SnakeRingScheduler snake;
        sim::SharingScheduler& costing =
            ctx.snake_costing ? static_cast<sim::SharingScheduler&>(snake) : *scheduler;
        r.mapping = map_network(w.network, w.segmentation, system, ctx.model, costing, deadline, steps,
                                ctx.mapper_rounds);
        const std::unique_ptr<sim::IntraNodeMapper> intra =
            nodemip::make_node_model(ctx.model, system.energy);
        r.cost = sim::evaluate_mapping(w.network, w.segmentation, r.mapping, system, *intra, costing,
                                       sim::timeline_of(ctx.model));
        if (scheduler->wall_clock_stops() > 0) {
            throw ScheduleSafetyNet(
                "schedule.time_limit, the wall-clock safety net of the Data-Scheduler, stopped " +
                std::to_string(scheduler->wall_clock_stops()) + " ILP event(s) of " + w.network.name());
        }
        if (ctx.record_schedules && !ctx.snake_costing) {
            r.schedules = schedule_events(w.network, w.segmentation, r.mapping, r.cost, system, *scheduler);
        }
        const std::array<double, 1> gamma{w.weight};
        r.cost_term = cost_eq1(std::span(&r.cost, 1), gamma, ctx.alpha, ctx.beta);
        e.latency_seconds += r.cost.seconds;
        e.energy_joules += r.cost.energy.total().value() * 1e-12;
        if (r.cost.status != sim::EvalStatus::ok && e.status == Status::ok) {
            e.status = Status::infeasible;
            e.message = w.network.name();
            e.message += ": ";
            e.message += r.cost.reason;
        }
        e.networks.push_back(std::move(r));
    }
    if (e.status == Status::ok) {
        std::vector<sim::NetworkCost> costs;
        std::vector<double> gammas;
        for (std::size_t i = 0; i < ctx.workloads.size(); ++i) {
            costs.push_back(e.networks[i].cost);
            gammas.push_back(ctx.workloads[i].weight);
        }
        e.cost = cost_eq1(costs, gammas, ctx.alpha, ctx.beta);
        if (!std::isfinite(e.cost)) {
            e.status = Status::infeasible;
            e.message = "the cost of NicePIM Eq. 1 is not finite";
        }
    }
}

}  // namespace

EvalContext at_fidelity(EvalContext full, CheapFidelity fidelity) {
    if (fidelity == CheapFidelity::none) return full;
    full.snake_costing = fidelity == CheapFidelity::snake || fidelity == CheapFidelity::snake_one_round;
    if (fidelity == CheapFidelity::one_round || fidelity == CheapFidelity::snake_one_round)
        full.mapper_rounds = 1;
    full.record_schedules = false;
    full.faults = {};
    return full;
}

Evaluation evaluate(const EvalContext& context, const Candidate& candidate, const Deadline& deadline) {
    const auto start = std::chrono::steady_clock::now();
    Evaluation e;
    e.candidate = candidate.id;
    e.point = hw::to_point(candidate.params);
    StepBudget steps(context.work_limit);
    auto after = [&] {
        return " after " + std::to_string(e.networks.size()) + " of " +
               std::to_string(context.workloads.size()) + " workloads";
    };
    try {
        run(context, candidate, deadline, steps, e);
    } catch (const DeadlineExpired&) {
        e.status = Status::timeout;
        e.message =
            "the per-candidate time limit (engine.time_limit, a wall-clock safety net) expired" + after();
    } catch (const ScheduleSafetyNet& ex) {
        e.status = Status::timeout;
        e.message = ex.what();
    } catch (const WorkLimitReached& ex) {
        e.status = Status::work_limit;
        e.message = ex.what() + after();
    } catch (const mapper::Unmappable& ex) {
        // A legal point on which the network has no mapping: a result, like a mapping whose
        // weights exceed DRAM.
        e.status = Status::infeasible;
        e.message = ex.what();
    } catch (const std::bad_alloc&) {
        // Not the candidate's outcome but the machine's: recording it would make the file
        // depend on memory, so the sweep stops (every rank) and resumes where it stood.
        throw;
    } catch (const std::exception& ex) {
        e.status = Status::failed;
        e.message = ex.what();
    } catch (...) {
        e.status = Status::failed;
        e.message = "an unknown exception";
    }
    if (e.status != Status::ok) e.cost = kInfinity;
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return e;
}

}  // namespace pimdse::eval
