// The encoding (log scale of each value, normalised to [0, 1]) against hand-computed
// coordinates, its round trip, and the legal sampler: legal, distinct, unseen, uniform,
// deterministic, and exhaustive on a space small enough to run out.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <stdexcept>

#include "dram_pim_points.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/tuner/encoding.hpp"

namespace pimdse::tuner {
namespace {

using hw::HardwareParams;

TEST(Encoding, HandComputedCoordinates) {
    const hw::Constraints c;
    const Encoding e(hw::default_space(c));
    const Unit u = e.encode(pt(HardwareParams{4, 16, 1, 16, 8, 128, 2048, 400, 16}));
    EXPECT_DOUBLE_EQ(u[0], 1.0 / 3.0);  // {2, 4, 8, 16}
    EXPECT_DOUBLE_EQ(u[1], 1.0);
    EXPECT_DOUBLE_EQ(u[2], 0.0);  // {1, ..., 256}
    EXPECT_DOUBLE_EQ(u[3], 0.5);
    EXPECT_DOUBLE_EQ(u[4], 0.0);                                 // 8..2048 KiB
    EXPECT_NEAR(u[5], std::log(16.0) / std::log(256.0), 1e-15);  // 128 KiB = 8 * 16
    EXPECT_DOUBLE_EQ(u[6], 1.0);
    EXPECT_EQ(u[7], 0.0);  // the one clock and data width
    EXPECT_EQ(u[8], 0.0);
    EXPECT_THROW((void)e.encode(pt(HardwareParams{3, 4, 1, 1, 8, 8, 8})), pimdse::ModelError);
}

TEST(Encoding, RoundTripAndNearestDecode) {
    const hw::Constraints c;
    const DesignSpace space = hw::default_space(c);
    const Encoding e(space);
    Rng rng(3, 4);
    for (int i = 0; i < 2000; ++i) {
        DesignSpace::Index idx{};
        for (std::size_t k = 0; k < space.dimensions(); ++k) {
            idx[k] = static_cast<std::size_t>(
                rng.uniform_int(0, static_cast<std::int64_t>(space.range(k).size()) - 1));
        }
        const DesignPoint p = space.at(idx);
        ASSERT_EQ(e.decode(e.encode(p)), p);
    }
    // Clamped outside the cube; between 16 and 24 KiB the nearest on the log scale.
    Unit u{-1, 2, 0.5, 0.5, 0, 0, 0};
    const double lo = std::log(8.0), span = std::log(2048.0) - lo;
    u[4] = (std::log(19.0) - lo) / span;  // log midpoint of 16 and 24 is sqrt(384) = 19.6
    u[5] = (std::log(20.0) - lo) / span;
    const HardwareParams d = hw::from_point(e.decode(u));
    EXPECT_EQ(d.node_rows, 2);
    EXPECT_EQ(d.node_cols, 16);
    EXPECT_EQ(d.pe_rows, 16);
    EXPECT_EQ(d.ibuf_kib, 16);
    EXPECT_EQ(d.wbuf_kib, 24);
}

TEST(LegalSampler, LegalDistinctUnseenAndDeterministic) {
    const hw::Constraints c;
    const LegalSampler s(hw::default_space(c), dram_pim_legality(c));
    Rng first(5, 6);
    const std::vector<DesignPoint> a = s.sample(first, 300, {});
    ASSERT_EQ(a.size(), 300u);
    const PointSet exclude(a.begin(), a.begin() + 150);
    Rng again(5, 6);
    EXPECT_EQ(s.sample(again, 300, {}), a);
    Rng other(5, 7);
    const std::vector<DesignPoint> b = s.sample(other, 300, exclude);
    ASSERT_EQ(b.size(), 300u);
    PointSet seen;
    for (const DesignPoint& p : b) {
        EXPECT_TRUE(hw::check(hw::from_point(p), c).legal()) << to_string(p);
        EXPECT_FALSE(exclude.contains(p));
        EXPECT_TRUE(seen.insert(p).second);
    }
}

// A space of 2*2*3*3*2*2*2 = 288 points, of which a small area budget leaves part legal.
DesignSpace small_space() {
    return hw::make_space({ParamRange::list({2, 4}), ParamRange::list({2, 4}), ParamRange::log2(8, 32),
                           ParamRange::log2(8, 32), ParamRange::list({8, 64}), ParamRange::list({8, 64}),
                           ParamRange::list({8, 64})});
}

hw::Constraints small_budget() {
    hw::Constraints c;
    c.area_budget = SquareMillimetres{4.0};
    return c;
}

TEST(LegalSampler, UniformOverLegalPoints) {
    const hw::Constraints c = small_budget();
    const LegalSampler s(small_space(), dram_pim_legality(c));
    const std::vector<DesignPoint> legal = s.enumerate();
    ASSERT_GT(legal.size(), 10u);
    ASSERT_LT(legal.size(), 288u);  // the budget bites
    std::map<std::size_t, int> counts;
    PointSet legal_set(legal.begin(), legal.end());
    Rng rng(9, 9);
    const int draws = 400 * static_cast<int>(legal.size());
    for (int i = 0; i < draws; ++i) {
        const auto p = s.draw(rng, 100000);
        ASSERT_TRUE(p.has_value());
        ASSERT_TRUE(legal_set.contains(*p));
        ++counts[std::hash<DesignPoint>{}(*p)];
    }
    EXPECT_EQ(counts.size(), legal.size());
    for (const auto& [h, n] : counts) {
        EXPECT_GT(n, 400 * 0.7);  // 400 expected each; sd 20
        EXPECT_LT(n, 400 * 1.3);
    }
}

TEST(LegalSampler, ExhaustsASmallSpace) {
    const hw::Constraints c = small_budget();
    const LegalSampler s(small_space(), dram_pim_legality(c));
    const std::vector<DesignPoint> legal = s.enumerate();
    for (const DesignPoint& p : legal) ASSERT_TRUE(hw::check(hw::from_point(p), c).legal());
    const PointSet exclude(legal.begin(), legal.begin() + 3);
    Rng rng(1, 2);
    // Few attempts per point: the enumeration fills in what rejection missed.
    const std::vector<DesignPoint> got = s.sample(rng, 10000, exclude, 1);
    ASSERT_EQ(got.size(), legal.size() - 3);
    const PointSet got_set(got.begin(), got.end());
    EXPECT_EQ(got_set.size(), got.size());
    for (const DesignPoint& p : legal) EXPECT_EQ(got_set.contains(p), !exclude.contains(p));
}

}  // namespace
}  // namespace pimdse::tuner
