// The /schedules rows of one network (eval::schedule_events): after the timeline has costed
// a mapping with the Data-Scheduler, every data-sharing event is scheduled again for its
// record (the ILP answer from the scheduler's cache, plus the TSP and SHP baselines). A sweep
// pays this once per candidate and network, next to the costing itself; this measures both
// on ResNet-152 under the uniform mapping on NicePIM's 16 x 16 system, so that the ratio
// shows what the table costs.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "pimdse/eval/evaluate.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

namespace {

using namespace pimdse;

struct Case {
    workload::Network network;
    workload::Segmentation seg;
    sim::System system;
    sim::NetworkMapping mapping;
    sched::ScheduleOptions options;
};

const Case& resnet152_16x16() {
    static const Case c = [] {
        const std::string dir = PIMDSE_SOURCE_DIR;
        workload::Network n = io::read_network_file(dir + "/inputs/networks/resnet152.yaml");
        workload::Segmentation s = workload::decompose(n);
        const io::HardwareFile h = io::read_hardware_file(dir + "/inputs/hardware/nicepim_16x16.yaml");
        sim::System sys = sim::make_system(h.constraints, h.params, h.technology);
        sim::NetworkMapping m = sim::uniform_mapping(n, s, sys.node_rows(), sys.node_cols());
        return Case{std::move(n), std::move(s), std::move(sys), std::move(m), h.schedule};
    }();
    return c;
}

// The costing alone, with a fresh Data-Scheduler (as the evaluation makes one per network).
void BM_CostWithDataScheduler(benchmark::State& state) {
    const Case& c = resnet152_16x16();
    for (auto _ : state) {
        const std::unique_ptr<sched::DataScheduler> scheduler = sched::make_scheduler(c.options);
        sim::AnalyticIntraNodeMapper intra(c.system.energy);
        benchmark::DoNotOptimize(
            sim::evaluate_mapping(c.network, c.seg, c.mapping, c.system, intra, *scheduler));
    }
}
BENCHMARK(BM_CostWithDataScheduler)->Unit(benchmark::kMillisecond);

// The costing followed by the records of every event (what EvalContext::record_schedules adds).
void BM_CostAndScheduleEvents(benchmark::State& state) {
    const Case& c = resnet152_16x16();
    std::size_t events = 0;
    for (auto _ : state) {
        const std::unique_ptr<sched::DataScheduler> scheduler = sched::make_scheduler(c.options);
        sim::AnalyticIntraNodeMapper intra(c.system.energy);
        const sim::NetworkCost cost =
            sim::evaluate_mapping(c.network, c.seg, c.mapping, c.system, intra, *scheduler);
        const auto rows = eval::schedule_events(c.network, c.seg, c.mapping, cost, c.system, *scheduler);
        events = rows.size();
        benchmark::DoNotOptimize(rows);
    }
    state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_CostAndScheduleEvents)->Unit(benchmark::kMillisecond);

// A whole candidate of the default sweep (its five DNNs, the PIM-Mapper's search included) on
// 16 x 16 nodes, without and with the records: what a sweep's evaluation pays for /schedules.
const eval::EvalContext& default_context() {
    static const eval::EvalContext ctx = [] {
        eval::EvalContext out;
        const io::Config config =
            io::read_config_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/sweeps/default.yaml");
        out.constraints = config.constraints;
        out.technology = config.technology;
        out.schedule = config.schedule;
        for (io::LoadedWorkload& w : io::load_workloads(config)) {
            eval::Workload e{std::move(w.network), {}, w.spec.weight};
            e.segmentation = workload::decompose(e.network);
            out.workloads.push_back(std::move(e));
        }
        return out;
    }();
    return ctx;
}

void evaluate_default(benchmark::State& state, bool record) {
    eval::EvalContext ctx = default_context();
    ctx.record_schedules = record;
    std::size_t events = 0;
    for (auto _ : state) {
        const eval::Evaluation e =
            eval::evaluate(ctx, {0, hw::HardwareParams{16, 16, 8, 8, 8, 8, 8}}, Deadline());
        events = 0;
        for (const eval::NetworkResult& n : e.networks) events += n.schedules.size();
        benchmark::DoNotOptimize(e);
    }
    state.counters["events"] = static_cast<double>(events);
}
void BM_EvaluateDefaultCandidate(benchmark::State& state) {
    evaluate_default(state, false);
}
void BM_EvaluateDefaultCandidateWithSchedules(benchmark::State& state) {
    evaluate_default(state, true);
}
BENCHMARK(BM_EvaluateDefaultCandidate)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_EvaluateDefaultCandidateWithSchedules)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace
