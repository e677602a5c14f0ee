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

}  // namespace
}  // namespace pimdse::mapper
