// Rank 0 must keep up with many workers (issue 7, "Scale"): one proposal of a Bayesian
// proposer, model fit included, after 1,000 and 10,000 synthetic observations of the default
// (NicePIM Table II) space with the default options: 16384 samples per round, fit on at most
// fit_max observations, batches of 8 and 256 (candidates/s: rank 0's proposal
// throughput). Run with --benchmark_repetitions=5 and read the medians.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace {

using namespace pimdse;

// Legal points with a smooth synthetic cost of the encoding; one in twenty fails.
std::vector<tuner::Observation> synthetic_history(const tuner::ProposerContext& ctx, int n) {
    const tuner::LegalSampler sampler(ctx.space, ctx.constraints, ctx.technology);
    const tuner::Encoding encoding(ctx.space);
    Rng rng(99, 1);
    const std::vector<hw::HardwareParams> points = sampler.sample(rng, n, {});
    std::vector<tuner::Observation> out;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const tuner::Unit u = encoding.encode(points[i]);
        double s = 0;
        for (std::size_t k = 0; k < u.size(); ++k) s += (k + 1.0) * (u[k] - 0.4) * (u[k] - 0.4);
        tuner::Observation o;
        o.candidate = static_cast<std::int64_t>(i);
        o.params = points[i];
        if (i % 20 == 19) {
            o.outcome = tuner::Outcome::failed;
            o.cost = INFINITY;
        } else {
            o.cost = std::exp(3 * s + std::sin(7 * u[4]));
        }
        out.push_back(o);
    }
    return out;
}

void fit_and_propose(benchmark::State& state, const char* name) {
    tuner::ProposerContext ctx;
    ctx.space = hw::default_space(ctx.constraints);
    const auto history = synthetic_history(ctx, static_cast<int>(state.range(0)));
    std::unique_ptr<tuner::Proposer> proposer = tuner::make_proposer(name, ctx);
    proposer->observe(history);
    double fit = 0, propose = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(proposer->propose(1000, static_cast<int>(state.range(1))));
        fit += proposer->last_stats().fit_seconds;
        propose += proposer->last_stats().propose_seconds;
    }
    state.counters["fit_s"] = benchmark::Counter(fit, benchmark::Counter::kAvgIterations);
    state.counters["propose_s"] = benchmark::Counter(propose, benchmark::Counter::kAvgIterations);
    // Rank 0's throughput: candidates of one batch per second of fit + proposal.
    state.counters["candidates/s"] =
        benchmark::Counter(static_cast<double>(state.range(1)) * static_cast<double>(state.iterations()) /
                           std::max(fit + propose, 1e-9));
}

void BM_NicepimFitAndPropose(benchmark::State& state) {
    fit_and_propose(state, "nicepim");
}
void BM_GpFitAndPropose(benchmark::State& state) {
    fit_and_propose(state, "gp");
}

// {observations, batch size}: the fit is bounded (fit_max observations), the batch's
// candidates come from one fit.
BENCHMARK(BM_NicepimFitAndPropose)
    ->Args({1000, 8})
    ->Args({10000, 8})
    ->Args({1000, 256})
    ->Args({10000, 256})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK(BM_GpFitAndPropose)->Args({1000, 8})->Args({10000, 8})->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
