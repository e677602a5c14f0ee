// The batch write's core: rows written at reserved places of a chunked table
// (store::h5::Table::write_at) and flushed, as Store::write_batch does, with the Fletcher32
// checksum that every table carries (its cost is what this measures against
// the earlier numbers of the same benchmark). One process, MPI_COMM_SELF, a 64-byte row.
#include <benchmark/benchmark.h>
#include <mpi.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "pimdse/store/hdf5.hpp"

namespace {

using namespace pimdse::store;

void ensure_mpi() {
    static const bool done = [] {
        int initialised = 0;
        MPI_Initialized(&initialised);
        if (initialised == 0) {
            MPI_Init(nullptr, nullptr);
            std::atexit([] { MPI_Finalize(); });
        }
        return true;
    }();
    (void)done;
}

struct Row {
    std::array<std::int64_t, 8> v;
};

void BM_TableWriteAt(benchmark::State& state) {
    ensure_mpi();
    const auto rows = static_cast<hsize_t>(state.range(0));
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("pimdse_bench_hdf5_" + std::to_string(::getpid()) + ".h5");
    {
        h5::File file(path, h5::File::Mode::create_truncate, MPI_COMM_SELF);
        h5::CompoundType type(sizeof(Row));
        // (Names spelled out: "v" + to_string trips GCC 12's -Wrestrict false positive.)
        const std::array<const char*, 8> names{"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7"};
        for (std::size_t k = 0; k < names.size(); ++k)
            type.add(names[k], k * sizeof(std::int64_t), H5T_NATIVE_INT64);
        h5::Table table = h5::Table::create(file, "/rows", type, 1024);
        std::vector<Row> data(rows);
        for (hsize_t i = 0; i < rows; ++i) data[i].v.fill(static_cast<std::int64_t>(i));
        const std::array<h5::Table::Run, 1> run{{{0, rows}}};
        hsize_t first = 0;
        for (auto _ : state) {
            (void)table.reserve(first + rows);
            table.write_rows_at<Row>(first, rows, run, data);
            file.flush();
            first += rows;
        }
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * rows * sizeof(Row)));
    }
    std::filesystem::remove(path);
}
BENCHMARK(BM_TableWriteAt)->Arg(2048)->Arg(32768)->Unit(benchmark::kMillisecond);

}  // namespace
