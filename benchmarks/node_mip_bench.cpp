// The node MIP (nodemip/node_mip.hpp) per part-layer: small part-layers on a node whose
// buffers bind (4 x 2 PEs, 1 KiB buffers, 512 B for weights, a 256-bit port) with the 4 x 4
// system's energy coefficients, each objective. Counters: MIP solves, programs, the largest
// program's columns and rows (cuts included), proven (1 optimal, 0 work limit), the gap,
// and the time of sim::exact_search on the same part-layer for comparison.
#include <benchmark/benchmark.h>

#include <array>
#include <chrono>
#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/nodemip/node_mip.hpp"
#include "pimdse/sim/system.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

struct Named {
    const char* name;
    PartLayer layer;
};

PartLayer depthwise(std::int64_t K, std::int64_t P, std::int64_t R) {
    PartLayer l = PartLayer::convolution(K, 1, P, P, R);
    l.depthwise = true;
    return l;
}

const std::array<Named, 8> kLayers{{
    {"conv3x3_K8_C4_P4", PartLayer::convolution(8, 4, 4, 4, 3)},
    {"conv3x3_K6_C3_P5x3_B2", PartLayer::convolution(6, 3, 5, 3, 1, 1, 2)},
    {"conv1x1_K12_C8_P2", PartLayer::convolution(12, 8, 2, 2, 1)},
    {"conv3x3s2_K4_C6_P3", PartLayer::convolution(4, 6, 3, 3, 3, 2)},
    {"fc_K10_C16_B4", PartLayer::convolution(10, 16, 1, 1, 1, 1, 4)},
    {"dw3x3_K8_P4", depthwise(8, 4, 3)},
    {"conv3x3_K16_C8_P6", PartLayer::convolution(16, 8, 6, 6, 3)},
    {"fc_K16_C24_B2", PartLayer::convolution(16, 24, 1, 1, 1, 1, 2)},
}};

NodeSpec small_node() {
    NodeSpec n = NodeSpec::with_banks(4, 2, 1, 2);
    n.wbuf = Bytes(512);
    return n;
}

const IntraNodeEnergyCoefficients& coefficients() {
    static const IntraNodeEnergyCoefficients k = [] {
        const io::HardwareFile h =
            io::read_hardware_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/nicepim_4x4.yaml");
        return make_system(h.constraints, h.params, h.technology).energy;
    }();
    return k;
}

void BM_NodeMip(benchmark::State& state) {
    const Named& l = kLayers[static_cast<std::size_t>(state.range(0))];
    const auto objective = static_cast<NodeObjective>(state.range(1));
    const NodeSpec n = small_node();
    const DataLayout in{LayoutOrder::bchw, 1};
    const DataLayout out{LayoutOrder::bhwc, 1};
    nodemip::MipNodeResult r;
    for (auto _ : state) {
        // The work limit `pimdse map` gives the exact node model by default (model.exact.work_limit).
        r = nodemip::mip_search(l.layer, n, in, out, coefficients(), {objective, kDefaultNodeWorkLimit});
        benchmark::DoNotOptimize(r);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const ExactNodeResult e =
        exact_search(l.layer, n, in, out, coefficients(), {objective, kDefaultNodeWorkLimit});
    const double exact_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    state.SetLabel(std::string(l.name) + " " + std::string(to_string(objective)) + " " +
                   to_string(r.cost.tiling) + (r.objective == e.objective ? " equal" : " DIFFERENT"));
    state.counters["solves"] = static_cast<double>(r.solves);
    state.counters["programs"] = static_cast<double>(r.programs);
    state.counters["columns"] = static_cast<double>(r.max_columns);
    state.counters["rows"] = static_cast<double>(r.max_rows);
    state.counters["proven"] = r.status == ExactStatus::optimal ? 1.0 : 0.0;
    state.counters["gap"] = r.gap;
    state.counters["exact_ms"] = exact_ms;
}
BENCHMARK(BM_NodeMip)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
