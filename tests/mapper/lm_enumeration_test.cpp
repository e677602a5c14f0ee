#include "pimdse/mapper/lm_enumeration.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "mapper_fixtures.hpp"

namespace pimdse::mapper {
namespace {

using testing::kTwoBranch;
using testing::system_of;
using workload::Network;
using workload::Segmentation;

TEST(LayerSearch, HelpersEnumerateWhatTheyClaim) {
    EXPECT_EQ(factorisations(16).size(), 70u);  // C(4 + 4, 4) compositions of 2^4 over five loops
    EXPECT_EQ(factorisations(1).size(), 1u);
    for (const auto& f : factorisations(12)) EXPECT_EQ(f[0] * f[1] * f[2] * f[3] * f[4], 12);
    // 12 = 2^2 * 3: C(6,4) * C(5,4) = 15 * 5 ordered factorisations.
    EXPECT_EQ(factorisations(12).size(), 75u);
    // ceil(6 / WR) for WR = 6..1 is 1, 2, 2, 2, 3, 6: the largest WR of each distinct value.
    EXPECT_EQ(distinct_wr(6), (std::vector<std::int32_t>{6, 5, 2, 1}));
    EXPECT_EQ(distinct_wr(1), (std::vector<std::int32_t>{1}));
    // K split along rows only and P along columns only: one order; both along rows: two.
    const std::array<std::int32_t, 5> none{1, 1, 1, 1, 1};
    std::array<std::int32_t, 5> ph = none, pw = none;
    ph[static_cast<std::size_t>(sim::PartDim::k)] = 2;
    pw[static_cast<std::size_t>(sim::PartDim::p)] = 2;
    EXPECT_EQ(distinct_orders(ph, pw).size(), 1u);
    ph[static_cast<std::size_t>(sim::PartDim::p)] = 2;
    EXPECT_EQ(distinct_orders(ph, pw).size(), 2u);
}

workload::Layer conv(std::int64_t k, std::int64_t c, std::int64_t p, std::int64_t q) {
    workload::Layer l;
    l.kind = workload::LayerKind::conv;
    l.K = k;
    l.C = c;
    l.P = l.H = p;
    l.Q = l.W = q;
    return l;
}

// A 1 x 2 region and a layer with K = 2, C = 2, P = Q = 1, B = 1: the two nodes split K or C
// (along the columns; rows are 1), nothing else fits. By hand: count vectors (k = 2) and
// (c = 2), one split each.
TEST(LmEnumeration, RegionSplitsByHand) {
    const RegionSplits s = region_splits(conv(2, 2, 1, 1), 1, 2);
    EXPECT_EQ(s.hs.size(), 1u);  // 1 = 1 x 1 x 1 x 1 x 1
    EXPECT_EQ(s.ws.size(), 5u);  // 2 on any one of five loops
    ASSERT_EQ(s.by_counts.size(), 2u);
    const auto at = [](sim::PartDim d) { return static_cast<std::size_t>(d); };
    for (const auto& [n, pairs] : s.by_counts) {
        ASSERT_EQ(pairs.size(), 1u);
        EXPECT_EQ(n[at(sim::PartDim::k)] * n[at(sim::PartDim::c)], 2);
        sim::LayerMapping m;
        s.apply(pairs[0].first, pairs[0].second, m);
        EXPECT_EQ(m.shape(), (std::pair<std::int32_t, std::int32_t>{1, 2}));
    }
}

// Against brute force on 2 x 4: a (Ph, Pw) pair is listed iff every count Ph * Pw is within
// the layer's partition bound, and under the count vector it produces.
TEST(LmEnumeration, RegionSplitsAreExactlyTheFittingPairs) {
    const workload::Layer l = conv(4, 3, 2, 8);
    const RegionSplits s = region_splits(l, 2, 4);
    const std::array<std::int64_t, sim::kPartDims> bound = partition_bounds(l);
    std::size_t listed = 0;
    for (const auto& [n, pairs] : s.by_counts) listed += pairs.size();
    std::size_t fitting = 0;
    for (std::size_t i = 0; i < s.hs.size(); ++i)
        for (std::size_t j = 0; j < s.ws.size(); ++j) {
            Counts n{};
            bool fits = true;
            for (std::size_t d = 0; d < sim::kPartDims; ++d) {
                n[d] = s.hs[i][d] * s.ws[j][d];
                fits = fits && n[d] <= bound[d];
            }
            if (!fits) continue;
            ++fitting;
            const auto it = s.by_counts.find(n);
            ASSERT_NE(it, s.by_counts.end());
            EXPECT_NE(
                std::find(it->second.begin(), it->second.end(), std::pair<std::size_t, std::size_t>{i, j}),
                it->second.end());
        }
    EXPECT_EQ(listed, fitting);
    EXPECT_GT(fitting, 0u);
}

// C is only split for ungrouped compute layers; most_nodes is the product of the bounds, and
// a region with more nodes has no split at all.
TEST(LmEnumeration, PartitionBoundsAndMostNodes) {
    const auto at = [](sim::PartDim d) { return static_cast<std::size_t>(d); };
    workload::Layer l = conv(4, 3, 2, 8);
    EXPECT_EQ(partition_bounds(l)[at(sim::PartDim::c)], 3);
    EXPECT_EQ(most_nodes(l), 1 * 2 * 8 * 4 * 3);
    l.groups = 3;
    EXPECT_EQ(partition_bounds(l)[at(sim::PartDim::c)], 1);
    EXPECT_EQ(most_nodes(l), 1 * 2 * 8 * 4);
    workload::Layer pool = conv(4, 4, 2, 2);
    pool.kind = workload::LayerKind::pool;
    EXPECT_EQ(partition_bounds(pool)[at(sim::PartDim::c)], 1);
    // 16 nodes fit 2 x 2 x 4 = 16 parts of the pool; 32 do not.
    EXPECT_FALSE(region_splits(pool, 4, 4).by_counts.empty());
    EXPECT_TRUE(region_splits(pool, 4, 8).by_counts.empty());
    EXPECT_EQ(most_nodes(pool), 16);
}

}  // namespace
}  // namespace pimdse::mapper
