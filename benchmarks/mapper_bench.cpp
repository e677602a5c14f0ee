// The PIM-Mapper runs once per hardware candidate and network, so its time bounds a sweep's
// rate. The target: the five NicePIM DNNs (ResNet-152, VGG-16, GoogLeNet, DarkNet-53,
// BERT-base) mapped on NicePIM's 16 x 16 system (8 x 8 PEs, 8 KiB buffers) in <= 5 s on one
// core, as `pimdse map` runs it (the returned mapping costed with the hardware file's
// Data-Scheduler, the ILP). Every iteration builds a fresh mapper and scheduler (cold memo
// tables and cache: nothing carries over), as `pimdse map` does per network. Also each DNN
// alone on 16 x 16 and on the 4 x 4 system (32 x 32 PEs, 128 KiB), and the baseline mapper
// (NicePIM VIII-D) for comparison. With overlap on (`pimdse map --overlap`: rounds ranked by
// the overlapped timeline, then OverlaPIM's greedy step) the five DNNs on 16 x 16 should stay
// within about 1.5x of overlap off.
#include <benchmark/benchmark.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "pimdse/core/heap.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/sim/overlap_timeline.hpp"

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

struct Hardware {
    sim::System system;
    ModelOptions model;
    ScheduleOptions schedule;
};

Hardware hardware_of(const std::string& file) {
    const io::HardwareFile h =
        io::read_hardware_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/" + file);
    return Hardware{sim::make_system(h.constraints, h.params, h.technology), h.model, h.schedule};
}

// As `pimdse map` runs it: the hardware file's node model, the search costing sharing with
// the snake ring, the returned mapping with the hardware file's scheduler (default: the ILP
// under its work limit), and map's default options (3 rounds, no fallback).
// With `overlap`, the model's overlap on, as `pimdse map --overlap` sets it.
double map_one(const Hardware& hw, const Workload& w, bool baseline, bool overlap = false) {
    // The heap as `pimdse map` sets it up (core/heap.hpp); only the first call acts.
    keep_freed_memory();
    (void)prefer_huge_pages();
    const std::unique_ptr<sim::IntraNodeMapper> intra = sim::make_node_model(hw.model, hw.system.energy);
    sim::SnakeRingScheduler search;
    const std::unique_ptr<sched::DataScheduler> final = sched::make_scheduler(hw.schedule);
    ModelOptions model = hw.model;
    model.overlap = model.overlap || overlap;
    mapper::Mapper m(hw.system, mapper::MapperOptions{}, *intra, search, *final, sim::timeline_of(model));
    const mapper::MapResult r = baseline ? m.baseline(w.network, w.seg) : m.map(w.network, w.seg);
    return r.cost.latency.value();
}

void BM_MapFiveDnns_16x16(benchmark::State& state) {
    const Hardware hw = hardware_of("nicepim_16x16.yaml");
    for (auto _ : state) {
        double total = 0;
        for (const Workload& w : workloads()) total += map_one(hw, w, false);
        benchmark::DoNotOptimize(total);
    }
}
BENCHMARK(BM_MapFiveDnns_16x16)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly();

void BM_MapFiveDnnsOverlap_16x16(benchmark::State& state) {
    const Hardware hw = hardware_of("nicepim_16x16.yaml");
    for (auto _ : state) {
        double total = 0;
        for (const Workload& w : workloads()) total += map_one(hw, w, false, true);
        benchmark::DoNotOptimize(total);
    }
}
BENCHMARK(BM_MapFiveDnnsOverlap_16x16)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly();

void BM_Map(benchmark::State& state, const char* hardware, bool baseline) {
    const Hardware hw = hardware_of(hardware);
    const Workload& w = workloads()[static_cast<std::size_t>(state.range(0))];
    state.SetLabel(w.network.name());
    for (auto _ : state) benchmark::DoNotOptimize(map_one(hw, w, baseline));
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

// The round's inputs on a large array: the four layers of tests/data/mapping/tiny.yaml
// have fewer parts than a 64 x 64 array has nodes, so the mapper falls back to smaller regions;
// those no layer of the segment can fill are skipped without a search (5 LM searches instead
// of 1,704; those were cheap, about 0.07 s of 0.7 s here, the rest is the whole array's own
// enumeration and costing). `map --max-nodes` bounds what remains (docs/cli.md).
void BM_RoundInputs_Tiny64x64(benchmark::State& state) {
    hw::Constraints c;
    c.bank_rows = c.bank_cols = 256;
    hw::HardwareParams p;
    p.node_rows = p.node_cols = 64;
    p.pe_rows = p.pe_cols = 2;
    p.ibuf_kib = p.wbuf_kib = p.obuf_kib = 4;
    const sim::System system = sim::make_system(c, p, hw::Technology{});
    const workload::Network n =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/tests/data/mapping/tiny.yaml");
    const workload::Segmentation seg = workload::decompose(n);
    const std::vector<sim::DataLayout> dl(static_cast<std::size_t>(n.size()));
    std::int64_t searches = 0;
    for (auto _ : state) {
        sim::AnalyticIntraNodeMapper intra(system.energy);
        sim::SnakeRingScheduler snake;
        mapper::Mapper m(system, mapper::MapperOptions{}, intra, snake, snake);
        const mapper::Mapper::RoundInputs in = m.round_inputs(n, seg, dl, dl);
        benchmark::DoNotOptimize(in.sms.size());
        searches = m.search().stats().searches;
    }
    state.counters["lm_searches"] = static_cast<double>(searches);
}
BENCHMARK(BM_RoundInputs_Tiny64x64)->Unit(benchmark::kMillisecond);

}  // namespace
