// The NoC model sits in the mapper's inner loop: every candidate layer mapping with a
// data-sharing event asks for the link loads and latency of one Hamilton-cycle step.
// Setups follow NicePIM Fig. 12: sharing sets of 16 nodes (4 x 4, interleaved with stride
// rows/4), 8 KiB per node, 64-bit flits.
#include <benchmark/benchmark.h>

#include <vector>

#include "pimdse/sim/noc.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

std::vector<SharingCycle> fig12_cycles(const Mesh& m) {
    return SnakeRingScheduler{}.schedule(m, interleaved_sets(m, 4, kibibytes(8)));
}

// Link loads + latency + energy of a whole Hamilton-cycle event (one step evaluated, since
// all sets have 16 members, then scaled by the 15 steps).
void BM_CycleStep(benchmark::State& state) {
    const auto side = static_cast<std::int32_t>(state.range(0));
    const Mesh mesh(side, side);
    const std::vector<SharingCycle> cycles = fig12_cycles(mesh);
    const NocParams params;
    ChannelLoads loads(mesh);
    for (auto _ : state) {
        const ShareCost cost = share_along_cycles(mesh, cycles, params, loads);
        benchmark::DoNotOptimize(cost);
    }
    state.counters["sets"] = static_cast<double>(cycles.size());
}
BENCHMARK(BM_CycleStep)->Arg(4)->Arg(8)->Arg(16);

// The same step given as a plain transfer list (how other callers use the model).
void BM_EvaluateTransfers(benchmark::State& state) {
    const auto side = static_cast<std::int32_t>(state.range(0));
    const Mesh mesh(side, side);
    const std::vector<Transfer> step = cycle_step_transfers(fig12_cycles(mesh));
    const NocParams params;
    ChannelLoads loads(mesh);
    for (auto _ : state) {
        const TransferCost cost = evaluate_transfers(mesh, step, params, loads);
        benchmark::DoNotOptimize(cost);
    }
}
BENCHMARK(BM_EvaluateTransfers)->Arg(4)->Arg(16);

// The SHP baseline: N (N - 1) routes per set instead of N.
void BM_ShortestPaths(benchmark::State& state) {
    const auto side = static_cast<std::int32_t>(state.range(0));
    const Mesh mesh(side, side);
    std::vector<SharingSet> sets;
    for (const SharingCycle& c : fig12_cycles(mesh)) sets.push_back({c.order, c.bytes_per_node});
    const NocParams params;
    ChannelLoads loads(mesh);
    for (auto _ : state) {
        const ShareCost cost = share_shortest_paths(mesh, sets, params, loads);
        benchmark::DoNotOptimize(cost);
    }
}
BENCHMARK(BM_ShortestPaths)->Arg(4)->Arg(16);

}  // namespace
