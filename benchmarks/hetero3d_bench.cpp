// A tier mapper (HuNT's AMOSA, 100 iterations per stack over 65 legal stacks) costs a whole
// training step per move: placing and costing a CIFAR-10 training network on a hetero3d
// stack must stay far below a millisecond. Measured on the largest (DenseNet-40, 79 layers)
// and a plain one (VGG-16), on HuNT's RRFS stack.
#include <benchmark/benchmark.h>

#include <string>

#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/hetero3d_network.hpp"

namespace {

using namespace pimdse;

void BM_CostTrainingStepOnStack(benchmark::State& state, const std::string& name) {
    const workload::Network net =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/cifar10/" + name + ".yaml");
    const hw::Hetero3dHardware hw{4, 16, 4, SquareMillimetres(0.40), *hw::parse_stack("RRFS")};
    const sim::Hetero3dCostParams params;
    for (auto _ : state) {
        const sim::Hetero3dPlacement p = sim::greedy_placement(net, hw);
        const sim::Hetero3dNetworkCost c =
            sim::cost_network_on_stack(net, hw, p, hw::neurosim_v2_1_preset(), params);
        benchmark::DoNotOptimize(c.latency_ns);
    }
}

BENCHMARK_CAPTURE(BM_CostTrainingStepOnStack, vgg16_half, std::string("vgg16_half_cifar10"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CostTrainingStepOnStack, densenet40, std::string("densenet40_cifar10"))
    ->Unit(benchmark::kMicrosecond);

}  // namespace
