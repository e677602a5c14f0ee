// A worker's rows of one batch (store::BatchRows), added as its evaluations finish. Slowest-first
// dispatch makes them finish out of id order; BatchRows keeps them in arrival order and the
// batch's write puts them in id order in one pass. This measures adding a batch of N copies
// of one real evaluation (the default sweep's five DNNs on 4x4 nodes, about 2,000 rows per
// candidate over the four row tables) in id order and in reverse, the reordering included.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "pimdse/eval/evaluate.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/store/store.hpp"

namespace {

using namespace pimdse;

struct Setup {
    eval::EvalContext ctx;
    eval::Evaluation evaluation;
};

const Setup& setup() {
    static const Setup s = [] {
        Setup out;
        const io::Config config =
            io::read_config_file(std::filesystem::path(PIMDSE_SOURCE_DIR) / "inputs/sweeps/default.yaml");
        out.ctx.constraints = config.constraints;
        out.ctx.technology = config.technology;
        out.ctx.schedule = config.schedule;
        for (io::LoadedWorkload& w : io::load_workloads(config)) {
            eval::Workload e{std::move(w.network), {}, w.spec.weight};
            e.segmentation = workload::decompose(e.network);
            out.ctx.workloads.push_back(std::move(e));
        }
        out.evaluation =
            eval::evaluate(out.ctx, {0, hw::HardwareParams{4, 4, 16, 16, 256, 256, 256}}, Deadline());
        return out;
    }();
    return s;
}

void add_batch(benchmark::State& state, bool reverse) {
    const Setup& s = setup();
    const auto n = static_cast<std::int64_t>(state.range(0));
    store::BatchRows rows;
    eval::Evaluation e = s.evaluation;
    for (auto _ : state) {
        rows.clear();
        for (std::int64_t k = 0; k < n; ++k) {
            e.candidate = reverse ? n - 1 - k : k;
            benchmark::DoNotOptimize(rows.add(e, 0, io::Proposer::random, 1, s.ctx.workloads));
        }
        rows.sort_by_id();
    }
    state.counters["candidates/s"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_BatchRowsInIdOrder(benchmark::State& state) {
    add_batch(state, false);
}
void BM_BatchRowsInReverseIdOrder(benchmark::State& state) {
    add_batch(state, true);
}
BENCHMARK(BM_BatchRowsInIdOrder)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BatchRowsInReverseIdOrder)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);

// Rank 0's side of a result (docs/engine.md, "One writer"): a worker's rows of one candidate
// arrive as bytes and join the batch's rows; at the write, output.mappings: front drops the
// mapping rows of all but a few. Per candidate of a batch of N (one kept in eight).
void BM_RowsFromBytesAndFrontDrop(benchmark::State& state) {
    const Setup& s = setup();
    const auto n = static_cast<std::int64_t>(state.range(0));
    std::vector<std::vector<char>> messages;
    eval::Evaluation e = s.evaluation;
    for (std::int64_t k = 0; k < n; ++k) {
        store::BatchRows one;
        e.candidate = k;
        (void)one.add(e, 0, io::Proposer::random, 1, s.ctx.workloads);
        messages.push_back(one.to_bytes());
    }
    std::vector<std::int64_t> keep;
    for (std::int64_t k = 0; k < n; k += 8) keep.push_back(k);
    store::BatchRows rows;
    for (auto _ : state) {
        rows.clear();
        for (const std::vector<char>& m : messages) rows.append_bytes(m);
        rows.drop_mappings_except(keep);
        benchmark::DoNotOptimize(rows.candidates());
    }
    state.counters["candidates/s"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["bytes/candidate"] = static_cast<double>(messages.front().size());
}
BENCHMARK(BM_RowsFromBytesAndFrontDrop)->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace
