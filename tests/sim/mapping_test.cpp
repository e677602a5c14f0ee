#include "pimdse/sim/mapping.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "pimdse/core/rng.hpp"
#include "pimdse/io/network_file.hpp"

namespace pimdse::sim {
namespace {

using workload::Layer;
using workload::LayerKind;

Layer conv(std::int64_t K, std::int64_t C, std::int64_t P, std::int64_t R = 1, std::int64_t groups = 1) {
    Layer l;
    l.name = "conv";
    l.kind = LayerKind::conv;
    l.K = K;
    l.C = C;
    l.P = l.Q = P;
    l.H = l.W = P + R - 1;
    l.R = l.S = R;
    l.groups = groups;
    return l;
}

LayerMapping lm(std::initializer_list<std::pair<PartDim, Partition>> parts, std::int32_t wr = 1) {
    LayerMapping m;
    for (const auto& [d, p] : parts) m.part(d) = p;
    m.wr = wr;
    return m;
}

TEST(PartIndices, NicePimFig5Example) {
    // NicePIM Fig. 5: (Ph_B, Pw_B) = (2, 2), (Ph_K, Pw_K) = (2, 2), P_order BPQKC on 4x4:
    // B splits the array into 2x2 blocks of 2x2 nodes, K splits each block into its nodes.
    const LayerMapping m = lm({{PartDim::b, {2, 2}}, {PartDim::k, {2, 2}}});
    const auto at = [&](int y, int x, PartDim d) {
        return part_indices(m, y, x)[static_cast<std::size_t>(d)];
    };
    EXPECT_EQ(at(0, 0, PartDim::b), 0);
    EXPECT_EQ(at(0, 0, PartDim::k), 0);
    EXPECT_EQ(at(0, 1, PartDim::b), 0);
    EXPECT_EQ(at(0, 1, PartDim::k), 1);
    EXPECT_EQ(at(1, 1, PartDim::k), 3);
    EXPECT_EQ(at(0, 2, PartDim::b), 1);
    EXPECT_EQ(at(2, 3, PartDim::b), 3);
    EXPECT_EQ(at(2, 3, PartDim::k), 1);
    // With K first in the order, K takes the blocks and B the nodes inside them.
    LayerMapping swapped = m;
    swapped.order = {PartDim::k, PartDim::b, PartDim::p, PartDim::q, PartDim::c};
    EXPECT_EQ(part_indices(swapped, 2, 3)[static_cast<std::size_t>(PartDim::k)], 3);
    EXPECT_EQ(part_indices(swapped, 2, 3)[static_cast<std::size_t>(PartDim::b)], 1);
}

TEST(Split, BalancedAndCovering) {
    EXPECT_EQ(split(10, 4, 0), (Range{0, 3}));
    EXPECT_EQ(split(10, 4, 1), (Range{3, 6}));
    EXPECT_EQ(split(10, 4, 2), (Range{6, 8}));
    EXPECT_EQ(split(10, 4, 3), (Range{8, 10}));
}

// Property: on random mappings every node gets a distinct index tuple, and the nodes'
// ranges tile each loop's iteration space exactly (every MAC computed once).
TEST(PartRanges, RandomMappingsTileTheLayerExactly) {
    Rng rng(5);
    const std::int32_t factors[] = {1, 2, 4};
    for (int trial = 0; trial < 200; ++trial) {
        Layer l = conv(rng.uniform_int(4, 40), rng.uniform_int(4, 40), rng.uniform_int(4, 20));
        l.B = rng.uniform_int(1, 8);
        LayerMapping m;
        for (PartDim d : kAllPartDims)
            m.part(d) = {factors[rng.uniform_int(0, 2)], factors[rng.uniform_int(0, 1)]};
        std::array<PartDim, kPartDims> order = kAllPartDims;
        for (std::size_t i = kPartDims - 1; i > 0; --i)
            std::swap(order[i],
                      order[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i)))]);
        m.order = order;
        std::int32_t rows = 1, cols = 1;
        for (const Partition& p : m.parts) rows *= p.h, cols *= p.w;
        std::set<std::array<std::int32_t, kPartDims>> seen;
        std::int64_t macs = 0;
        for (std::int32_t y = 0; y < rows; ++y)
            for (std::int32_t x = 0; x < cols; ++x) {
                const auto idx = part_indices(m, y, x);
                for (PartDim d : kAllPartDims) {
                    ASSERT_GE(idx[static_cast<std::size_t>(d)], 0);
                    ASSERT_LT(idx[static_cast<std::size_t>(d)], m.part(d).count());
                }
                EXPECT_TRUE(seen.insert(idx).second) << "two nodes with the same parts, trial " << trial;
                const auto r = part_ranges(l, m, y, x);
                std::int64_t node_macs = l.R * l.S;
                for (const Range& range : r) node_macs *= range.size();
                macs += node_macs;
            }
        EXPECT_EQ(macs, l.macs()) << "trial " << trial;
    }
}

workload::Network tiny() {
    return io::parse_network(
        "network: t\ninput: {channels: 8, height: 8, width: 8}\nlayers:\n"
        "  - {name: a, type: conv, out_channels: 16, kernel: 3, padding: 1}\n"
        "  - {name: l, type: conv, inputs: a, out_channels: 8, kernel: 1}\n"
        "  - {name: r, type: conv, inputs: a, out_channels: 8, kernel: 1}\n"
        "  - {name: j, type: concat, inputs: [l, r]}\n",
        "tiny.yaml");
}

NetworkMapping whole_array(const workload::Network& net, const workload::Segmentation& seg, int rows,
                           int cols) {
    NetworkMapping m;
    for (const auto& s : seg.segments)
        m.segments.push_back(
            SegmentMapping{{Region{0, 0, rows, cols}}, std::vector<std::int32_t>(s.branches.size(), 0)});
    for (workload::LayerIndex l = 0; l < net.size(); ++l)
        m.layers.push_back(lm({{PartDim::k, {rows, cols}}}));
    return m;
}

TEST(CheckMapping, AcceptsAValidMappingAndNamesEachBrokenRule) {
    const auto net = tiny();
    const auto seg = workload::decompose(net);
    ASSERT_EQ(seg.segments.size(), 3u);  // a | l, r | j
    ASSERT_EQ(seg.segments[1].branches.size(), 2u);
    const NetworkMapping good = whole_array(net, seg, 2, 4);
    EXPECT_FALSE(check_mapping(net, seg, good, 2, 4).has_value());

    const auto expect_rule = [&](const NetworkMapping& m, MappingRule rule, const std::string& text) {
        const auto bad = check_mapping(net, seg, m, 2, 4);
        ASSERT_TRUE(bad.has_value()) << to_string(rule);
        EXPECT_EQ(bad->rule, rule) << bad->message;
        EXPECT_NE(bad->message.find(text), std::string::npos) << bad->message;
    };
    NetworkMapping m = good;
    m.layers[1].part(PartDim::k) = {2, 2};
    expect_rule(m, MappingRule::partition_product,
                "layer 1 'l': partitions multiply to 2x2 but the layer's region is 2x4");
    m = good;
    m.layers[0].part(PartDim::k) = {1, 1};
    m.layers[0].part(PartDim::p) = {1, 1};
    m.layers[0].part(PartDim::c) = {2, 8};
    expect_rule(m, MappingRule::partition_bound, "16 partitions of C exceed its loop bound 8");
    m = good;
    m.segments[1].regions = {Region{0, 0, 2, 2}, Region{0, 1, 2, 2}};
    m.segments[1].branch_region = {0, 1};
    expect_rule(m, MappingRule::region_overlap, "segment 1: regions 0 2x2@0,0 and 1 2x2@0,1 overlap");
    m.segments[1].regions = {Region{0, 0, 2, 2}, Region{0, 3, 2, 2}};
    expect_rule(m, MappingRule::region_outside, "region 1 2x2@0,3 is not inside the 2x4 node array");
    m.segments[1].regions = {Region{0, 0, 2, 2}, Region{0, 2, 2, 2}};
    m.segments[1].branch_region = {0, 0};
    expect_rule(m, MappingRule::branch_assignment, "region 1 runs no branch");
    m.segments[1].branch_region = {0, 1};
    m.layers[1].part(PartDim::k) = {2, 2};
    m.layers[2].part(PartDim::k) = {2, 2};
    EXPECT_FALSE(check_mapping(net, seg, m, 2, 4).has_value());
    m = good;
    m.layers[1].dl_in = DataLayout{LayoutOrder::bhwc, 1};
    expect_rule(
        m, MappingRule::layout_mismatch,
        "layer 1 'l': its input layout BHWC differs from the output layout BCHW of its producer layer 0 'a'");
    m = good;
    m.layers[0].wr = 2;  // K-only partitioning: N_node = 1
    expect_rule(m, MappingRule::weight_replication, "WR must be between 1 and 1");
    m = good;
    m.layers[2].order = {PartDim::k, PartDim::k, PartDim::p, PartDim::q, PartDim::c};
    expect_rule(m, MappingRule::spatial_order, "layer 2 'r'");
    m = good;
    m.segments.pop_back();
    expect_rule(m, MappingRule::segment_count, "expected 3 segment mappings, got 2");
    // An RA block must be whole DRAM rows: 16 x 32 fills a 512-element row, 16 x 16 half of it.
    m = good;
    m.layers[0].dl_out = m.layers[1].dl_in = m.layers[2].dl_in =
        DataLayout{LayoutOrder::row_aligned, 1, 16, 32};
    EXPECT_FALSE(check_mapping(net, seg, m, 2, 4, 512).has_value());
    EXPECT_FALSE(check_mapping(net, seg, m, 2, 4, 256).has_value());  // two rows per block
    const auto half = check_mapping(net, seg, m, 2, 4, 1024);
    ASSERT_TRUE(half.has_value());
    EXPECT_EQ(half->rule, MappingRule::layout_rows);
    EXPECT_NE(
        half->message.find("RA[16x32] has blocks of 512 elements; expected a multiple of a DRAM row's 1024"),
        std::string::npos)
        << half->message;
    EXPECT_FALSE(check_mapping(net, seg, m, 2, 4).has_value());  // without the row: not checked
}

TEST(SharingEvents, HandComputedInputAndWeightSets) {
    // 64 -> 64 channels, 8x8 outputs, 1x1 kernel on a 2x2 region: P split in 2 along the
    // height, K split in 2 along the width.
    const Layer l = conv(64, 64, 8);
    const Mesh mesh(4, 4);
    const Region region{1, 1, 2, 2};
    LayerMapping m = lm({{PartDim::p, {2, 1}}, {PartDim::k, {1, 2}}});
    const auto events = sharing_events(l, m, region, mesh, 16, 32);
    ASSERT_EQ(events.size(), 2u);
    // Inputs: the two nodes of a row hold the same 64 x 4 x 8 input rows (4096 B), half each.
    EXPECT_EQ(events[0].kind, SharingKind::inputs);
    ASSERT_EQ(events[0].sets.size(), 2u);
    EXPECT_EQ(events[0].sets[0].members, (std::vector<NodeId>{mesh.node(1, 1), mesh.node(1, 2)}));
    EXPECT_EQ(events[0].sets[1].members, (std::vector<NodeId>{mesh.node(2, 1), mesh.node(2, 2)}));
    EXPECT_EQ(events[0].sets[0].bytes_per_node.value(), 2048);
    // Weights: N_node = 2 nodes per K part need the same 32 x 64 weights; WR = 1 spreads one
    // copy over both (4096 B, 2048 B each).
    EXPECT_EQ(events[1].kind, SharingKind::weights);
    ASSERT_EQ(events[1].sets.size(), 2u);
    EXPECT_EQ(events[1].sets[0].members, (std::vector<NodeId>{mesh.node(1, 1), mesh.node(2, 1)}));
    EXPECT_EQ(events[1].sets[0].bytes_per_node.value(), 2048);
    EXPECT_EQ(stored_weights_per_node(l, m), 32 * 64 / 2);
    // WR = 2: a full copy per node, no weight sharing, twice the storage.
    m.wr = 2;
    const auto replicated = sharing_events(l, m, region, mesh, 16, 32);
    ASSERT_EQ(replicated.size(), 1u);
    EXPECT_EQ(replicated[0].kind, SharingKind::inputs);
    EXPECT_EQ(stored_weights_per_node(l, m), 32 * 64);
}

TEST(SharingEvents, DataNotAMultipleOfEightBitsIsPacked) {
    // HandComputedInputAndWeightSets with 12-bit data and 24-bit partial sums: the 2048 input
    // values of a row's pair and the 2048 weights of a K part are 24576 bits, 3072 B (not the
    // 2048 B of one byte per value), 1536 B per member.
    const Mesh mesh(4, 4);
    const LayerMapping m = lm({{PartDim::p, {2, 1}}, {PartDim::k, {1, 2}}});
    const auto events = sharing_events(conv(64, 64, 8), m, Region{1, 1, 2, 2}, mesh, 12, 24);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].sets[0].bytes_per_node.value(), 1536);
    EXPECT_EQ(events[1].sets[0].bytes_per_node.value(), 1536);
    // 16 x 8 x 8 partial sums of 24 bits over 4 nodes: 3072 B, 768 each.
    const auto psum =
        sharing_events(conv(16, 64, 8), lm({{PartDim::c, {2, 2}}}), Region{0, 0, 2, 2}, Mesh(2, 2), 16, 24);
    ASSERT_EQ(psum.size(), 1u);
    EXPECT_EQ(psum[0].sets[0].bytes_per_node.value(), 768);
}

TEST(SharingEvents, PartialSumsAndGroupedConvolutions) {
    const Mesh mesh(2, 2);
    // C split in 4: the four nodes reduce 16 x 8 x 8 partial sums of 4 bytes (4096 B, 1024 each).
    const auto psum =
        sharing_events(conv(16, 64, 8), lm({{PartDim::c, {2, 2}}}), Region{0, 0, 2, 2}, mesh, 16, 32);
    ASSERT_EQ(psum.size(), 1u);
    EXPECT_EQ(psum[0].kind, SharingKind::partial_sums);
    ASSERT_EQ(psum[0].sets.size(), 1u);
    EXPECT_EQ(psum[0].sets[0].members.size(), 4u);
    EXPECT_EQ(psum[0].sets[0].bytes_per_node.value(), 16 * 8 * 8 * 4 / 4);
    // A depthwise convolution split on K: each node reads only its own channels, nothing shared.
    const auto dw =
        sharing_events(conv(32, 32, 8, 3, 32), lm({{PartDim::k, {2, 2}}}), Region{0, 0, 2, 2}, mesh, 16, 32);
    EXPECT_TRUE(dw.empty());
}

}  // namespace
}  // namespace pimdse::sim
