// A failed write of the sweep file stops every rank (include/pimdse/engine/write_failure.hpp).

#include "pimdse/engine/write_failure.hpp"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "pimdse/core/error.hpp"

namespace pimdse::engine {

namespace {

// Below this a file system counts as full: a batch's rows are about this size.
constexpr unsigned long long kNearlyFullBytes = 1ULL << 20;

}  // namespace

std::string write_failure_reason(const std::filesystem::path& file) {
    const std::filesystem::path dir =
        file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
    struct statvfs st {};
    if (::statvfs(dir.c_str(), &st) != 0) return {};
    const unsigned long long free_bytes =
        static_cast<unsigned long long>(st.f_bavail) * static_cast<unsigned long long>(st.f_frsize);
    if (free_bytes >= kNearlyFullBytes) return {};
    return std::string(std::strerror(ENOSPC)) + " (" + std::to_string(free_bytes / 1024) +
           " KiB free on the file system of " + dir.string() +
           "; make room, then run again: with --resume once the file holds a batch)";
}

std::string explain_write_failure(std::string what, const std::filesystem::path& file) {
    const std::string reason = write_failure_reason(file);
    if (reason.empty()) return what;
    const std::string nospace = std::string(": ") + std::strerror(ENOSPC);
    if (what.ends_with(nospace)) what.resize(what.size() - nospace.size());
    return what + ": " + reason;
}

void write_or_stop_all(MPI_Comm comm, const std::filesystem::path& file, const std::function<void()>& write) {
    try {
        write();
    } catch (const std::exception& e) {
        const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
        const std::string what = memory ? message_of(e) : explain_write_failure(e.what(), file);
        int size = 1;
        MPI_Comm_size(comm, &size);
        if (size == 1) {
            if (memory) throw;
            throw IoError(what);
        }
        int rank = 0;
        MPI_Comm_rank(comm, &rank);
        std::cerr << "pimdse: error on rank " << rank << ": " << what
                  << "; every rank stops, the file holds every batch committed before this one\n"
                  << std::flush;
        MPI_Abort(comm, static_cast<int>(memory ? ExitCode::out_of_memory : ExitCode::io));
    }
}

}  // namespace pimdse::engine
