#include "pimdse/sched/validate.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pimdse::sched {
namespace {

using sim::SharingCycle;
using sim::SharingSet;

TEST(ValidateCycles, AcceptsAPermutation) {
    const std::vector<SharingSet> sets{{{0, 1, 5, 4}, Bytes(8)}, {{2, 3}, Bytes(8)}};
    const std::vector<SharingCycle> cycles{{{5, 1, 0, 4}, Bytes(8)}, {{3, 2}, Bytes(8)}};
    EXPECT_EQ(validate_cycles(sets, cycles), std::nullopt);
}

TEST(ValidateCycles, CatchesDuplicateMissingWrongSetAndCount) {
    const std::vector<SharingSet> sets{{{0, 1, 5, 4}, Bytes(8)}, {{2, 3, 7}, Bytes(8)}};
    const std::vector<SharingCycle> dup{{{0, 1, 1, 4}, Bytes(8)}, {{2, 3, 7}, Bytes(8)}};
    const std::vector<SharingCycle> missing{{{0, 1, 5}, Bytes(8)}, {{2, 3, 7}, Bytes(8)}};
    const std::vector<SharingCycle> swapped{{{2, 3, 7}, Bytes(8)}, {{0, 1, 5, 4}, Bytes(8)}};
    const std::vector<SharingCycle> foreign{{{0, 1, 5, 4}, Bytes(8)}, {{2, 3, 6}, Bytes(8)}};
    const std::vector<SharingCycle> one{{{0, 1, 5, 4}, Bytes(8)}};
    EXPECT_NE(validate_cycles(sets, dup), std::nullopt);
    EXPECT_NE(validate_cycles(sets, missing), std::nullopt);
    EXPECT_NE(validate_cycles(sets, swapped), std::nullopt);
    EXPECT_NE(validate_cycles(sets, foreign), std::nullopt);
    EXPECT_NE(validate_cycles(sets, one), std::nullopt);
    EXPECT_NE(validate_cycles(sets, foreign)->find("set 1"), std::string::npos);
}

TEST(StepMaxLinkFlits, CountsLinksNotPorts) {
    const sim::Mesh mesh(2, 2);
    // 0 -> 1 -> 3 -> 2 -> 0: every link used once, 64 B = 8 flits of 64 bit.
    const std::vector<SharingCycle> ring{{{0, 1, 3, 2}, Bytes(64)}};
    EXPECT_EQ(step_max_link_flits(mesh, ring, 64), 8);
    // 0 -> 3 -> 1 -> 2 -> 0: XY 0->3 uses 0->1 east; 2->0... overlapping loads.
    EXPECT_EQ(cycle_hops(mesh, ring[0].order), 4);
}

}  // namespace
}  // namespace pimdse::sched
