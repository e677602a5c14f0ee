// The crossbar family's inter-tile network: the mesh and snake placement, the closed-form
// hop sums against sim::Mesh::hops, a two-layer network on a 2 x 2 mesh counted by hand
// (and checked against evaluate_transfers), a branching network checked against
// evaluate_transfers layer by layer, the NoC bounding a stage, and bad inputs.

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "crossbar_networks.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/sim/crossbar_cost.hpp"
#include "pimdse/sim/crossbar_noc.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::sim {
namespace {

using workload::kNetworkInput;
using workload::NetworkBuilder;
using workload::NetworkInfo;
using workload::TensorShape;

using crossbar_fixtures::spec;
using crossbar_fixtures::two_convs;

/// A stem, a pooled branch and a residual: c0 -> pool -> c1 -> c2, add(c1, c2) -> c3.
workload::Network branching() {
    NetworkBuilder b(NetworkInfo{"branching", "", ""}, 1, TensorShape{16, 32, 32});
    const auto c0 = b.conv("c0", kNetworkInput, spec(64, 1));
    workload::PoolSpec pool;
    pool.kernel_h = pool.kernel_w = pool.stride_h = pool.stride_w = 2;
    const auto p = b.pool("pool", c0, pool);
    const auto c1 = b.conv("c1", p, spec(128, 1));
    const auto c2 = b.conv("c2", c1, spec(128, 1));
    const auto sum = b.add("sum", {c1, c2});
    b.conv("c3", sum, spec(32, 1, 1));
    return std::move(b).build();
}

TEST(CrossbarNoc, MeshAndSnake) {
    EXPECT_EQ(tile_mesh(1).rows, 1);
    EXPECT_EQ(tile_mesh(3).cols, 2);
    EXPECT_EQ(tile_mesh(3).rows, 2);
    EXPECT_EQ(tile_mesh(5).cols, 3);
    EXPECT_EQ(tile_mesh(5).rows, 2);
    EXPECT_EQ(tile_mesh(864).cols, 30);  // 29² = 841 < 864 <= 900
    EXPECT_EQ(tile_mesh(864).rows, 29);
    const TileMesh m{3, 4};
    // Row 0 west to east, row 1 east to west: consecutive tiles are neighbours.
    EXPECT_EQ(snake_coord(m, 3), (NodeCoord{0, 3}));
    EXPECT_EQ(snake_coord(m, 4), (NodeCoord{1, 3}));
    EXPECT_EQ(snake_coord(m, 7), (NodeCoord{1, 0}));
    EXPECT_EQ(snake_coord(m, 8), (NodeCoord{2, 0}));
    const Mesh mesh(m.rows, m.cols);
    for (std::int64_t i = 0; i + 1 < 12; ++i)
        EXPECT_EQ(mesh.hops(mesh.node(snake_coord(m, i)), mesh.node(snake_coord(m, i + 1))), 1) << i;
    EXPECT_THROW((void)tile_mesh(0), ModelError);
}

TEST(CrossbarNoc, HopSumsMatchTheMesh) {
    for (const auto& [rows, cols] : {std::pair{1, 1}, std::pair{2, 2}, std::pair{3, 5}, std::pair{7, 4}}) {
        const TileMesh m{rows, cols};
        const Mesh mesh(rows, cols);
        const std::int64_t n = std::int64_t{rows} * cols;
        for (std::int64_t first = 0; first < n; ++first) {
            for (std::int64_t count = 1; first + count <= n; ++count) {
                for (std::int64_t p = 0; p < n; ++p) {
                    const NodeCoord to = snake_coord(m, p);
                    std::int64_t sum = 0;
                    std::int32_t max = 0;
                    for (std::int64_t t = first; t < first + count; ++t) {
                        const std::int32_t h = mesh.hops(mesh.node(snake_coord(m, t)), mesh.node(to));
                        sum += h;
                        max = std::max(max, h);
                    }
                    const HopSum got = snake_hops(m, first, count, to);
                    ASSERT_EQ(got.sum, sum)
                        << rows << 'x' << cols << ' ' << first << '+' << count << " to " << p;
                    ASSERT_EQ(got.max, max)
                        << rows << 'x' << cols << ' ' << first << '+' << count << " to " << p;
                }
            }
        }
    }
}

TEST(CrossbarNoc, TwoLayersOnATwoByTwoMeshByHand) {
    // 3 tiles -> a 2 x 2 mesh; snake: a on tile 0 (0,0), b on tiles 1 (0,1) and 2 (1,1);
    // aggregates: a's tile 0, b's tile 1 + 2 / 2 = 2 (1,1).
    const workload::Network net = two_convs();
    const CrossbarTechnology& t = mnsim2_technology();
    const CrossbarNetworkCost n = cost_network_on_crossbars(net, CrossbarConfig{}, t);
    ASSERT_EQ(n.noc.layers.size(), 2U);
    EXPECT_EQ(n.noc.mesh.rows, 2);
    EXPECT_EQ(n.noc.mesh.cols, 2);
    const CrossbarNocLayer& a = n.noc.layers[0];
    const CrossbarNocLayer& b = n.noc.layers[1];
    EXPECT_EQ(b.first_tile, 1);
    EXPECT_EQ(b.aggregate, 2);
    // a -> b: a's 3 x 16 x 16 outputs of 9 bits = 6912 bits, half to each of b's tiles:
    // 432 bytes = 108 flits of 32 bits, over 1 hop to (0,1) and 2 to (1,1).
    EXPECT_EQ(a.gather_flits, 0);
    EXPECT_EQ(a.scatter_flits, 216);
    EXPECT_EQ(a.flit_hops, 108 * 3);
    EXPECT_EQ(a.max_hops, 2);
    // Its port: 216 flits, plus 2 hops x 5 cycles, at 32 bits / 20 Gb/s = 1.6 ns a cycle.
    EXPECT_DOUBLE_EQ(a.ns, (216 + 2 * 5) * 1.6);
    EXPECT_NEAR(a.energy.value(), 324 * 32 * 0.9698, 1e-9);
    // b gathers: 64 x 8 x 8 outputs x 1 row block x 9 bits = 36864 bits, half from tile 1:
    // 2304 bytes = 576 flits over 1 hop. The last layer sends nothing on.
    EXPECT_EQ(b.gather_flits, 576);
    EXPECT_EQ(b.scatter_flits, 0);
    EXPECT_EQ(b.flit_hops, 576);
    EXPECT_DOUBLE_EQ(b.ns, (576 + 1 * 5) * 1.6);
    EXPECT_NEAR(b.energy.value(), 576 * 32 * 0.9698, 1e-9);
    EXPECT_DOUBLE_EQ(n.energy.noc.value(), (a.energy + b.energy).value());
    EXPECT_DOUBLE_EQ(n.layer_costs[0].energy.noc.value(), a.energy.value());

    // The same messages through the mesh model of noc.hpp.
    const Mesh mesh(2, 2);
    const std::vector<Transfer> from_a{{mesh.node(0, 0), mesh.node(0, 1), Bytes(432)},
                                       {mesh.node(0, 0), mesh.node(1, 1), Bytes(432)}};
    const TransferCost ra = evaluate_transfers(mesh, from_a, t.noc);
    EXPECT_DOUBLE_EQ(ra.energy.value(), a.energy.value());
    EXPECT_EQ(ra.max_channel_flits, a.scatter_flits);
    const std::vector<Transfer> into_b{{mesh.node(0, 1), mesh.node(1, 1), Bytes(2304)}};
    const TransferCost rb = evaluate_transfers(mesh, into_b, t.noc);
    EXPECT_DOUBLE_EQ(rb.energy.value(), b.energy.value());
    EXPECT_EQ(rb.max_channel_flits, b.gather_flits);
}

/// Each layer's messages, as the header describes them, through evaluate_transfers.
TransferCost reference_layer(const workload::Network& net, const CrossbarNetworkCost& n, std::size_t k,
                             const CrossbarTechnology& t, int bits) {
    const TileMesh& m = n.noc.mesh;
    const Mesh mesh(m.rows, m.cols);
    const CrossbarNocLayer& l = n.noc.layers[k];
    const NodeId agg = mesh.node(snake_coord(m, l.aggregate));
    std::vector<Transfer> ts;
    const workload::Layer& layer = net.layer(n.layers[k]);
    const std::int64_t gather = layer.output_elements() * n.layer_costs[k].mapping.row_blocks * bits;
    for (std::int64_t i = l.first_tile; l.tiles > 1 && i < l.first_tile + l.tiles; ++i) {
        if (i != l.aggregate)
            ts.push_back({mesh.node(snake_coord(m, i)), agg, Bytes(ceil_div(gather, 8 * l.tiles))});
    }
    for (std::size_t c = 0; c < n.layers.size(); ++c) {
        const workload::Layer& reader = net.layer(n.layers[c]);
        const bool reads = (k == 0 && c == 1) || (k == 1 && (c == 2 || c == 3)) || (k == 2 && c == 3);
        if (!reads) continue;
        const std::int64_t sent = std::min(layer.output_elements(), reader.input_elements()) * bits;
        const CrossbarNocLayer& r = n.noc.layers[c];
        for (std::int64_t i = r.first_tile; i < r.first_tile + r.tiles; ++i)
            ts.push_back({agg, mesh.node(snake_coord(m, i)), Bytes(ceil_div(sent, 8 * r.tiles))});
    }
    return evaluate_transfers(mesh, ts, t.noc);
}

TEST(CrossbarNoc, BranchingNetworkMatchesTheMeshModel) {
    // c0's output reaches c1 through the pool (a quarter of it); c1's reaches c2 and, through
    // the add, c3; c2's reaches c3. Replicas of c0 widen its range.
    const workload::Network net = branching();
    const CrossbarTechnology& t = mnsim2_technology();
    CrossbarConfig cfg;
    cfg.size = 64;
    CrossbarNetworkOptions o;
    o.tile_budget = 2 * cost_network_on_crossbars(net, cfg, t).tiles;
    const CrossbarNetworkCost n = cost_network_on_crossbars(net, cfg, t, o);
    ASSERT_EQ(n.layers.size(), 4U);
    Picojoules sum{0};
    for (std::size_t k = 0; k < 4; ++k) {
        const CrossbarNocLayer& l = n.noc.layers[k];
        const TransferCost ref = reference_layer(net, n, k, t, cfg.activation_bits);
        EXPECT_EQ(l.flit_hops, ref.flit_hops) << k;
        EXPECT_NEAR(l.energy.value(), ref.energy.value(), 1e-6 * ref.energy.value()) << k;
        // Every flit passes the aggregate's ports, so they are the busiest channels.
        EXPECT_EQ(std::max(l.gather_flits, l.scatter_flits), ref.max_channel_flits) << k;
        EXPECT_EQ(l.max_hops, ref.max_hops) << k;
        EXPECT_GE(n.stage_ns[k], l.ns);
        sum += l.energy;
    }
    bool replicated = false;
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(n.noc.layers[k].tiles, n.layer_costs[k].tiles * n.replicas[k]) << k;
        replicated = replicated || n.replicas[k] > 1;
    }
    EXPECT_TRUE(replicated);
    EXPECT_NEAR(n.energy.noc.value(), sum.value(), 1e-9 * sum.value());
}

TEST(CrossbarNoc, ASlowNetworkBoundsTheStage) {
    // At 0.01 Gb/s a flit takes 3200 ns: a's 216 flits and 2 hops (226 cycles) outlast its
    // 32,193.44 ns of compute and become the pipeline's slowest stage.
    CrossbarTechnology t = mnsim2_technology();
    t.noc_link_gbps = 0.01;
    const workload::Network net = two_convs();
    const CrossbarNetworkCost n = cost_network_on_crossbars(net, CrossbarConfig{}, t);
    EXPECT_DOUBLE_EQ(n.stage_ns[0], 226 * 3200.0);
    EXPECT_DOUBLE_EQ(n.stage_ns[1], (576 + 5) * 3200.0);  // b's gather outlasts its compute too
    EXPECT_NEAR(n.latency_ns, (576 + 5) * 3200.0 + 226 * 3200.0 * 3 / 16, 1e-6);
}

TEST(CrossbarNoc, RefusesBadInput) {
    const workload::Network net = two_convs();
    const CrossbarTechnology& t = mnsim2_technology();
    const std::vector<workload::LayerIndex> layers{0, 1};
    const std::vector<std::int64_t> one{1};
    const std::vector<std::int64_t> two{1, 2};
    const std::vector<std::int64_t> none{1, 0};
    EXPECT_THROW((void)cost_crossbar_noc(net, {layers, one, two}, 9, t), ModelError);
    EXPECT_THROW((void)cost_crossbar_noc(net, {layers, two, none}, 9, t), ModelError);
    CrossbarTechnology slow = t;
    slow.noc_link_gbps = 0;
    EXPECT_THROW((void)cost_crossbar_noc(net, {layers, two, two}, 9, slow), ModelError);
    slow = t;
    slow.name = "broken";
    slow.noc.flit_bits = 0;
    try {
        check_technology(slow);
        FAIL() << "a zero flit width must throw";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("noc.flit_bits"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace pimdse::sim
