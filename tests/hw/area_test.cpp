// The area model and the area rule of hw::check: a small point computed by hand, monotonicity
// on random points, NicePIM's three systems under the 48 mm² budget (VIII-B, VIII-C, VIII-D),
// and a point far over it.

#include <gtest/gtest.h>

#include <iomanip>
#include <iostream>

#include "pimdse/core/rng.hpp"
#include "pimdse/hw/area.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/legality.hpp"

namespace pimdse::hw {
namespace {

const HardwareParams kNicePim4x4{4, 4, 32, 32, 128, 128, 128};  // VIII-D
const HardwareParams kNicePim16x16{16, 16, 8, 8, 8, 8, 8};      // VIII-D
const HardwareParams kNicePimFinal{4, 8, 128, 8, 16, 144, 32};  // VIII-C

constexpr double kTol = 1e-12;

// Round numbers, so that every term below can be checked by hand.
Technology round_technology() {
    Technology t;
    t.pe_area_um2 = 1000.0;
    t.sram_area_per_kib = SquareMillimetres(0.001);
    t.sram_area_per_buffer = SquareMillimetres(0.01);
    t.router_area_base = SquareMillimetres(0.1);
    t.router_buffer_area_um2_per_bit = 1.0;
    t.router_buffer_depth_flits = 2;
    t.dram_controller_area_per_bank = SquareMillimetres(0.05);
    return t;
}

TEST(Area, SmallPointByHand) {
    Constraints c;
    c.bank_rows = 4;
    c.bank_cols = 4;  // 16 banks of 128 bit; 8 VCs by default
    const AreaBreakdown a = area(HardwareParams{2, 2, 4, 8, 8, 16, 32}, c, round_technology());
    // 4 nodes of 4 banks: a 512-bit port, 256-bit flits.
    EXPECT_EQ(a.node_count, 4);
    EXPECT_NEAR(a.node.pe_array.value(), 32 * 1000e-6, kTol);          // 32 PEs of 1000 µm²
    EXPECT_NEAR(a.node.input_buffer.value(), 0.01 + 8 * 0.001, kTol);  // 0.018
    EXPECT_NEAR(a.node.weight_buffer.value(), 0.026, kTol);
    EXPECT_NEAR(a.node.output_buffer.value(), 0.042, kTol);
    EXPECT_NEAR(a.node.router.value(), 0.1 + 5 * 8 * 2 * 256 * 1e-6, kTol);  // 0.12048
    EXPECT_NEAR(a.node.dram_controller.value(), 4 * 0.05, kTol);
    EXPECT_NEAR(a.node.nn_engine().value(), 0.118, kTol);
    EXPECT_NEAR(a.nn_engines.value(), 4 * 0.118, kTol);
    EXPECT_NEAR(a.total.value(), 4 * (0.118 + 0.12048 + 0.2), kTol);
}

TEST(Area, DefaultTableOnTheFinalSystemByHand) {
    const AreaBreakdown a = area(kNicePimFinal, Constraints{}, Technology{});
    // 32 nodes x 1024 PEs x 1101.6 µm²; 32 x (3 x 0.005 + 192 KiB x 0.001486) mm².
    EXPECT_NEAR(a.nn_engines.value(), 32 * 1024 * 1101.6e-6 + 32 * (3 * 0.005 + 192 * 0.001486), 1e-9);
    // Routers: 5 ports x 8 VCs x 4 flits x 512 bit x 2.93 µm² + 0.005 mm², per node.
    EXPECT_NEAR(a.node.router.value(), 0.005 + 5 * 8 * 4 * 512 * 2.93e-6, 1e-12);
    // Bank controllers: 256 banks x 0.02 mm² whatever the node array.
    EXPECT_NEAR(a.node.dram_controller.value() * a.node_count, 256 * 0.02, 1e-12);
}

TEST(Area, NeverDecreasesWhenAPointGrows) {
    const Constraints c;
    const Technology t;
    const DesignSpace space = default_space(c);
    Rng rng(2024, 7);
    for (int i = 0; i < 2000; ++i) {
        DesignSpace::Index idx{};
        for (std::size_t k = 0; k < kParamCount; ++k)
            idx[k] = static_cast<std::size_t>(
                rng.uniform_int(0, static_cast<std::int64_t>(space.range(k).size()) - 1));
        const HardwareParams p = from_point(space.at(idx));
        const AreaBreakdown base = area(p, c, t);
        for (std::size_t k = 0; k < kParamCount; ++k) {
            const ParamRange& r = space.range(k);
            if (idx[k] + 1 >= r.size()) continue;
            DesignSpace::Index up = idx;
            ++up[k];
            const AreaBreakdown grown = area(from_point(space.at(up)), c, t);
            SCOPED_TRACE(to_string(p) + " growing " + std::string(param_name(kAllParams[k])));
            EXPECT_GE(grown.nn_engines.value(), base.nn_engines.value() * (1 - 1e-12));
            EXPECT_GE(grown.total.value(), base.total.value() * (1 - 1e-12));
        }
    }
}

TEST(Area, NicePimSystemsFitTheBudget) {
    const Constraints c;
    const Technology t;
    struct Case {
        const char* name;
        HardwareParams p;
    };
    for (const Case& k : {Case{"4x4 (VIII-D)", kNicePim4x4}, Case{"16x16 (VIII-D)", kNicePim16x16},
                          Case{"final 4x8 (VIII-C)", kNicePimFinal}}) {
        const AreaBreakdown a = area(k.p, c, t);
        const Legality l = check(k.p, c, t);
        EXPECT_TRUE(l.legal()) << k.name << ": " << l.str();
        EXPECT_LE(a.nn_engines, c.area_budget) << k.name;
        std::cout
            << std::fixed << std::setprecision(2) << "  " << std::left << std::setw(20) << k.name
            << " NN engines " << a.nn_engines.value() << " mm² of " << c.area_budget.value() << " (PE "
            << (a.node.pe_array * a.node_count).value() << ", SRAM "
            << ((a.node.input_buffer + a.node.weight_buffer + a.node.output_buffer) * a.node_count).value()
            << "); with routers and DRAM controllers " << a.total.value() << " mm²\n";
    }
    // The same 16384 MACs and 6 MiB of SRAM: the 4x4 and 16x16 systems differ only in the
    // per-buffer periphery of their 48 vs 768 buffers.
    const AreaBreakdown a4 = area(kNicePim4x4, c, t);
    const AreaBreakdown a16 = area(kNicePim16x16, c, t);
    EXPECT_NEAR((a16.nn_engines - a4.nn_engines).value(), (768 - 48) * t.sram_area_per_buffer.value(), 1e-9);
}

TEST(Area, RuleNamesTheAreaAndTheBudget) {
    Constraints c;
    c.area_budget = SquareMillimetres(20.0);
    const Legality l = check(kNicePim4x4, c, Technology{});  // 27.4 mm² of NN engines
    ASSERT_EQ(l.violations.size(), 1u);
    const Violation& v = l.violations[0];
    EXPECT_EQ(v.rule, Rule::area);
    EXPECT_FALSE(v.param.has_value());
    EXPECT_EQ(v.str(),
              "expected an NN-engine area (PE arrays + buffers of all nodes) within the budget of 20.00 mm², "
              "got 27.42 mm²");
    EXPECT_EQ(l.str(), v.str());
}

TEST(Area, FarOverBudgetIsIllegal) {
    const HardwareParams huge{16, 16, 256, 256, 8, 8, 8};  // 16.8 M MACs
    const Legality l = check(huge, Constraints{}, Technology{});
    ASSERT_EQ(l.violations.size(), 1u);
    EXPECT_EQ(l.violations[0].rule, Rule::area);
    EXPECT_GT(area(huge, Constraints{}, Technology{}).nn_engines.value(), 18000.0);
    // The two-argument check uses the default table, so it agrees.
    EXPECT_EQ(check(huge, Constraints{}).violations.size(), 1u);
}

TEST(Area, CheckedOnlyForAPointThatPassesTheOtherRules) {
    // 3 rows do not tile 16 bank rows, and the PEs are far over budget: only the tiling is
    // reported, since the area of nodes that are not equal is not defined.
    const Legality l = check(HardwareParams{3, 16, 256, 256, 8, 8, 8}, Constraints{}, Technology{});
    ASSERT_EQ(l.violations.size(), 1u);
    EXPECT_EQ(l.violations[0].rule, Rule::divides_bank_array);
}

TEST(Area, TechnologyOverridesChangeTheVerdict) {
    Technology t;
    t.pe_area_um2 *= 2;  // twice the PE area: the final system's 36 mm² of PEs become 72
    EXPECT_FALSE(check(kNicePimFinal, Constraints{}, t).legal());
    EXPECT_TRUE(check(kNicePimFinal, Constraints{}, Technology{}).legal());
}

TEST(Technology, SramEnergyGrowsWithTheSquareRootOfTheSize) {
    const Technology t;
    EXPECT_DOUBLE_EQ(t.sram_read_energy_per_bit(1).value(), 0.0344);
    EXPECT_DOUBLE_EQ(t.sram_read_energy_per_bit(64).value(), 8 * 0.0344);
    EXPECT_DOUBLE_EQ(t.sram_write_energy_per_bit(16).value(), 4 * 0.0344);
    EXPECT_EQ(t.noc_hop_cycles, 2);  // = sim::NocParams{}.hop_cycles
    EXPECT_EQ(t.dram_row_buffer, Bytes(1024));
}

}  // namespace
}  // namespace pimdse::hw
