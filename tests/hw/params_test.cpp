// Hardware parameters, derived node facts and the legality check, on the three NicePIM
// systems (VIII-C, VIII-D) with every number computed by hand from Table II.

#include <gtest/gtest.h>

#include <stdexcept>
#include <unordered_set>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/hw/node.hpp"
#include "pimdse/hw/params.hpp"

namespace pimdse::hw {
namespace {

const HardwareParams kNicePim4x4{4, 4, 32, 32, 128, 128, 128};  // VIII-D
const HardwareParams kNicePim16x16{16, 16, 8, 8, 8, 8, 8};      // VIII-D
const HardwareParams kNicePimFinal{4, 8, 128, 8, 16, 144, 32};  // VIII-C

TEST(Constraints, DefaultsAreNicePimTableII) {
    const Constraints c;
    EXPECT_EQ(c.technology_nm, 28);
    EXPECT_EQ(c.bank_rows, 16);
    EXPECT_EQ(c.bank_cols, 16);
    EXPECT_EQ(c.bank_count(), 256);  // VIII-B: 256 banks
    EXPECT_EQ(c.bank_width_bits, 128);
    EXPECT_EQ(c.bank_capacity, Bytes(8 * 1024 * 1024));
    EXPECT_EQ(c.area_budget, SquareMillimetres(48.0));
    EXPECT_EQ(c.clock_mhz, 400.0);
    EXPECT_EQ(c.data_width_bits, 16);
    EXPECT_EQ(c.psum_width_bits, 32);
    EXPECT_EQ(c.node_rows, (Bounds{2, 16}));
    EXPECT_EQ(c.node_cols, (Bounds{2, 16}));
    EXPECT_EQ(c.pe_rows, (Bounds{1, 256}));
    EXPECT_EQ(c.pe_cols, (Bounds{1, 256}));
    EXPECT_EQ(c.buffer_kib, (Bounds{1, 2048}));
    EXPECT_EQ(c.dram_energy_per_bit, Picojoules(0.88));
    EXPECT_EQ(c.noc_energy_per_bit_hop, Picojoules(1.1));
    EXPECT_EQ(c.noc_virtual_channels, 8);
}

TEST(HardwareParams, ShortStringForm) {
    EXPECT_EQ(to_string(kNicePim4x4), "4x4 nodes, 32x32 PEs, 128/128/128 KiB");
    EXPECT_EQ(to_string(kNicePimFinal), "4x8 nodes, 128x8 PEs, 16/144/32 KiB");
    HardwareParams p = kNicePim4x4;
    p.clock_mhz = 800;
    p.data_width_bits = 8;
    EXPECT_EQ(to_string(p), "4x4 nodes, 32x32 PEs, 128/128/128 KiB, 800 MHz, 8-bit data");
}

TEST(HardwareParams, GetAndSetFollowParamOrder) {
    HardwareParams p;
    int v = 1;
    for (Param q : kAllParams) p.set(q, v++);
    EXPECT_EQ(p, (HardwareParams{1, 2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(p.get(Param::clock_mhz), 8);
    EXPECT_EQ(param_name(Param::data_width_bits), "data_width_bits");
    EXPECT_EQ(p.get(Param::wbuf_kib), 6);
    EXPECT_EQ(param_name(Param::obuf_kib), "obuf_kib");
}

TEST(HardwareParams, EqualityAndHashing) {
    HardwareParams copy = kNicePimFinal;
    EXPECT_EQ(copy, kNicePimFinal);
    EXPECT_EQ(std::hash<HardwareParams>{}(copy), std::hash<HardwareParams>{}(kNicePimFinal));
    copy.wbuf_kib = 136;
    EXPECT_NE(copy, kNicePimFinal);

    // Property: no collisions among 4 * 4 * 9 * 9 * 4 * 4 * 4 = 82944 neighbouring points, and a
    // memo table keyed by the parameters finds every one.
    std::unordered_set<std::size_t> hashes;
    std::unordered_set<HardwareParams> points;
    std::size_t n = 0;
    for (int nr : {2, 4, 8, 16})
        for (int nc : {2, 4, 8, 16})
            for (int pr = 1; pr <= 256; pr *= 2)
                for (int pc = 1; pc <= 256; pc *= 2)
                    for (int ib : {8, 16, 24, 32})
                        for (int wb : {8, 16, 24, 32})
                            for (int ob : {8, 16, 24, 32}) {
                                const HardwareParams p{nr, nc, pr, pc, ib, wb, ob};
                                hashes.insert(hash_value(p));
                                points.insert(p);
                                ++n;
                            }
    EXPECT_EQ(n, 82944u);
    EXPECT_EQ(hashes.size(), n);
    EXPECT_EQ(points.size(), n);
}

TEST(NodeFacts, NicePim4x4) {
    const NodeFacts f = node_facts(kNicePim4x4, Constraints{});
    EXPECT_EQ(f.node_count, 16);
    EXPECT_EQ(f.banks_per_node, 16);             // 256 / 16 (VIII-D: "each PIM-node has 16 DRAM banks")
    EXPECT_EQ(f.dram_port_bits, 2048);           // 16 * 128
    EXPECT_EQ(f.dram_capacity, mebibytes(128));  // 16 * 8 MiB
    EXPECT_EQ(f.flit_bits, 1024);                // 2048 / 2
}

TEST(NodeFacts, NicePim16x16) {
    const NodeFacts f = node_facts(kNicePim16x16, Constraints{});
    EXPECT_EQ(f.node_count, 256);
    EXPECT_EQ(f.banks_per_node, 1);
    EXPECT_EQ(f.dram_port_bits, 128);
    EXPECT_EQ(f.dram_capacity, mebibytes(8));
    EXPECT_EQ(f.flit_bits, 64);  // the 64-bit flits of VIII-E
}

TEST(NodeFacts, NicePimFinal4x8) {
    const NodeFacts f = node_facts(kNicePimFinal, Constraints{});
    EXPECT_EQ(f.node_count, 32);
    EXPECT_EQ(f.banks_per_node, 8);  // a 4x8 node array over 16x16 banks: 4x2 banks each
    EXPECT_EQ(f.dram_port_bits, 1024);
    EXPECT_EQ(f.dram_capacity, mebibytes(64));
    EXPECT_EQ(f.flit_bits, 512);
}

TEST(NodeFacts, FollowTheConstraints) {
    Constraints c;
    c.bank_rows = 8;
    c.bank_cols = 4;
    c.bank_width_bits = 64;
    c.bank_capacity = mebibytes(2);
    const NodeFacts f = node_facts(HardwareParams{2, 2, 1, 1, 1, 1, 1}, c);
    EXPECT_EQ(f.banks_per_node, 8);  // 32 banks / 4 nodes
    EXPECT_EQ(f.dram_port_bits, 512);
    EXPECT_EQ(f.dram_capacity, mebibytes(16));
    EXPECT_EQ(f.flit_bits, 256);
}

TEST(NodeFacts, RejectNodeArrayNotTilingTheBanks) {
    EXPECT_THROW((void)node_facts(HardwareParams{3, 4, 8, 8, 8, 8, 8}, Constraints{}), pimdse::ModelError);
    EXPECT_THROW((void)node_facts(HardwareParams{0, 4, 8, 8, 8, 8, 8}, Constraints{}), pimdse::ModelError);
}

TEST(Legality, NicePimSystemsAreLegal) {
    for (const HardwareParams& p : {kNicePim4x4, kNicePim16x16, kNicePimFinal}) {
        const Legality l = check(p, Constraints{});
        EXPECT_TRUE(l.legal()) << to_string(p) << ": " << l.str();
        EXPECT_EQ(l.str(), "legal");
    }
}

TEST(Legality, NodeArrayMustDivideBankArray) {
    const Legality l = check(HardwareParams{3, 6, 8, 8, 8, 8, 8}, Constraints{});
    ASSERT_EQ(l.violations.size(), 2u);
    EXPECT_EQ(l.violations[0].rule, Rule::divides_bank_array);
    EXPECT_EQ(l.violations[0].param, Param::node_rows);
    EXPECT_EQ(l.violations[0].str(), "node_rows: expected a divisor of the bank array's 16 rows, got 3");
    EXPECT_EQ(l.violations[1].param, Param::node_cols);
    EXPECT_EQ(l.violations[1].str(), "node_cols: expected a divisor of the bank array's 16 columns, got 6");
}

TEST(Legality, BoundsOfTableII) {
    const Legality l = check(HardwareParams{1, 32, 512, 256, 2048, 4096, 8}, Constraints{});
    ASSERT_EQ(l.violations.size(), 4u);
    for (const Violation& v : l.violations) EXPECT_EQ(v.rule, Rule::within_bounds);
    EXPECT_EQ(l.violations[0].str(), "node_rows: expected an integer in [2, 16], got 1");
    EXPECT_EQ(l.violations[1].str(), "node_cols: expected an integer in [2, 16], got 32");
    EXPECT_EQ(l.violations[2].str(), "pe_rows: expected an integer in [1, 256], got 512");
    EXPECT_EQ(l.violations[3].str(), "wbuf_kib: expected an integer in [1, 2048], got 4096");
    EXPECT_EQ(l.str(), l.violations[0].str() + "; " + l.violations[1].str() + "; " + l.violations[2].str() +
                           "; " + l.violations[3].str());
}

TEST(Legality, ValuesMustBePositive) {
    const Legality l = check(HardwareParams{4, 4, 0, 8, 8, -8, 8}, Constraints{});
    ASSERT_EQ(l.violations.size(), 2u);
    EXPECT_EQ(l.violations[0].rule, Rule::positive);
    EXPECT_EQ(l.violations[0].param, Param::pe_rows);
    EXPECT_EQ(l.violations[1].str(), "wbuf_kib: expected a positive integer, got -8");
}

TEST(Legality, DefaultParamsAreIllegal) {
    // A default-constructed point is all zeros: illegal in every Table I parameter, never
    // silently used; its clock and data width are the constraints'.
    EXPECT_EQ(check(HardwareParams{}, Constraints{}).violations.size(), kTableIParamCount);
}

TEST(Legality, ClockLetsAColumnAccessLastOneCycle) {
    // tCCD_L 6 ns: 1000 / 6 = 166.7 -> 167 MHz, the first clock with 6 ns >= one cycle.
    Technology t;
    EXPECT_EQ(min_clock_mhz(t), 167);
    t.dram_tccd_ns = 5.0;
    EXPECT_EQ(min_clock_mhz(t), 200);  // exactly one cycle at 200 MHz
    t.dram_tccd_ns = 0.0;
    EXPECT_EQ(min_clock_mhz(t), 1);
    HardwareParams p = kNicePim4x4;
    for (int mhz : {167, 200, 400, 800, kMaxClockMhz}) {
        p.clock_mhz = mhz;
        EXPECT_TRUE(check(p, Constraints{}).legal()) << mhz;
    }
    p.clock_mhz = 166;
    const Legality l = check(p, Constraints{});
    ASSERT_EQ(l.violations.size(), 1u);
    EXPECT_EQ(l.violations[0].rule, Rule::clock);
    EXPECT_EQ(l.violations[0].str(),
              "clock_mhz: expected an integer in [167, 100000] MHz (a DRAM column access, tCCD_L, lasts at "
              "least one node cycle), got 166");
    p.clock_mhz = kMaxClockMhz + 1;
    EXPECT_FALSE(check(p, Constraints{}).legal());
}

TEST(Legality, DataWidthIsAnyWidthUpToThePartialSums) {
    HardwareParams p{4, 4, 8, 8, 8, 8, 8};  // small enough for 32-bit PEs
    for (int w : {1, 4, 8, 12, 16, 24, 32}) {
        p.data_width_bits = w;
        EXPECT_TRUE(check(p, Constraints{}).legal()) << w;
    }
    for (int w : {-8, 33, 40}) {
        p.data_width_bits = w;
        const Legality l = check(p, Constraints{});
        ASSERT_EQ(l.violations.size(), 1u) << w;
        EXPECT_EQ(l.violations[0].rule, Rule::data_width);
        EXPECT_EQ(
            l.violations[0].str(),
            "data_width_bits: expected an integer in [1, 32] (psum_width_bits), got " + std::to_string(w));
    }
}

TEST(Legality, DataWidthDecidesTheAreaRule) {
    // The final 4x8 system uses 95 % of the budget at 16 bits; at 32 bits its 32 x 1024 PEs of
    // 3529 µm² alone are 115.6 mm², and at 8 bits it is far inside.
    HardwareParams p = kNicePimFinal;
    p.data_width_bits = 32;
    const Legality l = check(p, Constraints{});
    ASSERT_EQ(l.violations.size(), 1u);
    EXPECT_EQ(l.violations[0].rule, Rule::area);
    p.data_width_bits = 8;
    EXPECT_TRUE(check(p, Constraints{}).legal());
}

TEST(Legality, FollowsConstraintOverrides) {
    Constraints c;
    c.bank_rows = 12;
    c.node_rows = {1, 12};
    c.pe_cols = {1, 64};
    EXPECT_TRUE(check(HardwareParams{3, 4, 8, 64, 8, 8, 8}, c).legal());
    const Legality l = check(HardwareParams{8, 4, 8, 128, 8, 8, 8}, c);
    ASSERT_EQ(l.violations.size(), 2u);
    EXPECT_EQ(l.violations[0].str(), "node_rows: expected a divisor of the bank array's 12 rows, got 8");
    EXPECT_EQ(l.violations[1].str(), "pe_cols: expected an integer in [1, 64], got 128");
}

}  // namespace
}  // namespace pimdse::hw
