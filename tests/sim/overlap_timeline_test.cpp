#include "pimdse/sim/overlap_timeline.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "overlap_reference.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/data_space.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

#include "../library_systems.hpp"

namespace pimdse::sim {
namespace {

using workload::Network;
using workload::Segmentation;

System system_of(int rows, int cols, int buffer_kib = 64) {
    hw::HardwareParams p;
    p.node_rows = rows;
    p.node_cols = cols;
    p.pe_rows = p.pe_cols = 8;
    p.ibuf_kib = p.wbuf_kib = p.obuf_kib = buffer_kib;
    return make_system(hw::Constraints{}, p, hw::Technology{});
}

NetworkCost evaluate(const Network& n, const Segmentation& s, const NetworkMapping& m, const System& sys,
                     const Timeline& t) {
    AnalyticIntraNodeMapper mapper;
    SnakeRingScheduler scheduler;
    return evaluate_mapping(n, s, m, sys, mapper, scheduler, t);
}

/// Where a streaming mapping puts its segments: on uniform_mapping's regions, or each alone
/// on one row of the array (OverlaPIM's setting: segment k on row k mod rows).
enum class Placement { uniform, banded };

/// Every layer whose region's rows and columns allow it cut by P over the rows and Q over the
/// columns (no data sharing: the layer streams), at full weight replication. The other
/// layers keep the uniform mapping (uniform placement) or are cut by K over the row (banded:
/// the layers of a chain on different nodes).
NetworkMapping streaming_mapping(const Network& n, const Segmentation& s, int rows, int cols,
                                 Placement placement) {
    NetworkMapping m = uniform_mapping(n, s, rows, cols);
    if (placement == Placement::banded)
        for (std::size_t k = 0; k < s.segments.size(); ++k)
            m.segments[k] = {{Region{static_cast<int>(k) % rows, 0, 1, cols}},
                             std::vector<std::int32_t>(s.segments[k].branches.size(), 0)};
    for (workload::LayerIndex li = 0; li < n.size(); ++li) {
        const Region& r = layer_region(s, m, li);
        const workload::Layer& layer = n.layer(li);
        LayerMapping& l = m.layers[static_cast<std::size_t>(li)];
        if (layer.P >= r.rows && layer.Q >= r.cols) {
            l = LayerMapping{};
            l.part(PartDim::p) = {r.rows, 1};
            l.part(PartDim::q) = {1, r.cols};
        } else if (placement == Placement::banded) {
            l = LayerMapping{};
            l.part(PartDim::k) = {1, r.cols};
        } else {
            continue;
        }
        l.wr = layer.has_weights() ? nodes_sharing_weights(l) : 1;
    }
    EXPECT_FALSE(check_mapping(n, s, m, rows, cols).has_value());
    return m;
}

/// The analytic overlapped timeline of `m` against the reference, layer by layer.
/// With `transform`, the transformed timeline against the reference's transformed play.
void expect_reference(const Network& n, const NetworkMapping& m, const System& sys, double tolerance,
                      bool overlaps, bool transform = false) {
    const Segmentation s = workload::decompose(n);
    const NetworkCost seq = evaluate(n, s, m, sys, sequential_timeline());
    const NetworkCost ov =
        evaluate(n, s, m, sys, transform ? overlap_transform_timeline() : overlap_timeline());
    const reference::OverlapRun ref = reference::overlap_reference(n, s, m, sys, seq, transform);
    if (tolerance == 0) {
        EXPECT_EQ(ov.latency.value(), ref.latency);
        for (workload::LayerIndex li = 0; li < n.size(); ++li) {
            const LayerCost& lc = ov.layers[static_cast<std::size_t>(li)];
            EXPECT_EQ(lc.start.value(), ref.start[static_cast<std::size_t>(li)]) << n.layer(li).name;
            EXPECT_EQ((lc.start + lc.latency).value(), ref.finish[static_cast<std::size_t>(li)])
                << n.layer(li).name;
        }
    } else {
        EXPECT_NEAR(ov.latency.value(), ref.latency, tolerance * ref.latency);
    }
    if (overlaps) {
        EXPECT_LT(ov.latency.value(), seq.latency.value());
    }
    EXPECT_LE(ov.latency.value(), seq.latency.value());
}

const char* const kChain = R"(
network: chain
input: {channels: 8, height: 16, width: 16}
layers:
  - {name: c1, type: conv, out_channels: 16, kernel: 3, padding: 1}
  - {name: c2, type: conv, out_channels: 16, kernel: 3, padding: 1}
  - {name: c3, type: conv, out_channels: 8, kernel: 3, stride: 2, padding: 1}
)";

const char* const kResidual = R"(
network: residual
input: {channels: 8, height: 16, width: 16}
layers:
  - {name: c1, type: conv, out_channels: 16, kernel: 3, padding: 1}
  - {name: c2, type: conv, out_channels: 16, kernel: 3, padding: 1}
  - {name: sum, type: add, inputs: [c1, c2]}
  - {name: c3, type: conv, out_channels: 8, kernel: 1}
)";

const char* const kConcat = R"(
network: concat
input: {channels: 8, height: 16, width: 16}
layers:
  - {name: a, type: conv, out_channels: 8, kernel: 3, padding: 1, inputs: [input]}
  - {name: b, type: conv, out_channels: 16, kernel: 1, inputs: [input]}
  - {name: cat, type: concat, inputs: [a, b]}
  - {name: c, type: conv, out_channels: 8, kernel: 3, padding: 1}
)";

TEST(OverlapTimeline, EqualsTheReferenceOnSmallNetworks) {
    // 4 KiB buffers: several tiles per node.
    const System sys = system_of(2, 2, 4);
    for (const char* text : {kChain, kResidual, kConcat}) {
        const Network n = io::parse_network(text, "small.yaml");
        SCOPED_TRACE(n.name());
        const Segmentation s = workload::decompose(n);
        expect_reference(n, streaming_mapping(n, s, 2, 2, Placement::uniform), sys, 0, false);
        expect_reference(n, streaming_mapping(n, s, 2, 2, Placement::banded), sys, 0, true);
    }
}

// The latency of a mapping recomposed from another timeline's layer costs is the latency
// evaluating it under that timeline gives, to the bit, in every direction.
TEST(OverlapTimeline, RecomposedLatencyEqualsEvaluating) {
    const System sys = system_of(2, 2, 4);
    const Network resnet =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/resnet18.yaml");
    std::vector<Network> nets{resnet};
    for (const char* text : {kChain, kResidual, kConcat})
        nets.push_back(io::parse_network(text, "small.yaml"));
    const Timeline* timelines[] = {&sequential_timeline(), &overlap_timeline(),
                                   &overlap_transform_timeline()};
    for (const Network& n : nets) {
        SCOPED_TRACE(n.name());
        const Segmentation s = workload::decompose(n);
        for (const Placement p : {Placement::uniform, Placement::banded}) {
            const NetworkMapping m = streaming_mapping(n, s, 2, 2, p);
            for (const Timeline* from : timelines) {
                const NetworkCost costed = evaluate(n, s, m, sys, *from);
                for (const Timeline* to : timelines)
                    EXPECT_EQ(recomposed_latency(n, s, m, sys, costed, *to).value(),
                              evaluate(n, s, m, sys, *to).latency.value());
            }
        }
    }
    NetworkCost empty;
    EXPECT_THROW(
        (void)recomposed_latency(resnet, workload::decompose(resnet),
                                 uniform_mapping(resnet, workload::decompose(resnet), 2, 2), sys, empty),
        ModelError);
}

TEST(OverlapTimeline, WithinOnePercentOfTheReferenceOnResNet18) {
    const Network n =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/resnet18.yaml");
    const Segmentation s = workload::decompose(n);
    expect_reference(n, streaming_mapping(n, s, 2, 2, Placement::uniform), system_of(2, 2), 0.01, false);
    expect_reference(n, streaming_mapping(n, s, 2, 2, Placement::banded), system_of(2, 2), 0.01, true);
}

// Two 1x1 convolutions on 8 x 32 x 32, each on one node, cut into four steps of 8 rows
// (order bpqkc, tiles P8, everything else whole): c2's step s reads c1's step s only.
struct HandChain {
    Network n = io::parse_network(R"(
network: hand
input: {channels: 8, height: 32, width: 32}
layers:
  - {name: c1, type: conv, out_channels: 16, kernel: 1}
  - {name: c2, type: conv, out_channels: 8, kernel: 1}
)",
                                  "hand.yaml");
    System sys = system_of(1, 2);
    LayerMapping m;
    LayerCost part;  // its tiling; no sharing
    HandChain() {
        part.part.tiled = true;
        part.part.tiling.order = LoopOrder::bpqkc;
        part.part.tiling.tile = {1, 64, 64, 8, 64, 1, 1};  // B, K, C, P, Q, R, S
    }
    /// c1 on node (0, c1_col), c2 on (0, c2_col): 400 compute cycles each, c2 gathers for 100.
    Cycles run(int c1_col, int c2_col, const Timeline& t, std::vector<std::vector<LayerTiming>>& timing) {
        const LayerSpaces s1 = layer_spaces(n, 0, m, Region{0, c1_col, 1, 1}, sys.mesh, part);
        const LayerSpaces s2 = layer_spaces(n, 1, m, Region{0, c2_col, 1, 1}, sys.mesh, part);
        std::vector<TimelineLayer> l1{{Cycles(0), Cycles(0), Cycles(400), 0, {}, &s1}};
        std::vector<TimelineLayer> l2{{Cycles(100), Cycles(0), Cycles(400), 0, {}, &s2}};
        const std::vector<TimelineSegment> segments{{l1, 1}, {l2, 1}};
        timing.assign(2, std::vector<LayerTiming>(1));
        std::vector<Cycles> latency(2);
        const Cycles total = t.network(segments, timing, latency);
        EXPECT_EQ(latency[0] + latency[1], total);
        return total;
    }
};

TEST(OverlapTimeline, HandComputedChain) {
    HandChain h;
    const LayerSpaces s = layer_spaces(h.n, 1, h.m, Region{0, 0, 1, 1}, h.sys.mesh, h.part);
    ASSERT_FALSE(s.barrier);
    ASSERT_EQ(s.nodes[0].steps, 4);
    EXPECT_EQ(s.nodes[0].step_box(2)[2], (Range{16, 24}));
    EXPECT_EQ(s.step_input(0, 2, 0), (Box{Range{0, 1}, Range{0, 16}, Range{16, 24}, Range{0, 32}}));
    std::vector<std::vector<LayerTiming>> t;
    // On two nodes: c1's steps end at 100, 200, 300, 400; c2's inputs arrive 25 cycles
    // after each (a quarter of 100), at 125, 225, 325, 425; its steps run 125-225, 225-325,
    // 325-425 and 425-525.
    EXPECT_EQ(h.run(0, 1, overlap_timeline(), t), Cycles(525));
    EXPECT_EQ(t[1][0].start, Cycles(125));
    EXPECT_EQ(t[1][0].latency, Cycles(400));
    // On one node c2 waits for the node: 400 + 4 x 100.
    EXPECT_EQ(h.run(0, 0, overlap_timeline(), t), Cycles(800));
    EXPECT_EQ(t[1][0].start, Cycles(400));
    // Sequentially: 400, then 100 + 400.
    EXPECT_EQ(h.run(0, 1, sequential_timeline(), t), Cycles(900));
}

TEST(OverlapTransform, HandComputedChain) {
    // c1 in order kbpqc with K8, C4, P16: four steps (k0 p0, k0 p1, k1 p0, k1 p1) of 100
    // cycles; c2 (K whole, C4, P16) runs two steps of 200, each reading 16 rows of all 16 of
    // c1's channels, 50 cycles of gathering each. C is split, so every step fetches its
    // input and weight tiles and any order of the steps costs the same.
    HandChain h;
    h.part.part.tiling.order = LoopOrder::kbpqc;
    h.part.part.tiling.tile = {1, 8, 4, 16, 64, 1, 1};
    const LayerSpaces s1 = layer_spaces(h.n, 0, h.m, Region{0, 0, 1, 1}, h.sys.mesh, h.part);
    ASSERT_EQ(s1.nodes[0].steps, 4);
    EXPECT_EQ(s1.nodes[0].keep, (std::array<std::int64_t, 2>{0, 0}));
    std::vector<std::vector<LayerTiming>> t;
    // Loop order: c2's rows 0-16 are complete with c1's third step at 300; c2 runs
    // 350-550, then its rows 16-32 (ready 400, arrived 450) 550-750.
    EXPECT_EQ(h.run(0, 1, overlap_timeline(), t), Cycles(750));
    // Transformed: c1's steps are equally ready (the network input), so pixels go first:
    // k0 p0, k1 p0, k0 p1, k1 p1; rows 0-16 complete at 200, c2 runs 250-450 and 450-650.
    EXPECT_EQ(h.run(0, 1, overlap_transform_timeline(), t), Cycles(650));
    EXPECT_EQ(t[1][0].start, Cycles(250));
    EXPECT_EQ(t[0][0].latency, Cycles(400));
    EXPECT_EQ(h.run(0, 1, sequential_timeline(), t), Cycles(900));

    // The event-driven reference, given the same costs and tiling, plays the same orders.
    NetworkMapping nm;
    nm.segments = {{{Region{0, 0, 1, 1}}, {0}}, {{Region{0, 1, 1, 1}}, {0}}};
    nm.layers.assign(2, h.m);
    NetworkCost cost;
    cost.layers.resize(2);
    for (LayerCost& lc : cost.layers) {
        lc.compute = Cycles(400);
        lc.part = h.part.part;
    }
    cost.layers[1].redistribution = Cycles(100);
    const Segmentation seg = workload::decompose(h.n);
    EXPECT_EQ(reference::overlap_reference(h.n, seg, nm, h.sys, cost).latency, 750);
    const reference::OverlapRun moved = reference::overlap_reference(h.n, seg, nm, h.sys, cost, true);
    EXPECT_EQ(moved.latency, 650);
    EXPECT_EQ(moved.start[1], 250);
}

TEST(OverlapTransform, ReusedTilesPinTheLoopOrder) {
    // C whole: c1's weight tile of K step k stays for its two P steps, so the K blocks stay
    // together (keep = the K stride) and the transformation cannot move pixels forward.
    HandChain h;
    h.part.part.tiling.order = LoopOrder::kbpqc;
    h.part.part.tiling.tile = {1, 8, 64, 16, 64, 1, 1};
    const LayerSpaces s1 = layer_spaces(h.n, 0, h.m, Region{0, 0, 1, 1}, h.sys.mesh, h.part);
    EXPECT_EQ(s1.nodes[0].keep, (std::array<std::int64_t, 2>{2, 0}));
    std::vector<std::vector<LayerTiming>> t;
    EXPECT_EQ(h.run(0, 1, overlap_transform_timeline(), t), h.run(0, 1, overlap_timeline(), t));
}

TEST(OverlapTransform, EqualsTheReferenceAndNeverAboveTheLoopOrder) {
    // 4 KiB buffers: several tiles per node, C split in some layers.
    const System sys = system_of(2, 2, 4);
    for (const char* text : {kChain, kResidual, kConcat}) {
        const Network n = io::parse_network(text, "small.yaml");
        SCOPED_TRACE(n.name());
        const Segmentation s = workload::decompose(n);
        for (Placement p : {Placement::uniform, Placement::banded}) {
            const NetworkMapping m = streaming_mapping(n, s, 2, 2, p);
            expect_reference(n, m, sys, 0, p == Placement::banded, true);
            const double seq = evaluate(n, s, m, sys, sequential_timeline()).latency.value();
            const double ov = evaluate(n, s, m, sys, overlap_timeline()).latency.value();
            const double xf = evaluate(n, s, m, sys, overlap_transform_timeline()).latency.value();
            EXPECT_LE(xf, ov);
            EXPECT_LE(ov, seq);
        }
    }
}

TEST(OverlapTransform, ResNet18WithinOnePercentOfTheReference) {
    const Network n =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/resnet18.yaml");
    const Segmentation s = workload::decompose(n);
    const NetworkMapping m = streaming_mapping(n, s, 2, 2, Placement::banded);
    expect_reference(n, m, system_of(2, 2), 0.01, true, true);
    const double ov = evaluate(n, s, m, system_of(2, 2), overlap_timeline()).latency.value();
    const double xf = evaluate(n, s, m, system_of(2, 2), overlap_transform_timeline()).latency.value();
    EXPECT_LE(xf, ov);
}

TEST(OverlapTimeline, DataSharingMakesABarrier) {
    // A K split shares the inputs: costed, the layer has sharing cycles and runs as a block.
    HandChain h;
    NetworkMapping nm;
    nm.segments = {{{Region{0, 0, 1, 2}}, {0}}, {{Region{0, 0, 1, 2}}, {0}}};
    nm.layers.assign(2, LayerMapping{});
    nm.layers[0].part(PartDim::q) = {1, 2};
    nm.layers[0].wr = 2;
    nm.layers[1].part(PartDim::k) = {1, 2};
    const Segmentation seg = workload::decompose(h.n);
    const NetworkCost cost = evaluate(h.n, seg, nm, h.sys, overlap_timeline());
    ASSERT_GT(cost.layers[1].sharing.value(), 0);
    EXPECT_TRUE(layer_spaces(h.n, 1, nm.layers[1], Region{0, 0, 1, 2}, h.sys.mesh, cost.layers[1]).barrier);
    EXPECT_FALSE(layer_spaces(h.n, 0, nm.layers[0], Region{0, 0, 1, 2}, h.sys.mesh, cost.layers[0]).barrier);
    // c2 starts after all of c1 and its gathering, then shares and computes.
    const LayerCost& c1 = cost.layers[0];
    const LayerCost& c2 = cost.layers[1];
    EXPECT_EQ(c2.start, c1.start + c1.latency + c2.redistribution);
    EXPECT_EQ(c2.latency, c2.sharing + c2.compute);
    // The overlapped timeline needs the spaces.
    const TimelineLayer l{Cycles(10), Cycles(20), Cycles(30), 0, {}, nullptr};
    std::vector<LayerTiming> t(1);
    EXPECT_THROW((void)overlap_timeline().segment(std::span(&l, 1), 1, t), ModelError);
}

TEST(OverlapTimeline, NeverAboveSequential) {
    // Every library network x the three NicePIM systems, under the uniform mapping (mostly
    // barriers: K is cut first) and the P/Q cut (no sharing: every layer streams).
    for (const char* hw : {"nicepim_4x4", "nicepim_16x16", "nicepim_final_4x8"}) {
        const System sys = testing::library_system(std::string(hw) + ".yaml");
        for (const char* name : {"resnet18", "resnet50", "resnet152", "vgg16", "googlenet", "mobilenet_v2",
                                 "darknet53", "bert_base"}) {
            SCOPED_TRACE(std::string(hw) + " " + name);
            const Network n =
                io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/" + name + ".yaml");
            const Segmentation s = workload::decompose(n);
            for (const NetworkMapping& m :
                 {uniform_mapping(n, s, sys.mesh.rows(), sys.mesh.cols()),
                  streaming_mapping(n, s, sys.mesh.rows(), sys.mesh.cols(), Placement::uniform)}) {
                const NetworkCost seq = evaluate(n, s, m, sys, sequential_timeline());
                const NetworkCost ov = evaluate(n, s, m, sys, overlap_timeline());
                EXPECT_LE(ov.latency.value(), seq.latency.value() * (1 + 1e-9));
                for (std::size_t i = 0; i < seq.layers.size(); ++i) {
                    const double seq_end = (seq.layers[i].start + seq.layers[i].latency).value();
                    EXPECT_LE((ov.layers[i].start + ov.layers[i].latency).value(),
                              seq_end * (1 + 1e-9) + 1e-9);
                }
                Cycles sum(0);
                for (Cycles c : ov.segments) sum += c;
                EXPECT_NEAR(sum.value(), ov.latency.value(), 1e-6 * ov.latency.value());
            }
        }
    }
}

}  // namespace
}  // namespace pimdse::sim
