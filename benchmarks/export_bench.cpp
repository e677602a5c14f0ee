// `pimdse export`'s work, store::export_csv: every table of a sweep file as CSV, read block by
// block through the file's own description and formatted cell by cell. Measured on a file
// of N copies of one real evaluation (the default sweep's five DNNs on 4x4 nodes, about
// 2,000 rows per candidate over the row tables), written by the store as a sweep writes it.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <utility>
#include <vector>

#include "pimdse/engine/explore.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/store/store.hpp"
#include "pimdse/store/store_export.hpp"

namespace {

using namespace pimdse;
namespace fs = std::filesystem;

// The store's HDF5 is parallel HDF5: MPI must be up, on this one process.
void ensure_mpi() {
    int up = 0;
    MPI_Initialized(&up);
    if (!up) {
        MPI_Init(nullptr, nullptr);
        std::atexit([] { MPI_Finalize(); });
    }
}

// A finished sweep file of `n` candidates in one batch; returns its path and its row count.
std::pair<fs::path, std::int64_t> sweep_file(std::int64_t n) {
    ensure_mpi();
    const io::Config config =
        io::read_config_file(fs::path(PIMDSE_SOURCE_DIR) / "inputs/sweeps/default.yaml");
    eval::EvalContext ctx;
    ctx.constraints = config.constraints;
    ctx.technology = config.technology;
    ctx.schedule = config.schedule;
    for (io::LoadedWorkload& w : io::load_workloads(config)) {
        eval::Workload e{std::move(w.network), {}, w.spec.weight};
        e.segmentation = workload::decompose(e.network);
        ctx.workloads.push_back(std::move(e));
    }
    const std::unique_ptr<family::Family> fam = family::make_family(config);
    eval::Evaluation e =
        fam->evaluate(ctx, 0, hw::to_point(hw::HardwareParams{4, 4, 16, 16, 256, 256, 256}), Deadline());
    const fs::path path = fs::temp_directory_path() / ("pimdse_export_bench_" + std::to_string(n) + ".h5");
    store::Store store = store::Store::create(path, config, engine::family_columns(*fam, config),
                                              ctx.workloads, MPI_COMM_SELF);
    store::BatchRows rows;
    std::vector<store::CandidateRecord> layout;
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < n; ++k) {
        e.candidate = k;
        layout.push_back(rows.add(e, 0, io::Proposer::random, 0, ctx.workloads));
        const store::CandidateRecord& c = layout.back();
        total += 1 + c.metric_rows + c.layer_rows + c.segment_rows + c.schedule_rows;
    }
    store::BatchRecord tuner;
    tuner.candidates = n;
    tuner.evaluations = n;
    store.write_batch(rows, layout, tuner, {});
    store.close_and_trim();
    return {path, total};
}

void BM_ExportCsv(benchmark::State& state) {
    const auto [path, rows] = sweep_file(state.range(0));
    const fs::path dir = fs::temp_directory_path() / "pimdse_export_bench_csv";
    for (auto _ : state) benchmark::DoNotOptimize(store::export_csv(path, dir));
    state.counters["rows/s"] =
        benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsIterationInvariantRate);
    fs::remove_all(dir);
    fs::remove(path);
}
BENCHMARK(BM_ExportCsv)->Arg(4)->Arg(32)->Unit(benchmark::kMillisecond);

}  // namespace
