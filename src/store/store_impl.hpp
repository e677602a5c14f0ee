#pragma once
// The store's open file (private to store): the batch tables in commit-record order, the
// commit record, and the checks every opening runs. store.cpp opens and reads, commit.cpp
// writes batches and commits, store_create.cpp makes a new file.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/store/hdf5.hpp"
#include "pimdse/store/schema.hpp"
#include "pimdse/store/store.hpp"
#include "schema_h5.hpp"

namespace pimdse::store {

using h5::File;
using h5::Table;

struct TableSpec {
    TableId id;
    hsize_t chunk;
    bool per_candidate = true;  ///< rows per candidate: compressed (output.compression)
    /// Path, meaning and row size; the fields of a file's /candidates and /metrics are its
    /// family's (Store::Impl::schemas).
    [[nodiscard]] const TableSchema& schema() const { return store::schema(id); }
    [[nodiscard]] std::string path() const { return std::string(schema().path); }
};

// The batch tables, in the order of the commit record (after its batch count).
inline const std::array<TableSpec, 7> kTables{{
    {TableId::candidates, 256},
    {TableId::metrics, 1024},
    {TableId::layers, 1024},
    {TableId::segments, 1024},
    {TableId::schedules, 1024},
    {TableId::batches, 64, false},
    {TableId::pareto, 256, false},
}};
enum TableIndex : std::size_t { kCandidates, kMetrics, kLayers, kSegments, kSchedules, kBatches, kPareto };
inline constexpr std::size_t kCommitSize = 1 + kTables.size();

// The commit record: a small dataset of one checksummed chunk that a rewrite leaves in place,
// so that writing it is one pwrite of its 64 bytes (and checksum)
// that needs no flush of its own (store.hpp).
inline constexpr const char* kCommit = "/commit";
// Digests of what pimdse wrote once, at creation (verify.cpp): metadata has no checksum.
inline constexpr const char* kDigest = "/digest";

// The committed rows that a later batch rewrites (docs/output.md, "What a commit guarantees"): a batch writes
// whole chunks, so the chunk holding a table's last committed rows (its tail) is written
// again by the next batch, and /pareto is written whole by every batch. Those rows are kept
// a second time in slot (batches % 2): /commit_tails/<slot>/<table path>, a table of the same
// type. A commit writes the other slot before its commit record, so the slot a commit record
// names is never written while that record stands. Readers take a table's rows past
// stable_rows() from the slot.
inline constexpr const char* kTailsGroup = "/commit_tails";
inline std::string tail_path(std::int64_t slot, const TableSpec& spec) {
    return std::string(kTailsGroup) + "/" + std::to_string(slot) + spec.path();
}
// The slot that commit record `batches` names.
inline std::int64_t slot_of(std::int64_t batches) {
    return batches % 2;
}
// Rows [0, stable_rows) of table `t` holding `committed` rows are in whole chunks that no
// later write touches; /pareto has none (every batch rewrites it).
inline hsize_t stable_rows(std::size_t t, std::int64_t committed) {
    const hsize_t chunk = kTables[t].chunk;
    return t == kPareto ? 0 : static_cast<hsize_t>(committed) / chunk * chunk;
}
inline hsize_t round_up_to_chunk(hsize_t rows, hsize_t chunk) {
    return (rows + chunk - 1) / chunk * chunk;
}

// Collective: rows [from, from + added) of `table`, each rank its `runs` (relative to
// `from`, bytes in run order), written as whole chunks so that HDF5 never reads a chunk to
// modify it: rank 0 also writes `lead` (the rows [first, from), first a chunk boundary) and
// copies of `fill` (the table's unwritten_row) from the last row to the end of its chunk. The
// extent must cover that end.
void write_whole_chunks(Table& table, hsize_t chunk, hsize_t first, hsize_t from, hsize_t added,
                        std::span<const Table::Run> runs, std::span<const std::byte> bytes,
                        std::span<const std::byte> lead, std::span<const std::byte> fill, bool root);

// The same text on every rank: rank 0's.
inline std::string broadcast_text(std::string text, MPI_Comm comm) {
    auto n = static_cast<std::uint64_t>(text.size());
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    text.resize(static_cast<std::size_t>(n));
    if (n > 0) MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
    return text;
}

// HDF5 1.10 does not survive every failed allocation (it can crash inside H5Dset_extent when
// malloc fails), so a batch, a new file or an opening starts only when `bytes` plus this much
// for HDF5's own buffers can be had; otherwise std::bad_alloc before any HDF5 call of it, with
// the file as its last commit left it. Under overcommit the probe costs nothing (untouched).
inline constexpr std::size_t kHdf5Headroom = std::size_t{64} << 20;
inline void check_memory_headroom(std::size_t bytes) {
    const std::unique_ptr<std::byte[]> probe(new (std::nothrow) std::byte[bytes + kHdf5Headroom]);
    if (!probe) throw std::bad_alloc();
}

inline int rank_of(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
}

struct Store::Impl {
    std::filesystem::path path;
    File file;
    FamilyColumns columns;                      // the family's columns of /candidates and /metrics
    std::vector<TableSchema> schemas;           // every table with them, in TableId order
    std::vector<h5::CompoundType> types;        // one per table of kTables
    std::vector<StoredLayout> layouts;          // their layouts in the file (the tables use their types)
    std::vector<std::vector<std::byte>> fills;  // each table's unwritten_row: its fill value
    std::vector<Table> tables;
    std::vector<std::int64_t> commit;  // [batches, rows of each of kTables]

    Impl(const std::filesystem::path& p, File::Mode mode, MPI_Comm comm)
        : path(p), file(opened(p, mode, comm)) {}

    static File opened(const std::filesystem::path& p, File::Mode mode, MPI_Comm comm) {
        check_memory_headroom(0);
        return File(p, mode, comm);
    }

    std::array<std::vector<Table>, 2> tail_tables;             // [slot][table of kTables]
    std::array<std::vector<std::byte>, kTables.size()> tails;  // rank 0: rows past stable_rows

    /// The file's family columns taken, and every table's schema with them.
    void set_columns(FamilyColumns c) {
        schemas = declared_tables(c);
        columns = std::move(c);
    }
    /// The family columns a file's /candidates and /metrics hold, read from their types and
    /// field attributes (verify.cpp); then set_columns.
    void read_columns();
    [[nodiscard]] const TableSchema& schema_of(const TableSpec& spec) const {
        return schemas.at(static_cast<std::size_t>(spec.id));
    }

    /// The memory and file types of every table of kTables.
    void make_types() {
        types.reserve(kTables.size());
        layouts.reserve(kTables.size());
        for (const TableSpec& spec : kTables) {
            types.push_back(compound_type(schema_of(spec)));
            layouts.push_back(stored_layout(schema_of(spec)));
            fills.push_back(unwritten_row(schema_of(spec)));
        }
    }

    void open_tables() {
        make_types();
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            tables.push_back(Table::open(file, kTables[t].path(), types[t], layouts[t].packing_or_null()));
        }
        for (std::int64_t slot = 0; slot < 2; ++slot) {
            for (std::size_t t = 0; t < kTables.size(); ++t) {
                tail_tables[slot].push_back(
                    Table::open(file, tail_path(slot, kTables[t]), types[t], layouts[t].packing_or_null()));
            }
        }
    }

    /// Rows of table `t` past its stable rows, per the commit record (commit_tails.cpp).
    [[nodiscard]] hsize_t tail_rows(std::size_t t) const {
        return static_cast<hsize_t>(commit[1 + t]) - stable_rows(t, commit[1 + t]);
    }
    /// Collective: rank 0 reads the committed slot's rows into `tails`.
    void load_tails();
    /// Collective: after a batch's rows are written, rank 0 takes each table's new tail
    /// (`counts`: the rows each will hold once committed; `pareto`: all of /pareto's rows)
    /// and writes them to the slot the next commit record names.
    void write_tails(const std::array<hsize_t, kTables.size()>& counts, std::span<const std::byte> pareto);
    /// One process: every table's tail chunk made equal to the committed slot (rewritten
    /// only where it differs or cannot be read); returns whether anything was written.
    bool restore_tails();

    /// Collective: table `t`'s committed rows, the stable ones from the table and the rest
    /// from the committed slot.
    template <class Row>
    [[nodiscard]] std::vector<Row> committed_rows(std::size_t t) const {
        const hsize_t stable = stable_rows(t, commit[1 + t]);
        std::vector<Row> out = tables[t].template read_rows<Row>(0, stable);
        const std::vector<Row> tail =
            tail_tables[slot_of(commit[0])][t].template read_rows<Row>(0, tail_rows(t));
        out.insert(out.end(), tail.begin(), tail.end());
        return out;
    }

    // Throws IoError naming the file unless it is a readable sweep file of this format; then
    // takes its family columns.
    void check_sweep_file() {
        const std::string name = file.name();
        if (!file.has_attribute("/", "format") || file.string_attribute("/", "format") != kStoreFormatName) {
            throw IoError(name + ": not a pimdse sweep file (no root attribute format = '" +
                          kStoreFormatName + "')");
        }
        const std::int64_t version = file.int_attribute("/", "format_version");
        if (version != kStoreFormatVersion) {
            throw IoError(name + ": sweep file format " + std::to_string(version) +
                          ", this pimdse reads format " + std::to_string(kStoreFormatVersion));
        }
        if (!file.exists(kCommit)) throw IoError(name + ": no commit record (a broken sweep file)");
        commit = file.read_int64s(kCommit);
        if (commit.size() != kCommitSize) throw IoError(name + ": the commit record has the wrong length");
        for (const char* object : {"/config/source", "/config/resolved", "/workloads/networks"}) {
            if (!file.exists(object))
                throw IoError(name + ": " + object + " is missing (a broken sweep file)");
        }
        for (const TableSpec& spec : kTables) {
            if (!file.exists(spec.path()))
                throw IoError(name + ": " + spec.path() + " is missing (a broken sweep file)");
        }
        read_columns();
    }

    // What the file claims, checked against itself before anything uses it (verify.cpp,
    // docs/output.md "Checks on opening"); each throws IoError naming the dataset and row.
    /// Every table's stored compound type is the declared one, field by field.
    void check_schema();
    /// The commit record's counts: none negative, as many batches as /tuner/batches rows,
    /// and no more rows than each table holds and stores chunks for.
    void check_commit_record() const;
    /// The attributes pimdse wrote at creation and the texts, against /digest.
    void check_digest();
    /// Every committed row read once (each chunk's checksum tested) and checked: ids, batches,
    /// enum values, finite costs, per-candidate row counts, /tuner/batches and /pareto.
    void verify_rows() const;
    /// The digests of what check_digest() compares, from the file as it is (/digest's values).
    [[nodiscard]] std::vector<std::int64_t> compute_digest();

    /// Reads every dataset besides the batch tables whole: the configuration texts, the
    /// workloads' tables and network texts. Each is checksummed (Fletcher32), so damage is an
    /// IoError naming the dataset here, at opening, rather than later (store.cpp).
    void verify_fixed_datasets();

    // Every table holds at least its committed rows.
    void check_rows_cover_commit() {
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            if (tables[t].rows() < static_cast<hsize_t>(commit[t + 1])) {
                throw IoError(file.name() + ": " + kTables[t].path() +
                              " has fewer rows than its commit record");
            }
        }
    }

    // Table `t`'s committed rows read once, where readers read them (its stable rows from the
    // table, the rest from the committed slot), each block handed to `visit` with its first
    // row: a flipped byte fails its chunk's checksum here, with the dataset's name.
    void verify_committed(std::size_t t, const Table::BlockVisitor& visit) const {
        const hsize_t stable = stable_rows(t, commit[t + 1]);
        tables[t].verify(stable, visit);
        const Table& tail = tail_tables[slot_of(commit[0])][t];
        if (tail.rows() < tail_rows(t)) {
            throw IoError(file.name() + ":" + tail_path(slot_of(commit[0]), kTables[t]) +
                          ": holds fewer rows than its commit record claims past the table's whole chunks");
        }
        tail.verify(tail_rows(t), [&](hsize_t first, std::span<const std::byte> rows) {
            if (visit) visit(stable + first, rows);
        });
    }

    void write_commit() { file.write_int64s(kCommit, commit); }

    /// Collective: grows every table ahead of a batch adding `this_batch` rows to each (the
    /// Pareto table to `pareto_rows`); true if any grew (commit.cpp).
    bool grow_for(const std::array<hsize_t, kTables.size()>& this_batch, hsize_t pareto_rows);

    void sync() { file.flush(); }

    // After a failed write (commit.cpp): nothing of the file is closed (h5::File::abandon).
    void abandon() noexcept {
        for (Table& t : tables) t.abandon();
        for (std::vector<Table>& slot : tail_tables) {
            for (Table& t : slot) t.abandon();
        }
        file.abandon();
    }

    // One process only (truncate): every table back to its committed rows.
    void cut_to_commit() {
        bool cut = false;
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            const auto rows = static_cast<hsize_t>(commit[t + 1]);
            if (tables[t].rows() > rows) {
                tables[t].truncate(rows);
                cut = true;
            }
        }
        if (cut) file.flush();
    }
};

}  // namespace pimdse::store
