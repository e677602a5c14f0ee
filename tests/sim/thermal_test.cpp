// The 3-D stack's thermal model (sim/thermal.hpp): HuNT Eq. 8 and the full 1-D solution on 2-
// and 4-tier stacks computed by hand, their relation on generated stacks, the layer stack's
// resistances from HotSpot's defaults, and the base resistance's calibration.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/thermal.hpp"

namespace pimdse::sim {
namespace {

ThermalStack two_tiers() {
    return {{1.0, 2.0}, 0.5, 1.0, 300.0};
}
ThermalStack four_tiers() {
    return {{1.0, 2.0, 3.0, 4.0}, 0.5, 1.0, 300.0};
}

void expect_all_near(const std::vector<double>& got, const std::vector<double>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-9) << "tier t" << i + 1;
}

TEST(Thermal, TwoTiersByHand) {
    const std::vector<double> p{3.0, 4.0};
    // Full: t1 = 300 + R1 (P1 + P2) + Rb (P1 + P2) = 300 + 7 + 3.5; t2 = t1 + R2 P2 = 310.5 + 8.
    expect_all_near(stack_temperatures(two_tiers(), p), {310.5, 318.5});
    // Eq. 8: t1 = 300 + P1 R1 + Rb P1 = 304.5; t2 = 300 + P1 R1 + P2 (R1 + R2) + Rb (P1 + P2)
    // = 300 + 3 + 12 + 3.5 = 318.5.
    expect_all_near(eq8_temperatures(two_tiers(), p), {304.5, 318.5});
}

TEST(Thermal, FourTiersByHand) {
    const std::vector<double> p{1.0, 2.0, 3.0, 4.0};
    // Full: powers at and above v are 10, 9, 7, 4; base rise 0.5 x 10 = 5;
    // t1 = 300 + 5 + 1 x 10 = 315, t2 = 315 + 2 x 9 = 333, t3 = 333 + 3 x 7 = 354, t4 = 354 + 4 x 4.
    expect_all_near(stack_temperatures(four_tiers(), p), {315.0, 333.0, 354.0, 370.0});
    // Eq. 8: cumulative R 1, 3, 6, 10; powers at and below z 1, 3, 6, 10;
    // t1 = 300 + 1 x 1 + 0.5 x 1 = 301.5; t2 = 300 + (1 + 2 x 3) + 0.5 x 3 = 308.5;
    // t3 = 300 + (7 + 3 x 6) + 0.5 x 6 = 328; t4 = 300 + (25 + 4 x 10) + 0.5 x 10 = 370.
    expect_all_near(eq8_temperatures(four_tiers(), p), {301.5, 308.5, 328.0, 370.0});
    EXPECT_DOUBLE_EQ(peak_temperature(four_tiers(), p), 370.0);
}

TEST(Thermal, LateralFactorScalesTheRiseOnly) {
    ThermalStack s = four_tiers();
    s.lateral_factor = 0.5;
    // Half of each rise above the 300 K ambient of FourTiersByHand.
    expect_all_near(stack_temperatures(s, std::vector<double>{1, 2, 3, 4}), {307.5, 316.5, 327.0, 335.0});
    expect_all_near(eq8_temperatures(s, std::vector<double>{1, 2, 3, 4}), {300.75, 304.25, 314.0, 335.0});
}

TEST(Thermal, Eq8EqualsTheFullFormAtTheTopAndIsBelowItBeneath) {
    std::mt19937_64 rng(29);
    std::uniform_real_distribution<double> r(0.1, 5.0);
    std::uniform_real_distribution<double> w(0.01, 3.0);
    for (int trial = 0; trial < 200; ++trial) {
        const int tiers = 1 + trial % 7;
        ThermalStack s;
        for (int v = 0; v < tiers; ++v) s.tier_resistance_k_per_w.push_back(r(rng));
        s.base_resistance_k_per_w = r(rng);
        s.lateral_factor = 0.5 + 0.5 * (trial % 2);
        std::vector<double> p;
        for (int u = 0; u < tiers; ++u) p.push_back(w(rng));
        const std::vector<double> eq8 = eq8_temperatures(s, p);
        const std::vector<double> full = stack_temperatures(s, p);
        EXPECT_NEAR(eq8.back(), full.back(), 1e-9 * full.back());
        for (int z = 0; z + 1 < tiers; ++z)
            EXPECT_LT(eq8[z], full[z]) << "trial " << trial << " tier t" << z + 1;
        for (int z = 0; z + 1 < tiers; ++z) EXPECT_LT(full[z], full[z + 1]);
        EXPECT_DOUBLE_EQ(peak_temperature(s, p), full.back());
    }
}

TEST(Thermal, Eq8EqualsTheFullFormWhenNothingAboveIsHot) {
    // Only t1 dissipates: no heat comes from above, so the two forms agree at every tier.
    const std::vector<double> p{5.0, 0.0, 0.0, 0.0};
    expect_all_near(eq8_temperatures(four_tiers(), p), stack_temperatures(four_tiers(), p));
}

TEST(Thermal, HotSpotLayerStackResistancesByHand) {
    const LayerStack layers = hotspot_layer_stack(1.6, 16);  // a HuNT PE: 4 tiles of 0.40 mm²
    const ThermalStack s = thermal_stack(layers, 4);
    // Silicon 0.01 m·K/W x 150 µm / 1.6 mm² = 0.9375 K/W; bond 0.25 x 20 µm / 1.6 mm² = 3.125 K/W.
    expect_all_near(s.tier_resistance_k_per_w, {0.9375, 4.0625, 4.0625, 4.0625});
    // Interface 3.125 K/W + 16 x (1 mm / (400 x 0.03²) + 6.9 mm / (400 x 0.06²) + 0.1) K/W.
    const double shared = 0.001 / (400 * 0.0009) + 0.0069 / (400 * 0.0036) + 0.1;
    EXPECT_NEAR(s.base_resistance_k_per_w, 3.125 + 16 * shared, 1e-12);
    EXPECT_NEAR(s.base_resistance_k_per_w, 4.846111, 1e-6);
    EXPECT_DOUBLE_EQ(s.ambient_k, 300.0);
    EXPECT_DOUBLE_EQ(s.lateral_factor, 1.0);
}

TEST(Thermal, CalibrationRoundTrips) {
    // FourTiersByHand peaks at 370 K with R_b = 0.5: calibrating to 370 K gives 0.5 back.
    const std::vector<std::vector<double>> one{{1.0, 2.0, 3.0, 4.0}};
    EXPECT_NEAR(calibrate_base_resistance(four_tiers(), one, 370.0), 0.5, 1e-12);
    // A target of 380 K: R_b = (80 - 65) / 10 = 1.5 K/W by hand, and the stack then peaks there.
    ThermalStack s = four_tiers();
    s.base_resistance_k_per_w = calibrate_base_resistance(s, one, 380.0);
    EXPECT_NEAR(s.base_resistance_k_per_w, 1.5, 1e-12);
    EXPECT_NEAR(peak_temperature(s, one[0]), 380.0, 1e-9);
    EXPECT_NEAR(eq8_temperatures(s, one[0]).back(), 380.0, 1e-9);
}

TEST(Thermal, CalibrationOverSeveralStacksHitsTheHottest) {
    ThermalStack s = thermal_stack(hotspot_layer_stack(1.6, 16), 4);
    s.lateral_factor = 0.8;
    const std::vector<std::vector<double>> stacks{{0.5, 0.6, 0.7, 0.8}, {0.9, 0.2, 1.1, 0.3}, {0, 0, 0, 0}};
    s.base_resistance_k_per_w = calibrate_base_resistance(s, stacks, 380.0);
    double hottest = 0;
    for (const auto& p : stacks) hottest = std::max(hottest, peak_temperature(s, p));
    EXPECT_NEAR(hottest, 380.0, 1e-9);
}

TEST(Thermal, CalibrationRefusesWhatItCannotReach) {
    const std::vector<std::vector<double>> one{{1.0, 2.0, 3.0, 4.0}};
    // With R_b = 0 the stack already peaks at 365 K.
    EXPECT_THROW((void)calibrate_base_resistance(four_tiers(), one, 360.0), ModelError);
    EXPECT_NO_THROW((void)calibrate_base_resistance(four_tiers(), one, 365.0));
    const std::vector<std::vector<double>> cold{{0.0, 0.0, 0.0, 0.0}};
    EXPECT_THROW((void)calibrate_base_resistance(four_tiers(), cold, 380.0), ModelError);
}

TEST(Thermal, BadPowersAreModelErrors) {
    EXPECT_THROW((void)stack_temperatures(four_tiers(), std::vector<double>{1.0, 2.0}), ModelError);
    EXPECT_THROW((void)eq8_temperatures(two_tiers(), std::vector<double>{1.0, -2.0}), ModelError);
    EXPECT_THROW((void)thermal_stack(hotspot_layer_stack(1.6, 16), 0), ModelError);
    EXPECT_THROW((void)hotspot_layer_stack(0.0, 16), ModelError);
}

}  // namespace
}  // namespace pimdse::sim
