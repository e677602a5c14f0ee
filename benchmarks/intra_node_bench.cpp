// The intra-node mapper's search runs once per distinct (part-layer, node, layouts) before
// memoisation; the budget is <= 1 ms per search. Layers are representative part-layers;
// nodes are NicePIM's 4 x 4 system node (32 x 32 PEs, 128 KiB buffers, 16 banks) and
// 16 x 16 system node (8 x 8 PEs, 8 KiB buffers, 1 bank), NicePIM VIII-C. Ties in cycles go
// to energy under the 16 x 16 system's coefficients, as in `pimdse map`.
#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/system.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

PartLayer conv(std::int64_t K, std::int64_t C, std::int64_t PQ, std::int64_t RS) {
    return PartLayer::convolution(K, C, PQ, PQ, RS);
}

PartLayer layer(int i) {
    switch (i) {
        case 0:  // ResNet conv3x3, 56 x 56 x 64 -> 64
            return conv(64, 64, 56, 3);
        case 1:  // ResNet bottleneck 1x1, 64 -> 256 at 56 x 56
            return conv(256, 64, 56, 1);
        case 2: {  // VGG FC 4096 x 4096, batch 1
            PartLayer l;
            l.K = 4096;
            l.C = 4096;
            return l;
        }
        case 3: {  // BERT-base Q.K^T of one head: 128 tokens x 128 tokens x 64
            PartLayer l;
            l.P = 128;
            l.K = 128;
            l.C = 64;
            l.H = 128;
            l.has_weights = false;
            return l;
        }
        default: {  // MobileNet depthwise 3x3, 112 x 112 x 32
            PartLayer l = conv(32, 1, 112, 3);
            l.depthwise = true;
            return l;
        }
    }
}

constexpr std::array<const char*, 5> kNames{"conv3x3_56x56x64", "conv1x1_56x56x64to256", "fc_4096x4096",
                                            "bert_qkT_128x128x64", "dwconv3x3_112x112x32"};

NodeSpec node(int i) {
    return i == 0 ? NodeSpec::with_banks(32, 32, 128, 16) : NodeSpec::with_banks(8, 8, 8, 1);
}

const IntraNodeEnergyCoefficients& energy() {
    static const IntraNodeEnergyCoefficients k = [] {
        const io::HardwareFile h =
            io::read_hardware_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/nicepim_16x16.yaml");
        return make_system(h.constraints, h.params, h.technology).energy;
    }();
    return k;
}

void BM_Search(benchmark::State& state) {
    const PartLayer l = layer(static_cast<int>(state.range(0)));
    const NodeSpec n = node(static_cast<int>(state.range(1)));
    const DataLayout in{LayoutOrder::bchw, 8};
    const DataLayout out{LayoutOrder::bhwc, 1};
    IntraNodeCost c;
    for (auto _ : state) {
        c = AnalyticIntraNodeMapper::search(l, n, in, out, nullptr, &energy());
        benchmark::DoNotOptimize(c);
    }
    state.SetLabel(std::string(kNames[static_cast<std::size_t>(state.range(0))]) +
                   (state.range(1) == 0 ? " 4x4-node " : " 16x16-node ") + to_string(c.tiling));
    state.counters["pe_util"] = c.pe_utilisation;
    state.counters["cycles"] = c.total_cycles.value();
}
BENCHMARK(BM_Search)->ArgsProduct({{0, 1, 2, 3, 4}, {0, 1}})->Unit(benchmark::kMicrosecond);

void BM_MemoHit(benchmark::State& state) {
    AnalyticIntraNodeMapper mapper(energy());
    const PartLayer l = layer(0);
    const NodeSpec n = node(0);
    (void)mapper.map(l, n, {}, {});
    for (auto _ : state) benchmark::DoNotOptimize(mapper.map(l, n, {}, {}));
}
BENCHMARK(BM_MemoHit);

}  // namespace
