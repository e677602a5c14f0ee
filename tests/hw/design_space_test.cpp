// Parameter ranges (linear, log2, list) and the design space: values, sizes, membership and
// the index <-> value round trip the tuner's encoding relies on; the default space against
// NicePIM Table II ("about 10^10" points) and the three NicePIM systems.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/legality.hpp"

namespace pimdse::hw {
namespace {

// Every value maps to its index and back; values outside the range have no index.
void expect_round_trip(const ParamRange& r) {
    for (std::size_t i = 0; i < r.size(); ++i) {
        const int v = r.value_at(i);
        ASSERT_TRUE(r.contains(v)) << r.str() << " value " << v;
        ASSERT_EQ(r.index_of(v), i) << r.str() << " value " << v;
        if (i > 0) {
            ASSERT_LT(r.value_at(i - 1), v) << r.str();
        }
    }
    for (int v = r.min() - 3; v <= r.max() + 3; ++v) {
        bool listed = false;
        for (int w : r.values()) listed = listed || w == v;
        ASSERT_EQ(r.contains(v), listed) << r.str() << " value " << v;
    }
    EXPECT_THROW((void)r.value_at(r.size()), pimdse::ModelError);
}

TEST(ParamRange, Linear) {
    const ParamRange r = ParamRange::linear(8, 2048, 8);
    EXPECT_EQ(r.spacing(), Spacing::linear);
    EXPECT_EQ(r.size(), 256u);
    EXPECT_EQ(r.value_at(0), 8);
    EXPECT_EQ(r.value_at(17), 144);  // the 144 KiB weight buffer of VIII-C
    EXPECT_EQ(r.value_at(255), 2048);
    EXPECT_EQ(r.index_of(144), 17u);
    EXPECT_FALSE(r.contains(12));
    EXPECT_FALSE(r.contains(0));
    EXPECT_FALSE(r.contains(2056));
    EXPECT_EQ(r.str(), "linear 8..2048 step 8");
    expect_round_trip(r);
}

TEST(ParamRange, LinearStopsAtTheLastStepNotAboveMax) {
    const ParamRange r = ParamRange::linear(3, 20, 5);
    EXPECT_EQ(r.values(), (std::vector<int>{3, 8, 13, 18}));
    expect_round_trip(r);
    EXPECT_EQ(ParamRange::linear(7, 7, 3).values(), (std::vector<int>{7}));
}

TEST(ParamRange, Log2) {
    const ParamRange r = ParamRange::log2(1, 256);
    EXPECT_EQ(r.size(), 9u);
    EXPECT_EQ(r.values(), (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
    EXPECT_EQ(r.index_of(128), 7u);
    EXPECT_FALSE(r.contains(96));
    EXPECT_EQ(r.str(), "log2 1..256");
    expect_round_trip(r);
}

TEST(ParamRange, Log2KeepsOnlyPowersOfTwoInside) {
    const ParamRange r = ParamRange::log2(3, 100);
    EXPECT_EQ(r.values(), (std::vector<int>{4, 8, 16, 32, 64}));
    EXPECT_EQ(r.min(), 3);  // as given, for printing it back
    EXPECT_EQ(r.max(), 100);
    expect_round_trip(r);
}

TEST(ParamRange, ListIsSortedAscending) {
    const ParamRange r = ParamRange::list({144, 16, 32});
    EXPECT_EQ(r.spacing(), Spacing::list);
    EXPECT_EQ(r.values(), (std::vector<int>{16, 32, 144}));
    EXPECT_EQ(r.min(), 16);
    EXPECT_EQ(r.max(), 144);
    EXPECT_EQ(r.index_of(144), 2u);
    EXPECT_EQ(r.str(), "list 16, 32, 144");
    expect_round_trip(r);
}

TEST(ParamRange, MalformedRangesThrow) {
    EXPECT_THROW((void)ParamRange::linear(8, 4, 1), pimdse::ModelError);
    EXPECT_THROW((void)ParamRange::linear(1, 4, 0), pimdse::ModelError);
    EXPECT_THROW((void)ParamRange::log2(5, 7), pimdse::ModelError);
    EXPECT_THROW((void)ParamRange::list({}), pimdse::ModelError);
    EXPECT_THROW((void)ParamRange::list({4, 8, 4}), pimdse::ModelError);
}

TEST(DesignSpace, DefaultReproducesTableII) {
    const DesignSpace s = default_space(Constraints{});
    EXPECT_EQ(s.dimensions(), kParamCount);
    EXPECT_EQ(s.family(), kDramPimFamily);
    for (Param p : kAllParams) EXPECT_EQ(s.axis(static_cast<std::size_t>(p)).name, param_name(p));
    EXPECT_EQ(range_of(s, Param::node_rows).values(), (std::vector<int>{2, 4, 8, 16}));
    EXPECT_EQ(range_of(s, Param::node_cols).values(), (std::vector<int>{2, 4, 8, 16}));
    EXPECT_EQ(range_of(s, Param::pe_rows), ParamRange::log2(1, 256));
    EXPECT_EQ(range_of(s, Param::pe_cols), ParamRange::log2(1, 256));
    for (Param p : {Param::ibuf_kib, Param::wbuf_kib, Param::obuf_kib}) {
        EXPECT_EQ(range_of(s, p), ParamRange::linear(8, 2048, 8));
    }
    // The clock and the data width: the constraints' one value each.
    EXPECT_EQ(range_of(s, Param::clock_mhz).values(), (std::vector<int>{400}));
    EXPECT_EQ(range_of(s, Param::data_width_bits).values(), (std::vector<int>{16}));
    EXPECT_EQ(s.axis(static_cast<std::size_t>(Param::clock_mhz)).unit, "MHz");
    // 4 * 4 * 9 * 9 * 256^3 * 1 * 1 = 21 743 271 936, exact in a long double.
    EXPECT_EQ(s.size(), 21743271936.0L);
    // Table II: "about 10^10".
    EXPECT_GT(s.size(), 1e9L);
    EXPECT_LT(s.size(), 1e11L);
}

TEST(DesignSpace, DefaultContainsTheThreeNicePimSystems) {
    const DesignSpace s = default_space(Constraints{});
    // A point of the space carries its clock and data width: 400 MHz and 16 bits (VIII-B).
    for (const HardwareParams& p : {HardwareParams{4, 4, 32, 32, 128, 128, 128, 400, 16},   // VIII-D
                                    HardwareParams{16, 16, 8, 8, 8, 8, 8, 400, 16},         // VIII-D
                                    HardwareParams{4, 8, 128, 8, 16, 144, 32, 400, 16}}) {  // VIII-C
        EXPECT_TRUE(s.contains(to_point(p))) << to_string(p);
        const auto index = s.index_of(to_point(p));
        ASSERT_TRUE(index.has_value());
        EXPECT_EQ(from_point(s.at(*index)), p);
    }
    EXPECT_FALSE(s.contains(to_point(HardwareParams{4, 4, 32, 32, 128, 128, 129, 400, 16})));
    EXPECT_FALSE(s.contains(to_point(HardwareParams{4, 4, 24, 32, 128, 128, 128, 400, 16})));
    EXPECT_FALSE(s.contains(to_point(HardwareParams{4, 4, 32, 32, 128, 128, 128, 800, 16})));
    EXPECT_FALSE(s.contains(to_point(HardwareParams{4, 4, 32, 32, 128, 128, 128})));  // unset: not a point
}

TEST(DesignSpace, EveryDefaultNodeArrayIsLegal) {
    // Only divisors are in the default space, so node shapes never make a sample illegal.
    const DesignSpace s = default_space(Constraints{});
    for (int r : range_of(s, Param::node_rows).values()) {
        for (int c : range_of(s, Param::node_cols).values()) {
            EXPECT_TRUE(check(HardwareParams{r, c, 8, 8, 8, 8, 8}, Constraints{}).legal()) << r << "x" << c;
        }
    }
}

TEST(DesignSpace, IndexRoundTripOverASmallSpace) {
    const DesignSpace s = make_space(
        {ParamRange::list({2, 4}), ParamRange::log2(2, 8), ParamRange::linear(1, 7, 3), ParamRange::list({5}),
         ParamRange::log2(16, 16), ParamRange::linear(8, 16, 8), ParamRange::list({9, 3})});
    EXPECT_EQ(s.size(), 2.0L * 3 * 3 * 1 * 1 * 2 * 2);
    std::size_t seen = 0;
    DesignSpace::Index i{};
    for (i[0] = 0; i[0] < 2; ++i[0])
        for (i[1] = 0; i[1] < 3; ++i[1])
            for (i[2] = 0; i[2] < 3; ++i[2])
                for (i[5] = 0; i[5] < 2; ++i[5])
                    for (i[6] = 0; i[6] < 2; ++i[6]) {
                        const DesignPoint p = s.at(i);
                        ASSERT_TRUE(s.contains(p));
                        ASSERT_EQ(s.index_of(p), i);
                        ++seen;
                    }
    EXPECT_EQ(static_cast<long double>(seen), s.size());
    DesignSpace::Index bad{};
    bad[3] = 1;
    EXPECT_THROW((void)s.at(bad), pimdse::ModelError);
}

TEST(DesignSpace, SizeBeyondSixtyFourBits) {
    const ParamRange wide = ParamRange::linear(1, 1 << 20, 1);
    DesignSpace s = default_space(Constraints{});
    for (std::size_t k = 0; k < s.dimensions(); ++k) s.set_range(k, wide);
    EXPECT_NEAR(static_cast<double>(std::log2(s.size())), 180.0, 1e-9);  // 2^(9 x 20) points
}

TEST(DesignSpace, DefaultFollowsTheConstraints) {
    Constraints c;
    c.bank_rows = 12;
    c.node_rows = {1, 12};
    c.pe_rows = {5, 7};     // no power of two: every integer
    c.buffer_kib = {1, 6};  // below the 8 KiB grid: every integer
    const DesignSpace s = default_space(c);
    EXPECT_EQ(range_of(s, Param::node_rows).values(), (std::vector<int>{1, 2, 3, 4, 6, 12}));
    EXPECT_EQ(range_of(s, Param::pe_rows).values(), (std::vector<int>{5, 6, 7}));
    EXPECT_EQ(range_of(s, Param::ibuf_kib).values(), (std::vector<int>{1, 2, 3, 4, 5, 6}));
    c.buffer_kib = {20, 50};
    EXPECT_EQ(default_range(Param::obuf_kib, c).values(), (std::vector<int>{24, 32, 40, 48}));
    c.clock_mhz = 800;
    c.data_width_bits = 8;
    EXPECT_EQ(default_range(Param::clock_mhz, c).values(), (std::vector<int>{800}));
    EXPECT_EQ(default_range(Param::data_width_bits, c).values(), (std::vector<int>{8}));
    c.clock_mhz = 333.5;  // the clock axis holds whole MHz
    EXPECT_THROW((void)default_space(c), pimdse::ModelError);
}

TEST(DesignSpace, PointsRoundTripWithClockAndWidth) {
    const HardwareParams p{4, 4, 32, 32, 128, 128, 128, 800, 8};
    const DesignPoint d = to_point(p);
    EXPECT_EQ(d.size, kParamCount);
    EXPECT_EQ(d[7], 800);
    EXPECT_EQ(d[8], 8);
    EXPECT_EQ(from_point(d), p);
    DesignPoint seven = d;
    seven.size = 7;  // a point of the seven-parameter space of format version 4
    EXPECT_THROW((void)from_point(seven), pimdse::ModelError);
}

}  // namespace
}  // namespace pimdse::hw
