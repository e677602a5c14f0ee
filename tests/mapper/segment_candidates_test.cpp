#include "pimdse/mapper/segment_candidates.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "mapper_fixtures.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper {
namespace {

using testing::kTwoBranch;
using testing::system_of;
using workload::Network;
using workload::Segmentation;

TEST(SegmentCandidates, SlicingTreeTilesTheArrayInProportionToWork) {
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{4, 4}, {2, 8}, {16, 16}, {3, 5}}) {
        const std::vector<std::int64_t> work{900, 300, 300, 100, 50};
        const std::vector<sim::Region> r = slice_regions(work, rows, cols);
        ASSERT_EQ(r.size(), work.size());
        std::int32_t nodes = 0;
        for (std::size_t i = 0; i < r.size(); ++i) {
            EXPECT_GE(r[i].rows, 1);
            EXPECT_GE(r[i].cols, 1);
            EXPECT_LE(r[i].row + r[i].rows, rows);
            EXPECT_LE(r[i].col + r[i].cols, cols);
            nodes += r[i].nodes();
            for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(r[i].overlaps(r[j]));
        }
        EXPECT_EQ(nodes, rows * cols);  // a slicing tree covers the whole array
        if (rows * cols >= 64) {
            EXPECT_GT(r[0].nodes(), r[4].nodes());  // more work, more nodes
        }
    }
    EXPECT_TRUE(slice_regions({1, 1, 1}, 1, 2).empty());  // three regions cannot fit two nodes
}

TEST(SegmentCandidates, BalancesBranchesAndUsesEveryRegion) {
    const std::vector<std::int32_t> g = balance_branches({10, 9, 8, 1, 1, 1}, 3);
    std::set<std::int32_t> used(g.begin(), g.end());
    EXPECT_EQ(used.size(), 3u);
    std::vector<std::int64_t> load(3, 0);
    const std::vector<std::int64_t> ops{10, 9, 8, 1, 1, 1};
    for (std::size_t b = 0; b < g.size(); ++b) load[static_cast<std::size_t>(g[b])] += ops[b];
    EXPECT_EQ(*std::max_element(load.begin(), load.end()), 10);  // LPT: {10}, {9,1}, {8,1,1}

    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    const Segmentation s = workload::decompose(n);
    std::size_t multi = 0;
    for (const auto& seg : s.segments) {
        const auto c = segment_candidates(n, seg, 2, 4);
        if (seg.branches.size() == 2) multi = c.size();
        EXPECT_EQ(c.front().regions.size(), 1u);
    }
    EXPECT_EQ(multi, 2u);  // one region, or two side by side
}

// Longest processing time first, by hand: 5 -> group 0; 4 -> group 1; 3 -> group 1 (4 < 5);
// 3 -> group 0 (5 < 7). Loads 8 and 7.
TEST(SegmentCandidates, BalanceBranchesIsLongestProcessingTimeFirst) {
    EXPECT_EQ(balance_branches({5, 4, 3, 3}, 2), (std::vector<std::int32_t>{0, 1, 1, 0}));
    // Ties go to the lower group; one group takes everything.
    EXPECT_EQ(balance_branches({2, 2}, 2), (std::vector<std::int32_t>{0, 1}));
    EXPECT_EQ(balance_branches({7, 1, 1}, 1), (std::vector<std::int32_t>{0, 0, 0}));
}

// Work 3 : 1 on a 1 x 4 row: the cut leaves 3 columns and 1 column; on a 4 x 1 column the
// longer side (rows) is cut the same way. Regions come back in the order of the work.
TEST(SegmentCandidates, SliceRegionsByHand) {
    const std::vector<sim::Region> row = slice_regions({3, 1}, 1, 4);
    ASSERT_EQ(row.size(), 2u);
    EXPECT_EQ(row[0].nodes(), 3);
    EXPECT_EQ(row[1].nodes(), 1);
    EXPECT_EQ(row[0].rows, 1);
    EXPECT_FALSE(row[0].overlaps(row[1]));
    const std::vector<sim::Region> column = slice_regions({1, 3}, 4, 1);
    ASSERT_EQ(column.size(), 2u);
    EXPECT_EQ(column[0].nodes(), 1);
    EXPECT_EQ(column[1].nodes(), 3);
    EXPECT_EQ(column[1].cols, 1);
    // One region is the whole array.
    const std::vector<sim::Region> one = slice_regions({42}, 2, 3);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].nodes(), 6);
}

// Every shape of a 2 x 3 array, most nodes first, then most rows.
TEST(SegmentCandidates, ShrinkingShapesByHand) {
    using Shape = std::pair<std::int32_t, std::int32_t>;
    EXPECT_EQ(shrinking_shapes(2, 3), (std::vector<Shape>{{2, 3}, {2, 2}, {1, 3}, {2, 1}, {1, 2}, {1, 1}}));
    EXPECT_EQ(shrinking_shapes(1, 1), (std::vector<Shape>{{1, 1}}));
}

// The candidates of the two-branch segment on 2 x 4: one region (both branches on the whole
// array) first, then two regions that tile the array, each branch on its own region, the
// heavier branch (a1: 3 x 3 x 32 x 64 MACs per pixel) on at least as many nodes.
TEST(SegmentCandidates, TwoBranchSegmentOnTwoByFour) {
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    const Segmentation s = workload::decompose(n);
    const auto two = std::find_if(s.segments.begin(), s.segments.end(),
                                  [](const workload::Segment& x) { return x.branches.size() == 2; });
    ASSERT_NE(two, s.segments.end());
    const std::vector<sim::SegmentMapping> c = segment_candidates(n, *two, 2, 4);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].regions.size(), 1u);
    EXPECT_EQ(c[0].regions[0].nodes(), 8);
    EXPECT_EQ(c[0].branch_region, (std::vector<std::int32_t>{0, 0}));
    ASSERT_EQ(c[1].regions.size(), 2u);
    EXPECT_EQ(c[1].regions[0].nodes() + c[1].regions[1].nodes(), 8);
    EXPECT_NE(c[1].branch_region[0], c[1].branch_region[1]);
    const auto heavy = static_cast<std::size_t>(
        n.layer(two->branches[0].layers.front()).ops() >= n.layer(two->branches[1].layers.front()).ops() ? 0
                                                                                                         : 1);
    EXPECT_GE(c[1].regions[static_cast<std::size_t>(c[1].branch_region[heavy])].nodes(),
              c[1].regions[static_cast<std::size_t>(c[1].branch_region[1 - heavy])].nodes());
}

}  // namespace
}  // namespace pimdse::mapper
