#include "pimdse/core/rng.hpp"
#include "pimdse/core/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

namespace pimdse {
namespace {

// Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c, first three outputs).
TEST(SplitMix64, MatchesReferenceOutputs) {
    std::uint64_t state = 0;
    EXPECT_EQ(splitmix64(state), 0xE220A8397B1DCDAFULL);
    EXPECT_EQ(splitmix64(state), 0x6E789E6AA1B965F4ULL);
    EXPECT_EQ(splitmix64(state), 0x06C45D188009454FULL);
}

TEST(Rng, SameSeedAndStreamGiveSameSequence) {
    Rng a(42, 7);
    Rng b(42, 7);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(a(), b());
}

TEST(Rng, DifferentStreamsDiffer) {
    Rng a(42, 0);
    Rng b(42, 1);
    int equal = 0;
    for (int i = 0; i < 1000; ++i) equal += a() == b() ? 1 : 0;
    EXPECT_EQ(equal, 0);
}

TEST(Rng, SplitDoesNotAdvanceParentAndIsReproducible) {
    Rng parent(3, 0);
    Rng c1 = parent.split(11);
    Rng c2 = parent.split(11);
    Rng c3 = parent.split(12);
    Rng fresh(3, 0);
    EXPECT_EQ(parent(), fresh());
    const auto x = c1();
    EXPECT_EQ(x, c2());
    EXPECT_NE(x, c3());
}

TEST(Rng, UniformIntStaysInRangeAndCoversIt) {
    Rng rng(1);
    std::map<std::int64_t, int> counts;
    constexpr int n = 60000;
    for (int i = 0; i < n; ++i) {
        const auto v = rng.uniform_int(-2, 3);
        ASSERT_GE(v, -2);
        ASSERT_LE(v, 3);
        ++counts[v];
    }
    ASSERT_EQ(counts.size(), 6u);
    // Each of 6 values expects 10000 draws; 5 sigma of a binomial is about 456.
    for (const auto& [v, c] : counts) EXPECT_NEAR(c, n / 6, 456) << "value " << v;
}

TEST(Rng, UniformIntDegenerateAndInvalidRanges) {
    Rng rng(1);
    EXPECT_EQ(rng.uniform_int(5, 5), 5);
    EXPECT_THROW((void)rng.uniform_int(5, 4), pimdse::ModelError);
}

TEST(Rng, NormalHasUnitMomentsAndUniformIsHalfOpen) {
    Rng rng(9);
    constexpr int n = 200000;
    double sum = 0;
    double sq = 0;
    for (int i = 0; i < n; ++i) {
        const double z = rng.normal();
        sum += z;
        sq += z * z;
        const double u = rng.uniform01();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
    }
    // Standard errors: mean 1/sqrt(n) = 0.0022, variance sqrt(2/n) = 0.0032; 5 sigma.
    EXPECT_NEAR(sum / n, 0.0, 0.011);
    EXPECT_NEAR(sq / n, 1.0, 0.016);
}

}  // namespace
}  // namespace pimdse
