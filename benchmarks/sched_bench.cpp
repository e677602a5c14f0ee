// The Data-Scheduler on the NicePIM Fig. 12 instances: sharing sets of 16 nodes (4 x 4,
// interleaved with stride rows/4), 8 KiB per node, 64-bit flits, hop_cycles 2. Measures the
// ILP solve time (fresh scheduler per iteration: no cache hits) and reports, as counters,
// the heaviest link of a step and the event latency for ILP, TSP, snake ring and SHP.
#include <benchmark/benchmark.h>

#include <vector>

#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sched/tsp_scheduler.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

std::vector<SharingSet> fig12_sets(const Mesh& m) {
    return interleaved_sets(m, 4, kibibytes(8));
}

void run(benchmark::State& state, double gap) {
    const auto side = static_cast<std::int32_t>(state.range(0));
    const Mesh mesh(side, side);
    const auto sets = fig12_sets(mesh);
    const NocParams params{};
    sched::IlpResult r;
    for (auto _ : state) {
        sched::IlpCycleScheduler ilp(sched::IlpOptions{.time_limit_seconds = 1.0, .relative_gap = gap});
        r = ilp.solve(mesh, sets);
        benchmark::DoNotOptimize(r.max_link_flits);
    }
    const auto ilp_cost = share_along_cycles(mesh, r.cycles, params);
    const auto tsp_cost = share_along_cycles(mesh, sched::TspCycleScheduler{}.schedule(mesh, sets), params);
    const auto snake_cost = share_along_cycles(mesh, SnakeRingScheduler{}.schedule(mesh, sets), params);
    const auto shp_cost = share_shortest_paths(mesh, sets, params);
    state.counters["ilp_link"] = static_cast<double>(ilp_cost.max_link_flits);
    state.counters["ilp_bound"] = r.best_bound_flits;
    state.counters["ilp_gap"] = r.gap;
    state.counters["ilp_status"] = static_cast<double>(r.status);
    state.counters["ilp_s"] = r.solve_seconds;
    state.counters["warm_link"] = static_cast<double>(r.warm_start_flits);
    state.counters["tsp_link"] = static_cast<double>(tsp_cost.max_link_flits);
    state.counters["snake_link"] = static_cast<double>(snake_cost.max_link_flits);
    state.counters["shp_link"] = static_cast<double>(shp_cost.max_link_flits);
    state.counters["ilp_lat"] = static_cast<double>(ilp_cost.latency.value());
    state.counters["tsp_lat"] = static_cast<double>(tsp_cost.latency.value());
    state.counters["snake_lat"] = static_cast<double>(snake_cost.latency.value());
    state.counters["shp_lat"] = static_cast<double>(shp_cost.latency.value());
}

void BM_IlpFig12Optimal(benchmark::State& state) {
    run(state, 0.0);
}
void BM_IlpFig12Gap2(benchmark::State& state) {
    run(state, 0.02);
}

BENCHMARK(BM_IlpFig12Optimal)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_IlpFig12Gap2)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_TspFig12(benchmark::State& state) {
    const auto side = static_cast<std::int32_t>(state.range(0));
    const Mesh mesh(side, side);
    const auto sets = fig12_sets(mesh);
    for (auto _ : state) benchmark::DoNotOptimize(sched::TspCycleScheduler{}.schedule(mesh, sets));
}
BENCHMARK(BM_TspFig12)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond);

}  // namespace
