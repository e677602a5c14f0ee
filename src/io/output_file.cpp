// Output files (include/pimdse/io/output_file.hpp): checked with lstat before anything is
// opened, written into a temporary file beside the target and renamed over it.

#include "pimdse/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"

#include "file_kind.hpp"

namespace pimdse::io {

namespace fs = std::filesystem;

namespace {

std::string reason(int err) {
    return std::string(" (") + std::strerror(err) + ")";
}

[[noreturn]] void write_failed(const fs::path& path, int err) {
    throw IoError(path.string() + ": cannot write" + reason(err) + "; the file is as it was");
}

// An input given by a path that does not exist yet cannot be the output; one that exists is
// compared by identity, so that a hard link or another spelling of it is caught too.
void check_not_an_input(const fs::path& path, const struct stat* out, std::span<const fs::path> inputs) {
    for (const fs::path& input : inputs) {
        struct stat in {};
        bool same = false;
        if (out != nullptr) {
            same = ::stat(input.c_str(), &in) == 0 && in.st_dev == out->st_dev && in.st_ino == out->st_ino;
        } else {
            std::error_code a;
            std::error_code b;
            const fs::path x = fs::weakly_canonical(path, a);
            const fs::path y = fs::weakly_canonical(input, b);
            same = !a && !b && x == y;
        }
        if (same) {
            throw IoError(path.string() + ": is the input file " + input.string() +
                          " of this command; choose another output path (an input is never replaced, "
                          "not even with --force)");
        }
    }
}

void write_all(int fd, std::string_view text, const fs::path& shown) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            write_failed(shown, errno);
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

}  // namespace

void check_output_path(const fs::path& path, std::span<const fs::path> inputs) {
    if (path.empty()) throw IoError("expected an output file name, got an empty string");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        const int err = errno;
        if (err != ENOENT) throw IoError(path.string() + ": cannot be examined" + reason(err));
        check_not_an_input(path, nullptr, inputs);
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        throw IoError(path.string() + ": is " + detail::kind_of(st.st_mode) +
                      "; pimdse writes only regular files and replaces nothing else (choose another path)");
    }
    check_not_an_input(path, &st, inputs);
}

OutputFile::OutputFile(fs::path path, std::span<const fs::path> inputs) : path_(std::move(path)) {
    check_output_path(path_, inputs);
    const fs::path dir = path_.parent_path().empty() ? fs::path(".") : path_.parent_path();
    // A new name beside the target (the same file system, so that rename is atomic); O_EXCL:
    // never a file or a link that is already there.
    for (int attempt = 0; fd_ < 0; ++attempt) {
        // (Appended piece by piece: GCC 12's -Wrestrict misfires on "." + string here.)
        std::string name = ".";
        name += path_.filename().string();
        name += ".tmp";
        name += std::to_string(::getpid());
        name += '-';
        name += std::to_string(attempt);
        temp_ = dir / name;
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd_ < 0 && (errno != EEXIST || attempt >= 100)) {
            const int err = errno;
            temp_.clear();
            throw IoError(path_.string() + ": cannot create a file in " + dir.string() + reason(err));
        }
    }
}

OutputFile::~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::write(std::string_view text) {
    buffer_ += text;
    if (buffer_.size() >= (std::size_t{1} << 16)) flush();
}

void OutputFile::flush() {
    write_all(fd_, buffer_, path_);
    buffer_.clear();
}

void OutputFile::commit() {
    flush();
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) write_failed(path_, errno);
    // Checked again: the path may have changed while the file was written.
    check_output_path(path_);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) write_failed(path_, errno);
    temp_.clear();
}

void write_output_file(const fs::path& path, std::string_view text, std::span<const fs::path> inputs) {
    OutputFile out(path, inputs);
    out.write(text);
    out.commit();
}

void append_output_file(const fs::path& path, std::string_view header, std::string_view text,
                        std::span<const fs::path> inputs) {
    check_output_path(path, inputs);
    // O_NONBLOCK: a FIFO put there since the check fails below instead of blocking the open.
    const int fd =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) throw IoError(path.string() + ": cannot open for appending" + reason(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw IoError(path.string() + ": is " + detail::kind_of(st.st_mode) +
                      "; pimdse appends only to regular files");
    }
    std::string all = st.st_size == 0 ? std::string(header) : std::string();
    all += text;
    try {
        write_all(fd, all, path);
    } catch (const IoError&) {
        // Cut back what a partial write added: the file is as it was.
        [[maybe_unused]] const int cut = ::ftruncate(fd, st.st_size);
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) write_failed(path, errno);
}

}  // namespace pimdse::io
