// The exact intra-node optimum (sim/exact_intra_node.hpp) per part-layer: ResNet-18 and
// VGG-16 layers cut over up to 256 nodes as on the NicePIM 16 x 16 system (inputs/hardware/
// nicepim_16x16.yaml: 8 x 8 PEs, 8 KiB buffers, one bank per node), each objective. The
// counters give the model's size: fitting tilings costed (each under 4 loop orders) and
// those the latency bound skipped.
#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/sim/exact_intra_node.hpp"
#include "pimdse/sim/system.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

PartLayer conv(std::int64_t K, std::int64_t C, std::int64_t P, std::int64_t Q, std::int64_t RS,
               std::int32_t stride = 1) {
    return PartLayer::convolution(K, C, P, Q, RS, stride);
}

struct Named {
    const char* name;
    PartLayer layer;
};

// One node's share of each layer, partitioned over up to 16 x 16 nodes (the name says how).
const std::array<Named, 6> kLayers{{
    {"resnet18_conv1_P16xQ16", conv(64, 3, 7, 7, 7, 2)},
    {"resnet18_conv3_2_K4xP7xQ7", conv(32, 128, 4, 4, 3)},
    {"resnet18_fc_K256", conv(4, 512, 1, 1, 1)},
    {"vgg16_conv1_1_P16xQ16", conv(64, 3, 14, 14, 3)},
    {"vgg16_conv3_2_K16xP4xQ4", conv(16, 256, 14, 14, 3)},
    {"vgg16_fc7_K256", conv(16, 4096, 1, 1, 1)},
}};

const System& system16() {
    static const System s = [] {
        const io::HardwareFile h =
            io::read_hardware_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/nicepim_16x16.yaml");
        return make_system(h.constraints, h.params, h.technology);
    }();
    return s;
}

void BM_ExactSearch(benchmark::State& state) {
    const Named& l = kLayers[static_cast<std::size_t>(state.range(0))];
    const auto objective = static_cast<NodeObjective>(state.range(1));
    const System& sys = system16();
    const DataLayout in{LayoutOrder::bchw, 8};
    const DataLayout out{LayoutOrder::bhwc, 1};
    ExactNodeResult r;
    for (auto _ : state) {
        r = exact_search(l.layer, sys.node, in, out, sys.energy, {objective, kDefaultNodeWorkLimit});
        benchmark::DoNotOptimize(r);
    }
    const IntraNodeCost fast =
        AnalyticIntraNodeMapper::search(l.layer, sys.node, in, out, nullptr, &sys.energy);
    state.SetLabel(std::string(l.name) + " " + std::string(to_string(objective)) + " " +
                   to_string(r.cost.tiling) +
                   (r.status == ExactStatus::optimal ? " optimal" : " work_limit"));
    state.counters["tilings"] = static_cast<double>(r.tilings_costed);
    state.counters["pruned"] = static_cast<double>(r.tilings_pruned);
    // The exact optimum over the fast search's choice, in the objective (<= 1).
    state.counters["vs_fast"] = r.objective / node_objective(fast, l.layer, sys.energy, objective);
}
BENCHMARK(BM_ExactSearch)->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0, 1, 2}})->Unit(benchmark::kMillisecond);

}  // namespace
