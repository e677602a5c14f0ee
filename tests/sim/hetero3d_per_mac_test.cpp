// The forward pass's energy per MAC on each HuNT tile, term by term (docs/model.md, "HuNT:
// per-MAC read energy"), for one layer of VGG-16 (`vgg16_half_cifar10`, conv3_2: 128 -> 128
// channels, 3 x 3, 8 x 8 outputs, batch 64). The test prints the breakdown beside NeuroSim's
// terms and checks each by hand from the preset's constants.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/hetero3d_cost.hpp"

namespace pimdse::sim {
namespace {

using hw::PimDevice;
using workload::TrainingPhase;

const workload::Network& vgg16() {
    static const workload::Network net = io::read_network_file(
        std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/cifar10/vgg16_half_cifar10.yaml");
    return net;
}

const workload::Layer& conv3_2() {
    for (const auto& l : vgg16().layers())
        if (l.name == "conv3_2") return l;
    throw ModelError("vgg16_half_cifar10 has no conv3_2");
}

workload::PhaseStep forward_of(const workload::Layer& layer) {
    for (const auto& s : workload::phase_steps(vgg16()))
        if (s.phase == TrainingPhase::forward && vgg16().layer(s.layer).name == layer.name) return s;
    throw ModelError("no forward phase");
}

hw::Hetero3dHardware hunt() {
    return {4, 16, 4, SquareMillimetres(0.40), std::vector<PimDevice>(4, PimDevice::sram)};
}

// NeuroSim's SAR fit (SarADC.cpp, 32 nm LSTP) for `bits` on a column of `rows` cells of the mean
// conductance, times its (bits + 1) ns.
double sar_pj(int bits, int rows) {
    const double g = 0.5 / 240e3 + 0.5 / 24e6;
    const double column = 1 / (rows * g);
    return (1.1294 * bits + 8.8998 + 0.079449e6 * std::exp(-2.297 * std::log10(column))) * (bits + 1) * 1e-3;
}

TEST(Hetero3dPerMac, ForwardReadTermsByHand) {
    const auto& layer = conv3_2();
    const workload::PhaseStep fwd = forward_of(layer);
    const double macs = static_cast<double>(layer.macs());
    ASSERT_EQ(layer.C * layer.K * layer.R * layer.S, 128 * 128 * 9);
    const hw::NeuroSimPreset& preset = hw::neurosim_v2_1_preset();
    const Hetero3dCostParams params;
    // Cells' conduction for one read pulse, V² G t: not a term of NeuroSim's read (its SAR fit
    // holds the column current); printed for scale only.
    const double cell_pj = 0.25 * (0.5 / 240e3 + 0.5 / 24e6) * 10e-9 * 1e12;

    std::printf("%-6s %10s %12s %12s %12s %12s\n", "tile", "conv/MAC", "conv pJ", "conv pJ/MAC",
                "cells pJ/MAC", "total pJ/MAC");
    for (PimDevice d : {PimDevice::reram, PimDevice::fefet}) {
        const CrossbarRead r = crossbar_read(layer, 16, d, preset, params);
        const double reads = static_cast<double>(layer.B * layer.P * layer.Q * r.reads_per_position);
        const PhaseCost c = cost_phase(layer, fwd, d, 16, hunt(), preset, params);
        ASSERT_TRUE(c.ok()) << c.reason;
        // The phase's energy is its reads', and a read is its conversions.
        EXPECT_NEAR(c.compute_pj, reads * r.energy_pj(), 1e-6 * c.compute_pj);
        const double conv_per_mac = reads * r.conversions / macs;
        std::printf("%-6s %10.4f %12.4f %12.4f %12.4f %12.4f\n", d == PimDevice::reram ? "ReRAM" : "FeFET",
                    conv_per_mac, r.conversion_pj, conv_per_mac * r.conversion_pj,
                    reads * r.cells * cell_pj / macs, c.compute_pj / macs);
        if (d == PimDevice::reram) {
            // 1152 rows in 9 blocks of 128; 16 input bits x 8 two-bit cells a weight over 128 rows.
            EXPECT_DOUBLE_EQ(conv_per_mac, 16.0 * 8 / 128);
            EXPECT_NEAR(r.conversion_pj, sar_pj(8, 128), 1e-12);
        } else {
            // 1152 rows in 5 blocks of 256 (the last of 128); 16 input bits x 16 one-bit cells.
            EXPECT_DOUBLE_EQ(conv_per_mac, 16.0 * 16 * 5 / 1152);
            EXPECT_NEAR(r.conversion_pj, sar_pj(1, 256), 1e-12);
        }
    }
    // SRAM: digital, 16-bit multiply and add (0.85 pJ) and a 16-bit operand's read (2.5 pJ).
    const PhaseCost s = cost_phase(layer, fwd, PimDevice::sram, 16, hunt(), preset, params);
    std::printf("%-6s %10s %12s %12s %12s %12.4f\n", "SRAM", "-", "-", "-", "-", s.compute_pj / macs);
    EXPECT_NEAR(s.compute_pj / macs, 0.85 + 16 * 10.0 / 64, 1e-9);
    EXPECT_THROW((void)crossbar_read(layer, 16, PimDevice::sram, preset, params), ModelError);
}

}  // namespace
}  // namespace pimdse::sim
