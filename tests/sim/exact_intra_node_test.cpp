// The exact intra-node optimum (sim/exact_intra_node.hpp) against an enumeration written
// here from the definition of the space, the fast search it must never lose to, its
// tie-break, its work limit and the factory that builds it.
#include "pimdse/sim/exact_intra_node.hpp"

#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/sim/system.hpp"

#include "../library_systems.hpp"

namespace pimdse::sim {
namespace {

constexpr DataLayout kBCHW{LayoutOrder::bchw, 1};
constexpr DataLayout kBHWC{LayoutOrder::bhwc, 1};
constexpr std::array<NodeObjective, 3> kObjectives{NodeObjective::latency, NodeObjective::energy,
                                                   NodeObjective::edp};

// The 4 x 4 system's technology: the energy coefficients the objectives weigh counts with.
const IntraNodeEnergyCoefficients& coefficients() {
    static const IntraNodeEnergyCoefficients k = testing::library_system("nicepim_4x4.yaml").energy;
    return k;
}

PartLayer conv(std::int64_t B, std::int64_t K, std::int64_t C, std::int64_t P, std::int64_t Q, std::int64_t R,
               std::int32_t stride = 1) {
    return PartLayer::convolution(K, C, P, Q, R, stride, B);
}

// A small node whose buffers bind: 4 x 2 PEs, 1 KiB buffers, a 256-bit port.
NodeSpec small_node() {
    NodeSpec n = NodeSpec::with_banks(4, 2, 1, 2);
    n.wbuf = Bytes(512);
    return n;
}

// The space from its definition, by scanning every tile size.
std::vector<std::int64_t> tiles_by_scan(std::int64_t extent, std::int64_t unit) {
    std::vector<std::int64_t> v;
    for (std::int64_t t = 1; t <= extent; ++t) {
        bool power = false, unit_power = false;
        for (std::int64_t p = 1; p <= t; p *= 2) {
            power = power || p == t;
            unit_power = unit_power || unit * p == t;
        }
        if (extent % t == 0 || power || unit_power || t == extent) v.push_back(t);
    }
    return v;
}

// The 120 orders with R and S innermost, in all_loop_orders()'s order. The search keeps R and
// S whole, and a loop of one tile costs nothing wherever it stands (DramPermutations), so
// every order costs as one of these and the first of each such class is one of these.
std::vector<LoopOrder> five_loop_orders() {
    std::vector<LoopOrder> v;
    for (const LoopOrder& o : all_loop_orders())
        if (o.loops[kLoopDims - 2] == LoopDim::R && o.loops[kLoopDims - 1] == LoopDim::S) v.push_back(o);
    return v;
}
constexpr std::size_t kFiveLoopOrders = 120;

// Every fitting tiling under every order, costed by evaluate_tiling, in the enumeration order
// the exact search documents: unrollings rows-major, dim B's tile fastest, orders inside.
// Calls visit(cost) for each; returns how many were visited.
template <class Visit>
std::size_t enumerate(const PartLayer& l, const NodeSpec& n, DataLayout in, DataLayout out, Visit&& visit) {
    std::size_t all = 0;
    const std::vector<LoopOrder> orders = five_loop_orders();
    for (std::size_t r = 0; r < kFastLoopDims; ++r) {
        for (std::size_t c = 0; c < kFastLoopDims; ++c) {
            if (r == c) continue;
            std::array<std::vector<std::int64_t>, kLoopDims> cand;
            for (std::size_t i = 0; i < kLoopDims; ++i) {
                const std::int64_t unit = i == r ? n.pe_rows : i == c ? n.pe_cols : 1;
                cand[i] = tiles_by_scan(extent(l, static_cast<LoopDim>(i)), unit);
            }
            Tiling t;
            t.unroll = {static_cast<LoopDim>(r), static_cast<LoopDim>(c)};
            for (std::int64_t q : cand[4])
                for (std::int64_t p : cand[3])
                    for (std::int64_t ch : cand[2])
                        for (std::int64_t k : cand[1])
                            for (std::int64_t b : cand[0]) {
                                t.tile = {b, k, ch, p, q, l.R, l.S};
                                if (!fits(footprint(l, t), n)) continue;
                                // Every order of the 120, none merged (evaluate_tiling_orders
                                // is evaluate_tiling order by order: DramPermutations).
                                for (const IntraNodeCost& x :
                                     evaluate_tiling_orders(l, n, t, in, out, orders)) {
                                    visit(x);
                                    ++all;
                                }
                            }
        }
    }
    return all;
}

struct Case {
    PartLayer layer;
    DataLayout in, out;
};

std::vector<Case> small_cases() {
    std::vector<Case> v;
    v.push_back({conv(1, 8, 4, 4, 4, 3), kBCHW, kBCHW});
    v.push_back({conv(2, 6, 3, 5, 3, 1), kBHWC, kBCHW});
    v.push_back({conv(1, 12, 8, 2, 2, 1), kBCHW, kBHWC});
    v.push_back({conv(1, 4, 6, 3, 3, 3, 2), kBCHW, kBCHW});
    PartLayer fc = conv(4, 10, 16, 1, 1, 1);
    v.push_back({fc, kBCHW, kBCHW});
    PartLayer dw = conv(1, 8, 1, 4, 4, 3);
    dw.depthwise = true;
    v.push_back({dw, kBHWC, kBHWC});
    return v;
}

TEST(ExactIntraNode, EqualsAnIndependentEnumerationForEveryObjective) {
    const NodeSpec n = small_node();
    const IntraNodeEnergyCoefficients& k = coefficients();
    for (const Case& c : small_cases()) {
        std::array<double, kObjectives.size()> bests{};
        bests.fill(std::numeric_limits<double>::infinity());
        const std::size_t all = enumerate(c.layer, n, c.in, c.out, [&](const IntraNodeCost& x) {
            for (std::size_t o = 0; o < kObjectives.size(); ++o)
                bests[o] = std::min(bests[o], node_objective(x, c.layer, k, kObjectives[o]));
        });
        ASSERT_GT(all, 0U);
        for (std::size_t o = 0; o < kObjectives.size(); ++o) {
            const NodeObjective obj = kObjectives[o];
            const ExactNodeResult r = exact_search(c.layer, n, c.in, c.out, k, {obj, kDefaultNodeWorkLimit});
            ASSERT_EQ(r.status, ExactStatus::optimal);
            const double best = bests[o];
            const std::string what = std::string(to_string(obj)) + " " + to_string(r.cost.tiling);
            EXPECT_EQ(r.objective, best) << what;
            // Re-costed by the analytic model, the optimum is exactly what the search says.
            const IntraNodeCost again = evaluate_tiling(c.layer, n, r.cost.tiling, c.in, c.out);
            EXPECT_EQ(again, r.cost) << what;
            EXPECT_EQ(node_objective(again, c.layer, k, obj), r.objective) << what;
            // The work count is the fitting tilings, less those the latency bound skipped.
            EXPECT_EQ(r.tilings_costed + r.tilings_pruned, static_cast<std::int64_t>(all / kFiveLoopOrders));
            if (obj != NodeObjective::latency) {
                EXPECT_EQ(r.tilings_pruned, 0);
            }
        }
    }
}

TEST(ExactIntraNode, TiesGoToTheOtherMeasureThenTheFastSearchThenEnumerationOrder) {
    const NodeSpec n = small_node();
    const IntraNodeEnergyCoefficients& k = coefficients();
    for (const Case& c : small_cases()) {
        const IntraNodeCost fast = AnalyticIntraNodeMapper::search(c.layer, n, c.in, c.out, nullptr, &k);
        // Replayed here: the fast search's choice first, then the enumeration, a later
        // tiling winning only when strictly better in (objective, tie measure).
        const auto key = [&](const IntraNodeCost& x, NodeObjective obj) {
            const NodeObjective tie =
                obj == NodeObjective::latency ? NodeObjective::energy : NodeObjective::latency;
            return std::pair{node_objective(x, c.layer, k, obj), node_objective(x, c.layer, k, tie)};
        };
        std::array<IntraNodeCost, kObjectives.size()> wants{fast, fast, fast};
        enumerate(c.layer, n, c.in, c.out, [&](const IntraNodeCost& x) {
            for (std::size_t o = 0; o < kObjectives.size(); ++o)
                if (key(x, kObjectives[o]) < key(wants[o], kObjectives[o])) wants[o] = x;
        });
        for (std::size_t o = 0; o < kObjectives.size(); ++o) {
            const NodeObjective obj = kObjectives[o];
            const IntraNodeCost& want = wants[o];
            const ExactNodeResult r = exact_search(c.layer, n, c.in, c.out, k, {obj, kDefaultNodeWorkLimit});
            EXPECT_EQ(r.cost.tiling, want.tiling) << to_string(obj);
            // And again: the same tiling, whatever ran before.
            EXPECT_EQ(exact_search(c.layer, n, c.in, c.out, k, {obj, kDefaultNodeWorkLimit}).cost, r.cost);
        }
    }
}

TEST(ExactIntraNode, NeverWorseThanTheFastSearchOnGeneratedPartLayers) {
    Rng rng(31);
    const IntraNodeEnergyCoefficients& k = coefficients();
    const NodeSpec n = NodeSpec::with_banks(8, 8, 4, 4);
    int strictly_better = 0;
    for (int i = 0; i < 12; ++i) {
        const std::int64_t r = rng.uniform_int(0, 1) == 0 ? 1 : 3;
        const PartLayer l = conv(rng.uniform_int(1, 2), rng.uniform_int(1, 48), rng.uniform_int(1, 48),
                                 rng.uniform_int(1, 14), rng.uniform_int(1, 14), r,
                                 static_cast<std::int32_t>(rng.uniform_int(1, 2)));
        const IntraNodeCost fast = AnalyticIntraNodeMapper::search(l, n, kBCHW, kBHWC, nullptr, &k);
        ASSERT_EQ(fast.status, MapStatus::ok);
        for (NodeObjective obj : kObjectives) {
            const ExactNodeResult e = exact_search(l, n, kBCHW, kBHWC, k, {obj, kDefaultNodeWorkLimit});
            ASSERT_EQ(e.status, ExactStatus::optimal);
            EXPECT_LE(e.objective, node_objective(fast, l, k, obj)) << to_string(obj);
            if (e.objective < node_objective(fast, l, k, obj)) ++strictly_better;
        }
        // Latency inside the fast search's own space is the same optimum (it is exact there).
        EXPECT_LE(exact_search(l, n, kBCHW, kBHWC, k, {}).cost.total_cycles, fast.total_cycles);
    }
    // The fast search takes energy only as a tie-break in its own space: the wider search
    // finds better energy and EDP.
    EXPECT_GT(strictly_better, 0);
}

TEST(ExactIntraNode, TheWorkLimitStopsDeterministicallyAndKeepsTheFastChoice) {
    const IntraNodeEnergyCoefficients& k = coefficients();
    const Case c = small_cases()[0];
    const NodeSpec n = small_node();
    const IntraNodeCost fast = AnalyticIntraNodeMapper::search(c.layer, n, c.in, c.out, nullptr, &k);
    const ExactNodeResult full = exact_search(c.layer, n, c.in, c.out, k, {NodeObjective::energy, 1000000});
    ASSERT_EQ(full.status, ExactStatus::optimal);
    ASSERT_GT(full.tilings_costed, 10);
    const ExactNodeResult one = exact_search(c.layer, n, c.in, c.out, k, {NodeObjective::energy, 1});
    EXPECT_EQ(one.status, ExactStatus::work_limit);
    EXPECT_EQ(one.tilings_costed, 1);
    EXPECT_LE(one.objective, node_objective(fast, c.layer, k, NodeObjective::energy));
    // A limit of exactly the space's size still proves the optimum; one less does not.
    const ExactNodeResult exact_fit =
        exact_search(c.layer, n, c.in, c.out, k, {NodeObjective::energy, full.tilings_costed});
    EXPECT_EQ(exact_fit.status, ExactStatus::optimal);
    EXPECT_EQ(exact_fit.cost, full.cost);
    const ExactNodeResult short_one =
        exact_search(c.layer, n, c.in, c.out, k, {NodeObjective::energy, full.tilings_costed - 1});
    EXPECT_EQ(short_one.status, ExactStatus::work_limit);
    EXPECT_EQ(
        short_one.cost,
        exact_search(c.layer, n, c.in, c.out, k, {NodeObjective::energy, full.tilings_costed - 1}).cost);
}

TEST(FastIntraNode, EnergyBreaksTiesInCyclesAndNothingElse) {
    Rng rng(43);
    const IntraNodeEnergyCoefficients& k = coefficients();
    int less_energy = 0;
    for (const NodeSpec& n : {NodeSpec::with_banks(8, 8, 4, 4), NodeSpec::with_banks(16, 8, 32, 2)}) {
        for (int i = 0; i < 16; ++i) {
            const std::int64_t r = rng.uniform_int(0, 1) == 0 ? 1 : 3;
            const PartLayer l = conv(rng.uniform_int(1, 2), rng.uniform_int(1, 96), rng.uniform_int(1, 96),
                                     rng.uniform_int(1, 28), rng.uniform_int(1, 28), r,
                                     static_cast<std::int32_t>(rng.uniform_int(1, 2)));
            const IntraNodeCost plain = AnalyticIntraNodeMapper::search(l, n, kBCHW, kBHWC);
            const IntraNodeCost aware = AnalyticIntraNodeMapper::search(l, n, kBCHW, kBHWC, nullptr, &k);
            ASSERT_EQ(plain.status, MapStatus::ok);
            // The same cycles: the coefficients only order tilings of equal cycles.
            EXPECT_EQ(aware.total_cycles, plain.total_cycles);
            const double e_plain = intra_node_energy(plain, l.macs(), k).value();
            const double e_aware = intra_node_energy(aware, l.macs(), k).value();
            EXPECT_LE(e_aware, e_plain);
            if (e_aware < e_plain) ++less_energy;
            // The choice is the model's own cost of its tiling.
            EXPECT_EQ(evaluate_tiling(l, n, aware.tiling, kBCHW, kBHWC), aware);
        }
    }
    // Access counts and energy rank some ties differently, or the test could not fail.
    EXPECT_GT(less_energy, 0);
}

TEST(FastIntraNode, ItsTilesAreNoBetterUnderTheSwappedUnrolling) {
    // The search tries its best tiles under every other unrolling it searches: on arrays of
    // unequal sides, the tiles it chose under K x C (say) can fit C x K's candidates only
    // as a non-maximal tiling, which the enumeration alone never costs, and at equal cycles
    // they can read the buffers far less there. Checked against every loop order of the
    // swapped unrolling (K x C, K x Q and K x P are searched both ways).
    Rng rng(59);
    const IntraNodeEnergyCoefficients& k = coefficients();
    const auto swapped = [](const SpatialUnroll& u) { return SpatialUnroll{u.col, u.row}; };
    int swaps_tried = 0;
    const auto check = [&](const PartLayer& l, const NodeSpec& n, DataLayout in, DataLayout out) {
        const IntraNodeCost best = AnalyticIntraNodeMapper::search(l, n, in, out, nullptr, &k);
        ASSERT_EQ(best.status, MapStatus::ok);
        const SpatialUnroll u = best.tiling.unroll;
        if (u.row != LoopDim::K && u.col != LoopDim::K) return;
        ++swaps_tried;
        Tiling t = best.tiling;
        t.unroll = swapped(u);
        for (std::size_t o = 0; o < kFastOrderCount; ++o) {
            t.order = kFastOrders[o];
            const IntraNodeCost c = evaluate_tiling(l, n, t, in, out);
            if (c.status != MapStatus::ok || c.total_cycles != best.total_cycles) continue;
            EXPECT_GE(intra_node_energy(c, l.macs(), k).value(), intra_node_energy(best, l.macs(), k).value())
                << "K " << l.K << " C " << l.C << " P " << l.P << " R " << l.R << " order " << o;
        }
    };
    // NicePIM's final design (128 x 8 PEs, where a swap changes the tile candidates most)
    // with ResNet-152's conv5_1.c as the PIM-Mapper cuts it there (K over 32 nodes): the
    // search kept 64 x 64 x 7 x 7 tiles under K x C; under C x K they read the output
    // buffer 8x less at the same cycles.
    const NodeSpec final_node = testing::library_system("nicepim_final_4x8.yaml").node;
    check(conv(1, 64, 512, 7, 7, 1), final_node, DataLayout{LayoutOrder::bchw, 8}, kBCHW);
    for (const NodeSpec& n : {final_node, NodeSpec::with_banks(8, 16, 4, 4)})
        for (int i = 0; i < 24; ++i)
            check(conv(1, rng.uniform_int(8, 160), rng.uniform_int(8, 512), rng.uniform_int(1, 14),
                       rng.uniform_int(1, 14), rng.uniform_int(0, 1) == 0 ? 1 : 3),
                  n, kBCHW, kBCHW);
    EXPECT_GT(swaps_tried, 20);
}

TEST(FastIntraNode, BalancedTilesReachTheOptimumsEnergyAtEqualLatency) {
    // GoogLeNet's inception4e.3x3 as the PIM-Mapper cuts it on NicePIM's final design
    // (K over 4 and C over 2 nodes; 128 x 8 PEs): the least energy at the least cycles takes
    // K 40 under C x K, the even half of K 80 that no power-of-two multiple of the 8 PE
    // columns gives (64 leaves a short last tile and fills more of the weight buffer).
    const NodeSpec n = testing::library_system("nicepim_final_4x8.yaml").node;
    const IntraNodeEnergyCoefficients k = testing::library_system("nicepim_final_4x8.yaml").energy;
    PartLayer l = conv(1, 80, 80, 7, 7, 3);
    l.H = l.W = 8;  // a half of the 14 x 14 output: one padding row and column are not read
    const IntraNodeCost fast = AnalyticIntraNodeMapper::search(l, n, kBCHW, kBCHW, nullptr, &k);
    ExactNodeOptions o;
    o.objective = NodeObjective::latency;
    const ExactNodeResult exact = exact_search(l, n, kBCHW, kBCHW, k, o);
    ASSERT_EQ(exact.status, ExactStatus::optimal);
    EXPECT_EQ(fast.total_cycles, exact.cost.total_cycles);
    EXPECT_DOUBLE_EQ(intra_node_energy(fast, l.macs(), k).value(),
                     intra_node_energy(exact.cost, l.macs(), k).value());
    // The optimum needs a tile that is neither a power of two, nor a power-of-two multiple
    // of its PE extent, nor the whole extent, or the test could not fail.
    bool balanced = false;
    for (std::size_t i = 0; i < kLoopDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        const std::int64_t t = exact.cost.tiling[d], e = extent(l, d);
        const std::int64_t unit = exact.cost.tiling.unroll.row == d   ? n.pe_rows
                                  : exact.cost.tiling.unroll.col == d ? n.pe_cols
                                                                      : 1;
        const auto power_of_two = [](std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; };
        if (t != e && !power_of_two(t) && !(t % unit == 0 && power_of_two(t / unit))) balanced = true;
    }
    EXPECT_TRUE(balanced) << to_string(exact.cost.tiling);
}

TEST(FastIntraNode, TheFactoryBuildsItWithTheSystemsCoefficients) {
    const std::unique_ptr<IntraNodeMapper> model = make_node_model(ModelOptions{}, coefficients());
    ASSERT_NE(dynamic_cast<AnalyticIntraNodeMapper*>(model.get()), nullptr);
    for (const Case& c : small_cases()) {
        const NodeSpec n = small_node();
        EXPECT_EQ(model->map(c.layer, n, c.in, c.out),
                  AnalyticIntraNodeMapper::search(c.layer, n, c.in, c.out, nullptr, &coefficients()));
    }
}

TEST(ExactIntraNode, CandidateTilesAreDivisorsPowersUnitMultiplesAndTheExtent) {
    EXPECT_EQ(exact_tile_candidates(12, 1), (std::vector<std::int64_t>{1, 2, 3, 4, 6, 8, 12}));
    EXPECT_EQ(exact_tile_candidates(20, 3), (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20}));
    EXPECT_EQ(exact_tile_candidates(1, 32), (std::vector<std::int64_t>{1}));
    EXPECT_EQ(exact_unrolls().size(), 20U);
}

TEST(ExactIntraNode, TheFactoryBuildsItWithItsObjective) {
    ModelOptions o;
    o.intra_node = IntraNodeModel::exact;
    o.exact = {NodeObjective::edp, 1000000};
    const std::unique_ptr<IntraNodeMapper> model = make_node_model(o, coefficients());
    const auto* exact = dynamic_cast<ExactIntraNodeMapper*>(model.get());
    ASSERT_NE(exact, nullptr);
    EXPECT_EQ(exact->options(), o.exact);
    const Case c = small_cases()[1];
    const NodeSpec n = small_node();
    EXPECT_EQ(model->map(c.layer, n, c.in, c.out),
              exact_search(c.layer, n, c.in, c.out, coefficients(), o.exact).cost);
    EXPECT_EQ(exact->searches(), 1U);
    EXPECT_EQ(exact->unproven(), 0);
    // A search the work limit stops is counted as unproven.
    o.exact.work_limit = 1;
    const std::unique_ptr<IntraNodeMapper> limited = make_node_model(o, coefficients());
    (void)limited->map(c.layer, n, c.in, c.out);
    EXPECT_EQ(dynamic_cast<ExactIntraNodeMapper&>(*limited).unproven(), 1);
}

}  // namespace
}  // namespace pimdse::sim
