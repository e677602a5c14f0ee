// The area model and the legality check sit on the tuner's sampling path: NicePIM VIII-B
// samples until it has 16384 legal points per round, every one checked against the budget.
// A pool of random legal points of the default space is cycled through, so that the branch
// predictor cannot learn one point.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/hw/area.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/legality.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::hw;

std::vector<HardwareParams> random_legal_points(std::size_t n) {
    const Constraints c;
    const Technology t;
    const DesignSpace space = default_space(c);
    Rng rng(1, 42);
    std::vector<HardwareParams> points;
    while (points.size() < n) {
        DesignSpace::Index idx{};
        for (std::size_t k = 0; k < kParamCount; ++k) {
            const auto size = static_cast<std::int64_t>(space.range(k).size());
            idx[k] = static_cast<std::size_t>(rng.uniform_int(0, size - 1));
        }
        const HardwareParams p = from_point(space.at(idx));
        if (check(p, c, t).legal()) points.push_back(p);
    }
    return points;
}

void BM_AreaAndCheck(benchmark::State& state) {
    const Constraints c;
    const Technology t;
    const std::vector<HardwareParams> points = random_legal_points(4096);
    std::size_t i = 0;
    for (auto _ : state) {
        const HardwareParams& p = points[i++ & 4095];
        const AreaBreakdown a = area(p, c, t);
        const Legality l = check(p, c, t);
        benchmark::DoNotOptimize(a);
        benchmark::DoNotOptimize(l);
    }
}
BENCHMARK(BM_AreaAndCheck)->Repetitions(9)->ReportAggregatesOnly(true);

void BM_AreaOnly(benchmark::State& state) {
    const Constraints c;
    const Technology t;
    const std::vector<HardwareParams> points = random_legal_points(4096);
    std::size_t i = 0;
    for (auto _ : state) {
        const AreaBreakdown a = area(points[i++ & 4095], c, t);
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_AreaOnly)->Repetitions(9)->ReportAggregatesOnly(true);

}  // namespace
