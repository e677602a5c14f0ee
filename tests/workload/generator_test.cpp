// The committed library inputs/networks/*.yaml and inputs/networks/cifar10/*.yaml must be
// exactly what tools/gen_networks.py writes, so that the library cannot drift from its
// documented generator.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <unistd.h>

#include "support.hpp"

namespace pimdse::test {
namespace {

std::string read_bytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::set<std::string> yaml_files(const std::filesystem::path& dir) {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".yaml") out.insert(e.path().filename().string());
    return out;
}

TEST(Generator, CommittedLibraryEqualsGeneratorOutput) {
    const std::filesystem::path python = "/usr/bin/python3";
    if (!std::filesystem::exists(python)) GTEST_SKIP() << "/usr/bin/python3 is not installed";
    // One directory per process: CTest may run tests in parallel.
    const auto out =
        std::filesystem::temp_directory_path() / ("pimdse_gen_networks_" + std::to_string(::getpid()));
    std::filesystem::remove_all(out);
    const std::string command = python.string() + " '" +
                                (source_dir() / "tools" / "gen_networks.py").string() + "' '" + out.string() +
                                "'";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;

    const auto generated = yaml_files(out);
    const auto committed = yaml_files(library_dir());
    EXPECT_EQ(generated.size(), library_names().size());
    for (const std::string& name : committed)
        EXPECT_TRUE(generated.count(name))
            << "inputs/networks/" << name
            << " is not written by tools/gen_networks.py: add it to the generator";
    for (const std::string& name : generated) {
        ASSERT_TRUE(committed.count(name)) << name << " is generated but not committed; run "
                                           << "/usr/bin/python3 tools/gen_networks.py inputs/networks";
        EXPECT_TRUE(read_bytes(out / name) == read_bytes(library_dir() / name))
            << "inputs/networks/" << name << " differs from the generator's output; regenerate with "
            << "/usr/bin/python3 tools/gen_networks.py inputs/networks";
    }
    // The CIFAR-10 variants, in their own folder (docs/workloads.md).
    const auto generated_cifar = yaml_files(out / "cifar10");
    EXPECT_EQ(generated_cifar, yaml_files(library_dir() / "cifar10"));
    for (const std::string& name : generated_cifar) {
        EXPECT_TRUE(read_bytes(out / "cifar10" / name) == read_bytes(library_dir() / "cifar10" / name))
            << "inputs/networks/cifar10/" << name << " differs from the generator's output; regenerate with "
            << "/usr/bin/python3 tools/gen_networks.py inputs/networks";
    }
    std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace pimdse::test
