// What a command may write (io/output_file.hpp): regular files that are none of its inputs,
// written whole, a failed write leaving the old file as it was.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/output_file.hpp"

#include "../scratch_files.hpp"

namespace pimdse::io {
namespace {

namespace fs = std::filesystem;

using testing::message_of;
using testing::scratch;

std::string text_of(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Files in the scratch directory whose name starts with `prefix` (left-over temporary files).
std::size_t files_starting(const fs::path& dir, const std::string& prefix) {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().rfind(prefix, 0) == 0;
    return n;
}

// A file size limit for this process: a write past it fails with EFBIG, as on a full disk.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &old_);
        rlimit l = old_;
        l.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &l);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, old_handler_);
    }

private:
    rlimit old_{};
    void (*old_handler_)(int) = nullptr;
};

TEST(CheckOutputPath, OnlyAbsentPathsAndRegularFiles) {
    const fs::path absent = scratch("absent.yaml");
    EXPECT_NO_THROW(check_output_path(absent));
    const fs::path regular = scratch("regular.yaml");
    std::ofstream(regular) << "a: 1\n";
    EXPECT_NO_THROW(check_output_path(regular));

    EXPECT_TRUE(contains(message_of([] { check_output_path("/dev/null"); }),
                         "/dev/null: is a character device; pimdse writes only regular files"));
    const fs::path fifo = scratch("fifo.yaml");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_TRUE(contains(message_of([&] { check_output_path(fifo); }), "fifo.yaml: is a FIFO"));
    const fs::path link = scratch("link.yaml");
    fs::create_symlink(regular, link);
    EXPECT_TRUE(contains(message_of([&] { check_output_path(link); }), "link.yaml: is a symbolic link"));
    const fs::path dir = scratch("dir.yaml");
    fs::create_directory(dir);
    EXPECT_TRUE(contains(message_of([&] { check_output_path(dir); }), "dir.yaml: is a directory"));
}

TEST(CheckOutputPath, NeverOneOfTheInputs) {
    const fs::path input = scratch("input.yaml");
    std::ofstream(input) << "a: 1\n";
    const fs::path hard = scratch("hard_link.yaml");
    fs::create_hard_link(input, hard);
    const std::vector<fs::path> inputs{scratch("other.yaml"), input};
    for (const fs::path& out : {input, hard, input.parent_path() / "." / input.filename()}) {
        const std::string m = message_of([&] { check_output_path(out, inputs); });
        EXPECT_TRUE(contains(m, "is the input file " + input.string() + " of this command")) << m;
    }
    EXPECT_NO_THROW(check_output_path(scratch("output.yaml"), inputs));
}

TEST(OutputFile, ReplacesAFileWhole) {
    const fs::path out = scratch("whole.yaml");
    std::ofstream(out) << "old\n";
    write_output_file(out, "new\n");
    EXPECT_EQ(text_of(out), "new\n");
    EXPECT_EQ(files_starting(out.parent_path(), ".whole.yaml.tmp"), 0u);
    {
        OutputFile dropped(out);
        dropped.write("never\n");
    }  // destroyed uncommitted: the old file stays, the temporary file is gone
    EXPECT_EQ(text_of(out), "new\n");
    EXPECT_EQ(files_starting(out.parent_path(), ".whole.yaml.tmp"), 0u);
}

TEST(OutputFile, AFailedWriteLeavesTheOldFile) {
    const fs::path out = scratch("full.yaml");
    std::ofstream(out) << "old\n";
    std::string m;
    {
        const FileSizeLimit limit(4096);
        m = message_of([&] { write_output_file(out, std::string(1 << 20, 'x')); });
    }
    EXPECT_TRUE(contains(m, "full.yaml: cannot write (File too large); the file is as it was")) << m;
    EXPECT_EQ(text_of(out), "old\n");
    EXPECT_EQ(files_starting(out.parent_path(), ".full.yaml.tmp"), 0u);
}

TEST(AppendOutputFile, HeaderOnceAndAFailedAppendUndone) {
    const fs::path csv = scratch("rows.csv");
    append_output_file(csv, "h\n", "1\n");
    append_output_file(csv, "h\n", "2\n");
    EXPECT_EQ(text_of(csv), "h\n1\n2\n");
    std::string m;
    {
        const FileSizeLimit limit(4096);
        m = message_of([&] { append_output_file(csv, "h\n", std::string(1 << 20, 'x')); });
    }
    EXPECT_TRUE(contains(m, "rows.csv: cannot write (File too large)")) << m;
    EXPECT_EQ(text_of(csv), "h\n1\n2\n");
    EXPECT_TRUE(contains(message_of([] { append_output_file("/dev/full", "h\n", "1\n"); }),
                         "/dev/full: is a character device"));
}

}  // namespace
}  // namespace pimdse::io
