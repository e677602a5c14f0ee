// The Data-Scheduler on the NicePIM Fig. 12 instances: sharing sets of 16 nodes (4 x 4,
// interleaved with stride rows/4), 8 KiB per node, 64-bit flits, hop_cycles 2. Measures the
// ILP solve time (fresh scheduler per iteration: no memo or cache hits) and reports, as
// counters, the heaviest link of a step and the event latency for ILP, TSP, snake ring and
// SHP. The ablations switch solution phases off to show what each contributes; random
// placements show the time limit and the work limit at work.
//
// The headline number (docs/model.md): the median of
//   bench_sched --benchmark_filter='BM_IlpFig12/16' --benchmark_repetitions=10
#include <benchmark/benchmark.h>

#include <vector>

#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sched/placements.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sched/tsp_scheduler.hpp"
#include "pimdse/sched/validate.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

void run(benchmark::State& state, sched::IlpOptions options) {
    const auto side = static_cast<std::int32_t>(state.range(0));
    const Mesh mesh(side, side);
    const auto sets = interleaved_sets(mesh, 4, kibibytes(8));
    const NocParams params{};
    sched::IlpResult r;
    for (auto _ : state) {
        sched::IlpCycleScheduler ilp(options);
        r = ilp.solve(mesh, sets, params);
        benchmark::DoNotOptimize(r.max_link_flits);
    }
    const auto ilp_cost = share_along_cycles(mesh, r.cycles, params);
    const auto tsp_cost = share_along_cycles(mesh, sched::TspCycleScheduler{}.schedule(mesh, sets), params);
    const auto snake_cost = share_along_cycles(mesh, SnakeRingScheduler{}.schedule(mesh, sets), params);
    const auto shp_cost = share_shortest_paths(mesh, sets, params);
    state.counters["ilp_link"] = static_cast<double>(ilp_cost.max_link_flits);
    state.counters["ilp_bound"] = static_cast<double>(r.best_bound_flits);
    state.counters["comb_bound"] = static_cast<double>(r.combinatorial_bound_flits);
    state.counters["ilp_gap"] = r.gap;
    state.counters["ilp_status"] = static_cast<double>(r.status);
    state.counters["ilp_phase"] = static_cast<double>(r.phase);
    state.counters["columns"] = static_cast<double>(r.columns);
    state.counters["pricing"] = static_cast<double>(r.pricing_rounds);
    state.counters["iterations"] = static_cast<double>(r.simplex_iterations);
    state.counters["warm_link"] = static_cast<double>(r.warm_start_flits);
    state.counters["tsp_link"] = static_cast<double>(tsp_cost.max_link_flits);
    state.counters["snake_link"] = static_cast<double>(snake_cost.max_link_flits);
    state.counters["shp_link"] = static_cast<double>(shp_cost.max_link_flits);
    state.counters["ilp_lat"] = static_cast<double>(ilp_cost.latency.value());
    state.counters["tsp_lat"] = static_cast<double>(tsp_cost.latency.value());
    state.counters["snake_lat"] = static_cast<double>(snake_cost.latency.value());
    state.counters["shp_lat"] = static_cast<double>(shp_cost.latency.value());
}

// The default solver: every phase, prove optimality (1 s limit).
void BM_IlpFig12(benchmark::State& state) {
    run(state, sched::IlpOptions{.time_limit_seconds = 1.0, .relative_gap = 0.0});
}
// Stop at a 2 % gap.
void BM_IlpFig12Gap2(benchmark::State& state) {
    run(state, sched::IlpOptions{.time_limit_seconds = 1.0, .relative_gap = 0.02});
}
// Ablation: warm start + compact MTZ model only (the first version of the scheduler, now
// with the combinatorial bound as z's lower bound).
void BM_IlpFig12CompactOnly(benchmark::State& state) {
    run(state, sched::IlpOptions{.time_limit_seconds = 1.0, .pool = false, .column_generation = false});
}
// Ablation: no min-hop pool, column generation from the baselines' columns.
void BM_IlpFig12NoPool(benchmark::State& state) {
    run(state, sched::IlpOptions{.time_limit_seconds = 1.0, .pool = false});
}

BENCHMARK(BM_IlpFig12)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IlpFig12Gap2)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IlpFig12CompactOnly)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_IlpFig12NoPool)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(3);

// The configured Data-Scheduler answering a repeated event from its cache.
void BM_DataSchedulerCacheHit(benchmark::State& state) {
    const Mesh mesh(16, 16);
    const auto sets = interleaved_sets(mesh, 4, kibibytes(8));
    const NocParams params{};
    sched::DataScheduler ds;
    ChannelLoads loads;
    benchmark::DoNotOptimize(ds.share(mesh, sets, params, loads));
    for (auto _ : state) benchmark::DoNotOptimize(ds.share(mesh, sets, params, loads));
}
BENCHMARK(BM_DataSchedulerCacheHit)->Unit(benchmark::kMicrosecond);

// Random placements (sched::random_disjoint_sets, seeds 1..3): 16 sets of 16 on 16 x 16,
// where the bounds are weaker than on Fig. 12's regular sets and the 1 s limit decides.
void BM_IlpRandom16x16(benchmark::State& state) {
    const Mesh mesh(16, 16);
    const auto sets =
        sched::random_disjoint_sets(mesh, 16, 16, kibibytes(8), static_cast<std::uint64_t>(state.range(0)));
    sched::IlpResult r;
    for (auto _ : state) {
        sched::IlpCycleScheduler ilp(sched::IlpOptions{.time_limit_seconds = 1.0});
        r = ilp.solve(mesh, sets, NocParams{});
        benchmark::DoNotOptimize(r.max_link_flits);
    }
    state.counters["ilp_link"] = static_cast<double>(r.objective_flits);
    state.counters["ilp_bound"] = static_cast<double>(r.best_bound_flits);
    state.counters["ilp_status"] = static_cast<double>(r.status);
    state.counters["tsp_link"] = static_cast<double>(
        sched::step_max_link_flits(mesh, sched::TspCycleScheduler{}.schedule(mesh, sets), 64));
}
BENCHMARK(BM_IlpRandom16x16)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond)->Iterations(2);

// The default work limit binding (docs/model.md, "Work limit, time limit, gap and status"): 4
// random sets of 8 on 8 x 8 (seed 1), where the compact model cannot close a one-chunk gap.
// Its time is what the default schedule.work_limit costs on an event of this size; the work
// budget's per-iteration count is on this path (every Clp iteration, CBC's included).
void BM_IlpWorkLimit8x8(benchmark::State& state) {
    const Mesh mesh(8, 8);
    const auto sets = sched::random_disjoint_sets(mesh, 4, 8, kibibytes(8), 1);
    sched::IlpResult r;
    for (auto _ : state) {
        sched::IlpCycleScheduler ilp(sched::IlpOptions{});
        r = ilp.solve(mesh, sets, NocParams{});
        benchmark::DoNotOptimize(r.max_link_flits);
    }
    state.counters["iterations"] = static_cast<double>(r.simplex_iterations);
    state.counters["ilp_status"] = static_cast<double>(r.status);
    state.counters["iterations_per_s"] = benchmark::Counter(
        static_cast<double>(r.simplex_iterations) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate);
}
BENCHMARK(BM_IlpWorkLimit8x8)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_TspFig12(benchmark::State& state) {
    const auto side = static_cast<std::int32_t>(state.range(0));
    const Mesh mesh(side, side);
    const auto sets = interleaved_sets(mesh, 4, kibibytes(8));
    for (auto _ : state) benchmark::DoNotOptimize(sched::TspCycleScheduler{}.schedule(mesh, sets));
}
BENCHMARK(BM_TspFig12)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);

}  // namespace
