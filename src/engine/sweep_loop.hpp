#pragma once
// The sweep's message loops (internal to the engine; docs/engine.md). Rank 0 proposes,
// dispatches, observes and writes; ranks 1..N-1 evaluate one candidate at a time and send
// their rows with the result, or one point of a proposal's cheap request (cheap_level.hpp),
// which goes out ahead of the candidates because a proposal waits for it. There is no barrier between
// batches: batch k is proposed from the results of batches <= k - sweep.lag, candidates go one by one to
// whichever worker is free (older batches first), and a batch is observed and written as soon as it and every
// batch before it are complete. Only rank 0 opens the file.

#include <boost/mpi/communicator.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

#include "cheap_level.hpp"
#include "pimdse/engine/progress.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/store.hpp"
#include "sweep_state.hpp"
#include "wire.hpp"

namespace pimdse::engine::detail {

struct RootInputs {
    const io::Config& config;
    const family::Family& family;
    const eval::EvalContext& ctx;
    SweepState& state;
    store::Store& store;
    /// The committed sweep (resume): replayed in the loop, which proposes the batches that
    /// were in flight at the same points of the replay as the interrupted run did.
    std::vector<store::CandidateRecord> stored;
    std::int64_t stored_batches = 0;
    double wall_before = 0;  ///< the stored sweep's wall seconds
    std::optional<std::chrono::seconds> wall_time;
    std::ostream* progress = nullptr;
    ProgressOptions progress_options;
    std::chrono::steady_clock::time_point started;
    /// Set asynchronously (e.g. by a signal handler) to stop as at the wall time: nothing more
    /// is handed out, in-flight candidates are awaited, complete batches are written.
    const std::atomic<bool>* stop_requested = nullptr;
    /// The sweep file: named in the message of a failed write (write_failure.hpp).
    std::filesystem::path output;
    /// The filter's second level, whose requests the loop spreads over the workers; null
    /// without `cheap_fidelity`.
    CheapLevel* cheap = nullptr;
};

struct RootOutcome {
    bool budget_reached = false;
    bool wall_time_stop = false;
    bool stop_requested = false;  ///< stopped by RootInputs::stop_requested
    bool space_exhausted = false;
    std::int64_t evaluated_now = 0;
    std::int64_t batches = 0;
    double write_seconds = 0;
    double busy_seconds = 0;     ///< workers' evaluation time (eval_seconds of this run)
    double propose_seconds = 0;  ///< rank 0 in propose() (fits included)
    /// Workers' share of time holding a candidate between the first and last dispatch.
    double busy_while_work_remains = 1;
    /// The cheap evaluations of this run by the rank that made them; empty without the level.
    std::vector<std::int64_t> cheap_by_rank;
};

/// Rank 0: runs the sweep to its end and sends every worker the stop message.
RootOutcome run_root(const RootInputs& in, const boost::mpi::communicator& world);

/// Ranks 1..N-1: evaluates what rank 0 sends until it says stop; `cheap` (null without
/// `cheap_fidelity`) evaluates the cheap work.
void run_worker(const io::Config& config, const family::Family& family, const eval::EvalContext& ctx,
                const CheapLevel* cheap, const boost::mpi::communicator& world);

/// One candidate's evaluation with the configured evaluator (the family's model or its
/// synthetic one).
[[nodiscard]] eval::Evaluation evaluate_candidate(const io::Config& config, const family::Family& family,
                                                  const eval::EvalContext& ctx, std::int64_t id,
                                                  const DesignPoint& point);

/// One candidate's evaluation as the rank `rank` records it, into `rows` (cleared first); rows
/// the result cannot make fail the candidate, and under output.mappings: none the mapping rows
/// are dropped at once, so they never travel.
[[nodiscard]] store::CandidateRecord evaluate_into(const io::Config& config, const family::Family& family,
                                                   const eval::EvalContext& ctx, const Work& w, int rank,
                                                   store::BatchRows& rows);

}  // namespace pimdse::engine::detail
