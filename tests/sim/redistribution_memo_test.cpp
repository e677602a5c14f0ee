#include "pimdse/sim/redistribution_memo.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

#include "../library_systems.hpp"

namespace pimdse::sim {
namespace {

using workload::LayerIndex;

workload::Network library(const std::string& name) {
    return io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/" + name + ".yaml");
}

NetworkCost fresh(const workload::Network& n, const workload::Segmentation& s, const NetworkMapping& m,
                  const System& sys) {
    AnalyticIntraNodeMapper mapper;
    SnakeRingScheduler scheduler;
    return evaluate_mapping(n, s, m, sys, mapper, scheduler);
}

/// `m` with layer li cut by P over the rows and K over the columns (its outputs then sit on
/// other nodes than under a K-only cut), or nothing when that mapping is not valid.
std::optional<NetworkMapping> recut(const workload::Network& n, const workload::Segmentation& s,
                                    NetworkMapping m, LayerIndex li, std::int32_t rows, std::int32_t cols) {
    LayerMapping& x = m.layers[static_cast<std::size_t>(li)];
    if (x.part(PartDim::p).count() == rows * cols) return std::nullopt;
    for (Partition& p : x.parts) p = Partition{};
    x.part(PartDim::p) = Partition{rows, 1};
    x.part(PartDim::k) = Partition{1, cols};
    if (check_mapping(n, s, m, rows, cols)) return std::nullopt;
    return m;
}

TEST(RedistributionMemo, MemoisedCostsEqualFreshOnesAndFollowTheProducers) {
    const workload::Network n = library("resnet18");
    const workload::Segmentation s = workload::decompose(n);
    const System sys = testing::library_system("nicepim_4x4.yaml");
    const NetworkMapping a = uniform_mapping(n, s, 4, 4);
    const NetworkCost cost_a = fresh(n, s, a, sys);
    // A producer whose new cut changes what one of its consumers gathers: a memo keyed
    // without the producers would hand that consumer the old redistribution.
    std::optional<NetworkMapping> b;
    LayerIndex consumer = -1;
    for (LayerIndex p = 0; p < n.size() && !b; ++p) {
        const std::optional<NetworkMapping> m = recut(n, s, a, p, 4, 4);
        if (!m) continue;
        for (LayerIndex c = p + 1; c < n.size(); ++c) {
            const auto& in = n.layer(c).inputs;
            if (std::find(in.begin(), in.end(), p) == in.end() ||
                !(m->layers[static_cast<std::size_t>(c)] == a.layers[static_cast<std::size_t>(c)]))
                continue;
            if (fresh(n, s, *m, sys).layers[static_cast<std::size_t>(c)].redistribution !=
                cost_a.layers[static_cast<std::size_t>(c)].redistribution) {
                b = m;
                consumer = c;
                break;
            }
        }
    }
    ASSERT_TRUE(b.has_value()) << "no producer whose cut changes a consumer's redistribution";
    const NetworkCost cost_b = fresh(n, s, *b, sys);

    AnalyticIntraNodeMapper mapper;
    SnakeRingScheduler scheduler;
    RedistributionMemo memo;
    const auto memoised = [&](const NetworkMapping& m) {
        return evaluate_mapping(n, s, m, sys, mapper, scheduler, sequential_timeline(), &memo);
    };
    EXPECT_EQ(memoised(a), cost_a);
    const std::size_t after_a = memo.size();
    EXPECT_EQ(after_a, static_cast<std::size_t>(n.size()));
    EXPECT_EQ(memoised(a), cost_a);  // every layer from the memo
    EXPECT_EQ(memo.size(), after_a);
    const NetworkCost memo_b = memoised(*b);
    EXPECT_EQ(memo_b, cost_b);
    EXPECT_NE(memo_b.layers[static_cast<std::size_t>(consumer)].redistribution,
              cost_a.layers[static_cast<std::size_t>(consumer)].redistribution);
    // Only the recut layer and its consumers were new.
    EXPECT_LT(memo.size(), 2 * after_a);
    const std::size_t after_b = memo.size();
    EXPECT_EQ(memoised(a), cost_a);

    // Other layouts change the compute, not the NoC part: served from the memo, and the
    // costs are still the fresh ones.
    NetworkMapping c = a;
    for (LayerMapping& m : c.layers) m.dl_in = m.dl_out = DataLayout{LayoutOrder::bhwc, 1};
    ASSERT_FALSE(check_mapping(n, s, c, 4, 4).has_value());
    const NetworkCost cost_c = fresh(n, s, c, sys);
    EXPECT_NE(cost_c.energy, cost_a.energy);
    EXPECT_EQ(memoised(c), cost_c);
    EXPECT_EQ(memo.size(), after_b);
}

TEST(RedistributionMemo, SharingIsKeptPerSchedulerAndEqualsFreshCosts) {
    // One memo serves two schedulers, as the mapper's does (the search's snake ring, the
    // final costing's scheduler): each must get its own scheduler's sharing back.
    const workload::Network n = library("resnet18");
    const workload::Segmentation s = workload::decompose(n);
    const System sys = testing::library_system("nicepim_4x4.yaml");
    const NetworkMapping a = uniform_mapping(n, s, 4, 4);
    AnalyticIntraNodeMapper mapper;
    SnakeRingScheduler snake;
    ShortestPathScheduler shortest;
    const NetworkCost snake_fresh = evaluate_mapping(n, s, a, sys, mapper, snake);
    const NetworkCost shortest_fresh = evaluate_mapping(n, s, a, sys, mapper, shortest);
    std::size_t differ = 0;  // layers whose sharing the two schedulers cost differently
    std::size_t shared = 0;  // layers with any sharing
    for (std::size_t l = 0; l < snake_fresh.layers.size(); ++l) {
        differ += snake_fresh.layers[l].sharing != shortest_fresh.layers[l].sharing ? 1 : 0;
        shared += snake_fresh.layers[l].sharing.value() > 0 ? 1 : 0;
    }
    ASSERT_GT(differ, 0u) << "the two schedulers cost every layer's sharing alike";

    RedistributionMemo memo;
    const auto memoised = [&](SharingScheduler& scheduler) {
        return evaluate_mapping(n, s, a, sys, mapper, scheduler, sequential_timeline(), &memo);
    };
    EXPECT_EQ(memoised(snake), snake_fresh);
    EXPECT_EQ(memo.sharing_size(), static_cast<std::size_t>(n.size()));
    EXPECT_EQ(memoised(shortest), shortest_fresh);  // not the snake ring's sharing
    EXPECT_EQ(memo.sharing_size(), 2 * static_cast<std::size_t>(n.size()));
    EXPECT_EQ(memoised(snake), snake_fresh);  // every layer from the memo
    EXPECT_EQ(memoised(shortest), shortest_fresh);
    EXPECT_EQ(memo.sharing_size(), 2 * static_cast<std::size_t>(n.size()));
    EXPECT_GT(shared, 0u);

    // Layouts do not enter the sharing: other layouts are served from the memo and still
    // equal a fresh costing (whose compute differs).
    NetworkMapping c = a;
    for (LayerMapping& m : c.layers) m.dl_in = m.dl_out = DataLayout{LayoutOrder::bhwc, 1};
    EXPECT_EQ(evaluate_mapping(n, s, c, sys, mapper, snake, sequential_timeline(), &memo),
              evaluate_mapping(n, s, c, sys, mapper, snake));
    EXPECT_EQ(memo.sharing_size(), 2 * static_cast<std::size_t>(n.size()));
}

TEST(RedistributionMemo, KeyHoldsTheLayerItsRegionAndItsProducers) {
    const workload::Network n = library("resnet18");
    const workload::Segmentation s = workload::decompose(n);
    const NetworkMapping a = uniform_mapping(n, s, 4, 4);
    for (LayerIndex li = 0; li < n.size(); ++li) {
        RedistributionKey key;
        redistribution_key(n, s, a, li, key);
        EXPECT_EQ(key.layer, li);
        ASSERT_FALSE(key.mappings.empty());
        EXPECT_EQ(key.mappings.front(), a.layers[static_cast<std::size_t>(li)]);
        EXPECT_EQ(key.regions.front(), layer_region(s, a, li));
        std::size_t producers = 0;
        for (const LayerIndex p : n.layer(li).inputs) producers += p == workload::kNetworkInput ? 0 : 1;
        EXPECT_EQ(key.mappings.size(), 1 + producers);
        EXPECT_EQ(key.regions.size(), 1 + producers);
    }
}

}  // namespace
}  // namespace pimdse::sim
