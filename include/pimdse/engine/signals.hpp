#pragma once
// SIGTERM and SIGINT during a sweep (docs/cli.md, "Signals"). A batch system ends a job with
// SIGTERM, a user with Ctrl-C (SIGINT; mpirun forwards both to every rank). The sweep file
// is consistent at every commit record and `--resume` repairs anything written past it (the
// same property that makes a SIGKILL at any time safe), so the running batch is abandoned:
// each rank stops at once, rank 0 says what happened and how to continue, and every rank
// exits with ExitCode::stopped (6), which job scripts use to requeue. Only while the output
// file is being created is a signal held back until the file is whole, so that a stop never
// leaves a half-made `.part` that the next run would have to refuse.

#include <filesystem>

#include "pimdse/core/error.hpp"

namespace pimdse::engine {

/// Exit status of a sweep stopped by SIGTERM or SIGINT (ExitCode::stopped).
inline constexpr int kStoppedExitCode = static_cast<int>(ExitCode::stopped);

/// Installs the handlers for this process. `speaks` is whether this rank prints the message
/// (rank 0); `output` is named in it. Call again once the output exists (`resumable`).
void install_stop_handlers(const std::filesystem::path& output, bool speaks, bool resumable);

/// Restores the default dispositions (a sweep that ended; tests).
void remove_stop_handlers();

/// While alive, a SIGTERM/SIGINT is recorded instead of acted on; on destruction a recorded
/// signal stops the process as if it had just arrived.
class HoldStopSignals {
public:
    HoldStopSignals();
    HoldStopSignals(const HoldStopSignals&) = delete;
    HoldStopSignals& operator=(const HoldStopSignals&) = delete;
    ~HoldStopSignals();
};

}  // namespace pimdse::engine
