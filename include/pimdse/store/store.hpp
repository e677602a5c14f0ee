#pragma once
// The sweep's HDF5 file (docs/output.md): one self-describing file per sweep, written
// collectively batch by batch and resumable. Built on the h5 adapter (store/hdf5.hpp); every
// rank writes its own candidates' rows of a batch, placed in candidate-id order whichever
// rank computed them, so the file is the same for any number of ranks (timing fields and
// the evaluating rank aside).
//
// Consistency (docs/output.md, "What a commit guarantees"): a batch writes whole chunks, the
// committed rows it rewrites (each table's tail, all of /pareto) are kept a second time in the
// slot of /commit_tails that the next commit record names, the file is flushed, and only then
// the commit record (the dataset /commit: batches and the row count of every table) is
// overwritten in place, one raw-data write that reaches the file at once. So no kill, signal
// or failed allocation at any moment loses a committed row. Readers read a table's rows in
// whole chunks from the table and the rest from the slot; a resumed run first puts the tails
// back (repair_for_resume) and cuts what lies past the record, and so does a run that ends
// (close_and_trim), both on one process: HDF5 1.10 cannot shrink a dataset consistently in
// parallel, so no table shrinks while the file is open on several ranks.

#include <mpi.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "pimdse/core/design_point.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/format_version.hpp"
#include "pimdse/store/schema.hpp"

namespace pimdse::store {

/// One candidate of a committed batch, as rank 0 needs it (dispatch layout, resume replay).
struct CandidateRecord {
    std::int64_t id = 0;
    std::int64_t batch = 0;
    io::Proposer proposer = io::Proposer::random;  ///< who proposed it
    /// The family's parameters (their values in its order; the family id is the reader's to set).
    DesignPoint params;
    eval::Status status = eval::Status::ok;
    double area_mm2 = 0;
    double latency_seconds = 0;
    double energy_joules = 0;
    double cost = 0;
    /// The family's metrics (FamilyColumns::metrics) in its order, NaN where missing; the
    /// first `metric_count` are in use.
    std::array<double, kMaxFamilyColumns> metrics{};
    std::int32_t metric_count = 0;
    std::int32_t rank = 0;           ///< the rank that evaluated it
    std::int64_t metric_rows = 0;    ///< rows in /metrics
    std::int64_t layer_rows = 0;     ///< rows in /mappings/layers
    std::int64_t segment_rows = 0;   ///< rows in /mappings/segments
    std::int64_t schedule_rows = 0;  ///< rows in /schedules
    double seconds = 0;
};

/// Candidate `c`'s value of objective `o` as the Pareto archive minimises it (io::minimised_value):
/// from its sums, or the family metric `o` names (a column of `columns.metrics`; +infinity
/// when the sweep's family has no such column or the candidate's value is missing).
/// `samples`: the workloads' batch sizes summed.
[[nodiscard]] double objective_value(const CandidateRecord& c, const FamilyColumns& columns, io::Objective o,
                                     double samples) noexcept;

/// Rows of /metrics, /mappings/layers, /mappings/segments and /schedules an evaluation produces.
void count_rows(const eval::Evaluation& e, CandidateRecord& r);

/// One rank's rows of a batch, added candidate by candidate as its evaluations finish (in any
/// order), so that the end of a batch only sorts them by id and writes. Reused from batch to
/// batch (clear() keeps the memory).
class BatchRows {
public:
    BatchRows();
    BatchRows(BatchRows&&) noexcept;
    BatchRows& operator=(BatchRows&&) noexcept;
    ~BatchRows();

    /// Adds the rows of `e` (of `workloads`, in order) and returns its record for rank 0.
    /// Throws IoError if its id was added since the last clear().
    CandidateRecord add(const eval::Evaluation& e, std::int64_t batch, io::Proposer proposer, int rank,
                        std::span<const eval::Workload> workloads);
    void clear();
    [[nodiscard]] std::size_t candidates() const;
    /// Puts the rows in candidate-id order (one pass over them; nothing if they are already).
    void sort_by_id();
    /// The rows as bytes, to send them to the rank that writes (one message per evaluation).
    [[nodiscard]] std::vector<char> to_bytes() const;
    /// Appends rows that to_bytes() gave (of other candidates); IoError if malformed.
    void append_bytes(std::span<const char> bytes);
    /// Drops the /mappings/layers, /mappings/segments and /schedules rows of every candidate
    /// whose id is not in `keep` (ascending); their candidate rows then count none
    /// (output.mappings). A layout entry (write_batch) with no layer rows has no schedule
    /// rows either: the three tables are kept or dropped together.
    void drop_mappings_except(std::span<const std::int64_t> keep);

private:
    friend class Store;
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::unique_ptr<Impl> scratch_;  // the other buffer of sort_by_id()
};

/// One row of /tuner/batches (written by rank 0).
struct BatchRecord {
    std::int64_t batch = 0;
    io::Proposer proposer = io::Proposer::random;
    std::int64_t candidates = 0;   ///< candidates in this batch
    std::int64_t evaluations = 0;  ///< evaluations done after this batch
    std::int64_t ok = 0;           ///< candidates of this batch with status ok
    double best_cost = 0;          ///< lowest Eq. 1 cost so far (+inf if none)
    std::int64_t best_candidate = -1;
    double hypervolume = 0;  ///< of the front, against the reference point
    std::int64_t front_size = 0;
    /// The hypervolume's reference point, one value per objective (NaN before it is fixed and
    /// for an unused third objective).
    std::array<double, 3> reference{};
    std::int64_t samples = 0;  ///< points the proposer sampled and scored
    /// Kendall's tau of the batch's ok costs against the predictions made before it was
    /// evaluated (the filter's, else the model proposer's mean); NaN without predictions or
    /// with fewer than two ok results.
    double predicted_tau = std::numeric_limits<double>::quiet_NaN();
    /// Median |predicted - true| / true over the ok results; NaN unless the filter predicted costs.
    double predicted_error = std::numeric_limits<double>::quiet_NaN();
    /// Kendall's tau of the batch's ok costs against their cheap-fidelity costs (the filter's
    /// second level, `cheap_fidelity`); NaN without it or with fewer than two ok results.
    double cheap_tau = std::numeric_limits<double>::quiet_NaN();
    double fit_seconds = 0;       ///< proposer model fit (timing)
    double propose_seconds = 0;   ///< proposer sampling and scoring (timing)
    double evaluate_seconds = 0;  ///< wall time from dispatch to the batch's last result (timing)
    double write_seconds = 0;     ///< set by write_batch: its candidate tables, before this row (timing)
    double wall_seconds = 0;      ///< since this run started (timing)
};

/// One row of /pareto: a candidate that joined the front after some batch.
struct ParetoRecord {
    std::int64_t candidate = 0;
    std::int64_t joined_batch = 0;  ///< on the front after this batch
    std::int64_t left_batch = -1;   ///< dominated after this batch; -1: still on the front
    double latency_seconds = 0;
    double energy_joules = 0;
    double area_mm2 = 0;
    double cost = 0;
};

/// A workload as the file stores it.
struct StoredWorkload {
    std::string name;
    std::string group;   ///< /workloads/<group>
    std::string file;    ///< the network file as configured
    std::string source;  ///< its exact text
    std::int64_t batch = 1;
    double weight = 1;  ///< gamma of NicePIM Eq. 1
};

/// What a committed file holds, read back: enough to replay the proposer and the archive.
struct StoredSweep {
    /// Root attributes as text: format_version, pimdse_version, git_revision, created, seed,
    /// proposer, objectives, ranks, runs, last_started.
    std::vector<std::pair<std::string, std::string>> info;
    std::string resolved_config;  ///< to_yaml of the configuration the file was made with
    std::vector<StoredWorkload> workloads;
    std::int64_t batches = 0;
    std::vector<CandidateRecord> candidates;  ///< in id order
    std::vector<BatchRecord> tuner;
    std::vector<ParetoRecord> pareto;  ///< every candidate that joined the front, in joining order
};

class Store {
public:
    /// Collective. Writes the file attributes, the configuration, the workloads and the empty
    /// tables, /candidates and /metrics with the family's `columns`, to `<path>.part`, then
    /// renames it to `path` (replacing any file there: the caller decides whether that is
    /// allowed). An opened file's columns are read from the file itself.
    static Store create(const std::filesystem::path& path, const io::Config& config,
                        const FamilyColumns& columns, const std::vector<eval::Workload>& workloads,
                        MPI_Comm comm);
    /// One process (no MPI communicator involved): checks that `path` is a sweep file and
    /// drops the rows past its commit record (an interrupted batch). Run before open_for_resume.
    static void repair_for_resume(const std::filesystem::path& path);
    /// Collective. Opens a repaired sweep file read-write.
    static Store open_for_resume(const std::filesystem::path& path, MPI_Comm comm);
    /// Opens a sweep file read-only on `comm` (MPI_COMM_SELF for a serial reader); throws
    /// IoError naming the file when it is not a pimdse sweep file.
    static Store open_read_only(const std::filesystem::path& path, MPI_Comm comm);

    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    ~Store();

    /// Collective. Everything committed (candidates, tuner rows, Pareto history).
    [[nodiscard]] StoredSweep read() const;
    /// The names the rows' `network` and `layer` indices refer to: per workload (row of
    /// /workloads/networks), its name and its layers' names (/workloads/<group>/layers).
    [[nodiscard]] std::vector<std::pair<std::string, std::vector<std::string>>> workload_names() const;

    /// Collective. Writes one batch: `mine` are this rank's rows (sorted by id here), `layout`
    /// every candidate of the batch in id order (the same on every rank); `tuner` and `pareto`
    /// (the whole Pareto history) are rank 0's, ignored elsewhere. Then commits (flushing
    /// first when needed).
    void write_batch(BatchRows& mine, std::span<const CandidateRecord> layout, const BatchRecord& tuner,
                     std::span<const ParetoRecord> pareto);

    /// Collective. Rewrites /pareto with rank 0's `pareto` (the history replayed on resume,
    /// which may undo an interrupted batch's updates) and flushes.
    void rewrite_pareto(std::span<const ParetoRecord> pareto);

    /// Collective: records this run's start (rank count, time, run count) as attributes.
    void note_run(int ranks);

    /// Collective: closes the file, then rank 0 cuts every table back to its committed rows
    /// (tables grow ahead of their rows). The store is unusable after.
    void close_and_trim();

    [[nodiscard]] const std::filesystem::path& path() const;
    /// The family columns of the file's /candidates and /metrics.
    [[nodiscard]] const FamilyColumns& columns() const;

private:
    struct Impl;
    explicit Store(std::unique_ptr<Impl> impl);
    void rewrite_pareto_rows(std::span<const ParetoRecord> pareto);
    std::unique_ptr<Impl> impl_;
};

}  // namespace pimdse::store
