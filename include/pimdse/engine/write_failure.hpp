#pragma once
// A write of the sweep file that fails on one rank must stop every rank (docs/cli.md,
// "Errors"). The failing rank cannot simply throw: unwinding would close the file, a
// collective call the other ranks never join while they wait inside the batch's next
// collective write, and the job would spin forever. So the failing rank reports and ends the
// whole job at once (MPI_Abort, exit 4), as a kill would: the commit record still names the
// last whole batch, and --resume continues from it. HDF5 reports only "H5Fflush failed";
// the reason the user can act on (a full disk) is found from the file system.

#include <mpi.h>

#include <filesystem>
#include <functional>
#include <string>

namespace pimdse::engine {

/// The system's reason a write to `file` may have failed: "No space left on device (12 KiB
/// free on the file system of DIR)" when its file system is (nearly) full, else empty.
[[nodiscard]] std::string write_failure_reason(const std::filesystem::path& file);

/// `what` (a failed write's message) with write_failure_reason(file) appended, once: a
/// trailing "No space left on device" that HDF5 passed on from errno gives way to it.
[[nodiscard]] std::string explain_write_failure(std::string what, const std::filesystem::path& file);

/// Runs `write`; if it throws, the message gains write_failure_reason(file), and with more
/// than one rank this rank prints it and aborts the job with exit code 4 (one rank: IoError).
/// Memory exhaustion (std::bad_alloc) keeps its own exit code, 8, and its exception.
void write_or_stop_all(MPI_Comm comm, const std::filesystem::path& file, const std::function<void()>& write);

}  // namespace pimdse::engine
