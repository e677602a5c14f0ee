#pragma once
// Output files: what a command may write, and how (docs/cli.md, "Output files"). Every file
// pimdse writes goes through here (a sweep's HDF5 file is checked here and written by the
// store). An output path may name nothing yet or a regular file, never a symbolic link, a
// device, a FIFO or a socket (replacing /dev/null, or writing through a link planted in an
// output directory, replaces what is not pimdse's), and never one of the command's own input
// files, compared by device and inode. A file is written whole: into a temporary file beside
// it, renamed over it once complete, so that a failed write (a full disk) leaves the old file
// as it was and a FIFO is never opened.

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace pimdse::io {

/// Throws IoError naming `path` unless a command may write it: nothing exists there yet, or a
/// regular file that is none of `inputs` (the same device and inode; for a path that does not
/// exist, the same canonical path). Opens nothing, so a FIFO never blocks it.
void check_output_path(const std::filesystem::path& path, std::span<const std::filesystem::path> inputs = {});

/// A file written whole: checked as check_output_path, written into a new temporary file in
/// the same directory, and renamed over `path` by commit(). Destroyed uncommitted (an error on
/// the way), it removes the temporary file and `path` is as it was.
class OutputFile {
public:
    explicit OutputFile(std::filesystem::path path, std::span<const std::filesystem::path> inputs = {});
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
    /// Appends `text`; IoError naming the file and the system's reason (a full disk).
    void write(std::string_view text);
    /// Writes what is buffered, closes and renames the file into place.
    void commit();

private:
    void flush();

    std::filesystem::path path_;
    std::filesystem::path temp_;
    int fd_ = -1;
    std::string buffer_;
};

/// Writes `text` to `path` whole (OutputFile).
void write_output_file(const std::filesystem::path& path, std::string_view text,
                       std::span<const std::filesystem::path> inputs = {});

/// Appends `text` to `path`, created if missing with `header` first; only a regular file is
/// opened (no link is followed, a FIFO never blocks). A failed write is undone (the file cut
/// back to its length) and reported as IoError with the system's reason.
void append_output_file(const std::filesystem::path& path, std::string_view header, std::string_view text,
                        std::span<const std::filesystem::path> inputs = {});

}  // namespace pimdse::io
