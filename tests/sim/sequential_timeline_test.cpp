// The timeline seam: the sequential composition of a segment's layers, and evaluate_mapping
// composing every segment with the timeline it is given.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

namespace pimdse::sim {
namespace {

TimelineLayer layer(double redistribution, double sharing, double compute, std::int32_t region,
                    std::vector<std::int32_t> producers = {}) {
    TimelineLayer l;
    l.redistribution = Cycles(redistribution);
    l.sharing = Cycles(sharing);
    l.compute = Cycles(compute);
    l.region = region;
    l.producers = std::move(producers);
    return l;
}

TEST(SequentialTimeline, RegionsInParallelTheirLayersInSequence) {
    const std::vector<TimelineLayer> layers{layer(1, 2, 3, 0), layer(0, 0, 10, 1), layer(0, 1, 3, 0, {0})};
    std::vector<LayerTiming> timing(layers.size());
    const Cycles latency = SequentialTimeline{}.segment(layers, 2, timing);
    EXPECT_EQ(latency, Cycles(10));  // region 0: 6 + 4, region 1: 10
    EXPECT_EQ(timing[0].start, Cycles(0));
    EXPECT_EQ(timing[0].latency, Cycles(6));
    EXPECT_EQ(timing[1].start, Cycles(0));
    EXPECT_EQ(timing[1].latency, Cycles(10));
    EXPECT_EQ(timing[2].start, Cycles(6));
    EXPECT_EQ(timing[2].latency, Cycles(4));
}

TEST(SequentialTimeline, RefusesARegionOutsideTheSegmentAndAShortTiming) {
    const std::vector<TimelineLayer> layers{layer(0, 0, 1, 2)};
    std::vector<LayerTiming> timing(1);
    EXPECT_THROW((void)sequential_timeline().segment(layers, 2, timing), ModelError);
    std::vector<LayerTiming> none;
    EXPECT_THROW((void)sequential_timeline().segment(layers, 3, none), ModelError);
}

TEST(ProducersIn, PositionsOfTheInputsAmongTheEarlierLayers) {
    const workload::Network n = io::parse_network(R"(
network: fork
input: {channels: 8, height: 8, width: 8}
layers:
  - {name: a, type: conv, out_channels: 8, kernel: 1}
  - {name: b, type: conv, out_channels: 8, kernel: 1}
  - {name: c, type: add, inputs: [a, b]}
)",
                                                  "fork.yaml");
    const std::vector<workload::LayerIndex> earlier{1, 0};
    EXPECT_EQ(producers_in(n, 2, earlier), (std::vector<std::int32_t>{1, 0}));
    EXPECT_TRUE(producers_in(n, 0, earlier).empty());  // reads the network input
}

/// Takes every segment at half the sequential latency, and records what it was given.
class HalfTimeline final : public Timeline {
public:
    mutable std::vector<std::vector<std::int32_t>> producers;
    [[nodiscard]] Cycles segment(std::span<const TimelineLayer> layers, std::size_t regions,
                                 std::span<LayerTiming> timing) const override {
        for (const TimelineLayer& l : layers) producers.push_back(l.producers);
        return sequential_timeline().segment(layers, regions, timing) * 0.5;
    }
};

TEST(EvaluateMapping, ComposesEverySegmentWithTheTimelineGiven) {
    const workload::Network n = io::parse_network(R"(
network: chain
input: {channels: 8, height: 16, width: 16}
layers:
  - {name: c1, type: conv, out_channels: 16, kernel: 3, padding: 1}
  - {name: c2, type: conv, out_channels: 8, kernel: 1}
)",
                                                  "chain.yaml");
    const workload::Segmentation s = workload::decompose(n);
    hw::HardwareParams p;
    p.node_rows = p.node_cols = 2;
    p.pe_rows = p.pe_cols = 8;
    p.ibuf_kib = p.wbuf_kib = p.obuf_kib = 64;
    const System sys = make_system(hw::Constraints{}, p, hw::Technology{});
    const NetworkMapping m = uniform_mapping(n, s, 2, 2);
    AnalyticIntraNodeMapper intra;
    SnakeRingScheduler ring;
    const NetworkCost sequential = evaluate_mapping(n, s, m, sys, intra, ring);
    const HalfTimeline half;
    const NetworkCost halved = evaluate_mapping(n, s, m, sys, intra, ring, half);
    ASSERT_EQ(halved.segments.size(), sequential.segments.size());
    for (std::size_t i = 0; i < halved.segments.size(); ++i)
        EXPECT_EQ(halved.segments[i], sequential.segments[i] * 0.5);
    EXPECT_EQ(halved.latency, sequential.latency * 0.5);
    EXPECT_EQ(halved.layers[1].compute, sequential.layers[1].compute);  // the layers' own costs
    // One segment per layer: no producer inside a segment.
    EXPECT_EQ(half.producers, (std::vector<std::vector<std::int32_t>>{{}, {}}));
}

}  // namespace
}  // namespace pimdse::sim
