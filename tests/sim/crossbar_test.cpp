// Layers on ReRAM crossbars against hand-counted cases (Gibbon IV-B's word-line example,
// a 64-channel 3x3 layer on 128 x 128 crossbars, groups, DAC cycles, sub-vectors) and the
// ADC-deficit proxy at 128 activated rows.

#include <gtest/gtest.h>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/crossbar.hpp"

namespace pimdse::sim {
namespace {

workload::Layer conv(std::int64_t c, std::int64_t k, std::int64_t r, std::int64_t groups = 1) {
    workload::Layer l;
    l.name = "conv";
    l.kind = workload::LayerKind::conv;
    l.C = c, l.K = k, l.R = l.S = r, l.groups = groups;
    l.H = l.W = l.P = l.Q = 8;
    return l;
}

TEST(Crossbar, GibbonsWordLineExample) {
    // 16 channels of 2 x 2 kernels and 64 channels of 1 x 1 both take 64 word lines.
    const CrossbarConfig c;
    EXPECT_EQ(map_to_crossbars(conv(16, 32, 2), c).rows, 64);
    EXPECT_EQ(map_to_crossbars(conv(64, 32, 1), c).rows, 64);
}

TEST(Crossbar, SixtyFourChannelsOfThreeByThree) {
    // Rows 64 x 9 = 576 -> 5 crossbars down; columns 64 filters x 9 one-bit cells x 2
    // polarities = 1152 -> 9 across: 45 crossbars of 128 x 128.
    CrossbarConfig c;
    c.size = 128, c.cell_bits = 1, c.weight_bits = 9, c.polarity = 2;
    const CrossbarMapping m = map_to_crossbars(conv(64, 64, 3), c);
    EXPECT_EQ(m.rows, 576);
    EXPECT_EQ(m.columns, 1152);
    EXPECT_EQ(m.row_blocks, 5);
    EXPECT_EQ(m.column_blocks, 9);
    EXPECT_EQ(m.crossbars, 45);
    // Two-bit cells halve the cells of a weight: ceil(9 / 2) = 5 columns per weight sign.
    c.cell_bits = 2;
    EXPECT_EQ(map_to_crossbars(conv(64, 64, 3), c).columns, 64 * 5 * 2);
}

TEST(Crossbar, TwoGroupsHalveTheRows) {
    CrossbarConfig c;
    c.weight_bits = 9;
    const CrossbarMapping one = map_to_crossbars(conv(64, 64, 3, 1), c);
    const CrossbarMapping two = map_to_crossbars(conv(64, 64, 3, 2), c);
    EXPECT_EQ(two.rows * 2, one.rows);
    EXPECT_EQ(two.columns * 2, one.columns);
    // Each group: 288 rows -> 3 down, 576 columns -> 5 across; two groups: 30 crossbars.
    EXPECT_EQ(two.crossbars, 2 * 3 * 5);
}

TEST(Crossbar, InputCyclesAndSubvectors) {
    CrossbarConfig c;
    c.activation_bits = 9, c.dac_bits = 2;
    c.active_wordlines = 32;
    const CrossbarMapping m = map_to_crossbars(conv(64, 64, 3), c);
    EXPECT_EQ(m.input_cycles, 5);  // ceil(9 / 2)
    EXPECT_EQ(m.subvectors, 4);    // 128 rows used of 576, 32 at once
    // A layer with fewer rows than the crossbar uses only those: 64 rows, 2 sub-vectors.
    EXPECT_EQ(map_to_crossbars(conv(64, 64, 1), c).subvectors, 2);
}

TEST(Crossbar, AdcDeficitProxyAtOneHundredTwentyEightRows) {
    // 128 rows of 1-bit cells read with 1-bit DACs: sums 0..128 need ceil(log2 129) = 8 bits.
    CrossbarConfig c;
    c.size = 128, c.cell_bits = 1, c.dac_bits = 1;
    const CrossbarMapping m = map_to_crossbars(conv(64, 64, 3), c);
    EXPECT_EQ(m.adc_bits_needed, 8);
    for (const auto& [bits, deficit] : {std::pair{6, 2}, std::pair{8, 0}, std::pair{10, 0}}) {
        c.adc_bits = bits;
        EXPECT_EQ(adc_deficit(m, c), deficit) << bits << "-bit ADC";
    }
    // Two-bit cells and DACs: 128 x 3 x 3 + 1 = 1153 levels, 11 bits.
    c.cell_bits = 2, c.dac_bits = 2;
    EXPECT_EQ(map_to_crossbars(conv(64, 64, 3), c).adc_bits_needed, 11);
}

TEST(Crossbar, RefusesWhatCannotBeMapped) {
    CrossbarConfig c;
    c.polarity = 3;
    EXPECT_THROW((void)map_to_crossbars(conv(64, 64, 3), c), ModelError);
    c = CrossbarConfig{};
    c.cell_bits = 17;
    EXPECT_THROW((void)map_to_crossbars(conv(64, 64, 3), c), ModelError);
    workload::Layer pool = conv(64, 64, 3);
    pool.kind = workload::LayerKind::pool;
    EXPECT_THROW((void)map_to_crossbars(pool, CrossbarConfig{}), ModelError);
}

}  // namespace
}  // namespace pimdse::sim
