// The tuner draws millions of candidate parameters per proposal round from Rng.
#include <benchmark/benchmark.h>

#include "pimdse/core/rng.hpp"

namespace {

void BM_RngNext(benchmark::State& state) {
    pimdse::Rng rng(1);
    for (auto _ : state) benchmark::DoNotOptimize(rng());
}
BENCHMARK(BM_RngNext);

void BM_RngUniformInt(benchmark::State& state) {
    pimdse::Rng rng(1);
    for (auto _ : state) benchmark::DoNotOptimize(rng.uniform_int(1, 256));
}
BENCHMARK(BM_RngUniformInt);

}  // namespace
