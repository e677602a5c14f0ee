// Rank 0 must keep up with many workers (issue 16, docs/engine.md "Rank 0"): with 10,000
// workers and evaluations of about 1 s it must propose and archive about 10,000 candidates
// per second. BM_ProposeAndArchive times what rank 0 does per batch after 1,000 and 10,000
// synthetic observations of the default (NicePIM Table II) space with the default options:
// one propose() (the model fit included) and, for the proposed batch, the Pareto-archive
// update and the proposer's observe(); the synthetic evaluation in between is the workers'
// work and is not timed. candidates/s = batch size / that time. BM_ArchiveInsert times the
// archive alone. Run with --benchmark_repetitions=5 and read the medians:
//
//   build/benchmarks/bench_tuner --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace {

using namespace pimdse;
using Clock = std::chrono::steady_clock;

// A smooth synthetic cost of the encoding and three conflicting objectives; one in twenty fails.
tuner::Observation synthetic_observation(const tuner::Encoding& encoding, std::int64_t id,
                                         const hw::HardwareParams& p) {
    const tuner::Unit u = encoding.encode(p);
    double s = 0, big = 0, small = 0;
    for (std::size_t k = 0; k < u.size(); ++k) {
        s += (k + 1.0) * (u[k] - 0.4) * (u[k] - 0.4);
        big += (k + 1.0) * u[k];
        small += (k + 1.0) * (1 - u[k]) * (1 - u[k]);
    }
    tuner::Observation o;
    o.candidate = id;
    o.params = p;
    if (id % 20 == 19) {
        o.outcome = tuner::Outcome::failed;
        o.cost = INFINITY;
        o.objectives.assign(3, INFINITY);
    } else {
        o.cost = std::exp(3 * s + std::sin(7 * u[4]));
        o.objectives = {std::exp(small + 0.3 * std::sin(5 * u[2])), std::exp(0.5 * big + s), 1 + big};
    }
    return o;
}

struct Setup {
    tuner::ProposerContext ctx;
    std::vector<tuner::Observation> history;
};

Setup make_setup(int n) {
    Setup s;
    s.ctx.space = hw::default_space(s.ctx.constraints);
    const tuner::LegalSampler sampler(s.ctx.space, s.ctx.constraints, s.ctx.technology);
    const tuner::Encoding encoding(s.ctx.space);
    Rng rng(99, 1);
    const std::vector<hw::HardwareParams> points = sampler.sample(rng, n, {});
    for (std::size_t i = 0; i < points.size(); ++i)
        s.history.push_back(synthetic_observation(encoding, static_cast<std::int64_t>(i), points[i]));
    return s;
}

void propose_and_archive(benchmark::State& state, const char* name) {
    const Setup setup = make_setup(static_cast<int>(state.range(0)));
    const int count = static_cast<int>(state.range(1));
    const tuner::Encoding encoding(setup.ctx.space);
    double fit = 0, propose = 0, archive = 0;
    for (auto _ : state) {
        state.PauseTiming();
        std::unique_ptr<tuner::Proposer> proposer = tuner::make_proposer(name, setup.ctx);
        proposer->observe(setup.history);
        tuner::ParetoArchive front(3);
        for (const tuner::Observation& o : setup.history) (void)front.insert(o.candidate, o.objectives);
        state.ResumeTiming();
        const auto t0 = Clock::now();
        const std::vector<hw::HardwareParams> points = proposer->propose(1000, count);
        const auto t1 = Clock::now();
        state.PauseTiming();  // the workers' evaluations
        std::vector<tuner::Observation> batch;
        for (std::size_t i = 0; i < points.size(); ++i)
            batch.push_back(
                synthetic_observation(encoding, std::ssize(setup.history) + std::ssize(batch), points[i]));
        state.ResumeTiming();
        const auto t2 = Clock::now();
        for (const tuner::Observation& o : batch) (void)front.insert(o.candidate, o.objectives);
        proposer->observe(batch);
        const auto t3 = Clock::now();
        fit += proposer->last_stats().fit_seconds;
        propose += std::chrono::duration<double>(t1 - t0).count();
        archive += std::chrono::duration<double>(t3 - t2).count();
        benchmark::DoNotOptimize(front.front().size());
    }
    const double iterations = static_cast<double>(state.iterations());
    state.counters["fit_s"] = fit / iterations;
    state.counters["propose_s"] = propose / iterations;
    state.counters["archive_s"] = archive / iterations;
    state.counters["candidates/s"] = count * iterations / std::max(propose + archive, 1e-9);
}

void BM_ProposeAndArchive_random(benchmark::State& state) {
    propose_and_archive(state, "random");
}
void BM_ProposeAndArchive_nicepim(benchmark::State& state) {
    propose_and_archive(state, "nicepim");
}
void BM_ProposeAndArchive_gp(benchmark::State& state) {
    propose_and_archive(state, "gp");
}

// {observations, batch size}
#define PIMDSE_TUNER_ARGS      \
    ->Args({1000, 256})        \
        ->Args({10000, 256})   \
        ->Args({1000, 10000})  \
        ->Args({10000, 10000}) \
        ->Unit(benchmark::kSecond)
BENCHMARK(BM_ProposeAndArchive_random) PIMDSE_TUNER_ARGS->Iterations(3);
BENCHMARK(BM_ProposeAndArchive_nicepim) PIMDSE_TUNER_ARGS->Iterations(1);
BENCHMARK(BM_ProposeAndArchive_gp)
    ->Args({10000, 256})
    ->Args({10000, 10000})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

// The archive alone: `batch` inserts into an archive that holds the front of `observations`.
void BM_ArchiveInsert(benchmark::State& state) {
    const Setup setup = make_setup(static_cast<int>(state.range(0) + state.range(1)));
    const auto n = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        state.PauseTiming();
        tuner::ParetoArchive front(3);
        for (std::size_t i = 0; i < n; ++i)
            (void)front.insert(setup.history[i].candidate, setup.history[i].objectives);
        state.ResumeTiming();
        for (std::size_t i = n; i < setup.history.size(); ++i)
            (void)front.insert(setup.history[i].candidate, setup.history[i].objectives);
        benchmark::DoNotOptimize(front.front().size());
    }
    state.counters["candidates/s"] =
        benchmark::Counter(static_cast<double>(state.range(1)) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ArchiveInsert)->Args({1000, 10000})->Args({10000, 10000})->Unit(benchmark::kMillisecond);

}  // namespace
