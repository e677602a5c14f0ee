// The row-aligned layout RA[bh x bw] (PIM Optimizer 8.1.1, Eq. 52-56): its spelling, its
// addresses by hand, a fetch by hand, and the analytic DRAM model against the trace and the
// command-level reference on the generated suite with RA layouts. The tables printed by
// RowAlignedValidation.* are the ones in docs/model.md ("DRAM", row-aligned layout).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dram_suite.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/dram.hpp"
#include "pimdse/sim/dram_reference.hpp"

namespace pimdse::sim {
namespace {

using namespace dram_suite;  // NOLINT(google-build-using-namespace): the suite is this file's

constexpr DataLayout ra(std::int32_t bh, std::int32_t bw) {
    return {LayoutOrder::row_aligned, 1, bh, bw};
}

TEST(RowAlignedLayout, PrintsAndParses) {
    EXPECT_EQ(to_string(ra(16, 64)), "RA[16x64]");
    for (DataLayout l : {ra(1, 1), ra(16, 64), ra(128, 8), ra(1, 1024)})
        EXPECT_EQ(parse_data_layout(to_string(l)), l) << to_string(l);
    for (const char* bad : {"RA", "RA[]", "RA[16]", "RA[3x4]", "RA[4x0]", "RA[16x64", "RA[x4]", "RA[4x4]x",
                            "RA[2048x1024]", "RA[C8]"})
        EXPECT_FALSE(parse_data_layout(bad).has_value()) << bad;
    EXPECT_FALSE(is_valid(DataLayout{LayoutOrder::row_aligned, 2, 4, 4}));  // no channel groups
    EXPECT_FALSE(is_valid(DataLayout{LayoutOrder::bchw, 1, 4, 4}));         // a block only for RA
    // The same order with another block is another layout (memo keys tell them apart).
    EXPECT_NE(ra(16, 64), ra(64, 16));
    EXPECT_NE(hash_value(ra(16, 64)), hash_value(ra(64, 16)));
}

TEST(RowAlignedLayout, OffsetsFollowEq52To56) {
    // 2 x 3 x 5 x 6 in 2 x 4 blocks: 3 block rows x 2 block columns of 8 elements per
    // channel, the last row and column of blocks padded: stride_c = 48 (Eq. 53).
    const TensorDims d{2, 3, 5, 6};
    const DataLayout l = ra(2, 4);
    EXPECT_EQ(blocks_h(d, l), 3);
    EXPECT_EQ(blocks_w(d, l), 2);
    EXPECT_EQ(channel_stride(d, l), 48);
    EXPECT_EQ(stored_elements(d, l), 2 * 3 * 48);
    EXPECT_EQ(element_offset(d, l, 0, 0, 0, 3), 3);    // inside block (0, 0)
    EXPECT_EQ(element_offset(d, l, 0, 0, 1, 0), 4);    // its second row (Eq. 55)
    EXPECT_EQ(element_offset(d, l, 0, 0, 0, 4), 8);    // block (0, 1) (Eq. 54)
    EXPECT_EQ(element_offset(d, l, 0, 0, 2, 0), 16);   // block (1, 0)
    EXPECT_EQ(element_offset(d, l, 0, 0, 4, 5), 41);   // block (2, 1), row 0, column 1
    EXPECT_EQ(element_offset(d, l, 0, 1, 0, 0), 48);   // the next channel (Eq. 53)
    EXPECT_EQ(element_offset(d, l, 1, 0, 0, 0), 144);  // the next image
}

TEST(RowAlignedLayout, BlockRuleFillsOneRow) {
    EXPECT_EQ(row_aligned_for(224, 1024), ra(32, 32));
    EXPECT_EQ(row_aligned_for(224, 2048), ra(32, 64));
    EXPECT_EQ(row_aligned_for(14, 1024), ra(64, 16));  // narrowed to the map's width
    EXPECT_EQ(row_aligned_for(7, 1024), ra(128, 8));
    EXPECT_EQ(row_aligned_for(1, 1024), ra(1024, 1));
    EXPECT_EQ(row_aligned_for(4096, 8), ra(2, 4));
}

// A 6 x 6 window at (3, 5) of one channel of a 16 x 16 map in 4 x 8 blocks of one
// 32-element row, 4 elements per access. Its H range cuts into rows [3, 4), [4, 8), [8, 9) of
// three block rows and its W range into columns [5, 8) and [8, 11) of two block columns: 6
// blocks, 6 rows. Each image row's part in a block is one run of 3 inside one word (in-block
// offsets 8 r + 5 .. 8 r + 7, or 8 r .. 8 r + 2): 6 image rows x 2 blocks = 12 accesses.
TEST(RowAlignedModel, HandComputedFetch) {
    const TensorDims d{1, 2, 16, 16};
    const DramGeometry g{4, 32};
    TensorBox window;
    window.nc = 1;
    window.h0 = 3;
    window.nh = 6;
    window.w0 = 5;
    window.nw = 6;
    const FetchCount expected{12, 6};
    EXPECT_EQ(simulate_box_fetch(d, ra(4, 8), window, g), expected);
    EXPECT_EQ(box_fetch(d, ra(4, 8), window, g), expected);
    // In BCHW the same window is 6 runs of 6 at offsets 16 h + 5 (two words each: 12 accesses)
    // over rows of two image rows: h = 3 | 4, 5 | 6, 7 | 8, 4 rows.
    EXPECT_EQ(simulate_box_fetch(d, kBCHW, window, g), (FetchCount{12, 4}));
}

// The generated suite with every activation tensor in RA: the mapper's block for the
// tensor's width (one DRAM row at the data width), or a narrow one of the same row (8 or 16
// wide: many blocks per tile, crossings at every step), or one of two rows.
std::vector<Case> row_aligned_suite() {
    std::vector<Case> suite = validation_suite();
    const Rng root(20261128);
    for (std::size_t i = 0; i < suite.size(); ++i) {
        Case& c = suite[i];
        Rng rng = root.split(i);
        const std::int64_t row = geometry(c.node, c.layer.data_bits).elements_per_row;
        const auto draw = [&](std::int64_t width) {
            const std::int64_t kind = rng.uniform_int(0, 3);
            if (kind <= 1) return row_aligned_for(width, row);
            if (kind == 2) {
                const auto bw = static_cast<std::int32_t>(pick(rng, {8, 16}));
                return ra(static_cast<std::int32_t>(row / bw), bw);
            }
            const DataLayout l = row_aligned_for(width, row);
            return ra(l.block_h * 2, l.block_w);
        };
        c.in = draw(c.layer.has_weights ? c.layer.W : 1);
        c.out = draw(c.layer.Q);
        if (i % 8 == 7) c.tiling = AnalyticIntraNodeMapper::search(c.layer, c.node, c.in, c.out).tiling;
        c.name += " RA";
    }
    return suite;
}

// The same check and bounds as DramValidation.AnalyticMatchesTrace, on RA.
TEST(RowAlignedValidation, AnalyticMatchesTrace) {
    const std::vector<Case> suite = row_aligned_suite();
    ASSERT_GE(suite.size(), 100U);
    expect_analytic_matches_trace(suite, "RA");
}

// The analytic DRAM time against the command-level reference (averaged over the refresh
// phase) on the RA suite, as DramTiming.TimingWithinTwoPercentOfCommandReference on the
// sequential layouts: every case within 2 %.
TEST(RowAlignedValidation, TimingWithinTwoPercentOfCommandReference) {
    const std::vector<Case> suite = row_aligned_suite();
    const double refi = 3900.0 * 0.4, rfc = 260.0 * 0.4;  // ns x 400 MHz
    int within = 0;
    double sum = 0, worst = 0;
    for (const Case& c : suite) {
        const AveragedReference k = averaged_reference(c, refi, rfc);
        const double a = dram_traffic(c.layer, c.node, c.tiling, c.in, c.out).cycles(c.node).value();
        const double e = rel(a, k.cycles);
        within += std::abs(e) <= 0.02 ? 1 : 0;
        sum += std::abs(e);
        worst = std::max(worst, std::abs(e));
        EXPECT_LE(std::abs(e), 0.02) << c.name << ": " << a << " against " << k.cycles;
    }
    const auto n = static_cast<int>(suite.size());
    std::printf("RA analytic time: mean |error| %.2f%%, max %.2f%%, %d of %d within 2%%\n", 100 * sum / n,
                100 * worst, within, n);
    EXPECT_EQ(within, n);
}

}  // namespace
}  // namespace pimdse::sim
