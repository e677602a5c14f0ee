// HuNT's tier mapping (mapper/tier_mapping.hpp): one AMOSA evaluation (a perturbed placement
// costed with its temperatures and four objectives) and the whole 100-iteration search, on
// HuNT's RRFS stack for VGG-16's training. A sweep over the 65 trainable stacks runs the
// search once per stack and workload.
#include <benchmark/benchmark.h>

#include <string>

#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/tier_mapping.hpp"

namespace {

using namespace pimdse;

const workload::Network& vgg16() {
    static const workload::Network net = io::read_network_file(
        std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/cifar10/vgg16_half_cifar10.yaml");
    return net;
}

hw::Hetero3dHardware rrfs() {
    return {4, 16, 4, SquareMillimetres(0.40), *hw::parse_stack("RRFS")};
}

mapper::TierModel model() {
    mapper::TierModel m;
    m.preset = &hw::neurosim_v2_1_preset();
    m.thermal = sim::hunt_thermal_stack(1.6, 16, 4);
    return m;
}

void BM_EvaluatePerturbedPlacement(benchmark::State& state) {
    const auto h = rrfs();
    const auto m = model();
    sim::Hetero3dPlacement p = sim::greedy_placement(vgg16(), h);
    Rng rng(1);
    for (auto _ : state) {
        p = mapper::perturb_placement(vgg16(), h, p, rng);
        const auto e = mapper::evaluate_placement(vgg16(), h, p, m);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EvaluatePerturbedPlacement)->Unit(benchmark::kMicrosecond);

void BM_MapTiers100(benchmark::State& state) {
    const auto h = rrfs();
    const auto m = model();
    for (auto _ : state) {
        const auto r = mapper::map_tiers(vgg16(), h, m, {});
        benchmark::DoNotOptimize(r.front.size());
    }
}
BENCHMARK(BM_MapTiers100)->Unit(benchmark::kMillisecond);

}  // namespace
