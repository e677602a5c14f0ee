// The hetero3d family through the interface the engine sees (family::make_family): its space
// (one device per tier, 81 stacks, each point round-tripping to its stack), restrictions from
// `space:`, the resolved configuration reading back equal, an evaluation equal to the HuNT
// model's own functions (sim::greedy_placement, sim::cost_network_on_stack, the thermal
// stack, mapper::evaluate_placement) with energy parts that sum to the energy, the in-memory
// gradient model reaching the cost model, a stack that cannot train ending infeasible with the
// reason, the AMOSA option, and configuration errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include "../../src/family/hetero3d/hetero3d_family.hpp"
#include "../scratch_files.hpp"
#include "family_config.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/hw/neurosim_preset.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/mapper/tier_mapping.hpp"
#include "pimdse/sim/hetero3d_network.hpp"
#include "pimdse/sim/thermal.hpp"

namespace pimdse::family {
namespace {

namespace fs = std::filesystem;
using pimdse::testing::message_of;
using pimdse::testing::scratch;

const fs::path kVgg11 = fs::path(PIMDSE_SOURCE_DIR) / "inputs/networks/cifar10/vgg11_half_cifar10.yaml";

io::Config config(const std::string& extra) {
    return testing::family_config("hetero3d", extra, kVgg11, 1, "hetero3d.yaml");
}

eval::EvalContext context(const io::Config& c) {
    return testing::family_context(c);
}

DesignPoint stack_point(const Family& f, const std::string& stack) {
    return hetero3d_point(*hw::parse_stack(stack), f.space().family());
}

TEST(Hetero3dFamily, SpaceIsEveryStackOfFourTiers) {
    const auto f = make_family(config(""));
    EXPECT_EQ(f->name(), "hetero3d");
    EXPECT_EQ(f->space().family(), kHetero3dFamily);
    const DesignSpace& s = f->space();
    ASSERT_EQ(s.dimensions(), 4u);
    for (std::size_t t = 0; t < 4; ++t) {
        EXPECT_EQ(s.axis(t).name, std::string(1, 't') + std::to_string(t + 1));
        EXPECT_EQ(s.range(t).values(), std::vector<int>({1, 2, 3}));
    }
    EXPECT_EQ(s.size(), 81.0L);
    EXPECT_EQ(f->energy_parts().size(), 3u);
    EXPECT_EQ(f->metrics().size(), 6u);
}

// Every point of the space is one stack and back: hardware -> stack string -> point.
TEST(Hetero3dFamily, PointsRoundTripThroughStacks) {
    const io::Config c = config("");
    const auto f = make_family(c);
    std::set<std::string> stacks;
    DesignSpace::Index at{};
    for (std::size_t i = 0; i < 81; ++i) {
        std::size_t rest = i;
        for (std::size_t t = 4; t-- > 0;) at[t] = rest % 3, rest /= 3;
        const DesignPoint p = f->space().at(at);
        const hw::Hetero3dHardware h = hetero3d_hardware(p, c.hetero3d);
        EXPECT_EQ(h.tiers, 4);
        EXPECT_EQ(h.pes_per_tier, 16);
        const std::string name = hw::stack_string(h.stack);
        for (std::size_t t = 0; t < 4; ++t) EXPECT_EQ(device_code(h.stack[t]), p[t]) << name;
        EXPECT_EQ(stack_point(*f, name), p) << name;
        EXPECT_TRUE(f->legal(p));
        EXPECT_EQ(f->describe(p).substr(0, 4), name);
        stacks.insert(name);
    }
    EXPECT_EQ(stacks.size(), 81u);
    EXPECT_EQ(f->describe(stack_point(*f, "RRFS")), "RRFS (t1 at the sink), 4 x 16 PEs");
}

TEST(Hetero3dFamily, SpaceAndSettingsComeFromTheConfiguration) {
    const io::Config c = config(
        "space:\n  t4: {values: [1]}\nhetero3d: {tiers: 4, pes_per_tier: 9, tier_mapping: amosa, "
        "amosa_iterations: 20, adc_reading: neurosim_column_mux, gradients: in_memory}\n");
    const auto f = make_family(c);
    EXPECT_EQ(f->space().size(), 27.0L);
    EXPECT_EQ(f->space().range(3).values(), std::vector<int>({1}));
    EXPECT_FALSE(f->legal(stack_point(*f, "SSSR")));
    EXPECT_EQ(c.hetero3d.pes_per_tier, 9);
    EXPECT_EQ(c.hetero3d.tier_mapping, TierMapping::amosa);
    EXPECT_EQ(c.hetero3d.gradients, "in_memory");
    EXPECT_EQ(config("").hetero3d.gradients, "digital_float32");
    const io::Config back = io::parse_config(io::to_yaml(c), c.source_file);
    EXPECT_EQ(back, c) << io::to_yaml(c);
    EXPECT_EQ(back.hetero3d, c.hetero3d);
    EXPECT_EQ(make_family(config("hetero3d: {tiers: 2}\n"))->space().size(), 9.0L);
}

// `hetero3d.gradients: in_memory` reaches the cost model: the family's latency is the HuNT
// model's under that gradient model, and cheaper gradients raise the stack's TOPS/W.
TEST(Hetero3dFamily, InMemoryGradientsReachTheCostModel) {
    const io::Config c = config("hetero3d: {gradients: in_memory}\n");
    const auto f = make_family(c);
    const eval::EvalContext ctx = context(c);
    const DesignPoint p = stack_point(*f, "RRFS");
    const eval::Evaluation e = f->evaluate(ctx, 1, p, Deadline{});
    ASSERT_EQ(e.status, eval::Status::ok) << e.message;
    const io::Config plain = config("");
    const eval::Evaluation d = make_family(plain)->evaluate(context(plain), 1, p, Deadline{});
    ASSERT_EQ(d.status, eval::Status::ok) << d.message;

    const hw::Hetero3dHardware h = hetero3d_hardware(p, c.hetero3d);
    const workload::Network& net = ctx.workloads[0].network;
    sim::Hetero3dCostParams params;
    params.gradients = sim::GradientModel::in_memory;
    const sim::Hetero3dNetworkCost cost =
        sim::cost_network_on_stack(net, h, sim::greedy_placement(net, h), hw::neurosim_v2_1_preset(), params);
    ASSERT_TRUE(cost.ok);
    EXPECT_DOUBLE_EQ(e.latency_seconds, cost.latency_ns * 1e-9);
    EXPECT_LT(e.energy_joules, d.energy_joules);
    EXPECT_GT(e.metrics[4], d.metrics[4]);
}

// The family's numbers are the HuNT model's, computed here directly.
TEST(Hetero3dFamily, EvaluationIsTheHuntModels) {
    const io::Config c = config("");
    const auto f = make_family(c);
    const eval::EvalContext ctx = context(c);
    const DesignPoint p = stack_point(*f, "RRFS");
    const eval::Evaluation e = f->evaluate(ctx, 7, p, Deadline{});
    ASSERT_EQ(e.status, eval::Status::ok) << e.message;
    EXPECT_EQ(e.candidate, 7);

    const hw::Hetero3dHardware h = hetero3d_hardware(p, c.hetero3d);
    const workload::Network& net = ctx.workloads[0].network;
    const sim::Hetero3dPlacement placement = sim::greedy_placement(net, h);
    ASSERT_TRUE(placement.ok);
    const sim::Hetero3dNetworkCost cost =
        sim::cost_network_on_stack(net, h, placement, hw::neurosim_v2_1_preset(), sim::Hetero3dCostParams{});
    ASSERT_TRUE(cost.ok);
    double power = 0;
    for (double w : cost.tier_power_w) power += w;
    // The peak: the full 1-D form over every vertical stack of PEs, HuNT's calibrated R_b.
    const sim::ThermalStack thermal = sim::hunt_thermal_stack(4 * 0.4, 16, 4);
    double peak = 0;
    for (const std::vector<double>& column : sim::vertical_stacks(cost))
        peak = std::max(peak, sim::peak_temperature(thermal, column));

    EXPECT_DOUBLE_EQ(e.latency_seconds, cost.latency_ns * 1e-9);
    EXPECT_NEAR(e.energy_joules, power * cost.latency_ns * 1e-9, 1e-12 * e.energy_joules);
    EXPECT_DOUBLE_EQ(e.area_mm2, cost.area_mm2);
    EXPECT_DOUBLE_EQ(e.area_total_mm2, 102.4);  // HuNT: 4 tiers x 16 PEs x 4 tiles x 0.40 mm²
    ASSERT_EQ(e.metrics.size(), 6u);
    EXPECT_DOUBLE_EQ(e.metrics[0], peak);
    EXPECT_GT(peak, 300);
    EXPECT_DOUBLE_EQ(e.metrics[2], power);
    EXPECT_DOUBLE_EQ(e.metrics[3], cost.lifetime_iterations);
    const double ops = static_cast<double>(cost.ops);
    EXPECT_NEAR(e.metrics[4], ops * 1e-12 / (power * cost.latency_ns * 1e-9), 1e-9 * e.metrics[4]);
    EXPECT_NEAR(e.metrics[5], ops * 1e-12 / (cost.latency_ns * 1e-9) / cost.area_mm2, 1e-9 * e.metrics[5]);

    mapper::TierModel model;
    model.preset = &hw::neurosim_v2_1_preset();
    model.thermal = thermal;
    const std::optional<mapper::TierEvaluation> direct = mapper::evaluate_placement(net, h, placement, model);
    ASSERT_TRUE(direct);
    EXPECT_DOUBLE_EQ(e.metrics[1], direct->err);
    EXPECT_GT(direct->err, 0);  // ReRAM and FeFET tiers hold layers

    ASSERT_EQ(e.networks.size(), 1u);
    const eval::NetworkResult& r = e.networks[0];
    ASSERT_EQ(r.energy_parts_pj.size(), 3u);
    EXPECT_NEAR(r.energy_parts_pj[0] + r.energy_parts_pj[1] + r.energy_parts_pj[2],
                r.cost.energy.total().value(), 1e-9 * r.cost.energy.total().value());
    EXPECT_DOUBLE_EQ(r.energy_parts_pj[1], cost.comm_energy_pj);
    EXPECT_GT(r.energy_parts_pj[2], 0);  // the SRAM tier leaks
}

TEST(Hetero3dFamily, AStackWithoutSramCannotTrain) {
    const auto f = make_family(config(""));
    const io::Config c = config("");
    const eval::Evaluation e = f->evaluate(context(c), 0, stack_point(*f, "RRFF"), Deadline{});
    EXPECT_EQ(e.status, eval::Status::infeasible);
    EXPECT_TRUE(std::isinf(e.cost));
    EXPECT_NE(e.message.find("cannot run workload 'vgg11_half_cifar10'"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("no SRAM tier"), std::string::npos) << e.message;
}

// With `tier_mapping: amosa` a workload's numbers are those of the AMOSA front's best by
// TOPS/W (mapper::map_tiers, mapper::pick_mapping), the same on every call.
TEST(Hetero3dFamily, AmosaMappingIsTheFrontsBestByTopsPerWatt) {
    const io::Config c = config("hetero3d: {tier_mapping: amosa, amosa_iterations: 30, amosa_seed: 3}\n");
    const auto f = make_family(c);
    const eval::EvalContext ctx = context(c);
    const DesignPoint p = stack_point(*f, "RFSS");
    const eval::Evaluation a = f->evaluate(ctx, 0, p, Deadline{});
    const eval::Evaluation b = f->evaluate(ctx, 0, p, Deadline{});
    ASSERT_EQ(a.status, eval::Status::ok) << a.message;
    EXPECT_EQ(a.metrics, b.metrics);
    EXPECT_EQ(a.latency_seconds, b.latency_seconds);

    const hw::Hetero3dHardware h = hetero3d_hardware(p, c.hetero3d);
    const workload::Network& net = ctx.workloads[0].network;
    mapper::TierModel model;
    model.preset = &hw::neurosim_v2_1_preset();
    model.thermal = sim::hunt_thermal_stack(4 * 0.4, 16, 4);
    mapper::TierMappingOptions opt;
    opt.iterations = 30;
    opt.seed = 3;
    const mapper::TierMappingResult found = mapper::map_tiers(net, h, model, opt);
    std::vector<mapper::TierEvaluation> front;
    for (const sim::Hetero3dPlacement& pl : found.front)
        front.push_back(*mapper::evaluate_placement(net, h, pl, model));
    const std::optional<std::size_t> at =
        mapper::pick_mapping(front, mapper::PickBy::tops_per_w, std::nullopt);
    ASSERT_TRUE(at);
    const mapper::TierEvaluation& best = front[*at];
    EXPECT_DOUBLE_EQ(a.latency_seconds, best.cost.latency_ns * 1e-9);
    EXPECT_DOUBLE_EQ(a.metrics[0], best.peak_k);
    EXPECT_DOUBLE_EQ(a.metrics[1], best.err);
    for (const mapper::TierEvaluation& other : front)
        EXPECT_GE(a.metrics[4] * (1 + 1e-12), mapper::efficiency(other.cost).tops_per_w);
}

TEST(Hetero3dFamily, ConfigurationErrorsNameFileKeyAndExpectation) {
    const auto fails = [](const std::string& extra, const std::string& want) {
        const std::string msg = message_of([&] { (void)make_family(config(extra)); });
        EXPECT_NE(msg.find(want), std::string::npos) << msg;
        EXPECT_NE(msg.find("hetero3d.yaml"), std::string::npos) << msg;
    };
    fails("space:\n  t5: {values: [1]}\n", "key 'space.t5': expected a tier of the hetero3d stack, t1 to t4");
    fails("space:\n  t2: {values: [1, 4]}\n", "key 'space.t2': expected device codes in [1, 3]");
    fails("hetero3d: {adc_reading: sar}\n", "key 'hetero3d.adc_reading'");
    fails("hetero3d: {gradients: fixed16}\n", "key 'hetero3d.gradients'");
    fails("hetero3d: {tier_mapping: exhaustive}\n", "hetero3d.tier_mapping");
    fails("hetero3d: {pes_per_tier: 0}\n", "hetero3d.pes_per_tier");
    fails("hetero3d: {colour: red}\n", "colour");
}

}  // namespace
}  // namespace pimdse::family
