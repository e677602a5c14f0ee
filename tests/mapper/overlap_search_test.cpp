// The PIM-Mapper with overlap on: rounds ranked by the overlapped timeline and the greedy
// step of OverlaPIM III-E after the selection (docs/mapper.md, "Ranking with overlap").

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mapper_fixtures.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/mapper/overlap_greedy.hpp"
#include "pimdse/sim/overlap_timeline.hpp"

namespace pimdse::mapper {
namespace {

using testing::Library;
using testing::library;
using testing::system_of;
using workload::Network;
using workload::Segmentation;

const std::vector<std::string> kNetworks{"resnet18", "vgg16", "googlenet", "mobilenet_v2", "resnet50"};

double overlapped(const Library& l, const sim::NetworkMapping& m, const sim::System& sys,
                  const sim::Timeline& timeline) {
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    const sim::NetworkCost c = sim::evaluate_mapping(l.net, l.seg, m, sys, intra, sched, timeline);
    EXPECT_EQ(c.status, sim::EvalStatus::ok) << c.reason;
    return c.latency.value();
}

// Ranked by the overlapped timeline (plus the greedy step), the mapping is never slower under
// overlap than the mapping the sequential ranking returns, costed with overlap on: the rounds
// are the same (the selection composes sequentially in both), only the choice among them and
// the greedy step differ. Library networks on 2 x 2 and 4 x 4 arrays, with and without the
// overlap-friendly transformation.
TEST(OverlapSearch, OverlapAwareMapIsNeverSlowerThanTheBlindMappingOverlapped) {
    for (const int side : {2, 4}) {
        const sim::System sys = system_of(side, side, 16, 64);
        for (const sim::Timeline* timeline : {&sim::overlap_timeline(), &sim::overlap_transform_timeline()}) {
            for (const std::string& name : kNetworks) {
                const Library l = library(name);
                sim::AnalyticIntraNodeMapper intra;
                sim::SnakeRingScheduler sched;
                Mapper blind(sys, MapperOptions{}, intra, sched, sched);
                Mapper aware(sys, MapperOptions{}, intra, sched, sched, *timeline);
                const MapResult b = blind.map(l.net, l.seg);
                const MapResult a = aware.map(l.net, l.seg);
                ASSERT_EQ(a.cost.status, sim::EvalStatus::ok) << name << ": " << a.cost.reason;
                // The returned cost is the overlapped one.
                EXPECT_DOUBLE_EQ(a.cost.latency.value(), overlapped(l, a.mapping, sys, *timeline)) << name;
                EXPECT_LE(a.cost.latency.value(), overlapped(l, b.mapping, sys, *timeline))
                    << name << " on " << side << "x" << side;
                // Overlap never makes the same mapping slower than sequential.
                EXPECT_LE(a.cost.latency.value(), overlapped(l, a.mapping, sys, sim::sequential_timeline()))
                    << name;
            }
        }
    }
}

// The greedy step never makes the returned mapping slower under overlap, and when it is kept
// it changed at least one layer.
TEST(OverlapSearch, GreedyStepNeverWorsens) {
    const sim::System sys = system_of(4, 4, 16, 64);
    for (const std::string& name : kNetworks) {
        const Library l = library(name);
        sim::AnalyticIntraNodeMapper intra;
        sim::SnakeRingScheduler sched;
        MapperOptions off;
        off.overlap_greedy = false;
        Mapper without(sys, off, intra, sched, sched, sim::overlap_timeline());
        Mapper with(sys, MapperOptions{}, intra, sched, sched, sim::overlap_timeline());
        const MapResult w0 = without.map(l.net, l.seg);
        const MapResult w1 = with.map(l.net, l.seg);
        EXPECT_EQ(w0.greedy_changed, 0) << name;
        EXPECT_LE(w1.cost.latency.value(), w0.cost.latency.value()) << name;
        if (w1.greedy_changed == 0) {
            EXPECT_EQ(w1.mapping, w0.mapping) << name;
        } else {
            EXPECT_LT(w1.cost.latency.value(), w0.cost.latency.value()) << name;
        }
    }
}

// The walk keeps a layer's own mapping when it is its only candidate, and it never changes a
// layout: candidates differ from the start in LM and WR only.
TEST(OverlapSearch, GreedyWalkWithTheCurrentChoicesOnlyChangesNothing) {
    const sim::System sys = system_of(4, 4, 16, 64);
    const Library l = library("resnet18");
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    MapperOptions off;
    off.overlap_greedy = false;
    Mapper m(sys, off, intra, sched, sched, sim::overlap_timeline());
    const MapResult r = m.map(l.net, l.seg);
    std::vector<std::vector<sim::LayerMapping>> own;
    for (const sim::LayerMapping& x : r.mapping.layers) own.push_back({x});
    const GreedyContext ctx{l.net, l.seg, sys, intra, sched, false};
    const GreedyResult g = overlap_greedy(ctx, r.mapping, own);
    EXPECT_EQ(g.changed, 0);
    EXPECT_EQ(g.mapping, r.mapping);
    const GreedyResult none = overlap_greedy(ctx, r.mapping, {});
    EXPECT_EQ(none.mapping, r.mapping);
}

// Given the start's layer costs, the walk reuses them where a layer and its producers are
// still as they started, and its result is the walk's without them. The candidates (each
// layer's own mapping and the baseline's) change some layers, so later layers are costed
// afresh after moved producers.
TEST(OverlapSearch, GreedyWalkFromTheStartsCostsIsTheSame) {
    const sim::System sys = system_of(4, 4, 16, 64);
    std::int32_t changed = 0;
    for (const std::string& name : kNetworks) {
        const Library l = library(name);
        sim::AnalyticIntraNodeMapper intra;
        sim::SnakeRingScheduler sched;
        MapperOptions off;
        off.overlap_greedy = false;
        Mapper m(sys, off, intra, sched, sched, sim::overlap_timeline());
        const MapResult r = m.map(l.net, l.seg);
        const MapResult b = m.baseline(l.net, l.seg);
        std::vector<std::vector<sim::LayerMapping>> cands;
        for (std::size_t i = 0; i < r.mapping.layers.size(); ++i)
            cands.push_back({b.mapping.layers[i], r.mapping.layers[i]});
        const GreedyContext ctx{l.net, l.seg, sys, intra, sched, false};
        const GreedyResult fresh = overlap_greedy(ctx, r.mapping, cands);
        for (const sim::Timeline* t : {&sim::overlap_timeline(), &sim::sequential_timeline()}) {
            const sim::NetworkCost start =
                sim::evaluate_mapping(l.net, l.seg, r.mapping, sys, intra, sched, *t);
            const GreedyResult reused = overlap_greedy(ctx, r.mapping, cands, &start);
            EXPECT_EQ(reused.mapping, fresh.mapping) << name;
            EXPECT_EQ(reused.changed, fresh.changed) << name;
        }
        changed += fresh.changed;
    }
    EXPECT_GT(changed, 0);
}

// Same inputs, same mapping and cost: fresh mappers twice, with the transformation.
TEST(OverlapSearch, OverlapAwareMapIsDeterministic) {
    const sim::System sys = system_of(4, 4, 16, 64);
    for (const std::string& name : {std::string("resnet18"), std::string("googlenet")}) {
        const Library l = library(name);
        std::vector<MapResult> runs;
        for (int i = 0; i < 2; ++i) {
            sim::AnalyticIntraNodeMapper intra;
            sim::SnakeRingScheduler sched;
            Mapper m(sys, MapperOptions{}, intra, sched, sched, sim::overlap_transform_timeline());
            runs.push_back(m.map(l.net, l.seg));
        }
        EXPECT_EQ(runs[0].mapping, runs[1].mapping) << name;
        EXPECT_EQ(runs[0].cost, runs[1].cost) << name;
        EXPECT_EQ(runs[0].greedy_changed, runs[1].greedy_changed) << name;
    }
}

}  // namespace
}  // namespace pimdse::mapper
