// The hetero3d hardware file (io/hetero3d_file.hpp): a valid file reads to its point and
// writes back to text that reads the same; every malformed value is an error naming the file,
// the line and the key.

#include <gtest/gtest.h>

#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/io/hetero3d_file.hpp"

namespace pimdse::io {
namespace {

const std::string kRrfs =
    "hetero3d:\n"
    "  tiers: 4\n"
    "  pes_per_tier: 16\n"
    "  tiles_per_pe: 4\n"
    "  tile_area_mm2: 0.40\n"
    "  stack: RRFS\n";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
    return text;
}

// The message of the InputError that parsing `text` throws ("" when none).
std::string error_of(const std::string& text) {
    try {
        (void)parse_hetero3d(text, "h.yaml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(Hetero3dFile, ReadsHuntsRrfsStack) {
    const Hetero3dFile f = parse_hetero3d(kRrfs, "h.yaml");
    EXPECT_EQ(f.hardware.tiers, 4);
    EXPECT_EQ(f.hardware.pes_per_tier, 16);
    EXPECT_EQ(f.hardware.tiles_per_pe, 4);
    EXPECT_DOUBLE_EQ(f.hardware.tile_area.value(), 0.40);
    EXPECT_EQ(hw::stack_string(f.hardware.stack), "RRFS");
    EXPECT_EQ(f.source_file, "h.yaml");
}

TEST(Hetero3dFile, WritesBackWhatItReads) {
    const Hetero3dFile f = parse_hetero3d(kRrfs, "h.yaml");
    const Hetero3dFile g = parse_hetero3d(to_yaml(f), "again.yaml");
    EXPECT_EQ(to_yaml(g), to_yaml(f));
    EXPECT_EQ(g.hardware.stack, f.hardware.stack);
    EXPECT_DOUBLE_EQ(g.hardware.tile_area.value(), f.hardware.tile_area.value());
}

TEST(Hetero3dFile, MalformedValuesNameFileLineAndKey) {
    struct Case {
        std::string text;
        std::string expect;
    };
    const Case cases[] = {
        {replaced(kRrfs, "RRFS", "RRXS"), "h.yaml:6: key 'hetero3d.stack'"},
        {replaced(kRrfs, "RRFS", "RRF"), "4 letters S, R or F"},
        {replaced(kRrfs, "RRFS", "rrfs"), "hetero3d.stack"},
        {replaced(kRrfs, "tiers: 4", "tiers: 0"), "h.yaml:2: key 'hetero3d.tiers'"},
        {replaced(kRrfs, "tiers: 4", "tiers: 4.0"), "hetero3d.tiers"},
        {replaced(kRrfs, "0.40", "0"), "hetero3d.tile_area_mm2"},
        {replaced(kRrfs, "  stack: RRFS\n", ""), "stack"},
        {kRrfs + "  stacks: RRFS\n", "stacks"},
        {"hardware:\n  x: 1\n", "expected a mapping with the keys hetero3d"},
    };
    for (const Case& c : cases) {
        const std::string what = error_of(c.text);
        EXPECT_NE(what.find(c.expect), std::string::npos) << "for\n" << c.text << "got: " << what;
    }
}

}  // namespace
}  // namespace pimdse::io
