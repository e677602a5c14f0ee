#include "pimdse/mapper/layer_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "mapper_fixtures.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/timeline.hpp"

namespace pimdse::mapper {
namespace {

using testing::kTwoBranch;
using testing::system_of;
using workload::Network;
using workload::Segmentation;

// The claim of layer_search.hpp: pruning loses nothing. The pruned front equals the Pareto
// front of the unpruned enumeration, point for point in (latency, bytes).
TEST(LayerSearch, PrunedFrontEqualsTheFrontOfTheFullEnumeration) {
    const sim::System sys = system_of(4, 4, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{2, 2}, {2, 4}, {4, 2}}) {
        for (workload::LayerIndex li = 0; li < n.size(); ++li) {
            LayerSearch search(sys, intra, sched);
            const sim::DataLayout dl{};
            const std::vector<LayerOption> pruned = search.options(n.layer(li), rows, cols, dl, dl);
            const std::vector<LayerOption> all = search.enumerate_all(n.layer(li), rows, cols, dl, dl);
            std::set<std::pair<double, std::int64_t>> front;
            for (const LayerOption& o : all) {
                bool dominated = false;
                for (const LayerOption& p : all)
                    dominated = dominated || (p.latency <= o.latency && p.bytes <= o.bytes &&
                                              (p.latency < o.latency || p.bytes < o.bytes));
                if (!dominated) front.insert({o.latency, o.bytes});
            }
            std::set<std::pair<double, std::int64_t>> got;
            for (const LayerOption& o : pruned) got.insert({o.latency, o.bytes});
            EXPECT_EQ(got, front) << n.layer(li).name << " on " << rows << "x" << cols;
            // And each option's latency is what costing its mapping gives.
            for (const LayerOption& o : pruned)
                EXPECT_DOUBLE_EQ(search.latency(n.layer(li), o.mapping), o.latency);
        }
    }
}

// The timeline's compute cycles of a layer mapping on a rows x cols region; infinite when a
// part-layer fits no tiling.
double compute_cycles(const workload::Layer& l, const sim::LayerMapping& m, int rows, int cols,
                      const sim::System& sys, sim::IntraNodeMapper& intra) {
    sim::LayerCost c;
    sim::add_compute_cost(l, m, rows, cols, sys, intra, c);
    return c.status == sim::EvalStatus::ok ? c.compute.value() : std::numeric_limits<double>::infinity();
}

// The baseline's LM rule (NicePIM VIII-D, Timeloop's "Delay"): fastest_compute returns, at
// full replication, a mapping with the fewest compute cycles of the whole enumeration, and
// among those the least compute + sharing.
TEST(LayerSearch, FastestComputeIsTheMinimumOfTheEnumeration) {
    const sim::System sys = system_of(4, 4, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    const auto compute = [&](const workload::Layer& l, const sim::LayerMapping& m, int rows, int cols) {
        return compute_cycles(l, m, rows, cols, sys, intra);
    };
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{2, 2}, {2, 4}, {4, 4}}) {
        for (workload::LayerIndex li = 0; li < n.size(); ++li) {
            const workload::Layer& l = n.layer(li);
            LayerSearch search(sys, intra, sched);
            const sim::DataLayout dl{};
            const std::vector<LayerOption>& got = search.fastest_compute(l, rows, cols, dl, dl);
            double best_compute = std::numeric_limits<double>::infinity();
            double best_latency = std::numeric_limits<double>::infinity();
            for (const LayerOption& o : search.enumerate_all(l, rows, cols, dl, dl)) {
                if (l.has_weights() && o.mapping.wr != sim::nodes_sharing_weights(o.mapping)) continue;
                const double c = compute(l, o.mapping, rows, cols);
                if (c < best_compute) best_latency = std::numeric_limits<double>::infinity();
                if (c <= best_compute) {
                    best_compute = c;
                    best_latency = std::min(best_latency, o.latency);
                }
            }
            ASSERT_EQ(got.size(), 1u) << l.name;
            EXPECT_DOUBLE_EQ(compute(l, got.front().mapping, rows, cols), best_compute) << l.name;
            EXPECT_DOUBLE_EQ(got.front().latency, best_latency) << l.name;
        }
    }
}

// The paper's baseline LM: among the mappings of fewest compute cycles at full replication
// (by brute force over the enumeration), the count vector that partitions K most, then P, Q,
// B, C; the choice never depends on sharing.
TEST(LayerSearch, BlindBaselineTakesTheFastestByLoopPriority) {
    const sim::System sys = system_of(4, 4, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    const auto compute = [&](const workload::Layer& l, const sim::LayerMapping& m, int rows, int cols) {
        return compute_cycles(l, m, rows, cols, sys, intra);
    };
    const auto rank = [](const sim::LayerMapping& m) {
        const auto c = [&](sim::PartDim d) { return m.part(d).h * m.part(d).w; };
        using D = sim::PartDim;
        return std::array<std::int32_t, 5>{c(D::k), c(D::p), c(D::q), c(D::b), c(D::c)};
    };
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{2, 2}, {2, 4}, {4, 4}}) {
        for (workload::LayerIndex li = 0; li < n.size(); ++li) {
            const workload::Layer& l = n.layer(li);
            LayerSearch search(sys, intra, sched);
            const sim::DataLayout dl{};
            const std::vector<LayerOption>& got = search.fastest_compute_blind(l, rows, cols, dl, dl);
            double best = std::numeric_limits<double>::infinity();
            std::array<std::int32_t, 5> best_rank{};
            for (const LayerOption& o : search.enumerate_all(l, rows, cols, dl, dl)) {
                if (l.has_weights() && o.mapping.wr != sim::nodes_sharing_weights(o.mapping)) continue;
                const double c = compute(l, o.mapping, rows, cols);
                if (c < best || (c == best && rank(o.mapping) > best_rank)) {
                    best = c;
                    best_rank = rank(o.mapping);
                }
            }
            ASSERT_EQ(got.size(), 1u) << l.name;
            EXPECT_DOUBLE_EQ(compute(l, got.front().mapping, rows, cols), best) << l.name;
            EXPECT_EQ(rank(got.front().mapping), best_rank) << l.name;
            if (l.has_weights()) {
                EXPECT_EQ(got.front().mapping.wr, sim::nodes_sharing_weights(got.front().mapping)) << l.name;
            }
        }
    }
}

// The search's sharing model never undercuts the timeline, and equals it when every chunk of an
// event is equal (here: loop bounds divisible by the partition counts, no halo).
TEST(LayerSearch, SharingModelBoundsTheTimelineAndIsExactForEqualChunks) {
    const sim::System sys = system_of(4, 4, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    LayerSearch search(sys, intra, sched);
    sim::ChannelLoads loads;
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    std::int64_t equal = 0;
    std::int64_t total = 0;
    for (workload::LayerIndex li = 0; li < n.size(); ++li) {
        const workload::Layer& layer = n.layer(li);
        for (const LayerOption& o : search.enumerate_all(layer, 4, 4, {}, {})) {
            sim::LayerCost c;
            sim::add_sharing_cost(layer, o.mapping, sim::Region{0, 0, 4, 4}, sys, sched, loads, c);
            const double model = search.sharing_latency(layer, o.mapping);
            EXPECT_GE(model, c.sharing.value() - 1e-9) << layer.name;
            ++total;
            // 1x1 convolutions have no halo; 16 divides every bound here.
            if (layer.R == 1) {
                EXPECT_DOUBLE_EQ(model, c.sharing.value()) << layer.name;
                ++equal;
            }
        }
    }
    EXPECT_GT(equal, 100);
    EXPECT_GT(total, equal);
}

// The cheapest LM of a tiny layer by exhaustive enumeration: the front's fastest option has
// the least latency of every (split, order, WR), and its smallest the least bytes.
TEST(LayerSearch, FrontHoldsTheCheapestLmOfTheExhaustiveEnumeration) {
    const sim::System sys = system_of(2, 2, 4, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    workload::Layer l;
    l.kind = workload::LayerKind::conv;
    l.K = 4;
    l.C = 4;
    l.P = l.Q = l.H = l.W = 4;
    l.R = l.S = 1;
    l.inputs = {workload::kNetworkInput};
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{1, 2}, {2, 2}}) {
        LayerSearch search(sys, intra, sched);
        const std::vector<LayerOption> all = search.enumerate_all(l, rows, cols, {}, {});
        ASSERT_FALSE(all.empty());
        double fastest = std::numeric_limits<double>::infinity();
        std::int64_t smallest = std::numeric_limits<std::int64_t>::max();
        for (const LayerOption& o : all) {
            fastest = std::min(fastest, o.latency);
            smallest = std::min(smallest, o.bytes);
            EXPECT_EQ(o.mapping.shape(), (std::pair<std::int32_t, std::int32_t>{rows, cols}));
        }
        const std::vector<LayerOption>& front = search.options(l, rows, cols, {}, {});
        ASSERT_FALSE(front.empty());
        // Ascending in bytes, descending in latency.
        EXPECT_EQ(front.front().bytes, smallest);
        EXPECT_DOUBLE_EQ(front.back().latency, fastest);
        for (std::size_t i = 1; i < front.size(); ++i) {
            EXPECT_LT(front[i - 1].bytes, front[i].bytes);
            EXPECT_GT(front[i - 1].latency, front[i].latency);
        }
    }
}

// The memo key is the layer's shape: a renamed copy of a layer is answered from the memo, a
// layer with another stride is searched again.
TEST(LayerSearch, MemoKeyIsTheLayerShape) {
    const sim::System sys = system_of(2, 2, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    LayerSearch search(sys, intra, sched);
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    workload::Layer l = n.layer(0);
    (void)search.options(l, 2, 2, {}, {});
    EXPECT_EQ(search.stats().searches, 1);
    l.name = "renamed";
    (void)search.options(l, 2, 2, {}, {});
    EXPECT_EQ(search.stats().searches, 1);
    EXPECT_EQ(search.stats().memo_hits, 1);
    EXPECT_EQ(SearchKey({LayerShape::of(l), 2, 2, {}, {}, false}).hash(),
              SearchKey({LayerShape::of(n.layer(0)), 2, 2, {}, {}, false}).hash());
    l.stride_h = 2;
    EXPECT_FALSE(LayerShape::of(l) == LayerShape::of(n.layer(0)));
    (void)search.options(l, 2, 2, {}, {});
    EXPECT_EQ(search.stats().searches, 2);
    (void)search.options(n.layer(0), 2, 1, {}, {});  // another region shape
    EXPECT_EQ(search.stats().searches, 3);
}

// The end padding is part of the key: the same extent with the odd row at the other end
// reads other input rows, so it is searched again; a layer's own quantisation bits (the
// crossbar family's) and the SEP label (its geometry is the padding) are not.
TEST(LayerSearch, MemoKeyHoldsTheEndPadding) {
    const sim::System sys = system_of(2, 2, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    LayerSearch search(sys, intra, sched);
    const Network n = io::parse_network(R"(network: t
input: {channels: 8, height: 8, width: 8}
layers:
  - {name: sym, type: conv, out_channels: 8, kernel: 3, stride: 2, padding: 1}
  - {name: end, type: conv, inputs: input, out_channels: 8, kernel: 3, stride: 2, padding: 1, padding_end: 0}
  - {name: sep, type: conv, inputs: input, out_channels: 8, kernel: 2, padding: sep, weight_bits: 4}
  - {name: plain, type: conv, inputs: input, out_channels: 8, kernel: 2, padding_end: 1}
)",
                                        "end_padding.yaml");
    ASSERT_EQ(n.layer(0).P, n.layer(1).P);  // floor((8 + 2 - 3) / 2) + 1 = floor((8 + 1 - 3) / 2) + 1 = 4
    EXPECT_FALSE(LayerShape::of(n.layer(0)) == LayerShape::of(n.layer(1)));
    EXPECT_NE(LayerShape::of(n.layer(0)).hash(), LayerShape::of(n.layer(1)).hash());
    (void)search.options(n.layer(0), 2, 2, {}, {});
    (void)search.options(n.layer(1), 2, 2, {}, {});
    EXPECT_EQ(search.stats().searches, 2);
    EXPECT_TRUE(LayerShape::of(n.layer(2)) == LayerShape::of(n.layer(3)));
    (void)search.options(n.layer(2), 2, 2, {}, {});
    (void)search.options(n.layer(3), 2, 2, {}, {});
    EXPECT_EQ(search.stats().searches, 3);
    EXPECT_EQ(search.stats().memo_hits, 1);
}

// One sharing model: the sets the search costs are sim::sharing_events' sets, member for
// member and in order, for every arrangement and WR of the ungrouped compute layers.
TEST(LayerSearch, SearchSharingSetsAreTheTimelinesSets) {
    const sim::System sys = system_of(4, 4, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    LayerSearch search(sys, intra, sched);
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    std::int64_t compared = 0;
    // One set of buffers for every key, as the search keeps them: stale contents must not leak.
    SetsScratch scratch;
    SetsKey key;
    for (workload::LayerIndex li = 0; li < n.size(); ++li) {
        const workload::Layer& l = n.layer(li);
        if (!l.is_compute() || l.groups > 1) continue;
        for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{4, 4}, {2, 4}}) {
            for (const LayerOption& o : search.enumerate_all(l, rows, cols, {}, {})) {
                const sim::Region region{0, 0, rows, cols};
                const std::vector<sim::SharingEvent> events =
                    sim::sharing_events(l, o.mapping, region, sys.mesh, sys.data_bits, sys.psum_bits);
                const std::int32_t n_node = sim::nodes_sharing_weights(o.mapping);
                const std::int32_t wr = l.has_weights() ? o.mapping.wr : 1;
                for (sim::SharingKind kind : kSharingKinds) {
                    std::vector<std::vector<sim::NodeId>> expected;
                    for (const sim::SharingEvent& e : events)
                        if (e.kind == kind)
                            for (const sim::SharingSet& set : e.sets) expected.push_back(set.members);
                    const auto got =
                        event_sets(o.mapping, rows, cols, sys.mesh, kind, (n_node + wr - 1) / wr);
                    // The timeline only forms an event that happens; the search asks only then.
                    if (expected.empty()) continue;
                    EXPECT_EQ(got, expected) << l.name << " on " << rows << "x" << cols;
                    event_sets_key(o.mapping, rows, cols, sys.mesh, kind, (n_node + wr - 1) / wr, scratch,
                                   key);
                    EXPECT_EQ(key, SetsKey::of(expected)) << l.name << " on " << rows << "x" << cols;
                    EXPECT_EQ(key.sets(), expected);
                    ++compared;
                }
            }
        }
    }
    EXPECT_GT(compared, 200);
}

}  // namespace
}  // namespace pimdse::mapper
