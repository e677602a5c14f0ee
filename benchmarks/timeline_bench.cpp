// A whole-network evaluation (the network timeline) is what the mapper and the sweep call
// per hardware candidate and network; the budget is <= 50 ms. ResNet-152 under the uniform
// mapping on NicePIM's 16 x 16 system (8 x 8 PEs, 8 KiB buffers) and 4 x 4 system (32 x 32
// PEs, 128 KiB), with a fresh intra-node mapper per evaluation (cold memo: every distinct
// part-layer is searched) and with one kept across evaluations (warm memo); the warm cases
// also under the overlapped timeline (docs/model.md, "Overlapped layers") and with the
// overlap-friendly transformation ("The overlap-friendly transformation").
#include <benchmark/benchmark.h>

#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/overlap_timeline.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

struct Case {
    workload::Network network;
    workload::Segmentation seg;
    System system;
    NetworkMapping mapping;
};

Case make_case(const std::string& hardware) {
    const std::string dir = PIMDSE_SOURCE_DIR;
    workload::Network n = io::read_network_file(dir + "/inputs/networks/resnet152.yaml");
    workload::Segmentation s = workload::decompose(n);
    const io::HardwareFile h = io::read_hardware_file(dir + "/inputs/hardware/" + hardware);
    System sys = make_system(h.constraints, h.params, h.technology);
    NetworkMapping m = uniform_mapping(n, s, sys.node_rows(), sys.node_cols());
    return Case{std::move(n), std::move(s), std::move(sys), std::move(m)};
}

const Case& case_16x16() {
    static const Case c = make_case("nicepim_16x16.yaml");
    return c;
}
const Case& case_4x4() {
    static const Case c = make_case("nicepim_4x4.yaml");
    return c;
}

void run(benchmark::State& state, const Case& c, bool warm,
         const Timeline& timeline = sequential_timeline()) {
    AnalyticIntraNodeMapper kept(c.system.energy);
    SnakeRingScheduler scheduler;
    if (warm)
        benchmark::DoNotOptimize(evaluate_mapping(c.network, c.seg, c.mapping, c.system, kept, scheduler));
    for (auto _ : state) {
        AnalyticIntraNodeMapper fresh(c.system.energy);
        NetworkCost cost =
            evaluate_mapping(c.network, c.seg, c.mapping, c.system, warm ? kept : fresh, scheduler, timeline);
        benchmark::DoNotOptimize(cost);
    }
}

void BM_Resnet152_16x16_Cold(benchmark::State& state) {
    run(state, case_16x16(), false);
}
void BM_Resnet152_16x16_Warm(benchmark::State& state) {
    run(state, case_16x16(), true);
}
void BM_Resnet152_4x4_Cold(benchmark::State& state) {
    run(state, case_4x4(), false);
}
void BM_Resnet152_4x4_Warm(benchmark::State& state) {
    run(state, case_4x4(), true);
}

void BM_Resnet152_16x16_Warm_Overlap(benchmark::State& state) {
    run(state, case_16x16(), true, overlap_timeline());
}
void BM_Resnet152_4x4_Warm_Overlap(benchmark::State& state) {
    run(state, case_4x4(), true, overlap_timeline());
}

void BM_Resnet152_16x16_Warm_OverlapTransform(benchmark::State& state) {
    run(state, case_16x16(), true, overlap_transform_timeline());
}

BENCHMARK(BM_Resnet152_16x16_Cold)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet152_16x16_Warm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet152_4x4_Cold)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet152_4x4_Warm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet152_16x16_Warm_Overlap)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet152_4x4_Warm_Overlap)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Resnet152_16x16_Warm_OverlapTransform)->Unit(benchmark::kMillisecond);

}  // namespace
