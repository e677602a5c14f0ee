// A layer quantised on its own on a crossbar design (sim::layer_config): its weight and
// activation bits replace the design's in the geometry and in every cost, counted by hand.

#include <gtest/gtest.h>

#include <utility>

#include "pimdse/sim/crossbar.hpp"
#include "pimdse/sim/crossbar_cost.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::sim {
namespace {

using workload::ConvSpec;
using workload::kNetworkInput;

/// 64 x 8 x 8 -> a 64-filter 3x3 conv (padding 1) -> another, the second with `bits`.
workload::Network two_convs(workload::LayerBits bits) {
    workload::NetworkBuilder b(workload::NetworkInfo{"q", "", ""}, 1, workload::TensorShape{64, 8, 8});
    ConvSpec s;
    s.out_channels = 64;
    s.kernel_h = s.kernel_w = 3;
    s.pad_h = s.pad_w = 1;
    const auto first = b.conv("first", kNetworkInput, s);
    s.bits = bits;
    b.conv("second", first, s);
    return std::move(b).build();
}

TEST(CrossbarLayerBits, LayerConfigTakesTheLayersOwnBits) {
    const CrossbarConfig design;  // 9-bit weights and activations
    const workload::Network net = two_convs({5, 4});
    const CrossbarConfig own = layer_config(design, net.layer(1));
    EXPECT_EQ(std::pair(own.weight_bits, own.activation_bits), std::pair(5, 4));
    EXPECT_EQ(std::pair(own.size, own.adc_bits), std::pair(design.size, design.adc_bits));
    const CrossbarConfig unset = layer_config(design, net.layer(0));
    EXPECT_EQ(std::pair(unset.weight_bits, unset.activation_bits), std::pair(9, 9));
    // Only the weights: the activations stay the design's.
    const CrossbarConfig weights_only = layer_config(design, two_convs({5, 0}).layer(1));
    EXPECT_EQ(std::pair(weights_only.weight_bits, weights_only.activation_bits), std::pair(5, 9));
}

TEST(CrossbarLayerBits, FiveBitWeightsOnANineBitDesignNeedTheCrossbarsForFive) {
    // C = K = 64, 3x3 on 128 x 128 crossbars, 1-bit cells, two polarities: 576 rows, 5
    // crossbars down. 9-bit weights: 64 x 9 x 2 = 1152 columns, 9 across, 45 crossbars;
    // 5-bit weights: 64 x 5 x 2 = 640 columns, 5 across, 25 crossbars. 4-bit activations
    // through 1-bit DACs: 4 input cycles instead of 9.
    const CrossbarConfig design;
    const CrossbarTechnology& t = mnsim2_technology();
    const workload::Network net = two_convs({5, 4});
    const CrossbarLayerCost plain = cost_layer_on_crossbars(net.layer(0), design, t);
    const CrossbarLayerCost own = cost_layer_on_crossbars(net.layer(1), design, t);
    EXPECT_EQ(plain.mapping.crossbars, 45);
    EXPECT_EQ(plain.mapping.input_cycles, 9);
    EXPECT_EQ(own.mapping.rows, 576);
    EXPECT_EQ(own.mapping.columns, 640);
    EXPECT_EQ(own.mapping.column_blocks, 5);
    EXPECT_EQ(own.mapping.crossbars, 25);
    EXPECT_EQ(own.mapping.input_cycles, 4);
    // Conversions: 64 positions x 4 cycles x 1 sub-vector x 5 row blocks x 320 output columns
    // (the two polarities' columns are subtracted before one conversion).
    EXPECT_EQ(own.adc_conversions, 64 * 4 * 5 * 640 / 2);
    // The same as a design of 5-bit weights and 4-bit activations, part for part.
    CrossbarConfig five = design;
    five.weight_bits = 5;
    five.activation_bits = 4;
    const CrossbarLayerCost same = cost_layer_on_crossbars(net.layer(0), five, t);
    EXPECT_EQ(own.mapping.crossbars, same.mapping.crossbars);
    EXPECT_EQ(own.tiles, same.tiles);
    EXPECT_DOUBLE_EQ(own.latency_ns, same.latency_ns);
    EXPECT_DOUBLE_EQ(own.energy.total().value(), same.energy.total().value());
    EXPECT_DOUBLE_EQ(own.energy.buffer.value(), same.energy.buffer.value());  // a bits per activation
}

TEST(CrossbarLayerBits, TheNetworkCostsEachLayerWithItsOwnBits) {
    const CrossbarConfig design;
    const CrossbarTechnology& t = mnsim2_technology();
    const workload::Network net = two_convs({5, 4});
    const CrossbarNetworkCost n = cost_network_on_crossbars(net, design, t);
    ASSERT_EQ(n.layer_costs.size(), 2u);
    EXPECT_EQ(n.layer_costs[0].mapping.crossbars, 45);
    EXPECT_EQ(n.layer_costs[1].mapping.crossbars, 25);
    EXPECT_EQ(n.tiles, n.layer_costs[0].tiles + n.layer_costs[1].tiles);
    // Without its own bits the second layer costs what the first does.
    const CrossbarNetworkCost uniform = cost_network_on_crossbars(two_convs({}), design, t);
    EXPECT_EQ(uniform.layer_costs[1].mapping.crossbars, 45);
    EXPECT_LT(n.energy.total().value(), uniform.energy.total().value());
}

}  // namespace
}  // namespace pimdse::sim
