#pragma once
// The MPI driver of a sweep (docs/engine.md): rank 0 owns the proposer, the Pareto archive
// and the HDF5 file; ranks 1..N-1 evaluate candidates handed out one at a time to whichever
// is free (with one rank, rank 0 evaluates) and send their rows with each result. There is no
// barrier between batches: batch k is proposed from the results of batches <= k - sweep.lag,
// and batches are observed and written in batch order, their results sorted by candidate id,
// so a seed gives the same file for any rank count and across a kill and --resume. Rank 0
// never spins: it waits with non-blocking probes and short sleeps.

#include <boost/mpi/communicator.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/engine/progress.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/schema.hpp"

namespace pimdse::engine {

struct ExploreOptions {
    std::filesystem::path config;                   ///< the sweep configuration file
    std::filesystem::path output;                   ///< empty: the configuration's output.path
    bool resume = false;                            ///< continue the sweep stored in `output`
    bool force = false;                             ///< overwrite an existing `output` (fresh run only)
    std::optional<std::chrono::seconds> wall_time;  ///< overrides sweep.wall_time
    std::ostream* progress = nullptr;               ///< rank 0's progress lines; null: none
    ProgressOptions progress_options;               ///< text, JSON lines or quiet; the interval
};

struct ExploreResult {
    std::int64_t evaluations = 0;    ///< in the file, over all runs
    std::int64_t batches = 0;        ///< in the file
    std::int64_t evaluated_now = 0;  ///< by this run
    bool budget_reached = false;
    bool wall_time_stop = false;   ///< stopped cleanly before the wall time; resumable
    bool space_exhausted = false;  ///< the proposer found no legal unseen point
    double wall_seconds = 0;       ///< this run
    double write_seconds = 0;      ///< this run's HDF5 writes, flushes and commits (rank 0)
    double rank0_cpu_seconds = 0;  ///< CPU time of this process during the run (rank 0's on rank 0)
    double propose_seconds = 0;    ///< rank 0's time in the proposer (fits included)
    double workers_busy = 0;       ///< evaluation time / (workers x wall time), 0..1
    /// Workers' share of time holding a candidate while work remained (first to last
    /// dispatch of the run), 0..1: what the dispatch controls.
    double busy_while_work_remains = 1;
    /// The filter's cheap evaluations of this run by the rank that made them (docs/tuner.md,
    /// "Cheap fidelity"): the workers', or rank 0's alone; empty without `cheap_fidelity`.
    std::vector<std::int64_t> cheap_evaluations;
    std::filesystem::path output;
};

/// A failure every rank saw alike (setup: configuration, workloads, output file): main may
/// report it from rank 0 and every rank may exit normally with `code`.
class CollectiveError : public Error {
public:
    CollectiveError(ExitCode code, const std::string& message) : Error(message), code_(code) {}
    [[nodiscard]] ExitCode code() const noexcept { return code_; }
    [[nodiscard]] ExitCode exit_code() const noexcept override { return code_; }

private:
    ExitCode code_;
};

/// The evaluation context of a configuration: its workloads loaded and decomposed, Eq. 1's
/// exponents, the fault-injection lists of `engine.fault_injection`.
[[nodiscard]] eval::EvalContext make_context(const io::Config& config);

/// The columns a family gives a sweep file: its parameters (/candidates), energy parts
/// (/metrics, J) and metrics (/candidates), with the units `config` gives the cost fields and
/// the Pareto objectives.
[[nodiscard]] store::FamilyColumns family_columns(const family::Family& family, const io::Config& config);

/// Runs (or resumes) a sweep on every rank of `world` (collective). Setup failures are thrown
/// as CollectiveError on every rank; anything else means the ranks disagree.
ExploreResult explore(const ExploreOptions& options, const boost::mpi::communicator& world);

}  // namespace pimdse::engine
