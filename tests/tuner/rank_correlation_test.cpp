// Kendall's tau (Gibbon Eq. 6) on Gibbon's own example and on hand-counted cases: the same
// and the reversed order, ties, and one swapped pair out of four points.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/tuner/rank_correlation.hpp"

namespace pimdse::tuner {
namespace {

TEST(KendallTau, GibbonsExampleRanksAtFourTenths) {
    // 7 concordant and 3 discordant pairs of 10: (7 - 3) / 10. Gibbon prints 0.3999.
    const std::vector<double> truth{0, 0.49, 0.5, 0.51, 1};
    const std::vector<double> predicted{0, 0.51, 0.5, 0.49, 1};
    EXPECT_NEAR(kendall_tau(truth, predicted), 0.4, 1e-15);
}

TEST(KendallTau, OrderReversalTiesAndOneSwap) {
    const std::vector<double> a{1, 2, 3, 4};
    EXPECT_DOUBLE_EQ(kendall_tau(a, std::vector<double>{10, 20, 30, 40}), 1.0);
    EXPECT_DOUBLE_EQ(kendall_tau(a, std::vector<double>{4, 3, 2, 1}), -1.0);
    // One adjacent swap: 5 of 6 pairs agree, one disagrees: 4 / 6.
    EXPECT_DOUBLE_EQ(kendall_tau(a, std::vector<double>{1, 3, 2, 4}), 4.0 / 6.0);
    // A constant prediction ranks nothing: every pair is a tie.
    EXPECT_DOUBLE_EQ(kendall_tau(a, std::vector<double>{5, 5, 5, 5}), 0.0);
    // One tied pair (3 and 4 predicted equal) contributes 0: 5 / 6.
    EXPECT_DOUBLE_EQ(kendall_tau(a, std::vector<double>{1, 2, 3, 3}), 5.0 / 6.0);
}

TEST(KendallTau, RefusesWhatHasNoRanking) {
    EXPECT_THROW((void)kendall_tau(std::vector<double>{1}, std::vector<double>{1}), ModelError);
    EXPECT_THROW((void)kendall_tau(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3}), ModelError);
    EXPECT_THROW((void)kendall_tau(std::vector<double>{1, NAN}, std::vector<double>{1, 2}), ModelError);
}

}  // namespace
}  // namespace pimdse::tuner
