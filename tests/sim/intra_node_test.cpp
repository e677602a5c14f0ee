// The intra-node mapper: hand-computed cycle and traffic counts, buffer capacity on a
// generated suite, memoisation.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/sim/dram_reference.hpp"
#include "pimdse/sim/intra_node.hpp"

namespace pimdse::sim {
namespace {

constexpr DataLayout kBCHW{LayoutOrder::bchw, 1};
constexpr DataLayout kBHWC{LayoutOrder::bhwc, 1};

PartLayer conv(std::int64_t K, std::int64_t C, std::int64_t PQ, std::int64_t RS, std::int32_t stride = 1) {
    return PartLayer::convolution(K, C, PQ, PQ, RS, stride);
}

// NicePIM's 4 x 4 system node: 32 x 32 PEs, 128 KiB buffers, 16 banks.
NodeSpec big_node() {
    return NodeSpec::with_banks(32, 32, 128, 16);
}

TEST(IntraNode, PointwiseConvMatchingThePeArrayIsFullyUtilised) {
    // K = C = 32 on a 32 x 32 array: every cycle does 1024 MACs, so cycles = MACs / 1024.
    const PartLayer l = conv(32, 32, 56, 1);
    const NodeSpec node = big_node();
    Tiling t;
    t.unroll = {LoopDim::K, LoopDim::C};
    t.tile = {1, 32, 32, 8, 56, l.R, l.S};
    const IntraNodeCost c = evaluate_tiling(l, node, t, kBCHW, kBCHW);
    EXPECT_EQ(c.compute_cycles.value(), static_cast<double>(l.macs() / 1024));
    EXPECT_DOUBLE_EQ(c.pe_utilisation, 1.0);
    // The mapper finds the same unrolling. The layer is DRAM-bound here (1800 accesses,
    // each 448-element channel row of the input straddling 4-5 port words, plus ~180 row
    // activations), so the total is the DRAM time.
    const IntraNodeCost m = AnalyticIntraNodeMapper::search(l, node, kBCHW, kBCHW);
    ASSERT_EQ(m.status, MapStatus::ok);
    EXPECT_EQ(m.compute_cycles.value(), 3136.0);
    EXPECT_EQ(m.total_cycles, std::max(m.compute_cycles, m.dram_cycles));
    EXPECT_DOUBLE_EQ(m.pe_utilisation, 1.0);
}

TEST(IntraNode, PeRegistersKeepTheCheapestOperandStationary) {
    // 1x1 conv K = C = 32, 56 x 56 pixels, K x C on the 32 x 32 PEs, 8-row P tiles (7 tiles).
    // Without registers every cycle reads 32 x 32 weights: 32 x 32 x 56 x 56 = 3,211,264 wbuf
    // reads. Weight stationary keeps each weight in its PE over a tile's B, P, Q loops, so it
    // is read once per tile: 32 x 32 x 7 = 7168. The input (broadcast along K) and the psums
    // (reduced along C by the adder tree) are read 32 x 56 x 56 = 100,352 times either way,
    // so weight stationary is the cheapest of the three dataflows.
    const PartLayer l = conv(32, 32, 56, 1);
    const NodeSpec node = big_node();
    Tiling t;
    t.unroll = {LoopDim::K, LoopDim::C};
    t.tile = {1, 32, 32, 8, 56, l.R, l.S};
    const IntraNodeCost c = evaluate_tiling(l, node, t, kBCHW, kBCHW);
    EXPECT_EQ(c.dataflow, PeDataflow::weight_stationary);
    EXPECT_EQ(c.wbuf.reads, 32 * 32 * 7);
    EXPECT_EQ(c.ibuf.reads, 32 * 56 * 56);
    // C is one pass of the PE columns, so each output gets one accumulation, its first: the
    // obuf is written 32 x 56 x 56 times and never read back for it.
    EXPECT_EQ(c.obuf.writes - c.dram[Tensor::output].read_elements, 32 * 56 * 56);
    EXPECT_EQ(c.obuf.reads - c.dram[Tensor::output].write_elements, 0);
    // Registers: per MAC an input, a weight and a psum read plus a psum write (16 + 16 + 32 +
    // 32 bits); every PE fills its input register per MAC (not stationary) and its weight
    // register per weight load (here one per weight read: K and C are both unrolled), and
    // drains its psum per MAC, never filling it (every accumulation is a first).
    EXPECT_EQ(c.register_bits, l.macs() * 96 + (l.macs() + c.wbuf.reads) * 16 + l.macs() * 32);
    EXPECT_EQ(c.compute_cycles.value(), static_cast<double>(l.macs() / 1024));  // unchanged by registers
}

TEST(IntraNode, OutputStationaryDropsTheKernelLoopsFromPsumTraffic) {
    // A 3x3 conv with few pixels and K x C unrolled: psums stay in the PE over C, R, S. With
    // C in one tile the obuf sees each output once per tile of C: K x P x Q = 32 x 4 x 4.
    const PartLayer l = conv(32, 32, 4, 3);
    const NodeSpec node = big_node();
    Tiling t;
    t.unroll = {LoopDim::K, LoopDim::C};
    t.tile = {1, 32, 32, 4, 4, l.R, l.S};
    const IntraNodeCost c = evaluate_tiling(l, node, t, kBCHW, kBCHW);
    // Without reuse: every one of the 9 x 16 cycles touches 32 psums (and 1024 weights);
    // weight stationary keeps 1024 x 9 weights for one pass of 16 pixels (9216 reads), output
    // stationary reads 9 x 16 x 1024 = 147,456 weights. Weight stationary wins here too.
    EXPECT_EQ(c.dataflow, PeDataflow::weight_stationary);
    EXPECT_EQ(c.wbuf.reads, 32 * 32 * 9);
    // Make the weights free to reread (a single-K, single-C layer): now the psum is what
    // costs, and output stationary writes each of the 16 outputs once (C is one tile), never
    // reading one back: each accumulation is that output's first.
    const PartLayer one = conv(1, 1, 4, 3);
    Tiling t1;
    t1.unroll = {LoopDim::K, LoopDim::C};
    t1.tile = {1, 1, 1, 4, 4, one.R, one.S};
    const IntraNodeCost o = evaluate_tiling(one, node, t1, kBCHW, kBCHW);
    EXPECT_EQ(o.dataflow, PeDataflow::output_stationary);
    EXPECT_EQ(o.obuf.writes - o.dram[Tensor::output].read_elements, 16);
    EXPECT_EQ(o.obuf.reads - o.dram[Tensor::output].write_elements, 0);
}

TEST(IntraNode, WeightStationaryReadsEachWeightOnce) {
    // FC 128 -> 64, 16-bit weights: 16 KiB = 64 accesses of the 2048-bit port. Weight
    // stationary (K, C outermost): each weight tile is fetched exactly once.
    PartLayer l;
    l.K = 64;
    l.C = 128;
    l.B = 4;
    const NodeSpec node = big_node();
    Tiling t;
    t.order = LoopOrder::kcbpq;
    t.tile = {1, 32, 64, 1, 1, l.R, l.S};
    const IntraNodeCost c = evaluate_tiling(l, node, t, kBCHW, kBCHW);
    const std::int64_t weight_bytes = l.K * l.C * 2;
    EXPECT_EQ(c.dram[Tensor::weight].read_elements, l.K * l.C);
    EXPECT_EQ(c.dram_read_bytes(Tensor::weight), weight_bytes);
    EXPECT_EQ(c.dram[Tensor::weight].fetches, 4);
    const DramTraffic trace = simulate_dram_trace(l, node, t, kBCHW, kBCHW);
    EXPECT_EQ(trace[Tensor::weight].read_accesses, c.dram[Tensor::weight].read_accesses);
    EXPECT_EQ(trace[Tensor::weight].read_elements, l.K * l.C);
}

TEST(IntraNode, PsumsSpillWhenCIsNotInnermost) {
    // Weight stationary with two C tiles and two P tiles: the C loop is outside the P loop,
    // so every output is written once as a psum, read back once and written once more as
    // data. (With a single output tile it would simply stay in the obuf.)
    const PartLayer l = conv(16, 16, 8, 1);
    const NodeSpec node = NodeSpec::with_banks(8, 8, 8, 1);
    Tiling t;
    t.order = LoopOrder::kcbpq;
    t.tile = {1, 16, 8, 4, 8, l.R, l.S};
    const IntraNodeCost c = evaluate_tiling(l, node, t, kBCHW, kBCHW);
    EXPECT_EQ(c.dram[Tensor::output].write_elements, 2 * 16 * 64);
    EXPECT_EQ(c.dram[Tensor::output].read_elements, 16 * 64);
    const DramTraffic trace = simulate_dram_trace(l, node, t, kBCHW, kBCHW);
    EXPECT_EQ(trace[Tensor::output].write_elements, 2 * 16 * 64);
    EXPECT_EQ(trace[Tensor::output].read_elements, 16 * 64);
}

TEST(IntraNode, ChosenTilingAlwaysFitsTheBuffers) {
    const Rng root(7);
    const std::vector<NodeSpec> nodes{big_node(), NodeSpec::with_banks(8, 8, 8, 1),
                                      NodeSpec::with_banks(16, 4, 32, 4)};
    int checked = 0;
    for (std::uint64_t i = 0; i < 60; ++i) {
        Rng rng = root.split(i);
        PartLayer l;
        const auto kind = rng.uniform_int(0, 3);
        if (kind == 0) {
            l = conv(rng.uniform_int(1, 256), rng.uniform_int(1, 256), rng.uniform_int(1, 56),
                     rng.uniform_int(0, 1) ? 3 : 1, static_cast<std::int32_t>(rng.uniform_int(1, 2)));
        } else if (kind == 1) {
            l.B = rng.uniform_int(1, 8);
            l.K = rng.uniform_int(1, 4096);
            l.C = rng.uniform_int(1, 4096);
        } else if (kind == 2) {
            l.B = rng.uniform_int(1, 12);
            l.P = l.K = rng.uniform_int(1, 384);
            l.C = 64;
            l.has_weights = false;
        } else {
            l = conv(rng.uniform_int(1, 512), 1, rng.uniform_int(1, 56), 3, 1);
            l.depthwise = true;
        }
        for (const NodeSpec& node : nodes) {
            const IntraNodeCost c = AnalyticIntraNodeMapper::search(l, node, kBHWC, kBCHW);
            ASSERT_EQ(c.status, MapStatus::ok) << i;
            const TileFootprint f = footprint(l, c.tiling);
            EXPECT_LE(2 * f.input.value(), node.ibuf.value()) << i;
            EXPECT_LE(2 * f.weight.value(), node.wbuf.value()) << i;
            EXPECT_LE(2 * f.output.value(), node.obuf.value()) << i;
            EXPECT_GE(c.total_cycles, c.compute_cycles);
            EXPECT_GE(c.total_cycles, c.dram_cycles);
            EXPECT_GT(c.pe_utilisation, 0.0);
            EXPECT_LE(c.pe_utilisation, 1.0);
            EXPECT_EQ(c.dram[Tensor::output].write_elements >= l.B * l.K * l.P * l.Q, true);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 180);
}

TEST(IntraNode, InfeasibleWhenAKernelDoesNotFit) {
    const PartLayer l = conv(8, 8, 4, 64);  // one 64 x 64 kernel slice: 8 KiB > half of 8 KiB
    const IntraNodeCost c =
        AnalyticIntraNodeMapper::search(l, NodeSpec::with_banks(8, 8, 8, 1), kBCHW, kBCHW);
    EXPECT_EQ(c.status, MapStatus::infeasible);
    EXPECT_FALSE(c.reason.empty());
}

TEST(IntraNode, MemoReturnsIdenticalResults) {
    AnalyticIntraNodeMapper mapper;
    const PartLayer l = conv(64, 64, 56, 3);
    const NodeSpec node = big_node();
    const IntraNodeCost first = mapper.map(l, node, kBCHW, kBCHW);
    const IntraNodeCost again = mapper.map(l, node, kBCHW, kBCHW);
    EXPECT_EQ(first, again);
    EXPECT_EQ(mapper.memo_hits(), 1);
    EXPECT_EQ(mapper.memo_size(), 1u);
    EXPECT_EQ(first, AnalyticIntraNodeMapper::search(l, node, kBCHW, kBCHW));
    (void)mapper.map(l, node, kBHWC, kBCHW);  // another layout is another key
    EXPECT_EQ(mapper.memo_size(), 2u);
}

TEST(IntraNode, EnergyIsCountsTimesCoefficients) {
    const PartLayer l = conv(32, 32, 8, 1);
    const IntraNodeCost c = AnalyticIntraNodeMapper::search(l, big_node(), kBCHW, kBCHW);
    IntraNodeEnergyCoefficients k;
    k.pj_per_mac = 1;
    k.pj_per_dram_bit = 0;
    EXPECT_DOUBLE_EQ(intra_node_energy(c, l.macs(), k).value(), static_cast<double>(l.macs()));
    k = {};
    k.pj_per_dram_bit = 1;
    EXPECT_DOUBLE_EQ(intra_node_energy(c, l.macs(), k).value(),
                     static_cast<double>(c.dram.accesses() * 2048));
}

TEST(IntraNode, KernelTilesShrinkTheFootprintNotTheCycles) {
    // A 3x3 convolution, stride 2, P = Q = 4 (input 9 x 9), tiles B1 K4 C2 P2 Q4 R2 S3: the
    // input tile spans (2 - 1) x 2 + 2 = 4 rows and (4 - 1) x 2 + 3 = 9 columns of its 2
    // channels (72 elements, 144 bytes), the weight tile 4 x 2 x 2 x 3 = 48 (96 bytes), the
    // output tile 4 x 2 x 4 psums of 32 bits (128 bytes). R and S are not unrolled, so the
    // PE array still steps through all 3 x 3 kernel positions of every pixel: 3 x 3 x 4 x 4.
    const PartLayer l = PartLayer::convolution(4, 2, 4, 4, 3, 2);
    Tiling t;
    t.unroll = {LoopDim::K, LoopDim::C};
    t.tile = {1, 4, 2, 2, 4, 2, 3};
    const TileFootprint f = footprint(l, t);
    EXPECT_EQ(f.input, Bytes(144));
    EXPECT_EQ(f.weight, Bytes(96));
    EXPECT_EQ(f.output, Bytes(128));
    const NodeSpec node;
    EXPECT_EQ(tiling_compute_cycles(l, node, t), 3 * 3 * 4 * 4);
    Tiling whole = t;
    whole.tile = {1, 4, 2, 2, 4, 3, 3};
    EXPECT_EQ(footprint(l, whole).input, Bytes(2 * 2 * 5 * 9));
    EXPECT_EQ(footprint(l, whole).weight, Bytes(2 * 4 * 2 * 3 * 3));
    EXPECT_EQ(tiling_compute_cycles(l, node, whole), tiling_compute_cycles(l, node, t));
}

}  // namespace
}  // namespace pimdse::sim
