// Segments and branches (NicePIM III-B): hand-drawn DAGs, the library networks, and a
// brute-force cross-check of the cut rule on the library and on random DAGs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/workload/builder.hpp"
#include "pimdse/workload/segments.hpp"
#include "support.hpp"

namespace pimdse::workload {
namespace {

// ---- helpers -----------------------------------------------------------------------------

/// A builder of same-shaped layers: relu for one producer, add for several.
struct Dag {
    NetworkBuilder b{NetworkInfo{"dag", "", ""}, 1, TensorShape{4, 2, 2}};
    LayerIndex op(const std::string& name, std::vector<LayerIndex> in) {
        if (in.size() == 1) return b.activation(name, in[0], Activation::relu);
        return b.add(name, std::move(in));
    }
    Network build() { return std::move(b).build(); }
};

/// Segments as names: {{"a b", "c"}, {"d"}} = segment 0 has branches [a b] and [c].
std::vector<std::vector<std::string>> shape_of(const Network& net) {
    std::vector<std::vector<std::string>> out;
    for (const Segment& s : segments(net)) {
        auto& seg = out.emplace_back();
        for (const Branch& br : s.branches) {
            std::string text;
            for (LayerIndex i : br.layers) text += (text.empty() ? "" : " ") + net.layer(i).name;
            seg.push_back(text);
        }
    }
    return out;
}

using Shape = std::vector<std::vector<std::string>>;

/// Brute force, straight from the definition: drop every edge (u, v) implied by a longer
/// path u -> w ~> v, then layer x is a cut iff removing it disconnects the network input
/// (pseudo-source) from the pseudo-sink that every output feeds. Also checks the second
/// definition (x is an ancestor or descendant of every other layer) agrees.
std::vector<bool> brute_force_cuts(const Network& net) {
    const int n = net.size();
    const int source = n, sink = n + 1, nodes = n + 2;
    std::vector<std::vector<int>> succ(static_cast<std::size_t>(nodes));
    for (int i = 0; i < n; ++i) {
        for (LayerIndex p : net.layer(i).inputs) {
            auto& s = succ[static_cast<std::size_t>(p == kNetworkInput ? source : p)];
            if (std::find(s.begin(), s.end(), i) == s.end()) s.push_back(i);
        }
        if (net.consumers(i).empty()) succ[static_cast<std::size_t>(i)].push_back(sink);
    }
    const auto bfs = [&](int from, int removed, const std::vector<std::vector<int>>& graph) {
        std::vector<char> seen(static_cast<std::size_t>(nodes), 0);
        std::vector<int> queue{from};
        seen[static_cast<std::size_t>(from)] = 1;
        for (std::size_t k = 0; k < queue.size(); ++k)
            for (int y : graph[static_cast<std::size_t>(queue[k])])
                if (y != removed && !seen[static_cast<std::size_t>(y)]) {
                    seen[static_cast<std::size_t>(y)] = 1;
                    queue.push_back(y);
                }
        return seen;
    };
    std::vector<std::vector<char>> reach;
    for (int u = 0; u < nodes; ++u) reach.push_back(bfs(u, -1, succ));
    std::vector<std::vector<int>> reduced(static_cast<std::size_t>(nodes));
    for (int u = 0; u < nodes; ++u)
        for (int v : succ[static_cast<std::size_t>(u)]) {
            bool implied = false;
            for (int w : succ[static_cast<std::size_t>(u)])
                implied =
                    implied || (w != v && reach[static_cast<std::size_t>(w)][static_cast<std::size_t>(v)]);
            if (!implied) reduced[static_cast<std::size_t>(u)].push_back(v);
        }
    std::vector<bool> cut(static_cast<std::size_t>(n));
    for (int x = 0; x < n; ++x) {
        cut[static_cast<std::size_t>(x)] = !bfs(source, x, reduced)[static_cast<std::size_t>(sink)];
        bool comparable = true;
        for (int y = 0; y < n; ++y)
            comparable = comparable && (reach[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)] ||
                                        reach[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)]);
        EXPECT_EQ(comparable, cut[static_cast<std::size_t>(x)])
            << "the two definitions disagree at " << net.layer(x).name;
    }
    return cut;
}

/// Structural invariants every decomposition must satisfy.
void check_invariants(const Network& net, const Segmentation& seg) {
    const auto n = static_cast<std::size_t>(net.size());
    ASSERT_EQ(seg.segment_of.size(), n);
    ASSERT_EQ(seg.branch_of.size(), n);
    std::vector<int> seen(n, 0);
    LayerIndex last = -1;
    for (std::size_t s = 0; s < seg.segments.size(); ++s) {
        ASSERT_FALSE(seg.segments[s].branches.empty());
        LayerIndex first_of_segment = net.size(), last_of_segment = -1;
        for (std::size_t b = 0; b < seg.segments[s].branches.size(); ++b) {
            const auto& layers = seg.segments[s].branches[b].layers;
            ASSERT_FALSE(layers.empty());
            ASSERT_TRUE(std::is_sorted(layers.begin(), layers.end()));
            for (LayerIndex i : layers) {
                ++seen[static_cast<std::size_t>(i)];
                EXPECT_EQ(seg.segment_of[static_cast<std::size_t>(i)], static_cast<int>(s));
                EXPECT_EQ(seg.branch_of[static_cast<std::size_t>(i)], static_cast<int>(b));
                first_of_segment = std::min(first_of_segment, i);
                last_of_segment = std::max(last_of_segment, i);
            }
        }
        // Segments are contiguous ranges of the topological order.
        EXPECT_EQ(first_of_segment, last + 1);
        EXPECT_EQ(seg.segments[s].layer_count(), last_of_segment - first_of_segment + 1);
        last = last_of_segment;
    }
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << "layer " << i;
    // Edges never go backwards in segments and never join two branches of one segment.
    for (LayerIndex i = 0; i < net.size(); ++i)
        for (LayerIndex p : net.layer(i).inputs) {
            if (p == kNetworkInput) continue;
            const auto sp = seg.segment_of[static_cast<std::size_t>(p)],
                       si = seg.segment_of[static_cast<std::size_t>(i)];
            EXPECT_LE(sp, si);
            if (sp == si) {
                EXPECT_EQ(seg.branch_of[static_cast<std::size_t>(p)],
                          seg.branch_of[static_cast<std::size_t>(i)]);
            }
        }
}

// ---- hand-drawn DAGs (docs/workloads.md draws the first four) ----------------------------

TEST(Segments, ChainIsOneLayerPerSegment) {
    Dag d;
    d.op("a", {kNetworkInput});
    d.op("b", {0});
    d.op("c", {1});
    EXPECT_EQ(shape_of(d.build()), (Shape{{"a"}, {"b"}, {"c"}}));
}

TEST(Segments, DiamondIsTwoBranches) {
    Dag d;
    const auto a = d.op("a", {kNetworkInput});
    const auto b = d.op("b", {kNetworkInput});
    d.op("m", {a, b});
    EXPECT_EQ(shape_of(d.build()), (Shape{{"a", "b"}, {"m"}}));
}

TEST(Segments, IdentityShortcutIsNoBranch) {
    // stem -> c1 -> c2 -> add <- stem: the shortcut has no layers, so the block is serial.
    Dag d;
    const auto stem = d.op("stem", {kNetworkInput});
    const auto c1 = d.op("c1", {stem});
    const auto c2 = d.op("c2", {c1});
    d.op("add", {c2, stem});
    EXPECT_EQ(shape_of(d.build()), (Shape{{"stem"}, {"c1"}, {"c2"}, {"add"}}));
}

TEST(Segments, ProjectionShortcutIsTwoBranches) {
    Dag d;
    const auto stem = d.op("stem", {kNetworkInput});
    const auto c1 = d.op("c1", {stem});
    const auto c2 = d.op("c2", {c1});
    const auto proj = d.op("proj", {stem});
    d.op("add", {c2, proj});
    EXPECT_EQ(shape_of(d.build()), (Shape{{"stem"}, {"c1 c2", "proj"}, {"add"}}));
}

TEST(Segments, ResidualAroundParallelHeadsKeepsTheHeadsApart) {
    // A residual edge stem -> add skips over the heads, the concat and the projection (as
    // in every transformer block). It adds no ordering, so the heads stay a 2-branch
    // segment and concat, out, add stay serial.
    Dag d;
    const auto stem = d.op("stem", {kNetworkInput});
    const auto h1a = d.op("h1a", {stem});
    const auto h1b = d.op("h1b", {h1a});
    const auto h2a = d.op("h2a", {stem});
    const auto h2b = d.op("h2b", {h2a});
    const auto cat = d.op("cat", {h1b, h2b});
    const auto out = d.op("out", {cat});
    d.op("add", {out, stem});
    EXPECT_EQ(shape_of(d.build()), (Shape{{"stem"}, {"h1a h1b", "h2a h2b"}, {"cat"}, {"out"}, {"add"}}));
}

TEST(Segments, BranchMayBeADag) {
    // Two parallel parts, the first a diamond of its own: the diamond is one branch.
    Dag d;
    const auto stem = d.op("stem", {kNetworkInput});
    const auto a = d.op("a", {stem});
    const auto b = d.op("b", {a});
    const auto c = d.op("c", {a});
    const auto m = d.op("m", {b, c});
    const auto z = d.op("z", {stem});
    d.op("end", {m, z});
    EXPECT_EQ(shape_of(d.build()), (Shape{{"stem"}, {"a b c m", "z"}, {"end"}}));
}

TEST(Segments, NonSeriesParallelRunIsOneBranch) {
    // a, b | a->c, b->c, b->d: no layer is ordered with all others and all are connected.
    Dag d;
    const auto a = d.op("a", {kNetworkInput});
    const auto b = d.op("b", {kNetworkInput});
    const auto c = d.op("c", {a, b});
    const auto e = d.op("e", {b});
    d.op("end", {c, e});
    EXPECT_EQ(shape_of(d.build()), (Shape{{"a b c e"}, {"end"}}));
}

TEST(Segments, SeveralOutputs) {
    Dag d;
    const auto stem = d.op("stem", {kNetworkInput});
    d.op("left", {stem});
    d.op("right", {stem});
    const Network net = d.build();
    EXPECT_EQ(shape_of(net), (Shape{{"stem"}, {"left", "right"}}));
    const Segmentation seg = decompose(net);
    EXPECT_EQ(seg.multi_branch_segments(), 1);
    EXPECT_EQ(seg.max_branches(), 2);
}

// ---- random DAGs against the brute force ------------------------------------------------

TEST(Segments, RandomDagsMatchBruteForce) {
    Rng rng(20240611);
    for (int trial = 0; trial < 300; ++trial) {
        Dag d;
        const int n = static_cast<int>(rng.uniform_int(1, 40));
        for (int i = 0; i < n; ++i) {
            const int fan_in = rng.uniform01() < 0.6 ? 1 : static_cast<int>(rng.uniform_int(2, 3));
            std::vector<LayerIndex> in;
            for (int k = 0; k < fan_in; ++k) {
                // Mostly recent producers, so that chains and nested skips both occur.
                const auto back = rng.uniform01() < 0.7 ? rng.uniform_int(1, 2) : rng.uniform_int(1, i + 1);
                const auto p = static_cast<LayerIndex>(i - back);
                if (std::find(in.begin(), in.end(), p) == in.end()) in.push_back(p < 0 ? kNetworkInput : p);
            }
            std::string name = std::to_string(i);  // not "l" + ...: GCC 12 -Wrestrict false positive
            name.insert(name.begin(), 'l');
            d.op(name, in);
        }
        const Network net = d.build();
        ASSERT_EQ(cut_layers(net), brute_force_cuts(net)) << "trial " << trial;
        check_invariants(net, decompose(net));
    }
}

// ---- the library ------------------------------------------------------------------------

TEST(LibrarySegments, CutRuleMatchesBruteForce) {
    for (const std::string& name : test::library_names()) {
        const Network& net = test::library(name);
        EXPECT_EQ(cut_layers(net), brute_force_cuts(net)) << name;
        check_invariants(net, decompose(net));
    }
}

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
}

TEST(LibrarySegments, Vgg16IsAChain) {
    const Network& net = test::library("vgg16");
    const auto segs = segments(net);
    EXPECT_EQ(static_cast<LayerIndex>(segs.size()), net.size());
    for (const Segment& s : segs) EXPECT_EQ(s.layer_count(), 1);
}

TEST(LibrarySegments, EveryGoogLeNetInceptionIsFourBranches) {
    const Network& net = test::library("googlenet");
    const Segmentation seg = decompose(net);
    EXPECT_EQ(seg.multi_branch_segments(), 9);
    EXPECT_EQ(seg.max_branches(), 4);
    for (const Segment& s : seg.segments) {
        if (!s.multi_branch()) continue;
        ASSERT_EQ(s.branches.size(), 4u);
        const std::string block = net.layer(s.branches[0].layers[0]).name.substr(0, 11);  // inceptionXY
        EXPECT_TRUE(starts_with(block, "inception")) << block;
        // 1x1 | 3x3 reduce -> 3x3 | 5x5 reduce -> 5x5 | pool -> pool proj.
        const std::vector<std::size_t> sizes{1, 2, 2, 2};
        for (std::size_t b = 0; b < 4; ++b) {
            EXPECT_EQ(s.branches[b].layers.size(), sizes[b]);
            for (LayerIndex i : s.branches[b].layers) EXPECT_TRUE(starts_with(net.layer(i).name, block));
        }
        // The concat that merges the block follows as its own segment.
        const LayerIndex next = s.branches.back().layers.back() + 1;
        EXPECT_EQ(net.layer(next).name, block + ".concat");
        EXPECT_EQ(seg.segments[static_cast<std::size_t>(seg.segment_of[static_cast<std::size_t>(next)])]
                      .layer_count(),
                  1);
    }
}

TEST(LibrarySegments, ResNetProjectionBlocksAreTwoBranches) {
    for (const auto& [name, projections] :
         {std::pair<std::string, int>{"resnet18", 3}, {"resnet50", 4}, {"resnet152", 4}}) {
        const Network& net = test::library(name);
        const Segmentation seg = decompose(net);
        EXPECT_EQ(seg.multi_branch_segments(), projections) << name;
        for (const Segment& s : seg.segments) {
            if (!s.multi_branch()) {
                // Identity blocks: every layer is serial (the shortcut is no branch).
                EXPECT_EQ(s.layer_count(), 1) << name;
                continue;
            }
            ASSERT_EQ(s.branches.size(), 2u);
            const auto& main_path = s.branches[0].layers;
            const auto& shortcut = s.branches[1].layers;
            EXPECT_EQ(main_path.size(), name == "resnet18" ? 2u : 3u);
            ASSERT_EQ(shortcut.size(), 1u);
            EXPECT_NE(net.layer(shortcut[0]).name.find(".proj"), std::string::npos);
        }
    }
}

TEST(LibrarySegments, IdentityResidualNetworksAreSerial) {
    // DarkNet-53 and MobileNetV2 only have identity shortcuts: no multi-branch segment.
    for (const std::string name : {"darknet53", "mobilenet_v2"}) {
        const Network& net = test::library(name);
        EXPECT_EQ(decompose(net).multi_branch_segments(), 0) << name;
        EXPECT_EQ(static_cast<LayerIndex>(segments(net).size()), net.size()) << name;
    }
}

TEST(LibrarySegments, EveryBertAttentionIsTwelveBranches) {
    const Network& net = test::library("bert_base");
    const Segmentation seg = decompose(net);
    EXPECT_EQ(seg.multi_branch_segments(), 12);
    int encoder = 0;
    for (const Segment& s : seg.segments) {
        if (!s.multi_branch()) {
            EXPECT_EQ(s.layer_count(), 1);
            continue;
        }
        ++encoder;
        ASSERT_EQ(s.branches.size(), 12u);
        for (std::size_t h = 0; h < 12; ++h) {
            const std::string head = "enc" + std::to_string(encoder) + ".head" + std::to_string(h + 1) + ".";
            std::vector<std::string> names;
            for (LayerIndex i : s.branches[h].layers) names.push_back(net.layer(i).name);
            EXPECT_EQ(names, (std::vector<std::string>{head + "q", head + "k", head + "v", head + "scores",
                                                       head + "softmax", head + "context"}));
        }
    }
    EXPECT_EQ(encoder, 12);
    // 12 encoders x (attention, concat, attn_out, attn_add, attn_norm, ffn1, ffn2, ffn_add, ffn_norm).
    EXPECT_EQ(seg.segments.size(), 12u * 9u);
}

}  // namespace
}  // namespace pimdse::workload
