// Loop orders as permutations: the analytic DRAM model under the 120 orders of the five tile
// loops B, K, C, P, Q (R and S whole: innermost, or anywhere) against the trace reference
// (dram_reference.hpp) on small part-layers whose loops have more than one tile each (where
// they have more than one iteration), so that no two orders that differ in the nest cost the
// same by accident; the order type's spelling and parsing; and the fast path's four orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "dram_suite.hpp"
#include "pimdse/core/error.hpp"

namespace pimdse::sim {
namespace {

using dram_suite::grouped;
using dram_suite::kBCHW;
using dram_suite::kBHWC;
using dram_suite::rel;

TEST(LoopOrder, SpellsAndParsesEveryPermutation) {
    const auto& all = all_loop_orders();
    std::set<std::string> names;
    for (const LoopOrder& o : all) {
        EXPECT_TRUE(is_permutation(o));
        const std::string s = to_string(o);
        names.insert(s);
        EXPECT_EQ(parse_loop_order(s), o) << s;
    }
    EXPECT_EQ(names.size(), kAllOrderCount);
    EXPECT_EQ(to_string(all.front()), "bkcpqrs");
    EXPECT_EQ(to_string(all.back()), "srqpckb");
    // The four named orders keep their names, which spell their loops outer to inner.
    for (const LoopOrder& o : kFastOrders)
        EXPECT_NE(std::find(all.begin(), all.end(), o), all.end()) << to_string(o);
    EXPECT_EQ(to_string(LoopOrder::kbpqc), "kbpqcrs");
    EXPECT_EQ(to_string(LoopOrder::bpqkc), "bpqkcrs");
    EXPECT_EQ(to_string(LoopOrder::kcbpq), "kcbpqrs");
    EXPECT_EQ(to_string(LoopOrder::bpqck), "bpqckrs");
    EXPECT_EQ(parse_loop_order("CKBPQ"), parse_loop_order("ckbpq"));
    EXPECT_EQ(parse_loop_order("RKBSPCQ"), parse_loop_order("rkbspcq"));
    // Five letters: the orders before R and S were tile loops, R and S innermost.
    for (const LoopOrder& o : kFastOrders) EXPECT_EQ(parse_loop_order(to_string(o).substr(0, 5)), o);
    EXPECT_EQ(to_string(parse_loop_order("qpckb")), "qpckbrs");
    for (const char* bad :
         {"", "kbpq", "kbpqcc", "kbpqk", "kbpqx", "kbp c", "kbpqr", "kbpqcr", "kbpqcrr", "kbpqcrsq"})
        EXPECT_THROW((void)parse_loop_order(bad), ModelError) << bad;
    try {
        (void)parse_loop_order("kkpqc");
        ADD_FAILURE();
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("permutation"), std::string::npos) << e.what();
    }
}

struct PermCase {
    const char* name;
    PartLayer layer;
    NodeSpec node;
    std::array<std::int64_t, kLoopDims> tile;
    DataLayout in, out;
};

// The 120 orders with R and S innermost, in all_loop_orders()'s order: with whole kernels R and
// S have one tile, so every order costs as one of these.
std::vector<LoopOrder> five_loop_orders() {
    std::vector<LoopOrder> v;
    for (const LoopOrder& o : all_loop_orders())
        if (o.loops[kLoopDims - 2] == LoopDim::R && o.loops[kLoopDims - 1] == LoopDim::S) v.push_back(o);
    return v;
}

// Small part-layers with at least two tiles along every loop of more than one iteration (B
// included), last tiles partial along some: a dense 3x3 convolution, a stride-2 1x1 projection, a fully
// connected layer, an attention matmul and a depthwise convolution.
std::vector<PermCase> permutation_cases() {
    std::vector<PermCase> v;
    v.push_back({"conv3x3",
                 PartLayer::convolution(12, 10, 6, 5, 3, 1, 2),
                 NodeSpec::with_banks(4, 4, 4, 1),
                 {1, 4, 4, 4, 2, 3, 3},
                 kBCHW,
                 kBCHW});
    v.push_back({"proj1x1s2",
                 PartLayer::convolution(16, 12, 7, 7, 1, 2, 2),
                 NodeSpec::with_banks(4, 4, 4, 4),
                 {1, 8, 4, 4, 4, 1, 1},
                 kBHWC,
                 grouped(4)});
    PartLayer fc = PartLayer::convolution(40, 48, 1, 1, 1, 1, 6);
    v.push_back({"fc", fc, NodeSpec::with_banks(4, 4, 4, 1), {4, 16, 16, 1, 1, 1, 1}, grouped(8), kBCHW});
    PartLayer attn = PartLayer::convolution(12, 16, 12, 1, 1, 1, 2);
    attn.has_weights = false;
    v.push_back({"attn", attn, NodeSpec::with_banks(4, 4, 4, 4), {1, 4, 8, 4, 1, 1, 1}, kBCHW, kBHWC});
    PartLayer dw = PartLayer::convolution(10, 1, 6, 6, 3, 1, 2);
    dw.depthwise = true;
    v.push_back({"dw", dw, NodeSpec::with_banks(4, 4, 4, 1), {1, 4, 1, 4, 4, 3, 3}, kBHWC, kBCHW});
    return v;
}

// Every order against the trace: element and fetch counts exact (the same nest), and the
// accesses and activations within the bounds the four orders meet on the validation suite
// (dram_test.cpp: mean |error| <= 5 %, 95 % of the cases within 5 % of the activations).
// The analytic model must also give what dram_traffic_orders gives for the same order, and
// the orders must cost differently (a permutation costed as another would fail the trace).
TEST(DramPermutations, EveryOrderMatchesTheTrace) {
    double sum_acc = 0, max_acc = 0, sum_act = 0, max_act = 0;
    std::size_t n = 0, act_within = 0, exact_acc = 0;
    for (const PermCase& c : permutation_cases()) {
        Tiling t;
        t.tile = c.tile;
        for (std::size_t d = 0; d < kFastLoopDims; ++d) {  // R and S whole
            const std::int64_t e = extent(c.layer, static_cast<LoopDim>(d));
            if (e > 1) {
                ASSERT_LT(c.tile[d], e) << c.name;
            }
        }
        const std::vector<LoopOrder> orders = five_loop_orders();
        const std::vector<DramTraffic> batch = dram_traffic_orders(c.layer, c.node, t, c.in, c.out, orders);
        std::set<std::vector<std::int64_t>> distinct;
        for (std::size_t o = 0; o < orders.size(); ++o) {
            t.order = orders[o];
            const std::string what = std::string(c.name) + " " + to_string(t);
            const DramTraffic a = dram_traffic(c.layer, c.node, t, c.in, c.out);
            EXPECT_EQ(batch[o], a) << what;
            const DramTraffic s = simulate_dram_trace(c.layer, c.node, t, c.in, c.out);
            std::vector<std::int64_t> signature;
            for (std::size_t x = 0; x < kTensors; ++x) {
                const auto tensor = static_cast<Tensor>(x);
                EXPECT_EQ(a[tensor].read_elements, s[tensor].read_elements)
                    << what << " " << to_string(tensor);
                EXPECT_EQ(a[tensor].write_elements, s[tensor].write_elements)
                    << what << " " << to_string(tensor);
                EXPECT_EQ(a[tensor].fetches, s[tensor].fetches) << what << " " << to_string(tensor);
                signature.insert(signature.end(), {a[tensor].read_elements, a[tensor].write_elements,
                                                   a[tensor].read_accesses, a[tensor].activations});
            }
            distinct.insert(signature);
            // Exact on these cases, as on most of the validation suite's.
            EXPECT_EQ(a.accesses(), s.accesses()) << what;
            EXPECT_EQ(a.activations(), s.activations()) << what;
            const double e_acc = rel(static_cast<double>(a.accesses()), static_cast<double>(s.accesses()));
            const double e_act =
                rel(static_cast<double>(a.activations()), static_cast<double>(s.activations()));
            sum_acc += std::abs(e_acc);
            sum_act += std::abs(e_act);
            max_acc = std::max(max_acc, std::abs(e_acc));
            max_act = std::max(max_act, std::abs(e_act));
            act_within += std::abs(e_act) <= 0.05 ? 1 : 0;
            exact_acc += a.accesses() == s.accesses() ? 1 : 0;
            ++n;
        }
        // The cases tell orders apart: costing one permutation as another would miss the trace.
        std::printf("%s: %zu distinct traffics over the 120 orders\n", c.name, distinct.size());
        EXPECT_GE(distinct.size(), 4U) << c.name;
    }
    const double m = static_cast<double>(n);
    std::printf(
        "%zu orders x cases: accesses exact in %zu, mean |error| %.2f%%, max %.2f%%; activations mean "
        "|error| "
        "%.2f%%, max %.2f%%, %zu within 5%%\n",
        n, exact_acc, 100 * sum_acc / m, 100 * max_acc, 100 * sum_act / m, 100 * max_act, act_within);
    EXPECT_LE(sum_acc / m, 0.05);
    EXPECT_LE(sum_act / m, 0.05);
    EXPECT_GE(static_cast<double>(act_within), 0.95 * m);
}

// R and S with whole kernels are loops of one tile: wherever an order puts them, the analytic
// model and the trace give what they give with R and S innermost.
TEST(DramPermutations, WholeKernelLoopsCostTheSameAnywhere) {
    const std::vector<LoopOrder> orders = five_loop_orders();
    for (const PermCase& c : permutation_cases()) {
        Tiling t;
        t.tile = c.tile;
        for (std::size_t o = 0; o < orders.size(); o += 7) {
            t.order = orders[o];
            Tiling moved = t;
            const auto& x = orders[o].loops;
            moved.order.loops = {LoopDim::R, x[0], x[1], LoopDim::S, x[2], x[3], x[4]};
            const std::string what = std::string(c.name) + " " + to_string(moved);
            EXPECT_EQ(dram_traffic(c.layer, c.node, moved, c.in, c.out),
                      dram_traffic(c.layer, c.node, t, c.in, c.out))
                << what;
            EXPECT_EQ(simulate_dram_trace(c.layer, c.node, moved, c.in, c.out),
                      simulate_dram_trace(c.layer, c.node, t, c.in, c.out))
                << what;
        }
    }
}

// The generated validation suite of dram_test.cpp with each case's loop order replaced by a
// random one of the 120 with R and S innermost (seeded), held to the bounds the four orders
// meet there.
TEST(DramPermutations, ValidationSuiteUnderRandomOrders) {
    Rng rng(20261129);
    std::vector<dram_suite::Case> suite = dram_suite::validation_suite();
    const std::vector<LoopOrder> orders = five_loop_orders();
    for (dram_suite::Case& c : suite)
        c.tiling.order = orders[static_cast<std::size_t>(rng.uniform_int(0, 119))];
    dram_suite::expect_analytic_matches_trace(suite, "random-order");
}

// The fast path (four orders, one cached spill table) and the general one agree bit for bit
// on the four orders, on the generated validation suite.
TEST(DramPermutations, FastOrdersEqualTheGeneralPath) {
    for (const dram_suite::Case& c : dram_suite::validation_suite()) {
        const auto fast = dram_traffic_all_orders(c.layer, c.node, c.tiling, c.in, c.out);
        const std::vector<DramTraffic> general =
            dram_traffic_orders(c.layer, c.node, c.tiling, c.in, c.out, kFastOrders);
        for (std::size_t o = 0; o < kFastOrderCount; ++o)
            EXPECT_EQ(fast[o], general[o]) << c.name << " " << o;
    }
}

// A hand-counted order outside the four. A 1x1 conv, K 4 C 4 P 4 Q 1, tiles K 2 C 4 P 2: two
// tiles along K and P, one along the others. Under p-k-b-c-q the weights' innermost loop
// with more than one tile is K, inside P: each of the 2 weight tiles (8 elements) is fetched
// per P tile, 4 times; the input's is P, outermost: 2 fetches of 8 elements; the output's is
// K: every output tile is visited once (no psum spills, C has one tile).
TEST(DramPermutations, HandCountedOrderOutsideTheFour) {
    const PartLayer l = PartLayer::convolution(4, 4, 4, 1, 1);
    const NodeSpec node = NodeSpec::with_banks(2, 2, 4, 1);
    Tiling t;
    t.tile = {1, 2, 4, 2, 1, l.R, l.S};
    t.order = parse_loop_order("pkbcq");
    const DramTraffic a = dram_traffic(l, node, t, kBCHW, kBCHW);
    EXPECT_EQ(a[Tensor::weight].fetches, 4);
    EXPECT_EQ(a[Tensor::weight].read_elements, 4 * 8);
    EXPECT_EQ(a[Tensor::input].fetches, 2);
    EXPECT_EQ(a[Tensor::input].read_elements, 2 * 8);
    EXPECT_EQ(a[Tensor::output].fetches, 4);  // written once each, no psum revisits (C one tile)
    // Under k-p-b-c-q the weights stay while P advances and the input is re-fetched instead.
    t.order = parse_loop_order("kpbcq");
    const DramTraffic b = dram_traffic(l, node, t, kBCHW, kBCHW);
    EXPECT_EQ(b[Tensor::weight].fetches, 2);
    EXPECT_EQ(b[Tensor::input].fetches, 4);
    EXPECT_EQ(b[Tensor::input].read_elements, 4 * 8);
}

}  // namespace
}  // namespace pimdse::sim
