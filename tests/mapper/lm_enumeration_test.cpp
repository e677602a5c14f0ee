#include "pimdse/mapper/lm_enumeration.hpp"

#include <gtest/gtest.h>

#include <array>
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

}  // namespace
}  // namespace pimdse::mapper
