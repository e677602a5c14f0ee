#pragma once
// The store's open file (private to store): the batch tables in commit-record order, the
// commit record, and the checks every opening runs. store.cpp opens and reads, commit.cpp
// writes batches and commits, store_create.cpp makes a new file.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
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
    [[nodiscard]] const TableSchema& schema() const { return store::schema(id); }
    [[nodiscard]] std::string path() const { return std::string(schema().path); }
};

// The batch tables, in the order of the commit record (after its batch count).
inline const std::array<TableSpec, 7> kTables{{
    {TableId::candidates, 256},
    {TableId::metrics, 1024},
    {TableId::layers, 4096},
    {TableId::segments, 4096},
    {TableId::schedules, 4096},
    {TableId::batches, 64, false},
    {TableId::pareto, 256, false},
}};
enum TableIndex : std::size_t { kCandidates, kMetrics, kLayers, kSegments, kSchedules, kBatches, kPareto };
inline constexpr std::size_t kCommitSize = 1 + kTables.size();
// Batches that change no metadata are not flushed (their rows and commit record are in the
// file, which a killed process cannot undo); the file is synced to disk at least this often.
inline constexpr std::chrono::seconds kSyncInterval{60};

// The commit record: a small dataset of one checksummed chunk that a rewrite leaves in place,
// so that writing it is one pwrite of its 64 bytes (and checksum)
// that needs no flush of its own (store.hpp).
inline constexpr const char* kCommit = "/commit";
// Digests of what pimdse wrote once, at creation (verify.cpp): metadata has no checksum.
inline constexpr const char* kDigest = "/digest";

// The same text on every rank: rank 0's.
inline std::string broadcast_text(std::string text, MPI_Comm comm) {
    auto n = static_cast<std::uint64_t>(text.size());
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    text.resize(static_cast<std::size_t>(n));
    if (n > 0) MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
    return text;
}

inline int rank_of(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
}

struct Store::Impl {
    std::filesystem::path path;
    File file;
    std::vector<h5::CompoundType> types;  // one per table of kTables
    std::vector<Table> tables;
    std::vector<std::int64_t> commit;  // [batches, rows of each of kTables]

    Impl(const std::filesystem::path& p, File::Mode mode, MPI_Comm comm) : path(p), file(p, mode, comm) {}

    void open_tables() {
        types.reserve(kTables.size());
        for (const TableSpec& spec : kTables) {
            types.push_back(compound_type(spec.schema()));
            tables.push_back(Table::open(file, spec.path(), types.back()));
        }
        note_filters();
    }

    // Throws IoError naming the file unless it is a readable sweep file of this format.
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

    void write_commit() { file.write_int64s(kCommit, commit); }

    /// Collective: grows every table ahead of a batch adding `this_batch` rows to each (the
    /// Pareto table to `pareto_rows`); true if any grew (commit.cpp).
    bool grow_for(const std::array<hsize_t, kTables.size()>& this_batch, hsize_t pareto_rows);

    // Filtered chunks move whenever rows are added to them: every batch changes the file's
    // metadata (its chunk index), which must be on disk before the commit record.
    bool compressed = false;
    void note_filters() {
        compressed = std::any_of(tables.begin(), tables.end(), [](const Table& t) { return t.compressed(); });
    }

    std::chrono::steady_clock::time_point last_sync = std::chrono::steady_clock::now();
    void sync() {
        file.flush();
        last_sync = std::chrono::steady_clock::now();
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
