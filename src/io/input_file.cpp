// The one place input files are read (read_text_file, include/pimdse/io/config.hpp).
// Only regular files of a bounded size: /dev/zero or /dev/urandom would be read forever and
// a FIFO would block the open itself, so the file is opened without blocking and checked
// with fstat before a byte is read.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"

#include "file_kind.hpp"

namespace pimdse::io {

namespace fs = std::filesystem;
using detail::kind_of;

namespace {

struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::string read_text_file(const fs::path& path, std::uint64_t max_bytes) {
    const SourceLocation where{path.string(), 0, 0};
    if (path.native().find('\0') != std::string::npos)
        throw InputError(where, "", "expected a file name, got one with a NUL character");
    const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (f.fd < 0) {
        const int err = errno;
        if (err == ENOENT) throw InputError(where, "", "expected an existing file, got no such file");
        throw InputError(where, "",
                         std::string("expected a readable file, got one that cannot be opened (") +
                             std::strerror(err) + ")");
    }
    struct stat st {};
    if (::fstat(f.fd, &st) != 0)
        throw InputError(where, "", "expected a readable file, got one fstat refuses");
    if (S_ISDIR(st.st_mode)) throw InputError(where, "", "expected a file, got a directory");
    if (!S_ISREG(st.st_mode))
        throw InputError(where, "", "expected a regular file, got " + kind_of(st.st_mode));
    const auto too_large = [&](std::uint64_t bytes) {
        return InputError(where, "",
                          "expected an input file of at most " + std::to_string(max_bytes >> 20) +
                              " MiB, got " + std::to_string(bytes) + " bytes");
    };
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        throw too_large(static_cast<std::uint64_t>(st.st_size));
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t have = 0;
    for (;;) {
        if (have == text.size()) {
            if (text.size() >= max_bytes + 1) throw too_large(text.size());
            text.resize(std::min<std::size_t>(std::max<std::size_t>(text.size() * 2, 4096), max_bytes + 1));
        }
        const ssize_t n = ::read(f.fd, text.data() + have, text.size() - have);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw InputError(
                where, "",
                std::string("expected a readable file, got a read error (") + std::strerror(errno) + ")");
        }
        if (n == 0) break;
        have += static_cast<std::size_t>(n);
    }
    text.resize(have);
    return text;
}

void check_input_file(const fs::path& path) {
    // stat opens nothing: a FIFO is reported, not waited on.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOENT) throw IoError(path.string() + ": no such file");
        throw IoError(path.string() + ": cannot be read (" + std::strerror(err) + ")");
    }
    if (!S_ISREG(st.st_mode))
        throw IoError(path.string() + ": expected a regular file, got " + kind_of(st.st_mode));
}

}  // namespace pimdse::io
