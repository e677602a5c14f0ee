#include "pimdse/mapper/mapping_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"

namespace pimdse::mapper {
namespace {

namespace fs = std::filesystem;
const fs::path kData = fs::path(PIMDSE_SOURCE_DIR) / "tests" / "data";

struct Tiny {
    workload::Network net = io::read_network_file(kData / "mapping" / "tiny.yaml");
    workload::Segmentation seg = workload::decompose(net);
    MappingTarget target{&net, &seg, 2, 4};
};

TEST(MappingFile, ReadsTheHandWrittenExample) {
    const Tiny t;
    const sim::NetworkMapping m = read_mapping_file(kData / "mapping" / "tiny_2x4.yaml", t.target);
    ASSERT_EQ(m.segments.size(), 3u);
    EXPECT_EQ(m.segments[1].regions[1], (sim::Region{0, 2, 2, 2}));
    EXPECT_EQ(m.segments[1].branch_region, (std::vector<std::int32_t>{0, 1}));
    const sim::LayerMapping& a = m.layers[0];
    EXPECT_EQ(a.part(sim::PartDim::p), (sim::Partition{2, 1}));
    EXPECT_EQ(a.part(sim::PartDim::k), (sim::Partition{1, 4}));
    EXPECT_EQ(a.part(sim::PartDim::b), (sim::Partition{1, 1}));
    EXPECT_EQ(a.order[0], sim::PartDim::k);
    EXPECT_EQ(a.order[2], sim::PartDim::b);
    EXPECT_EQ(a.wr, 2);
    EXPECT_EQ(sim::to_string(a.dl_out), "BCHW[C8]");
    // Layers are matched by name: r is listed before l in the file.
    EXPECT_EQ(m.layers[2].part(sim::PartDim::c), (sim::Partition{2, 1}));
    EXPECT_EQ(m.layers[1].part(sim::PartDim::k), (sim::Partition{2, 2}));
    EXPECT_EQ(m.layers[1].wr, 1);  // default
}

TEST(MappingFile, ToYamlReadsBackEqual) {
    const Tiny t;
    const sim::NetworkMapping m = read_mapping_file(kData / "mapping" / "tiny_2x4.yaml", t.target);
    const std::string text = to_yaml(m, t.target);
    EXPECT_EQ(parse_mapping(text, "emitted.yaml", t.target), m) << text;
    EXPECT_EQ(to_yaml(parse_mapping(text, "emitted.yaml", t.target), t.target), text);
}

// Every malformed mapping is rejected with its own message (file, line and what is wrong),
// listed in EXPECTED.txt as `file<TAB>expected substring`.
TEST(MappingFile, MalformedFilesEachGetTheirOwnError) {
    const Tiny t;
    const fs::path dir = kData / "malformed" / "mappings";
    std::ifstream expected(dir / "EXPECTED.txt");
    ASSERT_TRUE(expected) << "missing EXPECTED.txt";
    std::set<std::string> listed;
    std::set<std::string> messages;
    std::string line;
    while (std::getline(expected, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        ASSERT_NE(tab, std::string::npos) << line;
        const std::string file = line.substr(0, tab);
        const std::string want = line.substr(tab + 1);
        listed.insert(file);
        try {
            (void)read_mapping_file(dir / file, t.target);
            ADD_FAILURE() << file << " was accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(want), std::string::npos) << file << ": " << what;
            EXPECT_NE(what.find(file + ":"), std::string::npos) << what;
            EXPECT_TRUE(messages.insert(e.problem()).second) << "two files share the message " << what;
        }
    }
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".yaml") continue;
        ++files;
        EXPECT_TRUE(listed.count(entry.path().filename().string()))
            << entry.path() << " is not in EXPECTED.txt";
    }
    EXPECT_GE(files, 10u);
}

}  // namespace
}  // namespace pimdse::mapper
