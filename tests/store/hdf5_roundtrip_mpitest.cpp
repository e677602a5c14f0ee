// Boost.MPI + parallel HDF5 round trip: every rank appends its own rows collectively to an
// extendible compound table, then every rank reads the whole table back and checks each row.
#include <gtest/gtest.h>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/store/hdf5.hpp"
#include "shared_path.hpp"

namespace pimdse::store::h5 {
namespace {

enum class Status : std::int32_t { ok = 0, infeasible = 1, failed = 2 };

struct Row {
    std::int64_t id;
    std::int32_t rank;
    Status status;
    double value;
    char label[16];
};

CompoundType row_type() {
    CompoundType t(sizeof(Row));
    t.add("id", offsetof(Row, id), H5T_NATIVE_INT64)
        .add("rank", offsetof(Row, rank), H5T_NATIVE_INT32)
        .add_enum("status", offsetof(Row, status), {"ok", "infeasible", "failed"})
        .add("value", offsetof(Row, value), H5T_NATIVE_DOUBLE)
        .add_string("label", offsetof(Row, label), sizeof(Row::label));
    return t;
}

Row make_row(int rank, int batch, int i) {
    Row r{};
    r.id = batch * 1000 + rank * 100 + i;
    r.rank = rank;
    r.status = static_cast<Status>((rank + i) % 3);
    r.value = 0.5 * r.id;
    const std::string label =
        "b" + std::to_string(batch) + "r" + std::to_string(rank) + "i" + std::to_string(i);
    std::memcpy(r.label, label.c_str(), std::min(label.size(), sizeof(r.label) - 1));
    return r;
}

using testing::shared_path;

TEST(ParallelHdf5, CollectiveAppendsRoundTripInRankOrder) {
    boost::mpi::communicator world;
    const auto path = shared_path(world, "pimdse_roundtrip");
    const int ranks = world.size();

    {
        File file(path, File::Mode::create_exclusive, MPI_COMM_WORLD);
        file.set_attribute("/", "format_version", std::int64_t{1});
        file.set_attribute("/", "creator", std::string("pimdse test"));
        const CompoundType type = row_type();
        Table table = Table::create(file, "/results/rows", type, 4);

        // Batch 0: rank r writes r + 1 rows. Batch 1: rank 0 writes none (an idle rank still
        // joins the collective), the others write 2 each.
        for (int batch = 0; batch < 2; ++batch) {
            const int mine = batch == 0 ? world.rank() + 1 : (world.rank() == 0 ? 0 : 2);
            std::vector<Row> rows;
            for (int i = 0; i < mine; ++i) rows.push_back(make_row(world.rank(), batch, i));
            (void)table.append_rows<Row>(rows);
        }
        file.flush();
    }

    File file(path, File::Mode::read_only, MPI_COMM_WORLD);
    EXPECT_EQ(file.int_attribute("/", "format_version"), 1);
    EXPECT_EQ(file.string_attribute("/", "creator"), "pimdse test");
    EXPECT_TRUE(file.exists("/results/rows"));
    EXPECT_FALSE(file.exists("/results/nothing"));
    EXPECT_FALSE(file.exists("/nothing/rows"));
    const CompoundType type = row_type();
    const Table table = Table::open(file, "/results/rows", type);

    const hsize_t expected = static_cast<hsize_t>(ranks * (ranks + 1) / 2 + 2 * (ranks - 1));
    ASSERT_EQ(table.rows(), expected);
    const auto rows = table.read_rows<Row>(0, expected);

    std::size_t k = 0;
    for (int batch = 0; batch < 2; ++batch) {
        for (int r = 0; r < ranks; ++r) {
            const int count = batch == 0 ? r + 1 : (r == 0 ? 0 : 2);
            for (int i = 0; i < count; ++i, ++k) {
                const Row want = make_row(r, batch, i);
                EXPECT_EQ(rows[k].id, want.id) << "row " << k;
                EXPECT_EQ(rows[k].rank, want.rank);
                EXPECT_EQ(rows[k].status, want.status);
                EXPECT_DOUBLE_EQ(rows[k].value, want.value);
                EXPECT_STREQ(rows[k].label, want.label);
            }
        }
    }
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

TEST(ParallelHdf5, TruncateDropsTrailingRowsOnOneProcessOnly) {
    boost::mpi::communicator world;
    const auto path = shared_path(world, "pimdse_truncate");
    const CompoundType type = row_type();
    {
        File file(path, File::Mode::create_truncate, MPI_COMM_WORLD);
        Table table = Table::create(file, "/rows", type, 2);
        std::vector<Row> rows{make_row(world.rank(), 0, 0), make_row(world.rank(), 0, 1)};
        (void)table.append_rows<Row>(rows);
        ASSERT_EQ(table.rows(), static_cast<hsize_t>(2 * world.size()));
        // HDF5 1.10 cannot shrink a dataset consistently in parallel: refused.
        if (world.size() > 1) {
            EXPECT_THROW(table.truncate(1), IoError);
        }
    }
    world.barrier();
    if (world.rank() == 0) {
        File file(path, File::Mode::read_write, MPI_COMM_SELF);
        Table table = Table::open(file, "/rows", type);
        table.truncate(1);
        EXPECT_EQ(table.rows(), 1u);
        EXPECT_EQ(table.read_rows<Row>(0, 1)[0].id, make_row(0, 0, 0).id);
        EXPECT_THROW(table.truncate(5), IoError);
    }
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

TEST(ParallelHdf5, ReserveGrowsAndWriteAtPlacesEveryRanksRuns) {
    boost::mpi::communicator world;
    const auto path = shared_path(world, "pimdse_reserve");
    File file(path, File::Mode::create_truncate, MPI_COMM_WORLD);
    const CompoundType type = row_type();
    Table table = Table::create(file, "/rows", type, 4);
    EXPECT_TRUE(table.reserve(3));
    EXPECT_EQ(table.rows(), 4u);     // at least a chunk
    EXPECT_FALSE(table.reserve(2));  // never shrinks
    EXPECT_FALSE(table.reserve(4));
    EXPECT_TRUE(table.reserve(5));
    EXPECT_EQ(table.rows(), 5u);
    // Rows [1, 1 + 2 * size): rank r writes rows 1 + r and 1 + size + r (interleaved runs).
    const int n = world.size();
    const auto total = static_cast<hsize_t>(2 * n);
    (void)table.reserve(1 + total);
    std::vector<Row> rows{make_row(world.rank(), 0, 0), make_row(world.rank(), 0, 1)};
    const std::vector<Table::Run> runs{{static_cast<hsize_t>(world.rank()), 1},
                                       {static_cast<hsize_t>(n + world.rank()), 1}};
    table.write_rows_at<Row>(1, total, runs, rows);
    const auto back = table.read_rows<Row>(1, total);
    for (int r = 0; r < n; ++r) {
        EXPECT_EQ(back[static_cast<std::size_t>(r)].id, make_row(r, 0, 0).id);
        EXPECT_EQ(back[static_cast<std::size_t>(n + r)].id, make_row(r, 0, 1).id);
    }
    EXPECT_THROW(table.write_rows_at<Row>(table.rows(), 1, {}, std::vector<Row>{}), IoError);
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

TEST(ParallelHdf5, TextDatasetsAndInPlaceAttributes) {
    boost::mpi::communicator world;
    const auto path = shared_path(world, "pimdse_text");
    File file(path, File::Mode::create_truncate, MPI_COMM_WORLD);
    const std::string text = "line one\nline two: \"quoted\"\n";
    file.write_text("/config/source", text);
    file.write_text("/empty", "");
    EXPECT_EQ(file.read_text("/config/source"), text);
    EXPECT_EQ(file.read_text("/empty"), "");
    file.set_attribute("/", "runs", std::int64_t{1});
    file.set_attribute("/", "runs", std::int64_t{2});
    EXPECT_EQ(file.int_attribute("/", "runs"), 2);
    const std::vector<std::int64_t> commit{1, 2, 3};
    file.set_attribute("/", "commit", std::span<const std::int64_t>(commit));
    const std::vector<std::int64_t> next{4, 5, 6};
    file.set_attribute("/", "commit", std::span<const std::int64_t>(next));
    EXPECT_EQ(file.int_array_attribute("/", "commit"), next);
    EXPECT_THROW((void)file.read_text("/missing"), IoError);
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

// The small datasets are chunked with Fletcher32, and the commit record's one chunk stays
// where it is when it is rewritten, with rows appended to a table in between: a rewrite is
// raw data only, which the store's commit protocol relies on (docs/output.md).
TEST(ParallelHdf5, SmallDatasetsAreChecksummedAndRewrittenInPlace) {
    boost::mpi::communicator world;
    const auto path = shared_path(world, "pimdse_inplace");
    File file(path, File::Mode::create_truncate, MPI_COMM_WORLD);
    file.write_text("/config/source", "seed: 1\n");
    file.write_int64s("/commit", std::vector<std::int64_t>{0, 0, 0});
    const auto chunk_address = [&](const char* name) {
        const hid_t d = H5Dopen2(file.id(), name, H5P_DEFAULT);
        const hid_t dcpl = H5Dget_create_plist(d);
        EXPECT_EQ(H5Pget_layout(dcpl), H5D_CHUNKED) << name;
        EXPECT_GE(
            H5Pget_filter_by_id2(dcpl, H5Z_FILTER_FLETCHER32, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            0)
            << name;
        const hsize_t origin = 0;
        haddr_t address = HADDR_UNDEF;
        EXPECT_GE(H5Dget_chunk_info_by_coord(d, &origin, nullptr, &address, nullptr), 0) << name;
        H5Pclose(dcpl);
        H5Dclose(d);
        return address;
    };
    (void)chunk_address("/config/source");
    file.flush();
    const haddr_t first = chunk_address("/commit");
    ASSERT_NE(first, HADDR_UNDEF);
    CompoundType type(sizeof(std::int64_t));
    type.add("v", 0, H5T_NATIVE_INT64);
    Table t = Table::create(file, "/t", type, 4, 4);
    for (std::int64_t b = 1; b <= 5; ++b) {
        const std::vector<std::int64_t> rows(world.rank() == 0 ? 3 : 0, b);
        (void)t.append_rows<std::int64_t>(rows);
        const std::vector<std::int64_t> commit{b, 3 * b, b};
        file.write_int64s("/commit", commit);
        EXPECT_EQ(chunk_address("/commit"), first) << "batch " << b;
        // The bytes are in the file at once (no chunk cache holds them back), before any flush.
        std::vector<std::int64_t> on_disk(commit.size());
        std::ifstream raw(path, std::ios::binary);
        raw.seekg(static_cast<std::streamoff>(first));
        raw.read(reinterpret_cast<char*>(on_disk.data()), static_cast<std::streamsize>(8 * on_disk.size()));
        EXPECT_EQ(on_disk, commit) << "batch " << b << ": the commit record is not in the file yet";
    }
    EXPECT_EQ(file.read_int64s("/commit"), (std::vector<std::int64_t>{5, 15, 5}));
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

TEST(ParallelHdf5, ErrorsNameTheFileAndObject) {
    boost::mpi::communicator world;
    const auto path = shared_path(world, "pimdse_errors");
    { File created(path, File::Mode::create_exclusive, MPI_COMM_WORLD); }
    try {
        File again(path, File::Mode::create_exclusive, MPI_COMM_WORLD);
        ADD_FAILURE() << "exclusive create of an existing file must fail";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
    File file(path, File::Mode::read_write, MPI_COMM_WORLD);
    const CompoundType type = row_type();
    try {
        (void)Table::open(file, "/missing", type);
        ADD_FAILURE() << "opening a missing table must fail";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(":/missing: no such dataset"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)file.int_attribute("/", "absent"), IoError);
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
    EXPECT_THROW(File(path.string() + ".none", File::Mode::read_only, MPI_COMM_WORLD), IoError);
}

TEST(Mpi, AllReduceSumsRanks) {
    boost::mpi::communicator world;
    int sum = 0;
    boost::mpi::all_reduce(world, world.rank(), sum, std::plus<int>());
    EXPECT_EQ(sum, world.size() * (world.size() - 1) / 2);
}

}  // namespace
}  // namespace pimdse::store::h5
