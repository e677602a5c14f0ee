// Rank 0 must keep up with many workers (docs/engine.md, "Rank 0"): with 10,000
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
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "pimdse/family/family.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "tuner_synthetic.hpp"

namespace {

using namespace pimdse;
using pimdse::bench::make_setup;
using pimdse::bench::Setup;
using pimdse::bench::synthetic_observation;
using Clock = std::chrono::steady_clock;

// This thread's CPU time: on a loaded machine the wall time also counts other jobs' turns.
double thread_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// `batches` consecutive batches from `observations`: propose, evaluate (untimed), archive and
// observe, as rank 0 does; a proposer that retrains only now and then is measured over its
// cycle. The fourth argument sets samples_per_round (0: the default, 16384). The context
// carries the batch size, as the engine's does ("amosa" runs that many chains).
void propose_and_archive(benchmark::State& state, const char* name,
                         const tuner::ProposerOptions& options = {}) {
    const Setup setup = make_setup(static_cast<int>(state.range(0)), static_cast<int>(state.range(3)));
    const int count = static_cast<int>(state.range(1));
    const auto batches = static_cast<int>(state.range(2));
    const tuner::Encoding encoding(setup.ctx.space);
    double fit = 0, wall = 0, cpu = 0, archive = 0;
    std::int64_t proposed = 0;
    for (auto _ : state) {
        state.PauseTiming();
        tuner::ProposerContext ctx = setup.ctx;
        ctx.batch_size = count;
        std::unique_ptr<tuner::Proposer> proposer = tuner::make_proposer(name, ctx, options);
        proposer->observe(setup.history);
        tuner::ParetoArchive front(3);
        for (const tuner::Observation& o : setup.history) (void)front.insert(o.candidate, o.objectives);
        std::int64_t next_id = std::ssize(setup.history);
        state.ResumeTiming();
        for (int b = 0; b < batches; ++b) {
            const auto t0 = Clock::now();
            const double c0 = thread_seconds();
            const std::vector<DesignPoint> points = proposer->propose(1000 + b, count);
            const double c1 = thread_seconds();
            const auto t1 = Clock::now();
            state.PauseTiming();  // the workers' evaluations
            std::vector<tuner::Observation> batch;
            for (const DesignPoint& p : points)
                batch.push_back(synthetic_observation(encoding, next_id++, p));
            state.ResumeTiming();
            const auto t2 = Clock::now();
            const double c2 = thread_seconds();
            for (const tuner::Observation& o : batch) (void)front.insert(o.candidate, o.objectives);
            proposer->observe(batch);
            const double c3 = thread_seconds();
            const auto t3 = Clock::now();
            fit += proposer->last_stats().fit_seconds;
            wall += std::chrono::duration<double>((t1 - t0) + (t3 - t2)).count();
            cpu += (c1 - c0) + (c3 - c2);
            archive += c3 - c2;
            proposed += std::ssize(points);
        }
        benchmark::DoNotOptimize(front.front().size());
    }
    const double n = static_cast<double>(state.iterations()) * batches;
    state.counters["fit_s"] = fit / n;  // per batch, wall
    state.counters["cpu_s"] = cpu / n;  // per batch: propose + archive + observe
    state.counters["archive_cpu_s"] = archive / n;
    state.counters["cand/s"] = static_cast<double>(proposed) / std::max(wall, 1e-9);
    state.counters["cand/cpu_s"] = static_cast<double>(proposed) / std::max(cpu, 1e-9);
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
// The model proposers under `scalarisation: parego` (docs/tuner.md, "Multi-objective
// proposals"): up to 8 weight vectors per batch, each a conditioning and a scoring.
tuner::ProposerOptions parego() {
    tuner::ProposerOptions o;
    o.scalarisation = tuner::Scalarisation::parego;
    return o;
}
void BM_ProposeAndArchive_nicepim_parego(benchmark::State& state) {
    propose_and_archive(state, "nicepim", parego());
}
void BM_ProposeAndArchive_gp_parego(benchmark::State& state) {
    propose_and_archive(state, "gp", parego());
}
void BM_ProposeAndArchive_amosa(benchmark::State& state) {
    propose_and_archive(state, "amosa");
}
void BM_ProposeAndArchive_xgboost(benchmark::State& state) {
    propose_and_archive(state, "xgboost");
}

// {observations, batch size, consecutive batches, samples_per_round}
#define PIMDSE_TUNER_ARGS            \
    ->Args({1000, 256, 10, 0})       \
        ->Args({10000, 256, 10, 0})  \
        ->Args({1000, 10000, 2, 0})  \
        ->Args({10000, 10000, 2, 0}) \
        ->Unit(benchmark::kSecond)   \
        ->Iterations(1)
// Three batches of 64 after 10^3 and after 10^4 observations, timed once each.
void batches_of_64(benchmark::internal::Benchmark* b) {
    b->Args({1000, 64, 3, 0})->Args({10000, 64, 3, 0})->Unit(benchmark::kSecond)->Iterations(1);
}
BENCHMARK(BM_ProposeAndArchive_random) PIMDSE_TUNER_ARGS;
BENCHMARK(BM_ProposeAndArchive_nicepim) PIMDSE_TUNER_ARGS;
// Past the worst case: at 10^5 observations a batch of 10,000 crosses a training point only
// every second or third batch; a batch of 256 scoring 1,024 samples instead of 16,384.
BENCHMARK(BM_ProposeAndArchive_nicepim)
    ->Args({100000, 10000, 3, 0})
    ->Args({10000, 256, 10, 1024})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK(BM_ProposeAndArchive_gp)
    ->Args({10000, 256, 10, 0})
    ->Args({10000, 10000, 2, 0})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
// ParEGO's batches of 64 after 10^3 and 10^4 observations, 8 weight vectors each, against
// the Eq. 1 target's batches of 64.
BENCHMARK(BM_ProposeAndArchive_nicepim)->Apply(batches_of_64);
BENCHMARK(BM_ProposeAndArchive_nicepim_parego)->Apply(batches_of_64);
BENCHMARK(BM_ProposeAndArchive_gp_parego)->Apply(batches_of_64);
// AMOSA (docs/tuner.md, "amosa"): a batch of 64 neighbours, one per chain, after 10^3 and
// 10^4 observations; the archive's clustering is in observe().
BENCHMARK(BM_ProposeAndArchive_amosa)
    ->Args({1000, 64, 10, 0})
    ->Args({10000, 64, 10, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// XGBoost (docs/tuner.md, "Boosted trees"): every batch refits the bootstrap ensemble (10
// boosters of 100 trees) on every observation, then scores 16384 candidates; batches of 64
// after 10^3 and 10^4 observations.
BENCHMARK(BM_ProposeAndArchive_xgboost)->Apply(batches_of_64);

// Fit plus one batch of 64 from a fresh proposer (so the training runs, as at a schedule point)
// after 10^3, 10^4 and 10^5 observations, for every model proposer: the GP-based ones with the
// posterior on every observation (fitc, the default) and on the fitted subset only.
// Run with --benchmark_filter=FitAndPropose --benchmark_repetitions=3 and read the medians.
tuner::ProposerOptions posterior(tuner::GpPosteriorKind kind) {
    tuner::ProposerOptions o;
    o.posterior = kind;
    return o;
}
void BM_FitAndPropose_nicepim_fitc(benchmark::State& state) {
    propose_and_archive(state, "nicepim", posterior(tuner::GpPosteriorKind::fitc));
}
void BM_FitAndPropose_nicepim_subset(benchmark::State& state) {
    propose_and_archive(state, "nicepim", posterior(tuner::GpPosteriorKind::subset));
}
void BM_FitAndPropose_gp_fitc(benchmark::State& state) {
    propose_and_archive(state, "gp", posterior(tuner::GpPosteriorKind::fitc));
}
void BM_FitAndPropose_gp_subset(benchmark::State& state) {
    propose_and_archive(state, "gp", posterior(tuner::GpPosteriorKind::subset));
}
void BM_FitAndPropose_xgboost(benchmark::State& state) {
    propose_and_archive(state, "xgboost");
}
void one_batch_of_64(benchmark::internal::Benchmark* b) {
    b->Args({1000, 64, 1, 0})->Args({10000, 64, 1, 0})->Args({100000, 64, 1, 0});
    b->Unit(benchmark::kSecond)->Iterations(1);
}
BENCHMARK(BM_FitAndPropose_nicepim_fitc)->Apply(one_batch_of_64);
BENCHMARK(BM_FitAndPropose_nicepim_subset)->Apply(one_batch_of_64);
BENCHMARK(BM_FitAndPropose_gp_fitc)->Apply(one_batch_of_64);
BENCHMARK(BM_FitAndPropose_gp_subset)->Apply(one_batch_of_64);
BENCHMARK(BM_FitAndPropose_xgboost)->Apply(one_batch_of_64);

// The predictor filter (docs/tuner.md, "Predictor filter") around random search with the
// CLI's default options (filter_pool 8): a fresh filter, so the predictor fits on every
// observation, then ranks a pool of 8 x 64 points; 10^3 and 10^4 observations.
tuner::ProposerOptions filtered(tuner::FilterPredictor predictor) {
    tuner::ProposerOptions o;
    o.filter = predictor;
    return o;
}
void BM_FitAndPropose_random_filter_xgboost(benchmark::State& state) {
    propose_and_archive(state, "random", filtered(tuner::FilterPredictor::xgboost));
}
void BM_FitAndPropose_random_filter_gp(benchmark::State& state) {
    propose_and_archive(state, "random", filtered(tuner::FilterPredictor::gp));
}
BENCHMARK(BM_FitAndPropose_random_filter_xgboost)
    ->Args({1000, 64, 1, 0})
    ->Args({10000, 64, 1, 0})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK(BM_FitAndPropose_random_filter_gp)
    ->Args({1000, 64, 1, 0})
    ->Args({10000, 64, 1, 0})
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
