// The sweep store on 1, 2, 3 ranks: a batch's rows land in candidate order whichever rank
// computed them, the commit record covers exactly the written rows, /schedules takes the
// evaluation's schedule entries, and repair_for_resume cuts an interrupted batch's rows.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "dram_pim_columns.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/store/store.hpp"
#include "shared_path.hpp"

namespace pimdse::store {
namespace {

using namespace pimdse::io;  // the configuration and workloads a store is made from

using testing::shared_path;

struct Fixture {
    Config config;
    eval::EvalContext ctx;
};

Fixture load() {
    Fixture f;
    f.config = read_config_file(std::filesystem::path(PIMDSE_SOURCE_DIR) / "tests/data/sweep/tiny.yaml");
    for (LoadedWorkload& w : load_workloads(f.config)) {
        eval::Workload e{std::move(w.network), {}, w.spec.weight};
        e.segmentation = workload::decompose(e.network);
        f.ctx.workloads.push_back(std::move(e));
    }
    f.ctx.constraints = f.config.constraints;
    f.ctx.technology = f.config.technology;
    return f;
}

// Candidate i's evaluation; candidate 1 carries a schedule entry, candidate 3 is illegal.
eval::Evaluation evaluation(const eval::EvalContext& ctx, std::int64_t id) {
    hw::HardwareParams p{2, 2, 8, 8, 16, 16, 16, 400, 16};  // a point of the space: clock and width set
    if (id == 3) p.pe_rows = p.pe_cols = 256;               // far over the area budget: infeasible
    p.ibuf_kib += static_cast<int>(8 * id);
    eval::Evaluation e = family::make_family(io::Config{})->evaluate(ctx, id, hw::to_point(p), Deadline());
    if (id == 1) {
        eval::EventSchedule s;
        s.layer = 0;
        s.event = 0;
        s.kind = sim::SharingKind::weights;
        s.record.scheduler = sched::SchedulerKind::ilp;
        s.record.status = sched::ScheduleStatus::optimal;
        s.record.sets = {sim::SharingSet{{0, 1, 3, 2}, Bytes{64}}};
        s.record.cost.max_link_flits = 12;
        e.networks.at(0).schedules.push_back(s);
    }
    return e;
}

// Candidate `id`'s record as rank `owner` reports it, its rows added to `mine` when this rank
// is the owner.
CandidateRecord evaluate_on(const Fixture& fx, std::int64_t id, std::int64_t batch, int owner, int rank,
                            BatchRows& mine) {
    BatchRows scratch;
    return (owner == rank ? mine : scratch)
        .add(evaluation(fx.ctx, id), batch, fx.config.sweep.proposer, owner, fx.ctx.workloads);
}

hsize_t dataset_rows(const std::string& file, const char* path) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    const hid_t s = H5Dget_space(d);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(s, &n, nullptr);
    H5Sclose(s);
    H5Dclose(d);
    H5Fclose(f);
    return n;
}

// The `candidate` column of a table, read with the C API (no pimdse code in between).
std::vector<std::int64_t> candidate_column(const std::string& file, const char* path) {
    const hsize_t n = dataset_rows(file, path);
    std::vector<std::int64_t> out(n);
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(std::int64_t));
    H5Tinsert(t, "candidate", 0, H5T_NATIVE_INT64);
    if (n > 0) H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
    H5Tclose(t);
    H5Dclose(d);
    H5Fclose(f);
    return out;
}

TEST(SweepStore, RowsInCandidateOrderForAnyRankCount) {
    boost::mpi::communicator world;
    const Fixture fx = load();
    const auto path = shared_path(world, "pimdse_store");
    const std::vector<std::vector<std::int64_t>> batches{{0, 1, 2}, {3, 4}};
    {
        Store store = Store::create(path, fx.config, dram_pim_columns(), fx.ctx.workloads, MPI_COMM_WORLD);
        store.note_run(world.size());
        std::vector<ParetoRecord> pareto;
        for (std::size_t b = 0; b < batches.size(); ++b) {
            std::vector<CandidateRecord> layout;
            BatchRows mine;
            // Candidates go to ranks in reverse, so that rank order differs from id order, and
            // finish in decreasing id order, as a batch's slowest-first dispatch can make them.
            for (auto it = batches[b].rbegin(); it != batches[b].rend(); ++it) {
                const int owner = world.size() - 1 - static_cast<int>(*it % world.size());
                layout.push_back(
                    evaluate_on(fx, *it, static_cast<std::int64_t>(b), owner, world.rank(), mine));
            }
            std::reverse(layout.begin(), layout.end());  // rank 0 sorts a batch's results by id
            BatchRecord row;
            row.batch = static_cast<std::int64_t>(b);
            row.candidates = static_cast<std::int64_t>(layout.size());
            // A Pareto row is an ok candidate of its batch with its own costs (checked on opening).
            const CandidateRecord& joined = layout.back();
            if (world.rank() == 0) {
                pareto.push_back({joined.id, static_cast<std::int64_t>(b), -1, joined.latency_seconds,
                                  joined.energy_joules, joined.area_mm2, joined.cost});
            }
            store.write_batch(mine, layout, row, pareto);
        }
        store.close_and_trim();  // tables grow ahead of their rows; a finished run cuts them back
    }

    const Store store = Store::open_read_only(path, MPI_COMM_WORLD);
    const StoredSweep s = store.read();
    EXPECT_EQ(s.batches, 2);
    ASSERT_EQ(s.candidates.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        const auto id = static_cast<std::int64_t>(i);
        EXPECT_EQ(s.candidates[i].id, id);
        EXPECT_EQ(s.candidates[i].rank, world.size() - 1 - static_cast<int>(id % world.size()));
        EXPECT_EQ(s.candidates[i].params, evaluation(fx.ctx, id).point);
    }
    EXPECT_EQ(s.candidates[3].status, eval::Status::infeasible);
    EXPECT_EQ(s.candidates[1].schedule_rows, 1);
    ASSERT_EQ(s.tuner.size(), 2u);
    EXPECT_EQ(s.tuner[1].candidates, 2);
    ASSERT_EQ(s.pareto.size(), 2u);
    EXPECT_EQ(s.pareto[1].candidate, 4);
    ASSERT_EQ(s.workloads.size(), 2u);
    EXPECT_EQ(s.workloads[0].name, "tiny");
    EXPECT_NE(s.workloads[1].source.find("resnet18"), std::string::npos);
    EXPECT_EQ(s.resolved_config, to_yaml(fx.config));
    world.barrier();
    if (world.rank() == 0) {
        EXPECT_EQ(dataset_rows(path.string(), "/schedules"), 1u);
        EXPECT_EQ(dataset_rows(path.string(), "/metrics"), 8u);  // 4 legal candidates x 2 networks
        const std::vector<std::int64_t> by_metric{0, 0, 1, 1, 2, 2, 4, 4};
        EXPECT_EQ(candidate_column(path.string(), "/metrics"), by_metric);
        const std::vector<std::int64_t> layers = candidate_column(path.string(), "/mappings/layers");
        EXPECT_TRUE(std::is_sorted(layers.begin(), layers.end()));
        EXPECT_EQ(layers.front(), 0);
        EXPECT_EQ(layers.back(), 4);
    }
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

TEST(SweepStore, RepairCutsRowsPastTheCommitRecord) {
    boost::mpi::communicator world;
    const Fixture fx = load();
    const auto path = shared_path(world, "pimdse_repair");
    {
        Store store = Store::create(path, fx.config, dram_pim_columns(), fx.ctx.workloads, MPI_COMM_WORLD);
        BatchRows mine;
        const std::vector<CandidateRecord> layout{evaluate_on(fx, 0, 0, 0, world.rank(), mine)};
        store.write_batch(mine, layout, BatchRecord{}, {});
    }  // closed without close_and_trim, like a killed run: tables keep their reserved rows
    world.barrier();
    // An interrupted batch: more rows in two tables, no commit.
    if (world.rank() == 0) {
        CandidateRecord committed;
        count_rows(evaluation(fx.ctx, 0), committed);
        EXPECT_GT(dataset_rows(path.string(), "/candidates"), 1u);
        const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
        for (const char* table : {"/candidates", "/mappings/layers"}) {
            const hid_t d = H5Dopen2(f, table, H5P_DEFAULT);
            const hid_t s = H5Dget_space(d);
            hsize_t n = 0;
            H5Sget_simple_extent_dims(s, &n, nullptr);
            n += 3;
            H5Dset_extent(d, &n);
            H5Sclose(s);
            H5Dclose(d);
        }
        H5Fclose(f);
        Store::repair_for_resume(path);
        EXPECT_EQ(dataset_rows(path.string(), "/candidates"), 1u);
        EXPECT_EQ(dataset_rows(path.string(), "/mappings/layers"),
                  static_cast<hsize_t>(committed.layer_rows));
    }
    world.barrier();
    Store store = Store::open_for_resume(path, MPI_COMM_WORLD);
    EXPECT_EQ(store.read().candidates.size(), 1u);
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

// Overwrites the chunk holding row 0 of `table` with garbage, as a process killed while it
// rewrote that chunk (or reused its space) may leave it.
void damage_first_chunk(const std::string& file, const char* table) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, table, H5P_DEFAULT);
    const hsize_t origin = 0;
    unsigned mask = 0;
    haddr_t addr = HADDR_UNDEF;
    hsize_t size = 0;
    ASSERT_GE(H5Dget_chunk_info_by_coord(d, &origin, &mask, &addr, &size), 0);
    H5Dclose(d);
    H5Fclose(f);
    ASSERT_NE(addr, HADDR_UNDEF);
    const std::vector<char> junk(size, '\x5a');
    const int fd = ::open(file.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, junk.data(), junk.size(), static_cast<off_t>(addr)), static_cast<ssize_t>(size));
    ::close(fd);
}

// A batch interrupted while it rewrote the chunk of a table's last committed rows: they are
// read from the commit record's slot, and the resume puts them back into the table. So too
// after a finished run's cut (close_and_trim), which rewrites that chunk (HDF5 fills the cut
// part of an edge chunk) and which a kill may interrupt as well.
TEST(SweepStore, CommittedRowsSurviveADamagedTailChunk) {
    boost::mpi::communicator world;
    const Fixture fx = load();
    for (const bool cut : {false, true}) {
        for (const char* table : {"/candidates", "/mappings/layers", "/pareto"}) {
            SCOPED_TRACE(cut ? "after the cut" : "after a kill");
            const auto path = shared_path(world, "pimdse_tail");
            {
                Store store =
                    Store::create(path, fx.config, dram_pim_columns(), fx.ctx.workloads, MPI_COMM_WORLD);
                std::vector<ParetoRecord> front;  // both candidates join the front (checked on opening)
                for (std::int64_t id = 0; id < 2; ++id) {
                    BatchRows mine;
                    const std::vector<CandidateRecord> layout{evaluate_on(fx, id, id, 0, world.rank(), mine)};
                    const CandidateRecord& c = layout.front();
                    front.push_back({id, id, -1, c.latency_seconds, c.energy_joules, c.area_mm2, c.cost});
                    BatchRecord row;
                    row.batch = id;
                    row.candidates = 1;
                    store.write_batch(mine, layout, row, front);
                }
                if (cut) store.close_and_trim();
            }  // unless cut, closed without close_and_trim, like a killed run
            world.barrier();
            if (world.rank() == 0) {
                if (cut && std::string(table) != "/mappings/layers") {
                    EXPECT_EQ(dataset_rows(path.string(), table), 2u);
                }
                damage_first_chunk(path.string(), table);
                {
                    const StoredSweep s = Store::open_read_only(path, MPI_COMM_SELF).read();
                    ASSERT_EQ(s.candidates.size(), 2u) << table;
                    EXPECT_EQ(s.candidates[1].id, 1) << table;
                    ASSERT_EQ(s.pareto.size(), 2u) << table;
                    EXPECT_EQ(s.pareto[1].candidate, 1) << table;
                    EXPECT_EQ(s.pareto[1].cost, s.candidates[1].cost) << table;
                }
                Store::repair_for_resume(path);
                // The table itself is whole again, read without pimdse's slot logic.
                const std::vector<std::int64_t> ids = candidate_column(path.string(), table);
                ASSERT_FALSE(ids.empty()) << table;
                EXPECT_EQ(ids.front(), 0) << table;
                EXPECT_EQ(ids.back(), 1) << table;
            }
            world.barrier();
            {
                Store store = Store::open_for_resume(path, MPI_COMM_WORLD);
                EXPECT_EQ(store.read().candidates.size(), 2u) << table;
            }
            world.barrier();
            if (world.rank() == 0) std::filesystem::remove(path);
        }
    }
}

// A field of every row of `path`, read with the C API in the file's own type (an enum's
// native form), widened to int64 with its sign; `names` gets each value's enum name ("" for
// an integer field).
std::vector<std::int64_t> field_column(const std::string& file, const std::string& path, const char* field,
                                       std::vector<std::string>* names = nullptr) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, path.c_str(), H5P_DEFAULT);
    const hid_t stored = H5Dget_type(d);
    const hid_t member =
        H5Tget_member_type(stored, static_cast<unsigned>(H5Tget_member_index(stored, field)));
    const hid_t native = H5Tget_native_type(member, H5T_DIR_ASCEND);
    const std::size_t size = H5Tget_size(native);
    const hid_t mem = H5Tcreate(H5T_COMPOUND, size);
    H5Tinsert(mem, field, 0, native);
    const hid_t space = H5Dget_space(d);
    hsize_t n = 0;
    H5Sget_simple_extent_dims(space, &n, nullptr);
    std::vector<std::byte> bytes(n * size);
    if (n > 0) {
        EXPECT_GE(H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), 0) << path << field;
    }
    std::vector<std::int64_t> out;
    for (hsize_t i = 0; i < n; ++i) {
        const std::byte* at = bytes.data() + i * size;
        std::int64_t v = 0;
        if (size == 1) v = std::bit_cast<std::int8_t>(at[0]);
        if (size == 2) v = *reinterpret_cast<const std::int16_t*>(at);
        if (size == 4) v = *reinterpret_cast<const std::int32_t*>(at);
        if (size == 8) v = *reinterpret_cast<const std::int64_t*>(at);
        out.push_back(v);
        if (names != nullptr) {
            std::array<char, 64> name{};
            const bool is_enum = H5Tget_class(native) == H5T_ENUM;
            if (is_enum && H5Tenum_nameof(native, at, name.data(), name.size()) < 0) name[0] = '?';
            names->emplace_back(name.data());
        }
    }
    for (hid_t t : {mem, native, member, stored}) H5Tclose(t);
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
    return out;
}

std::vector<std::int64_t> commit_record(const std::string& file) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, "/commit", H5P_DEFAULT);
    std::vector<std::int64_t> out(8);
    EXPECT_GE(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0);
    H5Dclose(d);
    H5Fclose(f);
    return out;
}

// A killed run leaves tables grown ahead of their rows and each table's last chunk padded:
// every row past the commit record reads, without pimdse, as no row at all (its id -1, its
// enums `unwritten`), never as a candidate whose status is 0 = ok. So do the slots' rows past
// the tails they hold. Hand-listed: each batch table's id field and enum fields.
TEST(SweepStore, RowsPastTheCommitRecordReadAsUnwritten) {
    boost::mpi::communicator world;
    const Fixture fx = load();
    const auto path = shared_path(world, "pimdse_unwritten");
    {
        Store store = Store::create(path, fx.config, dram_pim_columns(), fx.ctx.workloads, MPI_COMM_WORLD);
        std::vector<ParetoRecord> front;
        for (std::int64_t id = 0; id < 2; ++id) {
            BatchRows mine;
            const int owner = static_cast<int>(id % world.size());
            const std::vector<CandidateRecord> layout{evaluate_on(fx, id, id, owner, world.rank(), mine)};
            const CandidateRecord& c = layout.front();
            if (world.rank() == 0)
                front.push_back({id, id, -1, c.latency_seconds, c.energy_joules, c.area_mm2, c.cost});
            BatchRecord row;
            row.batch = id;
            row.candidates = 1;
            store.write_batch(mine, layout, row, front);
        }
    }  // closed without close_and_trim, like a killed run: tables keep their reserved rows
    world.barrier();
    if (world.rank() == 0) {
        struct Checked {
            std::string table;
            const char* id;
            std::vector<const char*> enums;
        };
        const std::vector<Checked> tables{
            {"/candidates", "candidate", {"proposer", "status"}},
            {"/metrics", "candidate", {"status"}},
            {"/mappings/layers", "candidate", {"dl_in_order", "dl_out_order", "status"}},
            {"/mappings/segments", "candidate", {}},
            {"/schedules", "candidate", {"kind", "method", "outcome"}},
            {"/tuner/batches", "batch", {"proposer"}},
            {"/pareto", "candidate", {}},
        };
        const std::vector<std::int64_t> commit = commit_record(path.string());
        ASSERT_EQ(commit[0], 2);
        const auto check_rows = [&](const std::string& dataset, const Checked& t, std::int64_t written) {
            const std::vector<std::int64_t> ids = field_column(path.string(), dataset, t.id);
            ASSERT_GT(static_cast<std::int64_t>(ids.size()), written)
                << dataset << " holds no row past its rows";
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const bool past = static_cast<std::int64_t>(i) >= written;
                EXPECT_EQ(ids[i] == -1, past) << dataset << " row " << i << ": " << t.id << " " << ids[i];
            }
            for (const char* e : t.enums) {
                std::vector<std::string> names;
                const std::vector<std::int64_t> values = field_column(path.string(), dataset, e, &names);
                for (std::size_t i = static_cast<std::size_t>(written); i < values.size(); ++i) {
                    EXPECT_EQ(values[i], -1) << dataset << " row " << i << " " << e;
                    EXPECT_EQ(names[i], "unwritten") << dataset << " row " << i << " " << e;
                }
                EXPECT_NE(names.front(), "unwritten") << dataset << " " << e;
            }
        };
        const std::vector<hsize_t> chunks{256, 1024, 1024, 1024, 1024, 64, 256};
        for (std::size_t k = 0; k < tables.size(); ++k) {
            const Checked& t = tables[k];
            check_rows(t.table, t, commit[1 + k]);
            // The slot the commit record names holds the rows past the table's whole chunks.
            const std::int64_t stable = t.table == "/pareto" ? 0 : commit[1 + k] / chunks[k] * chunks[k];
            check_rows("/commit_tails/0" + t.table, t, commit[1 + k] - stable);
        }
        EXPECT_NO_THROW((void)Store::open_read_only(path, MPI_COMM_SELF).read());
    }
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

TEST(SweepStore, BatchRowsTakeAnyOrderButNoRepeat) {
    const Fixture fx = load();
    BatchRows rows;
    const CandidateRecord r = rows.add(evaluation(fx.ctx, 1), 0, Proposer::gp, 3, fx.ctx.workloads);
    EXPECT_EQ(r.id, 1);
    EXPECT_EQ(r.proposer, Proposer::gp);
    EXPECT_EQ(r.rank, 3);
    EXPECT_EQ(r.metric_rows, 2);
    EXPECT_EQ(r.schedule_rows, 1);
    EXPECT_NO_THROW((void)rows.add(evaluation(fx.ctx, 0), 0, Proposer::gp, 3, fx.ctx.workloads));
    EXPECT_THROW((void)rows.add(evaluation(fx.ctx, 1), 0, Proposer::gp, 3, fx.ctx.workloads), IoError);
    EXPECT_EQ(rows.candidates(), 2u);
    rows.clear();
    EXPECT_EQ(rows.candidates(), 0u);
    EXPECT_NO_THROW((void)rows.add(evaluation(fx.ctx, 0), 1, Proposer::gp, 3, fx.ctx.workloads));
}

// The engine's path: a worker's rows travel as bytes to rank 0, which drops the mappings of
// candidates it does not keep (output.mappings: front) and writes alone, compressed.
TEST(SweepStore, RowsTravelAsBytesAndUnkeptMappingsAreDropped) {
    boost::mpi::communicator world;
    if (world.rank() != 0) return;  // one writer, on MPI_COMM_SELF
    const Fixture fx = load();
    const auto path =
        std::filesystem::temp_directory_path() / ("pimdse_store_bytes_" + std::to_string(::getpid()) + ".h5");
    BatchRows worker;
    std::vector<CandidateRecord> layout;
    for (std::int64_t id : {2, 0, 1})
        layout.push_back(
            worker.add(evaluation(fx.ctx, id), 0, fx.config.sweep.proposer, 1, fx.ctx.workloads));
    std::sort(layout.begin(), layout.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    const std::int64_t kept_layers = layout[1].layer_rows;
    ASSERT_GT(kept_layers, 0);
    ASSERT_GT(layout[0].layer_rows, 0);

    BatchRows root;
    std::vector<char> bytes = worker.to_bytes();
    EXPECT_THROW(root.append_bytes(std::span<const char>(bytes).first(bytes.size() - 1)), IoError);
    root.clear();
    root.append_bytes(bytes);
    EXPECT_EQ(root.candidates(), 3u);
    EXPECT_THROW(root.append_bytes(bytes), IoError);  // the same candidates again
    root.clear();
    root.append_bytes(bytes);
    const std::vector<std::int64_t> keep{1};
    root.drop_mappings_except(keep);
    for (CandidateRecord& c : layout) {
        c.rank = 0;
        if (c.id != 1) c.layer_rows = 0, c.segment_rows = 0;
    }
    {
        Store store = Store::create(path, fx.config, dram_pim_columns(), fx.ctx.workloads, MPI_COMM_SELF);
        BatchRecord row;
        row.candidates = 3;
        std::vector<CandidateRecord> wrong = layout;
        wrong[0].layer_rows = 5;  // counts that disagree with the rows are refused
        EXPECT_THROW(store.write_batch(root, wrong, row, {}), IoError);
        store.write_batch(root, layout, row, {});
        store.close_and_trim();
    }
    EXPECT_EQ(candidate_column(path.string(), "/candidates"), (std::vector<std::int64_t>{0, 1, 2}));
    const std::vector<std::int64_t> layers = candidate_column(path.string(), "/mappings/layers");
    EXPECT_EQ(static_cast<std::int64_t>(layers.size()), kept_layers);
    EXPECT_TRUE(std::all_of(layers.begin(), layers.end(), [](std::int64_t id) { return id == 1; }));
    EXPECT_EQ(dataset_rows(path.string(), "/metrics"), 3u * fx.ctx.workloads.size());
    // The per-candidate tables pass through shuffle + deflate (output.compression 1) and carry
    // Fletcher32 checksums.
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, "/mappings/layers", H5P_DEFAULT);
    const hid_t dcpl = H5Dget_create_plist(d);
    EXPECT_EQ(H5Pget_nfilters(dcpl), 3);
    EXPECT_GE(H5Pget_filter_by_id2(dcpl, H5Z_FILTER_DEFLATE, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
              0);
    H5Pclose(dcpl);
    H5Dclose(d);
    H5Fclose(f);
    std::filesystem::remove(path);
}

TEST(SweepStore, ForeignFilesAreRefusedWithTheirName) {
    boost::mpi::communicator world;
    const auto path = shared_path(world, "pimdse_foreign");
    if (world.rank() == 0) {
        const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        H5Fclose(f);
    }
    world.barrier();
    try {
        (void)Store::open_read_only(path, MPI_COMM_WORLD);
        ADD_FAILURE() << "no error";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(path.string() + ": not a pimdse sweep file"), std::string::npos)
            << e.what();
    }
    world.barrier();
    if (world.rank() == 0) std::filesystem::remove(path);
}

}  // namespace
}  // namespace pimdse::store
