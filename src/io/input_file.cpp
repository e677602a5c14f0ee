// The one place input files are read (read_text_file, workload_source: include/pimdse/io/config.hpp).
// Only regular files of a bounded size: /dev/zero or /dev/urandom would be read forever and
// a FIFO would block the open itself, so the file is opened without blocking and checked
// with fstat before a byte is read.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"

#include "file_kind.hpp"

namespace pimdse::io {

namespace fs = std::filesystem;
using detail::kind_of;

namespace {

struct Fd {
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    Fd(Fd&& other) noexcept : fd(std::exchange(other.fd, -1)) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd& operator=(Fd&&) = delete;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// Opens `path` for reading after the checks above; `size` receives its size in bytes.
Fd open_input(const fs::path& path, std::uint64_t max_bytes, std::uint64_t* size) {
    const SourceLocation where{path.string(), 0, 0};
    if (path.native().find('\0') != std::string::npos)
        throw InputError(where, "", "expected a file name, got one with a NUL character");
    Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
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
    *size = static_cast<std::uint64_t>(st.st_size);
    return f;
}

// Reads up to `count` bytes; 0 at the end of the file.
std::size_t read_some(const Fd& f, const SourceLocation& where, char* data, std::size_t count) {
    for (;;) {
        const ssize_t n = ::read(f.fd, data, count);
        if (n >= 0) return static_cast<std::size_t>(n);
        if (errno == EINTR) continue;
        throw InputError(
            where, "",
            std::string("expected a readable file, got a read error (") + std::strerror(errno) + ")");
    }
}

}  // namespace

std::string read_text_file(const fs::path& path, std::uint64_t max_bytes) {
    const SourceLocation where{path.string(), 0, 0};
    std::uint64_t size = 0;
    const Fd f = open_input(path, max_bytes, &size);
    const auto too_large = [&](std::uint64_t bytes) {
        return InputError(where, "",
                          "expected an input file of at most " + std::to_string(max_bytes >> 20) +
                              " MiB, got " + std::to_string(bytes) + " bytes");
    };
    std::string text;
    text.resize(static_cast<std::size_t>(size));
    std::size_t have = 0;
    for (;;) {
        if (have == text.size()) {
            if (text.size() >= max_bytes + 1) throw too_large(text.size());
            text.resize(std::min<std::size_t>(std::max<std::size_t>(text.size() * 2, 4096), max_bytes + 1));
        }
        const std::size_t n = read_some(f, where, text.data() + have, text.size() - have);
        if (n == 0) break;
        have += n;
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

std::string workload_source(const fs::path& path) {
    std::string ext = path.extension().string();
    for (char& c : ext) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (ext != ".onnx") return read_text_file(path);
    // An ONNX model is binary and holds its weights: kept as its size and a hash of its bytes,
    // read a chunk at a time, so that a model of any size (up to the import limit) is cheap.
    const SourceLocation where{path.string(), 0, 0};
    std::uint64_t size = 0;
    const Fd f = open_input(path, kMaxOnnxFileBytes, &size);
    std::uint64_t hash = 0xcbf29ce484222325ULL;  // 64-bit FNV-1a
    std::uint64_t total = 0;
    std::string chunk(std::size_t{1} << 20, '\0');
    while (const std::size_t n = read_some(f, where, chunk.data(), chunk.size())) {
        for (std::size_t i = 0; i < n; ++i)
            hash = (hash ^ static_cast<unsigned char>(chunk[i])) * 0x100000001b3ULL;
        total += n;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return "ONNX model " + path.filename().string() + ": " + std::to_string(total) +
           " bytes, FNV-1a 64-bit hash " + hex + "\n";
}

}  // namespace pimdse::io
