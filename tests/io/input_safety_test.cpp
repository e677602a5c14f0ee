// The one reader of input files.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"

#include "../scratch_files.hpp"

namespace pimdse::io {
namespace {

namespace fs = std::filesystem;

using testing::message_of;
using testing::scratch;

TEST(ReadTextFile, OnlyRegularFilesOfBoundedSize) {
    EXPECT_NE(message_of([] {
                  (void)read_text_file("/dev/zero");
              }).find("expected a regular file, got a character device"),
              std::string::npos);
    const fs::path fifo = scratch("fifo.yaml");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(message_of([&] { (void)read_text_file(fifo); }).find("got a FIFO"), std::string::npos);
    const fs::path big = scratch("big.yaml");
    std::ofstream(big).put('#');
    fs::resize_file(big, kMaxInputFileBytes + 1);
    EXPECT_NE(message_of([&] { (void)read_text_file(big); }).find("at most 16 MiB"), std::string::npos);
    const fs::path ok = scratch("ok.yaml");
    std::ofstream(ok) << "a: 1\n";
    EXPECT_EQ(read_text_file(ok), "a: 1\n");
}

}  // namespace
}  // namespace pimdse::io
