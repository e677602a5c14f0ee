// Register reuse: the analytic buffer reads and register fills of every PE dataflow against
// the cycle-stepping reference (register_reference.hpp) on generated part-layers, tilings and
// unrollings, and on a tiny convolution counted by hand.
#include <gtest/gtest.h>

#include <array>
#include <initializer_list>
#include <string>

#include "pimdse/core/rng.hpp"
#include "pimdse/sim/register_reference.hpp"

namespace pimdse::sim {
namespace {

std::int64_t pick(Rng& rng, std::initializer_list<std::int64_t> v) {
    return *(v.begin() + rng.uniform_int(0, static_cast<std::int64_t>(v.size()) - 1));
}

// A random tile: a power of two below the extent, or the whole extent.
std::int64_t random_tile(Rng& rng, std::int64_t extent) {
    std::int64_t t = 1;
    while (t * 2 < extent && rng.uniform_int(0, 2) > 0) t *= 2;
    return rng.uniform_int(0, 3) == 0 ? extent : t;
}

PartLayer random_layer(Rng& rng, int kind) {
    PartLayer l;
    l.B = pick(rng, {1, 1, 2});
    switch (kind) {
        case 0:  // convolution
            l.K = pick(rng, {3, 8, 12});
            l.C = pick(rng, {2, 5, 8});
            l.R = l.S = pick(rng, {1, 3});
            l.P = pick(rng, {3, 4, 6});
            l.Q = pick(rng, {2, 5});
            break;
        case 1:  // fully connected
            l.K = pick(rng, {6, 16});
            l.C = pick(rng, {7, 12});
            break;
        case 2:  // attention matmul: a second activation operand instead of weights
            l.P = pick(rng, {4, 6});
            l.K = l.P;
            l.C = pick(rng, {3, 8});
            l.has_weights = false;
            break;
        default:  // depthwise
            l.K = pick(rng, {4, 10});
            l.C = 1;
            l.depthwise = true;
            l.R = l.S = 3;
            l.P = l.Q = pick(rng, {3, 5});
            break;
    }
    l.H = l.P + l.R - 1;
    l.W = l.Q + l.S - 1;
    return l;
}

/// A node of 2 or 4 PE rows and 3 or 4 columns.
NodeSpec random_node(Rng& rng) {
    NodeSpec node;
    node.pe_rows = static_cast<std::int32_t>(pick(rng, {2, 4}));
    node.pe_cols = static_cast<std::int32_t>(pick(rng, {3, 4}));
    return node;
}

/// Expects the analytic buffer reads and register fills of tiling `t` to equal the
/// cycle-stepping reference's under each PE dataflow, field by field; returns the dataflows
/// checked.
int expect_reads_equal_reference(const PartLayer& l, const NodeSpec& node, const Tiling& t, std::uint64_t i) {
    int checked = 0;
    for (PeDataflow df :
         {PeDataflow::output_stationary, PeDataflow::weight_stationary, PeDataflow::input_stationary}) {
        const BufferReads a = buffer_reads(l, node, t, df);
        const BufferReads s = simulate_buffer_reads(l, node, t, df);
        const std::string what = "case " + std::to_string(i) + " " + to_string(t) + " " +
                                 std::string(to_string(df)) + " stationary";
        EXPECT_EQ(a.input, s.input) << what;
        EXPECT_EQ(a.weight, s.weight) << what;
        EXPECT_EQ(a.psum, s.psum) << what;
        EXPECT_EQ(a.psum_reads, s.psum_reads) << what;
        EXPECT_EQ(a.input_fills, s.input_fills) << what;
        EXPECT_EQ(a.weight_fills, s.weight_fills) << what;
        EXPECT_EQ(a.psum_fills, s.psum_fills) << what;
        EXPECT_EQ(a.psum_drains, s.psum_drains) << what;
        ++checked;
    }
    return checked;
}

TEST(RegisterReuse, AnalyticReadsEqualTheCycleSteppingReference) {
    constexpr std::array<SpatialUnroll, 6> unrolls{{{LoopDim::K, LoopDim::C},
                                                    {LoopDim::C, LoopDim::K},
                                                    {LoopDim::K, LoopDim::Q},
                                                    {LoopDim::Q, LoopDim::K},
                                                    {LoopDim::P, LoopDim::Q},
                                                    {LoopDim::K, LoopDim::B}}};
    const Rng root(20261125);
    int cases = 0;
    for (std::uint64_t i = 0; i < 48; ++i) {
        Rng rng = root.split(i);
        const PartLayer l = random_layer(rng, static_cast<int>(i % 4));
        const NodeSpec node = random_node(rng);
        Tiling t;
        t.unroll = unrolls[static_cast<std::size_t>(rng.uniform_int(0, 5))];
        for (std::size_t d = 0; d < kFastLoopDims; ++d)  // R and S whole
            t.tile[d] = random_tile(rng, extent(l, static_cast<LoopDim>(d)));
        t.tile[static_cast<std::size_t>(LoopDim::R)] = l.R;
        t.tile[static_cast<std::size_t>(LoopDim::S)] = l.S;
        cases += expect_reads_equal_reference(l, node, t, i);
    }
    EXPECT_EQ(cases, 144);
}

// The same with the kernel tiled too (R and S tiles below the kernel, each with its own empty
// registers, the psums spilled and reloaded between them as between C tiles).
TEST(RegisterReuse, KernelTilesEqualTheCycleSteppingReference) {
    constexpr std::array<SpatialUnroll, 4> unrolls{{{LoopDim::K, LoopDim::C},
                                                    {LoopDim::C, LoopDim::K},
                                                    {LoopDim::K, LoopDim::Q},
                                                    {LoopDim::P, LoopDim::Q}}};
    const Rng root(20261129);
    int split = 0;
    for (std::uint64_t i = 0; i < 32; ++i) {
        Rng rng = root.split(i);
        PartLayer l = random_layer(rng, i % 2 == 0 ? 0 : 3);  // convolutions, dense and depthwise
        l.R = l.S = pick(rng, {3, 5});
        l.stride_h = l.stride_w = static_cast<std::int32_t>(pick(rng, {1, 2}));
        l.H = (l.P - 1) * l.stride_h + l.R;
        l.W = (l.Q - 1) * l.stride_w + l.S;
        const NodeSpec node = random_node(rng);
        Tiling t;
        t.unroll = unrolls[static_cast<std::size_t>(rng.uniform_int(0, 3))];
        for (std::size_t d = 0; d < kLoopDims; ++d)
            t.tile[d] = random_tile(rng, extent(l, static_cast<LoopDim>(d)));
        split += t[LoopDim::R] < l.R || t[LoopDim::S] < l.S ? 1 : 0;
        (void)expect_reads_equal_reference(l, node, t, i);
    }
    EXPECT_GE(split, 16);  // most cases split the kernel, or the test could not fail
}

// A tiny convolution on 2 x 2 PEs, K x C unrolled, one tile: K = C = 2, P = 2, Q = 1, R = 2,
// S = 1; 16 MACs in 4 cycles, lane (k, c) multiplies input (c, p + r) by weight (k, c, r) into
// output (k, p). Counted by hand, cycle by cycle, for each dataflow.
PartLayer tiny_conv() {
    PartLayer l;
    l.K = l.C = l.P = l.R = 2;
    l.H = 3;
    return l;
}

Tiling whole(const PartLayer& l) {
    Tiling t;
    t.unroll = {LoopDim::K, LoopDim::C};
    t.tile = {l.B, l.K, l.C, l.P, l.Q, l.R, l.S};
    return t;
}

NodeSpec two_by_two() {
    NodeSpec n;
    n.pe_rows = n.pe_cols = 2;
    return n;
}

/// The model and the brute-force reference both give the hand count on the tiny convolution.
void expect_hand_count(PeDataflow dataflow, const BufferReads& hand) {
    const PartLayer l = tiny_conv();
    EXPECT_EQ(buffer_reads(l, two_by_two(), whole(l), dataflow), hand);
    EXPECT_EQ(simulate_buffer_reads(l, two_by_two(), whole(l), dataflow), hand);
}

TEST(RegisterReuse, HandCountedOutputStationary) {
    // Cycles (p, r) = (0,0) (0,1) (1,0) (1,1). Psums stay over C and R: every lane loads its
    // output at r = 0 (4 lanes x 2 pixels = 8 drains later), but each of those is the
    // output's first accumulation (both C lanes start it), so no psum is read or filled.
    // Inputs: 2 distinct per cycle (broadcast along K) but all 4 lanes fill: 8 reads, 16
    // fills. Weights: 4 distinct per cycle.
    expect_hand_count(PeDataflow::output_stationary, {.input = 8,
                                                      .weight = 16,
                                                      .psum = 4,
                                                      .psum_reads = 0,
                                                      .input_fills = 16,
                                                      .weight_fills = 16,
                                                      .psum_fills = 0,
                                                      .psum_drains = 8});
}

TEST(RegisterReuse, HandCountedWeightStationary) {
    // Cycles (r, p) = (0,0) (0,1) (1,0) (1,1). Weights load at each r: 2 x 4 = 8 reads and
    // fills. Psums move every cycle: 2 distinct outputs written per cycle (8), 4 lanes drain
    // (16); the r = 0 cycles are the first accumulations, so only the r = 1 cycles read the
    // obuf (2 x 2 = 4) and fill registers (2 x 4 = 8).
    expect_hand_count(PeDataflow::weight_stationary, {.input = 8,
                                                      .weight = 8,
                                                      .psum = 8,
                                                      .psum_reads = 4,
                                                      .input_fills = 16,
                                                      .weight_fills = 8,
                                                      .psum_fills = 8,
                                                      .psum_drains = 16});
}

TEST(RegisterReuse, HandCountedInputStationary) {
    // Cycles (p, r) = (0,0) (0,1) (1,0) (1,1); only K is inner and it is one pass, so the input
    // changes every cycle: 2 distinct reads but 4 fills per cycle (broadcast along K). Psums
    // as for weight stationary: first accumulations at r = 0.
    expect_hand_count(PeDataflow::input_stationary, {.input = 8,
                                                     .weight = 16,
                                                     .psum = 8,
                                                     .psum_reads = 4,
                                                     .input_fills = 16,
                                                     .weight_fills = 16,
                                                     .psum_fills = 8,
                                                     .psum_drains = 16});
}

TEST(RegisterReuse, HandCountedOutputStationaryWithKernelRowTiles) {
    // As HandCountedOutputStationary, with R in two tiles of one row: each R tile starts with
    // empty registers, so every lane loads its output once per R tile (16 drains), each output
    // is written once per R tile (8), and the second tile's accumulations read the obuf (4)
    // and fill the lanes' registers (8). Inputs and weights move every cycle as before.
    const PartLayer l = tiny_conv();
    Tiling t = whole(l);
    t.tile[static_cast<std::size_t>(LoopDim::R)] = 1;
    const BufferReads hand{.input = 8,
                           .weight = 16,
                           .psum = 8,
                           .psum_reads = 4,
                           .input_fills = 16,
                           .weight_fills = 16,
                           .psum_fills = 8,
                           .psum_drains = 16};
    EXPECT_EQ(buffer_reads(l, two_by_two(), t, PeDataflow::output_stationary), hand);
    EXPECT_EQ(simulate_buffer_reads(l, two_by_two(), t, PeDataflow::output_stationary), hand);
}

TEST(RegisterReuse, RegisterBitsCountFillsAndDrains) {
    // The tiny convolution costed by the model: whichever dataflow it picks, its register bits
    // are 16 MACs x (16 + 16 + 32 + 32) plus 16-bit fills and 32-bit psum fills and drains,
    // and the obuf is read only for accumulations after an output's first.
    const PartLayer l = tiny_conv();
    const DataLayout bchw{};
    const IntraNodeCost c = evaluate_tiling(l, two_by_two(), whole(l), bchw, bchw);
    const BufferReads r = buffer_reads(l, two_by_two(), whole(l), c.dataflow);
    EXPECT_EQ(c.register_bits,
              16 * 96 + (r.input_fills + r.weight_fills) * 16 + (r.psum_fills + r.psum_drains) * 32);
    EXPECT_EQ(c.obuf.reads - c.dram[Tensor::output].write_elements, r.psum_reads);
    EXPECT_EQ(c.obuf.writes - c.dram[Tensor::output].read_elements, r.psum);
    // Output stationary is the cheapest in buffer reads here (no obuf reads at all).
    EXPECT_EQ(c.dataflow, PeDataflow::output_stationary);
    EXPECT_EQ(c.register_bits, 16 * 96 + 32 * 16 + 8 * 32);
}

}  // namespace
}  // namespace pimdse::sim
