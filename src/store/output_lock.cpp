// Exclusive use of a sweep's output (include/pimdse/store/output_lock.hpp).

#include "pimdse/store/output_lock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>

#include "pimdse/core/clock.hpp"
#include "pimdse/core/error.hpp"

namespace pimdse::store {

namespace fs = std::filesystem;

namespace {

std::string host_name() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "?";
    return buf;
}

// An open-file-description lock where the kernel has them (it conflicts between two
// descriptors of one process too, which the tests rely on), a process lock otherwise.
int set_lock(int fd) {
    struct flock l {};
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
#ifdef F_OFD_SETLK
    if (::fcntl(fd, F_OFD_SETLK, &l) == 0) return 0;
    if (errno != EINVAL) return -1;
#endif
    return ::fcntl(fd, F_SETLK, &l);
}

// What the holder wrote into the lock file: "pid N on host H, started T".
std::string holder_of(int fd) {
    char buf[512] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string text = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
    while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
    return text.empty() ? "a process that has not yet written its name" : text;
}

void close_quietly(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

}  // namespace

fs::path OutputLock::lock_path(const fs::path& output) {
    fs::path p = output;
    p += ".lock";
    return p;
}

bool OutputLock::locking_disabled_by_environment() {
    // pimdse's own switch, not HDF5_USE_FILE_LOCKING: cluster scripts turn HDF5's locks off
    // for file systems that refuse them, which must not let a second run write the output.
    const char* v = std::getenv(kDisableVariable);
    return v != nullptr && std::string(v) == "off";
}

OutputLock OutputLock::acquire(const fs::path& output, bool enabled) {
    if (!enabled) return OutputLock();
    const fs::path path = lock_path(output);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        const int err = errno;
        if (err == ELOOP) {
            throw IoError(path.string() +
                          ": is a symbolic link; pimdse never writes through one (remove it)");
        }
        throw IoError(path.string() + ": cannot create the output's lock file: " + std::strerror(err));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close_quietly(fd);
        throw IoError(path.string() + ": the output's lock file is not a regular file");
    }
    if (set_lock(fd) != 0) {
        const int err = errno;
        if (err == EAGAIN || err == EACCES) {
            const std::string holder = holder_of(fd);
            close_quietly(fd);
            throw IoError(output.string() + ": in use by another pimdse run (" + holder + "; lock file " +
                          path.string() + "); wait for it to end or stop it, then run again");
        }
        close_quietly(fd);
        throw IoError(output.string() + ": cannot lock " + path.string() + ": " + std::strerror(err) +
                      " (a file system without locks, e.g. Lustre mounted without -o flock: set " +
                      kDisableVariable +
                      "=off to run without the lock, and make sure no other run writes this output)");
    }
    const std::string me =
        "pid " + std::to_string(::getpid()) + " on host " + host_name() + ", started " + utc_now() + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.data(), me.size(), 0) != static_cast<ssize_t>(me.size())) {
        // The lock is held; only the holder's description is missing, which is no reason to stop.
    }
    return OutputLock(fd, output);
}

OutputLock::OutputLock(OutputLock&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), output_(std::move(o.output_)) {}

OutputLock& OutputLock::operator=(OutputLock&& o) noexcept {
    if (this != &o) {
        release();
        fd_ = std::exchange(o.fd_, -1);
        output_ = std::move(o.output_);
    }
    return *this;
}

OutputLock::~OutputLock() {
    release();
}

void OutputLock::release() noexcept {
    if (fd_ < 0) return;
    // Closing the descriptor releases the lock. The lock file stays beside an output (removing
    // it could let a run that has just opened it lock an unlinked file while a third locks a
    // new one); without an output nothing is left behind, and a fresh run is kept apart from
    // another by the .part's O_EXCL as well.
    std::error_code ec;
    if (!fs::exists(output_, ec)) ::unlink(lock_path(output_).c_str());
    close_quietly(fd_);
}

PartFile PartFile::create(const fs::path& part) {
    const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return PartFile(fd);
    const int err = errno;
    if (err == EEXIST || err == ELOOP) {
        struct stat st {};
        const bool link = ::lstat(part.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
        if (link) {
            throw IoError(part.string() +
                          ": is a symbolic link; pimdse never writes through one: remove it (rm " +
                          part.string() + ") and run again");
        }
        throw IoError(part.string() +
                      ": exists, left by a run that stopped while creating the file (no run holds the "
                      "output now); remove it (rm " +
                      part.string() + ") and run again");
    }
    throw IoError(part.string() + ": cannot create the file: " + std::strerror(err));
}

PartFile::PartFile(PartFile&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}

PartFile& PartFile::operator=(PartFile&& o) noexcept {
    if (this != &o) {
        close_quietly(fd_);
        fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
}

PartFile::~PartFile() {
    close_quietly(fd_);
}

void PartFile::check_same_file(const fs::path& path) const {
    struct stat mine {};
    struct stat now {};
    if (fd_ < 0 || ::fstat(fd_, &mine) != 0 || ::lstat(path.c_str(), &now) != 0 || !S_ISREG(now.st_mode) ||
        mine.st_dev != now.st_dev || mine.st_ino != now.st_ino) {
        throw IoError(path.string() +
                      ": was replaced while pimdse created it (by another process?); refusing "
                      "to use it");
    }
}

}  // namespace pimdse::store
