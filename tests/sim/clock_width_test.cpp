// The clock and the data width of a point (docs/model.md, "Clock and data width"): what each
// changes in make_system and in a network's cost, against hand-computed values.

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "pimdse/hw/area.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/dram.hpp"
#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/timeline.hpp"

namespace pimdse::sim {
namespace {

using workload::Network;
using workload::Segmentation;

// 2x2 nodes of 8x8 PEs and 64 KiB buffers at the given clock and data width (0: the constraints').
hw::HardwareParams point(int clock_mhz, int data_width_bits) {
    hw::HardwareParams p{2, 2, 8, 8, 64, 64, 64};
    p.clock_mhz = clock_mhz;
    p.data_width_bits = data_width_bits;
    return p;
}

System system_at(int clock_mhz, int data_width_bits) {
    return make_system(hw::Constraints{}, point(clock_mhz, data_width_bits), hw::Technology{});
}

// One 1x1 convolution, 8 -> 32 channels on 32x32, K split over the 2x2 nodes: every node
// computes 8 x 8 x 32 x 32 MACs on 64 PEs, 1024 cycles, and moves 32 KiB: compute-bound.
const char* const kOneConv = R"(
network: one
input: {channels: 8, height: 32, width: 32}
layers:
  - {name: c1, type: conv, out_channels: 32, kernel: 1}
)";

NetworkCost cost_on(const System& sys) {
    const Network n = io::parse_network(kOneConv, "one.yaml");
    const Segmentation s = workload::decompose(n);
    NetworkMapping m;
    m.segments.push_back({{Region{0, 0, 2, 2}}, {0}});
    LayerMapping lm;
    lm.part(PartDim::k) = {2, 2};
    m.layers.push_back(lm);
    AnalyticIntraNodeMapper mapper;
    SnakeRingScheduler scheduler;
    return evaluate_mapping(n, s, m, sys, mapper, scheduler);
}

// The part-layer of kOneConv one node computes on `sys`: 8 of the 32 output channels (K
// split over the 2x2 nodes), every input channel and output pixel.
PartLayer node_part(const System& sys) {
    const Network n = io::parse_network(kOneConv, "one.yaml");
    std::array<Range, kPartDims> r{};
    for (const auto& [dim, end] :
         {std::pair{PartDim::b, 1}, {PartDim::k, 8}, {PartDim::c, 8}, {PartDim::p, 32}, {PartDim::q, 32}})
        r[index_of(dim)] = {0, end};
    return part_layer_of(n.layer(0), r, sys);
}

TEST(ClockAndWidth, UnsetValuesAreTheConstraints) {
    // A hardware file's point sets neither: the constraints' 400 MHz and 16 bits, bit for bit.
    const System unset = system_at(0, 0);
    const System set = system_at(400, 16);
    EXPECT_EQ(unset.clock_mhz, 400.0);
    EXPECT_EQ(unset.data_bits, 16);
    EXPECT_EQ(unset.node, set.node);
    EXPECT_EQ(unset.energy.pj_per_mac, set.energy.pj_per_mac);
    EXPECT_EQ(unset.energy.pj_per_ibuf_access, set.energy.pj_per_ibuf_access);
    EXPECT_EQ(unset.dram_background_pj_per_cycle, set.dram_background_pj_per_cycle);
    EXPECT_EQ(unset.energy.pj_per_mac, hw::Technology{}.mac_energy.value());
}

TEST(ClockAndWidth, ClockScalesDramTimingAndBackgroundPerCycle) {
    const System at400 = system_at(400, 16);
    const System at800 = system_at(800, 16);
    EXPECT_EQ(at800.clock_mhz, 800.0);
    EXPECT_EQ(at800.node.clock_mhz, 800.0);
    // tCCD_L 6 ns, tRP = tRCD 14 ns, tRAS 34 ns at 1.25 ns per cycle.
    EXPECT_DOUBLE_EQ(at800.node.access_cycles, 4.8);
    EXPECT_DOUBLE_EQ(at800.node.precharge_cycles, 11.2);
    EXPECT_DOUBLE_EQ(at800.node.activate_cycles, 11.2);
    EXPECT_DOUBLE_EQ(at800.node.ras_cycles, 27.2);
    EXPECT_DOUBLE_EQ(at800.node.read_precharge_cycles, 11.2);         // tRTP 14 ns
    EXPECT_DOUBLE_EQ(at800.node.write_precharge_cycles, 22.4);        // WR to PRE 28 ns
    EXPECT_DOUBLE_EQ(at800.node.write_read_cycles, 16.0);             // WR to RD 20 ns
    EXPECT_DOUBLE_EQ(at800.node.read_write_cycles, 11.2);             // RD to WR 14 ns
    EXPECT_EQ(at800.node.refresh_factor, at400.node.refresh_factor);  // a ratio of times
    // 256 banks x 4.26 mW x 1.25 ns = 1363.2 pJ per cycle: half of 400 MHz's.
    EXPECT_NEAR(at800.dram_background_pj_per_cycle, 256 * 4.26 * 1.25, 1e-9);
    // A DRAM-bound stream of 1000 accesses over 10 rows: its cycles double with the clock
    // (F (N tRP + max(N tRAS, N tRCD + (A - N) tCCD_L + N tRTP)) = F (56 + 2488) at 400 MHz,
    // plus the refreshes inside open rows, whose cycles^2 / tREFI also double).
    const double f = 3900.0 / 3640.0;
    EXPECT_NEAR(
        dram_cycles(at400.node, 1000, 10).value(),
        f * (10 * 5.6 + 10 * 5.6 + 990 * 2.4 + 10 * 5.6) + refresh_interruptions(at400.node, 1000, 10), 1e-6);
    EXPECT_NEAR(refresh_interruptions(at800.node, 1000, 10), 2 * refresh_interruptions(at400.node, 1000, 10),
                1e-9);
    EXPECT_NEAR(dram_cycles(at800.node, 1000, 10).value(), 2 * dram_cycles(at400.node, 1000, 10).value(),
                1e-6);
    // Energies per operation do not depend on the clock (no voltage scaling is modelled).
    EXPECT_EQ(at800.energy.pj_per_mac, at400.energy.pj_per_mac);
    EXPECT_EQ(at800.energy.pj_per_ibuf_access, at400.energy.pj_per_ibuf_access);
}

TEST(ClockAndWidth, DoublingTheClockHalvesAComputeBoundLayersSeconds) {
    const NetworkCost c400 = cost_on(system_at(400, 16));
    const NetworkCost c800 = cost_on(system_at(800, 16));
    ASSERT_EQ(c400.status, EvalStatus::ok) << c400.reason;
    ASSERT_EQ(c800.status, EvalStatus::ok) << c800.reason;
    EXPECT_EQ(c400.layers[0].compute, Cycles(1024));
    // Compute-bound at both clocks: the same cycles, so half the seconds.
    EXPECT_EQ(c800.layers[0].compute, Cycles(1024));
    EXPECT_EQ(c800.latency, c400.latency);
    EXPECT_DOUBLE_EQ(c400.seconds, c400.latency.value() / 400e6);
    EXPECT_DOUBLE_EQ(c800.seconds, c400.seconds / 2);
    // The same operations cost the same; the banks' background energy (power x seconds) halves.
    EXPECT_DOUBLE_EQ(c800.energy.pe.value(), c400.energy.pe.value());
    EXPECT_DOUBLE_EQ(c800.energy.sram.value(), c400.energy.sram.value());
    EXPECT_NEAR(c800.energy.dram_background.value(), c400.energy.dram_background.value() / 2,
                1e-9 * c400.energy.dram_background.value());
}

TEST(ClockAndWidth, HalvingTheDataWidth) {
    const hw::Technology t;
    const System w16 = system_at(400, 16);
    const System w8 = system_at(400, 8);
    EXPECT_EQ(w8.data_bits, 8);
    EXPECT_EQ(w8.data_bytes(3), 3);
    EXPECT_EQ(w8.psum_bits, 32);
    // SRAM per element: bits x the per-bit energy; the output buffer keeps 32-bit partial sums.
    EXPECT_DOUBLE_EQ(w8.energy.pj_per_ibuf_access, 8 * t.sram_read_energy_per_bit(64).value());
    EXPECT_DOUBLE_EQ(w8.energy.pj_per_ibuf_access, w16.energy.pj_per_ibuf_access / 2);
    EXPECT_DOUBLE_EQ(w8.energy.pj_per_wbuf_access, w16.energy.pj_per_wbuf_access / 2);
    EXPECT_EQ(w8.energy.pj_per_obuf_access, w16.energy.pj_per_obuf_access);
    // MAC: 0.544 pJ x (1 + 0.775/0.875 x ((8/16)^2 - 1)) = 0.544 x 0.335714... = 0.182629 pJ.
    EXPECT_NEAR(w8.energy.pj_per_mac, 0.544 * (1 - 0.75 * 0.775 / 0.875), 1e-12);
    EXPECT_NEAR(w8.energy.pj_per_mac, 0.182629, 1e-6);
    // Buffer capacity: the same bytes hold twice the 8-bit input and weight elements.
    const PartLayer l16 = node_part(w16);
    const PartLayer l8 = node_part(w8);
    EXPECT_EQ(l8.data_bits, 8);
    Tiling small;
    small.tile = {1, 4, 4, 8, 8, l16.R, l16.S};  // B, K, C, P, Q, R, S
    Tiling doubled = small;
    doubled.tile[static_cast<std::size_t>(LoopDim::C)] = 8;  // twice the input channels and weights
    EXPECT_EQ(footprint(l8, doubled).input, footprint(l16, small).input);
    EXPECT_EQ(footprint(l8, doubled).weight, footprint(l16, small).weight);
    EXPECT_EQ(footprint(l16, small).input, Bytes(4 * 8 * 8 * 2));
}

TEST(ClockAndWidth, DataOfAnyWidthIsBitPacked) {
    // Bytes of n values of w bits: ceil(n w / 8), by hand.
    EXPECT_EQ(packed_bytes(0, 12), 0);
    EXPECT_EQ(packed_bytes(1, 12), 2);   // 12 bits
    EXPECT_EQ(packed_bytes(2, 12), 3);   // 24 bits
    EXPECT_EQ(packed_bytes(3, 12), 5);   // 36 bits
    EXPECT_EQ(packed_bytes(9, 1), 2);    // 9 bits
    EXPECT_EQ(packed_bytes(5, 16), 10);  // a multiple of 8: n w / 8 exactly
    // A hardware file's 12-bit data (its point takes the constraints' width).
    hw::Constraints c;
    c.data_width_bits = 12;
    const System w12 = make_system(c, point(0, 0), hw::Technology{});
    EXPECT_EQ(w12.data_bits, 12);
    EXPECT_EQ(w12.data_bytes(1), 2);
    EXPECT_EQ(w12.data_bytes(1024), 1536);
    EXPECT_EQ(w12.psum_bytes(3), 12);  // 32-bit partial sums
    // The NoC moves the same bytes the buffers hold: a 12-bit input tile of 5 x 5 values is
    // 300 bits, 38 bytes, in both.
    Tiling t;
    t.tile = {1, 1, 1, 5, 5, node_part(w12).R, node_part(w12).S};  // B, K, C, P, Q, R, S
    EXPECT_EQ(footprint(node_part(w12), t).input, Bytes(38));
    EXPECT_EQ(w12.data_bytes(25), 38);
}

TEST(ClockAndWidth, DataWidthScalesThePeArea) {
    const hw::Technology t;
    // Aladdin's shares of the 16-bit PE: multiplier 1587.5, operand registers 191.36 of 2248.2 µm².
    EXPECT_EQ(t.pe_area_um2_at(16), t.pe_area_um2);
    EXPECT_NEAR(t.pe_area_um2_at(8), 1101.6 * (1 - 0.75 * 1587.5 / 2248.2 - 0.5 * 191.36 / 2248.2), 1e-9);
    EXPECT_NEAR(t.pe_area_um2_at(8), 471.3, 0.1);
    EXPECT_NEAR(t.pe_area_um2_at(32), 3529.0, 0.5);
    // At 32 bits the MAC is Horowitz's 32-bit multiply and add at 28 nm, 3.2 pJ x 28/45 = 1.991,
    // up to the table's rounding of 0.5444 to 0.544 pJ.
    EXPECT_NEAR(t.mac_energy_at(32).value(), 3.2 * 28 / 45 * 0.544 / (0.875 * 28 / 45), 1e-12);
    EXPECT_NEAR(t.mac_energy_at(32).value(), 3.2 * 28 / 45, 2e-3);
    const hw::Constraints c;
    const hw::AreaBreakdown a16 = hw::area(point(400, 16), c, t);
    const hw::AreaBreakdown a8 = hw::area(point(400, 8), c, t);
    EXPECT_NEAR(a8.node.pe_array.value(), 64 * t.pe_area_um2_at(8) * 1e-6, 1e-12);
    EXPECT_EQ(a8.node.input_buffer, a16.node.input_buffer);  // buffers are sized in KiB
    EXPECT_EQ(hw::area(point(0, 0), c, t), a16);
}

}  // namespace
}  // namespace pimdse::sim
