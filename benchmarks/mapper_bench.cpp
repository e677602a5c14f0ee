// The PIM-Mapper runs once per hardware candidate and network, so its time bounds a sweep's
// rate. Issue 4's target: the five NicePIM DNNs (ResNet-152, VGG-16, GoogLeNet, DarkNet-53,
// BERT-base) mapped on NicePIM's 16 x 16 system (8 x 8 PEs, 8 KiB buffers) in <= 5 s on one
// core. Every iteration builds a fresh mapper (cold memo tables: nothing carries over), as a
// sweep worker does for a new candidate. Also each DNN alone on 16 x 16 and on the 4 x 4
// system (32 x 32 PEs, 128 KiB), and the baseline mapper (NicePIM VIII-D) for comparison.
#include <benchmark/benchmark.h>

#include <array>
#include <string>
#include <vector>

#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"

namespace {

using namespace pimdse;

constexpr std::array<const char*, 5> kNetworks{"resnet152", "vgg16", "googlenet", "darknet53", "bert_base"};

struct Workload {
    workload::Network network;
    workload::Segmentation seg;
};

const std::vector<Workload>& workloads() {
    static const std::vector<Workload> all = [] {
        std::vector<Workload> w;
        for (const char* name : kNetworks) {
            workload::Network n =
                io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/" + name + ".yaml");
            workload::Segmentation s = workload::decompose(n);
            w.push_back(Workload{std::move(n), std::move(s)});
        }
        return w;
    }();
    return all;
}

sim::System system_of(const std::string& hardware) {
    const io::HardwareFile h =
        io::read_hardware_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/" + hardware);
    return sim::make_system(h.constraints, h.params, h.technology);
}

double map_one(const sim::System& system, const Workload& w, bool baseline) {
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler search;
    sim::SnakeRingScheduler final;
    mapper::Mapper m(system, mapper::MapperOptions{}, intra, search, final);
    const mapper::MapResult r = baseline ? m.baseline(w.network, w.seg) : m.map(w.network, w.seg);
    return r.cost.latency.value();
}

void BM_MapFiveDnns_16x16(benchmark::State& state) {
    const sim::System system = system_of("nicepim_16x16.yaml");
    for (auto _ : state) {
        double total = 0;
        for (const Workload& w : workloads()) total += map_one(system, w, false);
        benchmark::DoNotOptimize(total);
    }
}
BENCHMARK(BM_MapFiveDnns_16x16)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly();

void BM_Map(benchmark::State& state, const char* hardware, bool baseline) {
    const sim::System system = system_of(hardware);
    const Workload& w = workloads()[static_cast<std::size_t>(state.range(0))];
    state.SetLabel(w.network.name());
    for (auto _ : state) benchmark::DoNotOptimize(map_one(system, w, baseline));
}
BENCHMARK_CAPTURE(BM_Map, nicepim_16x16, "nicepim_16x16.yaml", false)
    ->DenseRange(0, kNetworks.size() - 1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Map, baseline_16x16, "nicepim_16x16.yaml", true)
    ->DenseRange(0, kNetworks.size() - 1)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_Map, nicepim_4x4, "nicepim_4x4.yaml", false)
    ->DenseRange(0, kNetworks.size() - 1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
