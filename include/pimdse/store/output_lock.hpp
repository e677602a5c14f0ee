#pragma once
// Exclusive use of a sweep's output file. A run (fresh, --force or --resume) holds an
// advisory lock on `OUT.lock` for as long as it writes OUT, so that two runs on one output
// cannot both proceed: the second is refused with the holder's pid and host. The `.part`
// file a fresh run writes first is created here with O_EXCL | O_NOFOLLOW, so that neither a
// leftover `.part` nor a symlink planted in its place is ever written through
// (docs/cli.md, "Exclusive output").
//
// The lock is a POSIX record lock (fcntl F_SETLK) on the lock file, which Linux forwards to
// NFS's lock manager and to Lustre when it is mounted with `flock` or `localflock`. It does not
// follow HDF5_USE_FILE_LOCKING (which cluster scripts set to FALSE for HDF5's own locks): only
// PIMDSE_OUTPUT_LOCK=off, for a file system that has no locks, turns it off.

#include <filesystem>
#include <string>

namespace pimdse::store {

/// The advisory lock on `output`'s lock file, held until destruction (or process exit: the
/// kernel releases it, so a killed run never leaves a stale lock, only the small lock file).
/// A run that leaves no output (refused, or a fresh run that failed) removes the lock file.
class OutputLock {
public:
    /// Takes the lock or throws IoError naming the holder ("... is in use by pimdse (pid 42
    /// on host n1, started ...)"). `enabled` false (PIMDSE_OUTPUT_LOCK=off) takes none.
    static OutputLock acquire(const std::filesystem::path& output, bool enabled);
    /// The environment variable that turns the lock off with the value `off`.
    static constexpr const char* kDisableVariable = "PIMDSE_OUTPUT_LOCK";
    /// Whether PIMDSE_OUTPUT_LOCK=off asks for no lock (HDF5_USE_FILE_LOCKING plays no part).
    [[nodiscard]] static bool locking_disabled_by_environment();
    /// The lock file of `output`: `output` + ".lock".
    [[nodiscard]] static std::filesystem::path lock_path(const std::filesystem::path& output);

    OutputLock() = default;
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;
    OutputLock(OutputLock&& o) noexcept;
    OutputLock& operator=(OutputLock&& o) noexcept;
    ~OutputLock();

    [[nodiscard]] bool held() const noexcept { return fd_ >= 0; }

private:
    OutputLock(int fd, std::filesystem::path output) : fd_(fd), output_(std::move(output)) {}
    void release() noexcept;
    int fd_ = -1;
    std::filesystem::path output_;
};

/// Creates `part` as a new, empty regular file (O_CREAT | O_EXCL | O_NOFOLLOW) for HDF5 to
/// fill; an existing file or symlink there is an IoError that says how to proceed. The
/// descriptor stays open so that same_file() can confirm HDF5 wrote this very file.
class PartFile {
public:
    static PartFile create(const std::filesystem::path& part);

    PartFile() = default;
    PartFile(const PartFile&) = delete;
    PartFile& operator=(const PartFile&) = delete;
    PartFile(PartFile&& o) noexcept;
    PartFile& operator=(PartFile&& o) noexcept;
    ~PartFile();

    /// Throws IoError if `path` is no longer the file created (it was replaced meanwhile).
    void check_same_file(const std::filesystem::path& path) const;
    [[nodiscard]] bool held() const noexcept { return fd_ >= 0; }

private:
    explicit PartFile(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace pimdse::store
