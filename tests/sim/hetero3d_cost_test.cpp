// Per-phase costs on a heterogeneous 3-D manycore (sim/hetero3d_cost.hpp), each case computed
// by hand from the constants of docs/model.md ("HuNT: per-layer costs"): Manhattan hops on
// small 3-D meshes, a transfer, a fully connected layer on each device, the in-memory
// gradient model against the forward pass, the update's writes and lifetime, the error
// surrogate.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../scratch_files.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/sim/hetero3d_cost.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::sim {
namespace {

using hw::PimDevice;
using pimdse::testing::message_of;
using workload::PhaseStep;
using workload::TrainingPhase;

hw::Hetero3dHardware hunt(int pes_per_tier = 16, int tiers = 4) {
    return {tiers, pes_per_tier, 4, SquareMillimetres(0.40),
            std::vector<PimDevice>(static_cast<std::size_t>(tiers), PimDevice::sram)};
}

// fc: 256 -> 10 without bias, batch 1: 2560 MACs and weights.
workload::Network fc_network(std::int64_t in = 256, std::int64_t out = 10) {
    workload::NetworkBuilder b({"fc_net", "", ""}, 1, {in, 1, 1});
    workload::LinearSpec spec;
    spec.out_features = out;
    spec.flatten = true;
    b.linear("fc", workload::kNetworkInput, spec);
    return std::move(b).build().with_mode(workload::NetworkMode::training);
}

PhaseStep step_of(const workload::Network& net, TrainingPhase phase) {
    for (const PhaseStep& s : workload::phase_steps(net))
        if (s.phase == phase) return s;
    throw ModelError("no such phase");
}

const hw::NeuroSimPreset& preset() {
    return hw::neurosim_v2_1_preset();
}

TEST(Hetero3dMesh, CoordinatesAndHops) {
    const auto h = hunt();  // 4 x 4 PEs per tier, 4 tiers
    EXPECT_EQ(manhattan_hops(pe_coordinate(h, 0, 0), pe_coordinate(h, 3, 15)), 3 + 3 + 3);
    EXPECT_EQ(manhattan_hops(pe_coordinate(h, 1, 5), pe_coordinate(h, 1, 6)), 1);
    EXPECT_EQ(manhattan_hops(pe_coordinate(h, 0, 4), pe_coordinate(h, 2, 1)),
              1 + 1 + 2);  // (0,1,0) to (1,0,2)
    // 6 PEs a tier: 3 columns, PE 4 at (1, 1).
    const MeshCoord c = pe_coordinate(hunt(6, 2), 1, 4);
    EXPECT_EQ(c.x, 1);
    EXPECT_EQ(c.y, 1);
    EXPECT_EQ(c.z, 1);
    EXPECT_THROW((void)pe_coordinate(h, 4, 0), ModelError);
}

TEST(Hetero3dMesh, MeanHopsOnATwoByTwoByTwoMesh) {
    const auto h = hunt(4, 2);
    // {0 (0,0), 3 (1,1)} on t1 to {1 (1,0)} on t2: 1 + 0 + 1 and 0 + 1 + 1.
    EXPECT_DOUBLE_EQ(mean_hops(h, {0, {0, 3}}, {1, {1}}), 2.0);
    // {0, 1} to {2, 3} on one tier: 1, 2, 2, 1.
    EXPECT_DOUBLE_EQ(mean_hops(h, {0, {0, 1}}, {0, {2, 3}}), 1.5);
}

TEST(Hetero3dComm, FlitsTimesHops) {
    const auto h = hunt(4, 2);
    const CommCost c = communication_cost(h, {0, {0, 3}}, {1, {1}}, 100, 16, {});
    EXPECT_EQ(c.flits, 25);                        // 1600 bits in 64-bit flits
    EXPECT_DOUBLE_EQ(c.latency_ns, 25 * 2 * 2.0);  // 2 hops of 2 cycles at 1 GHz
    EXPECT_DOUBLE_EQ(c.energy_pj, 25 * 2 * 64 * 1.1);
}

TEST(Hetero3dPhase, SramDigitalByHand) {
    const auto net = fc_network();
    const auto& fc = net.layer(0);
    const PhaseCost f =
        cost_phase(fc, step_of(net, TrainingPhase::forward), PimDevice::sram, 1, hunt(), preset(), {});
    ASSERT_TRUE(f.ok());
    // 4 tiles x 256 bits / 16 bits = 64 MACs a ns; (0.85 + 16 x 10 / 64) pJ a MAC.
    EXPECT_DOUBLE_EQ(f.compute_ns, 2560 / 64.0);
    EXPECT_NEAR(f.compute_pj, 2560 * (0.85 + 2.5), 1e-9);
    // 4 tiles x 9 arrays x 256 x 256 cells x NeuroSim's 11.993 pW a cell (32 nm LSTP): 28.3 µW.
    const double leak_mw = 4 * 9 * 256 * 256 * preset().sram_cell_leakage_pw() * 1e-9;
    EXPECT_NEAR(leak_mw, 0.028295, 1e-6);
    EXPECT_NEAR(f.leakage_mw, leak_mw, 1e-12);
    EXPECT_NEAR(f.power_mw(), 2560 * 3.35 / 40 + leak_mw, 1e-9);
    EXPECT_NEAR(f.area.value(), 1.6, 1e-12);
    const PhaseCost g = cost_phase(fc, step_of(net, TrainingPhase::weight_gradient), PimDevice::sram, 1,
                                   hunt(), preset(), {});
    EXPECT_DOUBLE_EQ(g.compute_ns, 2560 / 32.0);  // 32-bit operands
    EXPECT_NEAR(g.compute_pj, 2560 * (4.6 + 5.0), 1e-9);
    EXPECT_TRUE(std::isinf(g.lifetime_iterations));
}

TEST(Hetero3dPhase, ReramCrossbarByHand) {
    const auto net = fc_network();
    Hetero3dCostParams copies;
    copies.replicate_weights = true;
    const PhaseCost c = cost_phase(net.layer(0), step_of(net, TrainingPhase::forward), PimDevice::reram, 1,
                                   hunt(), preset(), copies);
    ASSERT_TRUE(c.ok()) << c.reason;
    // 256 rows x 10 x 8 two-bit cells = 80 columns: 2 crossbars of 128 x 128; 1 PE holds
    // 4 x 96 = 384, so 192 copies and one position. 16 one-bit input cycles; a read is the
    // 10 ns pulse and the crossbar's one ADC converting 80 columns at (8 + 1) ns.
    EXPECT_EQ(c.crossbars, 2);
    EXPECT_EQ(c.replicas, 192);
    EXPECT_DOUBLE_EQ(c.compute_ns, 16 * (10 + 80 * 9.0));
    // Energy per read: 2 x 80 conversions of NeuroSim's 8-bit SAR ADC on a column of 128 cells
    // of G the mean of 1/240 kΩ and 1/24 MΩ; the fit's power holds the column current, so the
    // cells' V² G t is not added (NeuroSim's SubArray counts no such term).
    const double g = 0.5 / 240e3 + 0.5 / 24e6;
    const double column = 1 / (128 * g);
    const double adc_uw = 1.1294 * 8 + 8.8998 + 0.079449e6 * std::exp(-2.297 * std::log10(column));
    const double adc = adc_uw * 9 * 1e-3;
    EXPECT_NEAR(c.compute_pj, 16 * 160 * adc, 1e-6);
    EXPECT_EQ(c.leakage_mw, 0.0);
    // One copy (the default): the same reads, energy and latency for one position.
    const PhaseCost one = cost_phase(net.layer(0), step_of(net, TrainingPhase::forward), PimDevice::reram, 1,
                                     hunt(), preset(), {});
    EXPECT_EQ(one.replicas, 1);
    EXPECT_DOUBLE_EQ(one.compute_ns, c.compute_ns);
    EXPECT_DOUBLE_EQ(one.compute_pj, c.compute_pj);
}

TEST(Hetero3dPhase, AdcReadingsByHand) {
    const auto net = fc_network();
    const PhaseStep fwd = step_of(net, TrainingPhase::forward);
    Hetero3dCostParams mux;
    mux.adc_reading = AdcReading::neurosim_column_mux;
    const PhaseCost tile = cost_phase(net.layer(0), fwd, PimDevice::reram, 1, hunt(), preset(), {});
    const PhaseCost col = cost_phase(net.layer(0), fwd, PimDevice::reram, 1, hunt(), preset(), mux);
    // 80 used columns: one ADC a crossbar converts 80 in turn; 128 / 8 = 16 ADCs a crossbar
    // convert ceil(80 / 16) = 5 each. The same conversions, so the same energy.
    EXPECT_DOUBLE_EQ(tile.compute_ns, 16 * (10 + 80 * 9.0));
    EXPECT_DOUBLE_EQ(col.compute_ns, 16 * (10 + 5 * 9.0));
    EXPECT_DOUBLE_EQ(col.compute_pj, tile.compute_pj);
    // FeFET reads through sense amplifiers under either reading.
    const PhaseCost f = cost_phase(net.layer(0), fwd, PimDevice::fefet, 1, hunt(), preset(), mux);
    EXPECT_DOUBLE_EQ(f.compute_ns, 16 * 12.0);
    EXPECT_EQ(adc_reading_from_name("neurosim_column_mux", "k"), AdcReading::neurosim_column_mux);
    EXPECT_EQ(adc_reading_name(AdcReading::table_ii_tile), "table_ii_tile");
    EXPECT_THROW((void)adc_reading_from_name("per_crossbar", "hetero3d.adc_reading"), ConfigError);
}

TEST(Hetero3dPhase, InMemoryGradientsCostTheSramForwardPass) {
    const auto net = fc_network();
    const auto& fc = net.layer(0);
    Hetero3dCostParams cim;
    cim.gradients = GradientModel::in_memory;
    const PhaseCost fwd =
        cost_phase(fc, step_of(net, TrainingPhase::forward), PimDevice::sram, 1, hunt(), preset(), {});
    for (TrainingPhase phase : {TrainingPhase::activation_gradient, TrainingPhase::weight_gradient}) {
        const PhaseCost g = cost_phase(fc, step_of(net, phase), PimDevice::sram, 1, hunt(), preset(), cim);
        ASSERT_TRUE(g.ok()) << g.reason;
        // 2560 MACs at 16 bits: 64 MACs a ns, (0.85 + 16 x 10 / 64) = 3.35 pJ a MAC, exactly
        // the forward pass of the layer on the same PE.
        EXPECT_DOUBLE_EQ(g.compute_ns, 2560 / 64.0);
        EXPECT_NEAR(g.compute_pj, 2560 * 3.35, 1e-9);
        EXPECT_EQ(g.compute_ns, fwd.compute_ns);
        EXPECT_EQ(g.compute_pj, fwd.compute_pj);
        EXPECT_EQ(g.leakage_mw, fwd.leakage_mw);
        // The default is HuNT's text: 32-bit float, 9.6 pJ a MAC at half the rate.
        const PhaseCost d = cost_phase(fc, step_of(net, phase), PimDevice::sram, 1, hunt(), preset(), {});
        EXPECT_DOUBLE_EQ(d.compute_ns, 2560 / 32.0);
        EXPECT_NEAR(d.compute_pj, 2560 * 9.6, 1e-9);
    }
    // The update stays at the gradients' precision; a float gradient still cannot run on a
    // crossbar tier (the model changes the SRAM tier's costing, not the placement rule).
    const PhaseCost u =
        cost_phase(fc, step_of(net, TrainingPhase::weight_update), PimDevice::sram, 1, hunt(), preset(), cim);
    EXPECT_NEAR(u.compute_pj, 2560 * 9.6, 1e-9);
    const PhaseCost r = cost_phase(fc, step_of(net, TrainingPhase::weight_gradient), PimDevice::reram, 1,
                                   hunt(), preset(), cim);
    EXPECT_EQ(r.status, PhaseStatus::float_on_crossbar);
    EXPECT_EQ(Hetero3dCostParams{}.gradients, GradientModel::digital_float32);
    EXPECT_EQ(gradient_model_from_name("in_memory", "k"), GradientModel::in_memory);
    EXPECT_EQ(gradient_model_name(GradientModel::digital_float32), "digital_float32");
    const std::string msg = message_of([] { (void)gradient_model_from_name("fixed", "hetero3d.gradients"); });
    EXPECT_NE(msg.find("hetero3d.gradients"), std::string::npos) << msg;
    EXPECT_NE(msg.find("digital_float32, in_memory"), std::string::npos) << msg;
}

TEST(Hetero3dPhase, FefetCrossbarByHand) {
    const auto net = fc_network();
    const PhaseCost c = cost_phase(net.layer(0), step_of(net, TrainingPhase::forward), PimDevice::fefet, 1,
                                   hunt(), preset(), {});
    ASSERT_TRUE(c.ok()) << c.reason;
    // 16 one-bit cells a weight: 160 columns of one 256 x 256 crossbar, 256 sense amplifiers
    // each read once: 10 ns + (1 + 1) ns a read.
    EXPECT_EQ(c.crossbars, 1);
    EXPECT_DOUBLE_EQ(c.compute_ns, 16 * 12.0);
    const double g = 0.5 / 240e3 + 0.5 / 24e6;
    const double column = 1 / (256 * g);
    const double sa = (1.1294 + 8.8998 + 0.079449e6 * std::exp(-2.297 * std::log10(column))) * 2 * 1e-3;
    EXPECT_NEAR(c.compute_pj, 16 * 160 * sa, 1e-6);
}

TEST(Hetero3dPhase, GradientsOnCrossbarsAndOversizedLayersAreStatuses) {
    const auto net = fc_network();
    const PhaseCost dag = cost_phase(net.layer(0), step_of(net, TrainingPhase::activation_gradient),
                                     PimDevice::reram, 1, hunt(), preset(), {});
    EXPECT_EQ(dag.status, PhaseStatus::float_on_crossbar);
    EXPECT_NE(dag.reason.find("fc"), std::string::npos);
    // 4096 x 4096 at 8 cells a weight: 32 x 256 crossbars, more than one PE's 384.
    const auto big = fc_network(4096, 4096);
    const PhaseCost f = cost_phase(big.layer(0), step_of(big, TrainingPhase::forward), PimDevice::reram, 1,
                                   hunt(), preset(), {});
    EXPECT_EQ(f.status, PhaseStatus::too_few_pes);
    EXPECT_EQ(f.crossbars, 32 * 256);
    EXPECT_THROW((void)cost_phase(big.layer(0), step_of(big, TrainingPhase::forward), PimDevice::reram, 0,
                                  hunt(), preset(), {}),
                 ModelError);
}

TEST(Hetero3dPhase, UpdateWritesAndLifetimeByHand) {
    const auto net = fc_network();
    const PhaseStep up = step_of(net, TrainingPhase::weight_update);
    // ReRAM: 256 x 80 cells, each written once, 2 nJ a cell; 128 rows of 100 ns.
    const PhaseCost r = cost_phase(net.layer(0), up, PimDevice::reram, 1, hunt(), preset(), {});
    EXPECT_EQ(r.cells_written, 256 * 80);
    EXPECT_DOUBLE_EQ(r.write_pj, 256.0 * 80 * 2000);
    // With copies, every one of the 192 is reprogrammed.
    Hetero3dCostParams copies;
    copies.replicate_weights = true;
    EXPECT_EQ(cost_phase(net.layer(0), up, PimDevice::reram, 1, hunt(), preset(), copies).cells_written,
              192 * 256 * 80);
    EXPECT_DOUBLE_EQ(r.write_ns, 128 * 100.0);
    EXPECT_DOUBLE_EQ(r.lifetime_iterations, 1e8);  // one write a cell an iteration: Table I's 1e8
    // The update's arithmetic: 2560 float multiply-adds in the digital periphery.
    EXPECT_NEAR(r.compute_pj, 2560 * (4.6 + 5.0), 1e-9);
    // FeFET: 256 x 160 one-bit cells at 5 pJ; 256 rows of 3 ns; 1e5 iterations.
    const PhaseCost f = cost_phase(net.layer(0), up, PimDevice::fefet, 1, hunt(), preset(), {});
    EXPECT_EQ(f.cells_written, 256 * 160);
    EXPECT_DOUBLE_EQ(f.write_pj, 256.0 * 160 * 5);
    EXPECT_DOUBLE_EQ(f.write_ns, 256 * 3.0);
    EXPECT_DOUBLE_EQ(f.lifetime_iterations, 1e5);
    // SRAM: 2560 x 16 bits, 4 x 256 bits a 1 ns cycle, 3 pJ a bit.
    const PhaseCost s = cost_phase(net.layer(0), up, PimDevice::sram, 1, hunt(), preset(), {});
    EXPECT_EQ(s.cells_written, 2560 * 16);
    EXPECT_DOUBLE_EQ(s.write_ns, 40.0);
    EXPECT_DOUBLE_EQ(s.write_pj, 2560 * 16 * 3.0);
    EXPECT_DOUBLE_EQ(s.lifetime_iterations, 1e17);
}

TEST(Hetero3dError, SurrogatePerDevice) {
    const auto net = fc_network();
    const Hetero3dCostParams p;
    // 2560 weights + 10 outputs; 350 K is one 50 K scale above the 300 K ambient.
    EXPECT_NEAR(error_surrogate(net.layer(0), PimDevice::reram, 350, p), 2570 * std::exp(1.0), 1e-9);
    EXPECT_NEAR(error_surrogate(net.layer(0), PimDevice::fefet, 350, p), 2570.0, 1e-9);
    EXPECT_EQ(error_surrogate(net.layer(0), PimDevice::sram, 350, p), 0.0);
    EXPECT_DOUBLE_EQ(noise_factor(PimDevice::reram, 300, p), 1.0);
    EXPECT_DOUBLE_EQ(noise_factor(PimDevice::fefet, 300, p), 0.0);
}

}  // namespace
}  // namespace pimdse::sim
