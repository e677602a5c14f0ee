#pragma once
// The sweep's HDF5 file (docs/output.md): one self-describing file per sweep, written
// collectively batch by batch and resumable. Built on the h5 adapter (io/hdf5.hpp); every
// rank writes its own candidates' rows of a batch, placed in candidate-id order whichever
// rank computed them, so the file is the same for any number of ranks (timing fields and
// the evaluating rank aside).
//
// Consistency: a batch's rows are written, the file flushed, and only then the commit record
// (the root attribute `commit`: batches and the row count of every table) is overwritten in
// place and flushed again. A reader or a resumed run ignores rows past the commit record.

#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "pimdse/eval/evaluate.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/io/config.hpp"

namespace pimdse::io {

/// Format of the sweep file; bumped on any incompatible schema change.
inline constexpr std::int64_t kStoreFormatVersion = 1;
/// The root attribute `format` of every sweep file.
inline constexpr const char* kStoreFormatName = "pimdse sweep";

/// One candidate of a committed batch, as rank 0 needs it (dispatch layout, resume replay).
struct CandidateRecord {
    std::int64_t id = 0;
    std::int64_t batch = 0;
    hw::HardwareParams params;
    eval::Status status = eval::Status::ok;
    double area_mm2 = 0;
    double latency_seconds = 0;
    double energy_joules = 0;
    double cost = 0;
    std::int32_t rank = 0;          ///< the rank that evaluated it
    std::int64_t metric_rows = 0;   ///< rows in /metrics
    std::int64_t layer_rows = 0;    ///< rows in /mappings/layers
    std::int64_t segment_rows = 0;  ///< rows in /mappings/segments
    double seconds = 0;
};

/// Rows of /metrics, /mappings/layers and /mappings/segments an evaluation produces.
void count_rows(const eval::Evaluation& e, const std::vector<eval::Workload>& workloads, CandidateRecord& r);

/// One row of /tuner/batches (written by rank 0).
struct BatchRecord {
    std::int64_t batch = 0;
    Proposer proposer = Proposer::random;
    std::int64_t candidates = 0;   ///< candidates in this batch
    std::int64_t evaluations = 0;  ///< evaluations done after this batch
    std::int64_t ok = 0;           ///< candidates of this batch with status ok
    double best_cost = 0;          ///< lowest Eq. 1 cost so far (+inf if none)
    std::int64_t best_candidate = -1;
    double hypervolume = 0;  ///< of the front, against the reference point
    std::int64_t front_size = 0;
    double fit_seconds = 0;       ///< proposer model fit (timing)
    double propose_seconds = 0;   ///< proposer sampling and scoring (timing)
    double evaluate_seconds = 0;  ///< wall time from dispatch to the batch's last result (timing)
    double write_seconds = 0;     ///< this batch's table writes before the tuner row (timing)
    double wall_seconds = 0;      ///< since this run started (timing)
};

/// One row of /pareto.
struct ParetoRecord {
    std::int64_t candidate = 0;
    double latency_seconds = 0;
    double energy_joules = 0;
    double area_mm2 = 0;
    double cost = 0;
};

/// What rank 0 reads back from a committed file: enough to replay the proposer and archive.
struct StoredSweep {
    /// Root attributes as text: format_version, pimdse_version, git_revision, created, seed,
    /// proposer, objectives, ranks, last_started.
    std::vector<std::pair<std::string, std::string>> info;
    std::string resolved_config;  ///< to_yaml of the configuration the file was made with
    std::int64_t batches = 0;
    std::vector<CandidateRecord> candidates;  ///< in id order
    std::vector<BatchRecord> tuner;
    std::vector<ParetoRecord> front;
    std::vector<double> reference;  ///< the hypervolume reference point once fixed; empty before
};

class Store {
public:
    /// Collective. Creates `path` exclusively (it must not exist) and writes the file
    /// attributes, the configuration and the workloads.
    static Store create(const std::filesystem::path& path, const Config& config,
                        const std::vector<eval::Workload>& workloads, MPI_Comm comm);
    /// Collective. Opens an existing sweep file read-write, checks that it is one, and drops
    /// rows past its commit record (an interrupted batch).
    static Store open_for_resume(const std::filesystem::path& path, MPI_Comm comm);
    /// Opens a sweep file read-only on `comm` (MPI_COMM_SELF for a serial reader); throws
    /// IoError naming the file when it is not a pimdse sweep file.
    static Store open_read_only(const std::filesystem::path& path, MPI_Comm comm);

    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    ~Store();

    /// Collective. Everything committed (candidates, tuner rows, front, reference).
    [[nodiscard]] StoredSweep read() const;

    /// Collective. Writes one batch: `mine` are this rank's evaluations, `layout` every
    /// candidate of the batch in id order (the same on every rank); `tuner` and `front` are
    /// rank 0's (ignored elsewhere). Then flushes and commits. Returns the seconds spent
    /// writing tables (before the flush and commit).
    double write_batch(std::span<const eval::Evaluation> mine, std::span<const CandidateRecord> layout,
                       std::span<const eval::Workload> workloads, const BatchRecord& tuner,
                       std::span<const ParetoRecord> front, std::span<const double> reference);

    /// Collective. Replaces /pareto with `front` (rank 0's rows) and the reference point.
    void rewrite_front(std::span<const ParetoRecord> front, std::span<const double> reference);

    /// Collective: records this run's start (rank count, time) as attributes.
    void note_run(int ranks);

    [[nodiscard]] const std::filesystem::path& path() const;

private:
    struct Impl;
    explicit Store(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace pimdse::io
