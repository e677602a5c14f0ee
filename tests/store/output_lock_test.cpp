// The output lock and the exclusive .part of a sweep file.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/store/output_lock.hpp"

#include "../scratch_files.hpp"

namespace pimdse::store {
namespace {

namespace fs = std::filesystem;

using testing::message_of;
using testing::scratch;

TEST(OutputLock, SecondHolderIsRefusedNamingTheFirst) {
    const fs::path out = scratch("locked.h5");
    std::ofstream(out) << "x";  // an output exists: the lock file stays after release
    OutputLock first = OutputLock::acquire(out, true);
    ASSERT_TRUE(first.held());
    const std::string m = message_of([&] { (void)OutputLock::acquire(out, true); });
    EXPECT_NE(m.find("in use by another pimdse run (pid " + std::to_string(::getpid()) + " on host "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find(OutputLock::lock_path(out).string()), std::string::npos) << m;
    first = OutputLock();
    EXPECT_TRUE(OutputLock::acquire(out, true).held());  // released: the next run proceeds
    EXPECT_TRUE(fs::exists(OutputLock::lock_path(out)));
}

TEST(OutputLock, NoOutputLeavesNoLockFile) {
    const fs::path out = scratch("never_made.h5");
    { const OutputLock lock = OutputLock::acquire(out, true); }
    EXPECT_FALSE(fs::exists(OutputLock::lock_path(out)));
}

TEST(OutputLock, DisabledTakesNoLock) {
    const fs::path out = scratch("unlocked.h5");
    const OutputLock a = OutputLock::acquire(out, false);
    const OutputLock b = OutputLock::acquire(out, false);
    EXPECT_FALSE(a.held());
    EXPECT_FALSE(b.held());
}

// Cluster scripts set HDF5_USE_FILE_LOCKING=FALSE for HDF5's own locks; pimdse's lock stays.
TEST(OutputLock, HdfLockingSwitchDoesNotDisableIt) {
    ::setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);
    const bool disabled = OutputLock::locking_disabled_by_environment();
    ::setenv(OutputLock::kDisableVariable, "off", 1);
    const bool off = OutputLock::locking_disabled_by_environment();
    ::unsetenv(OutputLock::kDisableVariable);
    ::unsetenv("HDF5_USE_FILE_LOCKING");
    EXPECT_FALSE(disabled);
    EXPECT_TRUE(off);
}

TEST(PartFile, SymlinkAndLeftoverAreRefusedUntouched) {
    const fs::path target = scratch("victim.txt");
    std::ofstream(target) << "precious";
    const fs::path link = scratch("link.h5.part");
    fs::create_symlink(target, link);
    EXPECT_NE(message_of([&] { (void)PartFile::create(link); }).find("is a symbolic link"),
              std::string::npos);
    std::ifstream in(target);
    std::string text;
    in >> text;
    EXPECT_EQ(text, "precious");
    const fs::path left = scratch("left.h5.part");
    std::ofstream(left) << "old";
    EXPECT_NE(message_of([&] { (void)PartFile::create(left); }).find("remove it (rm " + left.string()),
              std::string::npos);
    EXPECT_EQ(fs::file_size(left), 3u);
}

TEST(PartFile, ReplacedFileIsDetected) {
    const fs::path part = scratch("new.h5.part");
    const PartFile f = PartFile::create(part);
    EXPECT_NO_THROW(f.check_same_file(part));
    fs::remove(part);
    std::ofstream(part) << "another";
    EXPECT_THROW(f.check_same_file(part), IoError);
}

}  // namespace
}  // namespace pimdse::store
