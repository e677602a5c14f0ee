// Layers and networks on ReRAM crossbars with the mnsim2 preset: a 64-channel 3x3 layer
// counted by hand (conversions, read time, every energy part, tiles), one tile's area, a
// two-layer network pipelined, in sequence and replicated under tile budgets, the
// invariants (parts sum to the total, the ADC table's ratios, larger crossbars convert
// less, polarities share converters), converter resolutions derived from the table, and
// the errors. The inter-tile network has its own suite (crossbar_noc_test.cpp).

#include <gtest/gtest.h>

#include <utility>

#include "crossbar_networks.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/sim/crossbar_cost.hpp"

namespace pimdse::sim {
namespace {

workload::Layer conv(std::int64_t c, std::int64_t k, std::int64_t r, std::int64_t extent = 8) {
    workload::Layer l;
    l.name = "conv";
    l.kind = workload::LayerKind::conv;
    l.C = c, l.K = k, l.R = l.S = r;
    l.H = l.W = l.P = l.Q = extent;
    l.pad_h = l.pad_w = r / 2;
    return l;
}

using crossbar_fixtures::two_convs;

TEST(CrossbarCost, SixtyFourChannelsByHand) {
    // C = K = 64, 3x3, 8 x 8 out, 128 x 128 crossbars, 1-bit cells and DACs, 8-bit ADC,
    // 9-bit weights and activations, two polarities: rows 576, columns 1152, 5 x 9 = 45
    // crossbars, 9 input cycles, one sub-vector (crossbar_test.cpp). The two polarities'
    // columns are subtracted before the ADC: 576 output columns, ceil(9 / 2) = 5 polarity
    // groups (and PEs) across.
    const CrossbarConfig cfg;
    const CrossbarTechnology& t = mnsim2_technology();
    const CrossbarLayerCost c = cost_layer_on_crossbars(conv(64, 64, 3), cfg, t);
    EXPECT_EQ(c.positions, 64);  // 8 x 8 x 1
    // Conversions: 64 positions x 9 cycles x 1 sub-vector x 5 row blocks x 576 outputs.
    EXPECT_EQ(c.adc_conversions, 64 * 9 * 5 * 576);  // 1,658,880
    // DAC steps: 64 x 9 cycles x 576 rows x 5 polarity groups.
    EXPECT_EQ(c.dac_conversions, 64 * 9 * 576 * 5);  // 1,658,880
    // 64 ADCs per polarity group (2 outputs each) for its 128 outputs: 2 conversions per ADC.
    EXPECT_EQ(c.adc_shared_columns, 2);
    // Read: DAC (1 + 2) / 1 GS/s = 3 ns, crossbar 3.16 ns, ADC 2 x (8 + 2) / 1.28 = 15.625 ns.
    EXPECT_DOUBLE_EQ(c.read_ns, 3 + 3.16 + 15.625);                // 21.785
    EXPECT_DOUBLE_EQ(c.latency_ns, 64 * 9 * (3 + 3.16 + 15.625));  // 12,548.16
    // ADC: 10 / 1.28 ns x 2 mW = 15.625 pJ per conversion.
    EXPECT_DOUBLE_EQ(c.energy.adc.value(), 1'658'880 * 15.625);  // 25,920,000 pJ
    // DAC: 3 ns x 0.0039 mW = 0.0117 pJ per step.
    EXPECT_NEAR(c.energy.dac.value(), 1'658'880 * 0.0117, 1e-6);
    // A cell: 0.1 x 0.15² V² x (0.33 / 1e4 + 0.67 / 1e6) S = 7.57575e-8 W for 3.16 ns; every
    // one of the 576 x 1152 cells is read once per position and input cycle.
    const double cell_pj = 0.1 * 0.15 * 0.15 * (0.33 / 1e4 + 0.67 / 1e6) * 1e3 * 3.16;
    EXPECT_NEAR(c.energy.crossbar.value(), 64.0 * 9 * 576 * 1152 * cell_pj, 1e-6);
    // Shift-and-add: (0.81 + 0.02) µW for one 2 ns period per conversion.
    EXPECT_NEAR(c.energy.shift_add.value(), 1'658'880 * (8.1e-4 + 2e-5) * 2, 1e-6);
    // Buffers, 64-bit words: each of the 5 PEs across has the input 4096 x 9 bits written
    // (576 words) and 64 positions x 576 x 9 bits read (5184 words); output 4096 x 9 bits
    // written and read (576 words each). Each access adds 20 ns of leakage: 8.86342 mW
    // (input), 1.95684 mW (output).
    const double in_w = 43.7094 + 20 * 8.86342, in_r = 44.837 + 20 * 8.86342;
    const double out_w = 19.9484 + 20 * 1.95684, out_r = 8.54257 + 20 * 1.95684;
    EXPECT_NEAR(c.energy.buffer.value(), 5 * (576 * in_w + 5184 * in_r) + 576 * (out_w + out_r), 1e-6);
    EXPECT_EQ(c.tiles, 6);  // 45 crossbars, 8 per tile
}

TEST(CrossbarCost, TileAreaByHand) {
    // 8 crossbars of 128 x 128 cells of 1.44 µm² in 4 polarity pairs; 64 ADCs (1200 µm²)
    // and 128 DACs (0.166 µm²) per pair; a shift register (1.42 µm²) and an 8-bit adder
    // (8 x 0.2835 µm²) per ADC; 4 input buffers of 16 KB and one output buffer of 4 KB.
    const CrossbarArea a = crossbar_tile_area(CrossbarConfig{}, mnsim2_technology());
    EXPECT_NEAR(a.crossbars.value(), 8 * 128 * 128 * 1.44 / 1e6, 1e-12);
    EXPECT_NEAR(a.adcs.value(), 256 * 1200 / 1e6, 1e-12);
    EXPECT_NEAR(a.dacs.value(), 512 * 0.166 / 1e6, 1e-12);
    EXPECT_NEAR(a.shift_add.value(), 256 * (1.42 + 8 * 0.2835) / 1e6, 1e-12);
    // With one polarity every crossbar has its own converters: twice as many.
    CrossbarConfig single;
    single.polarity = 1;
    EXPECT_NEAR(crossbar_tile_area(single, mnsim2_technology()).adcs.value(), 2 * a.adcs.value(), 1e-12);
    EXPECT_NEAR(a.buffers.value(), 4 * 0.616313686 + 0.0686947, 1e-12);
    EXPECT_DOUBLE_EQ(a.routers.value(), 0.001403);  // one router and its links
    EXPECT_DOUBLE_EQ(a.total().value(),
                     (a.crossbars + a.adcs + a.dacs + a.shift_add + a.buffers + a.routers).value());
}

TEST(CrossbarCost, TwoLayersPipelinedAndInSequence) {
    // a: rows 27, columns 3 x 9 x 2 = 54 -> 1 crossbar, one ADC step per read:
    //    3 + 3.16 + 7.8125 = 13.9725 ns; 256 positions x 9 cycles -> 32,193.44 ns.
    // b: rows 27, columns 1152 -> 9 crossbars (2 tiles), 21.785 ns per read;
    //    64 positions x 9 cycles -> 12,548.16 ns.
    const workload::Network net = two_convs();
    const CrossbarConfig cfg;
    const CrossbarTechnology& t = mnsim2_technology();
    const double ta = 256 * 9 * 13.9725, tb = 64 * 9 * 21.785;
    CrossbarNetworkOptions seq;
    seq.schedule = CrossbarSchedule::sequential;
    const CrossbarNetworkCost s = cost_network_on_crossbars(net, cfg, t, seq);
    EXPECT_NEAR(s.latency_ns, ta + tb, 1e-6);
    EXPECT_EQ(s.tiles, 3);
    // Pipelined: a is the slowest stage; b, the last, adds one of its 8 output rows.
    const CrossbarNetworkCost p = cost_network_on_crossbars(net, cfg, t);
    EXPECT_NEAR(p.latency_ns, ta + tb / 8, 1e-6);
    EXPECT_LT(p.latency_ns, s.latency_ns);
    EXPECT_DOUBLE_EQ(p.energy.total().value(), s.energy.total().value());
    // Network area: 3 tiles.
    EXPECT_NEAR(p.area.total().value(), 3 * crossbar_tile_area(cfg, t).total().value(), 1e-9);
}

TEST(CrossbarCost, ReplicationUnderATileBudget) {
    const workload::Network net = two_convs();
    const CrossbarConfig cfg;
    const CrossbarTechnology& t = mnsim2_technology();
    const double read_a = 13.9725, tb = 64 * 9 * 21.785;
    CrossbarNetworkOptions o;
    // 4 tiles: a (1 tile) twice, 128 positions each; a stays the slowest.
    o.tile_budget = 4;
    CrossbarNetworkCost c = cost_network_on_crossbars(net, cfg, t, o);
    EXPECT_EQ(c.replicas, (std::vector<std::int64_t>{2, 1}));
    EXPECT_EQ(c.tiles, 4);
    EXPECT_NEAR(c.latency_ns, 128 * 9 * read_a + tb / 8, 1e-6);
    // 5 tiles: a three times, ceil(256 / 3) = 86 positions; now b is the slowest and its 2
    // tiles do not fit. a's fill: the 3 rows of its 16 that b's 3x3 window needs.
    o.tile_budget = 5;
    c = cost_network_on_crossbars(net, cfg, t, o);
    EXPECT_EQ(c.replicas, (std::vector<std::int64_t>{3, 1}));
    EXPECT_NEAR(c.latency_ns, tb + 86 * 9 * read_a * 3 / 16, 1e-6);
    // A budget below the layers' own tiles replicates nothing.
    o.tile_budget = 2;
    EXPECT_EQ(cost_network_on_crossbars(net, cfg, t, o).tiles, 3);
}

TEST(CrossbarCost, EnergyIsTheSumOfItsParts) {
    const workload::Network net = two_convs();
    const CrossbarNetworkCost n = cost_network_on_crossbars(net, CrossbarConfig{}, mnsim2_technology());
    CrossbarEnergy sum;
    for (const CrossbarLayerCost& c : n.layer_costs) sum += c.energy;
    EXPECT_DOUBLE_EQ(n.energy.total().value(), sum.total().value());
    const CrossbarEnergy& e = n.energy;
    EXPECT_DOUBLE_EQ(e.total().value(), e.crossbar.value() + e.adc.value() + e.dac.value() +
                                            e.shift_add.value() + e.buffer.value() + e.noc.value());
    for (const Picojoules part : {e.crossbar, e.adc, e.dac, e.shift_add, e.buffer, e.noc})
        EXPECT_GT(part.value(), 0);
    // A single layer knows no placement: its NoC energy comes from the network.
    EXPECT_EQ(cost_layer_on_crossbars(net.layer(1), CrossbarConfig{}, mnsim2_technology()).energy.noc.value(),
              0);
}

TEST(CrossbarCost, AdcEnergyFollowsTheTable) {
    // The same conversions at 4 and 8 bits: (4 + 2) / 1 GS/s x 0.7 mW = 4.2 pJ against
    // (8 + 2) / 1.28 x 2 = 15.625 pJ; at 6 and 10: 8 x 1.26 = 10.08 against 12 / 1.5 x 6.92.
    const CrossbarTechnology& t = mnsim2_technology();
    const auto adc_energy = [&](int bits) {
        CrossbarConfig c;
        c.adc_bits = bits;
        return cost_layer_on_crossbars(conv(64, 64, 3), c, t).energy.adc.value();
    };
    EXPECT_NEAR(adc_energy(8) / adc_energy(4), 15.625 / 4.2, 1e-12);
    EXPECT_NEAR(adc_energy(10) / adc_energy(6), (12 / 1.5 * 6.92) / 10.08, 1e-12);
    EXPECT_GT(adc_energy(8), adc_energy(4));
    EXPECT_GT(adc_energy(10), adc_energy(6));
}

TEST(CrossbarCost, LargerCrossbarsConvertLess) {
    // 256 channels of 3x3: 2304 rows -> 18 row blocks of 128, 9 of 256; every row block
    // converts all 2304 outputs (4608 columns of two polarities), so 256 x 256 crossbars
    // make half the conversions.
    CrossbarConfig small, large;
    small.size = 128, large.size = 256;
    const workload::Layer l = conv(256, 256, 3, 14);
    const CrossbarTechnology& t = mnsim2_technology();
    const std::int64_t a = cost_layer_on_crossbars(l, small, t).adc_conversions;
    const std::int64_t b = cost_layer_on_crossbars(l, large, t).adc_conversions;
    EXPECT_LT(b, a);
    EXPECT_EQ(a, 2 * b);
}

TEST(CrossbarCost, PolaritiesShareTheirConverters) {
    // The negative columns double the cells read but not the conversions or DAC steps:
    // they are subtracted from the positive ones before the ADC (MNSIM's Sub_Position 0).
    CrossbarConfig one, two;
    one.polarity = 1;
    const workload::Layer l = conv(64, 64, 3);
    const CrossbarTechnology& t = mnsim2_technology();
    const CrossbarLayerCost c1 = cost_layer_on_crossbars(l, one, t);
    const CrossbarLayerCost c2 = cost_layer_on_crossbars(l, two, t);
    EXPECT_EQ(c2.mapping.crossbars, 45);
    EXPECT_EQ(c1.mapping.crossbars, 25);  // 5 row blocks x ceil(576 / 128)
    EXPECT_EQ(c1.adc_conversions, c2.adc_conversions);
    EXPECT_EQ(c1.dac_conversions, c2.dac_conversions);
    EXPECT_DOUBLE_EQ(c2.energy.crossbar.value(), 2 * c1.energy.crossbar.value());
    EXPECT_DOUBLE_EQ(c1.read_ns, c2.read_ns);
}

TEST(CrossbarCost, ResolutionsOutsideTheTableAreDerived) {
    const CrossbarTechnology& t = mnsim2_technology();
    for (const int bits : {4, 6, 8, 10}) EXPECT_FALSE(adc_spec(t, bits).derived) << bits;
    // 5 bits: 4 and 6 are equally near, the higher is taken and halved: 290 µm², 0.63 mW.
    const ConverterSpec five = adc_spec(t, 5);
    EXPECT_TRUE(five.derived);
    EXPECT_DOUBLE_EQ(five.area_um2, 290);
    EXPECT_DOUBLE_EQ(five.power_mw, 0.63);
    EXPECT_DOUBLE_EQ(five.sample_rate_gsps, 1.0);
    // 12 bits from 10: x 4.
    EXPECT_DOUBLE_EQ(adc_spec(t, 12).area_um2, 6400);
    EXPECT_DOUBLE_EQ(adc_spec(t, 12).power_mw, 4 * 6.92);
    // DAC 5 bits from 6 (nearer than 4): 5.312 / 2.
    EXPECT_DOUBLE_EQ(dac_spec(t, 5).area_um2, 2.656);
    EXPECT_THROW((void)adc_spec(t, 0), ModelError);
}

TEST(CrossbarCost, PresetsByName) {
    EXPECT_EQ(&crossbar_technology("mnsim2"), &mnsim2_technology());
    EXPECT_NO_THROW(check_technology(mnsim2_technology()));
    try {
        (void)crossbar_technology("neurosim");
        FAIL() << "an unknown preset must throw";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("'neurosim'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("mnsim2"), std::string::npos) << e.what();
    }
}

TEST(CrossbarCost, RefusesBadPresetsAndConfigs) {
    CrossbarTechnology t = mnsim2_technology();
    t.name = "broken";
    t.adcs.clear();
    try {
        (void)cost_layer_on_crossbars(conv(64, 64, 3), CrossbarConfig{}, t);
        FAIL() << "an empty ADC table must throw";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("'broken'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("adcs"), std::string::npos) << e.what();
    }
    t = mnsim2_technology();
    t.lrs_share = 1.5;
    EXPECT_THROW(check_technology(t), ConfigError);
    t = mnsim2_technology();
    t.columns_per_adc = 0;
    EXPECT_THROW(check_technology(t), ConfigError);
    t = mnsim2_technology();
    t.adcs = {{8, 1200, 2, 1.28}, {6, 580, 1.26, 1}};  // not ascending
    EXPECT_THROW(check_technology(t), ConfigError);

    CrossbarConfig c;
    c.size = 0;
    EXPECT_THROW((void)cost_layer_on_crossbars(conv(64, 64, 3), c, mnsim2_technology()), ModelError);
    EXPECT_THROW((void)crossbar_tile_area(c, mnsim2_technology()), ModelError);

    workload::NetworkBuilder b(workload::NetworkInfo{"pool_only", "", ""}, 1,
                               workload::TensorShape{3, 16, 16});
    workload::PoolSpec pool;
    pool.kernel_h = pool.kernel_w = pool.stride_h = pool.stride_w = 2;
    b.pool("p", workload::kNetworkInput, pool);
    const workload::Network net = std::move(b).build();
    EXPECT_THROW((void)cost_network_on_crossbars(net, CrossbarConfig{}, mnsim2_technology()), ModelError);
}

}  // namespace
}  // namespace pimdse::sim
