// Mesh, link indexing, XY routing and the analytic transfer model: hand-computed cases and
// properties on generated transfer sets.
#include "pimdse/sim/noc.hpp"
#include "pimdse/core/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "pimdse/core/rng.hpp"

namespace pimdse::sim {
namespace {

constexpr Direction kDirections[] = {Direction::east, Direction::west, Direction::south, Direction::north};

TEST(Mesh, RejectsEmptyOrHugeArrays) {
    EXPECT_THROW(Mesh(0, 4), pimdse::ModelError);
    EXPECT_THROW(Mesh(4, -1), pimdse::ModelError);
    EXPECT_THROW(Mesh(5000, 1), pimdse::ModelError);
    EXPECT_NO_THROW(Mesh(1, 1));
}

TEST(Mesh, CountsAndCoordinates) {
    const Mesh m(3, 5);
    EXPECT_EQ(m.node_count(), 15);
    // 3 rows x 4 horizontal links x 2 directions + 2 x 5 vertical links x 2 directions.
    EXPECT_EQ(m.link_count(), 24 + 20);
    EXPECT_EQ(m.channel_count(), 44 + 30);
    EXPECT_EQ(m.node(2, 3), 13);
    EXPECT_EQ(m.coord(13), (NodeCoord{2, 3}));
    EXPECT_EQ(m.injection_port(0), 44);
    EXPECT_EQ(m.ejection_port(14), 44 + 15 + 14);
    EXPECT_TRUE(m.is_link(43));
    EXPECT_FALSE(m.is_link(44));
}

// Every (node, direction) with a neighbour owns exactly one link id, the ids cover
// [0, link_count) without holes, and each link knows its ends and direction.
TEST(Mesh, LinkIdsAreDenseAndConsistent) {
    for (auto [rows, cols] :
         {std::pair{1, 1}, std::pair{1, 6}, std::pair{5, 1}, std::pair{3, 4}, std::pair{16, 16}}) {
        const Mesh m(rows, cols);
        std::vector<int> seen(static_cast<std::size_t>(m.link_count()), 0);
        for (NodeId n = 0; n < m.node_count(); ++n) {
            const NodeCoord p = m.coord(n);
            for (Direction d : kDirections) {
                const ChannelId l = m.link(n, d);
                NodeCoord q = p;
                if (d == Direction::east) ++q.col;
                if (d == Direction::west) --q.col;
                if (d == Direction::south) ++q.row;
                if (d == Direction::north) --q.row;
                const bool inside = q.row >= 0 && q.row < rows && q.col >= 0 && q.col < cols;
                if (!inside) {
                    EXPECT_EQ(l, kNoChannel);
                    continue;
                }
                ASSERT_TRUE(m.is_link(l));
                ++seen[static_cast<std::size_t>(l)];
                EXPECT_EQ(m.link_source(l), n);
                EXPECT_EQ(m.link_target(l), m.node(q));
                EXPECT_EQ(m.link_direction(l), d);
            }
        }
        EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }))
            << rows << "x" << cols;
    }
}

// XY routing: along the row (X = column index) first, then along the column.
TEST(Mesh, XyRouteGoesAlongTheRowFirst) {
    const Mesh m(3, 4);
    const NodeId a = m.node(0, 0);
    const NodeId b = m.node(2, 3);
    const std::vector<ChannelId> expected = {
        m.link(m.node(0, 0), Direction::east), m.link(m.node(0, 1), Direction::east),
        m.link(m.node(0, 2), Direction::east), m.link(m.node(0, 3), Direction::south),
        m.link(m.node(1, 3), Direction::south)};
    EXPECT_EQ(m.route(a, b), expected);
    const std::vector<ChannelId> back = {
        m.link(m.node(2, 3), Direction::west), m.link(m.node(2, 2), Direction::west),
        m.link(m.node(2, 1), Direction::west), m.link(m.node(2, 0), Direction::north),
        m.link(m.node(1, 0), Direction::north)};
    EXPECT_EQ(m.route(b, a), back);
    EXPECT_TRUE(m.route(a, a).empty());
}

TEST(Mesh, RoutesAreConnectedMinimalAndXFirst) {
    const Mesh m(4, 5);
    for (NodeId s = 0; s < m.node_count(); ++s) {
        for (NodeId d = 0; d < m.node_count(); ++d) {
            const std::vector<ChannelId> r = m.route(s, d);
            const NodeCoord ps = m.coord(s);
            const NodeCoord pd = m.coord(d);
            ASSERT_EQ(m.hops(s, d), std::abs(ps.row - pd.row) + std::abs(ps.col - pd.col));
            ASSERT_EQ(static_cast<std::int32_t>(r.size()), m.hops(s, d));
            NodeId at = s;
            bool vertical = false;
            for (ChannelId l : r) {
                ASSERT_EQ(m.link_source(l), at);
                const Direction dir = m.link_direction(l);
                const bool v = dir == Direction::south || dir == Direction::north;
                ASSERT_FALSE(vertical && !v) << "an X hop after a Y hop";
                vertical = v;
                at = m.link_target(l);
            }
            ASSERT_EQ(at, d);
        }
    }
}

TEST(Flits, PayloadIsCutIntoWholeFlits) {
    EXPECT_EQ(flits_of(Bytes(0), 64), 0);
    EXPECT_EQ(flits_of(Bytes(1), 64), 1);
    EXPECT_EQ(flits_of(Bytes(8), 64), 1);
    EXPECT_EQ(flits_of(Bytes(9), 64), 2);
    EXPECT_EQ(flits_of(kibibytes(8), 64), 1024);
    EXPECT_EQ(flits_of(Bytes(100), 256), 4);  // 800 bits on 256-bit flits
}

TEST(NocParams, ValidateRejectsNonsense) {
    EXPECT_NO_THROW(validate(NocParams{}));
    EXPECT_THROW(validate(NocParams{0, 2, 1.1}), pimdse::ModelError);
    EXPECT_THROW(validate(NocParams{64, 0, 1.1}), pimdse::ModelError);
    EXPECT_THROW(validate(NocParams{64, 2, -1.0}), pimdse::ModelError);
}

// A transfer along one row loads exactly its row links, its source's injection port and
// its destination's ejection port, each with ceil(bytes * 8 / flit_bits) flits.
TEST(EvaluateTransfers, RowTransferLoadsExactlyItsLinks) {
    const Mesh m(3, 5);
    const NocParams p{64, 2, 1.1};
    const Transfer t{m.node(1, 0), m.node(1, 4), Bytes(1000)};  // 8000 bits -> 125 flits
    ChannelLoads loads;
    const TransferCost cost = evaluate_transfers(m, std::span(&t, 1), p, loads);
    std::vector<std::int64_t> expected(static_cast<std::size_t>(m.channel_count()), 0);
    for (std::int32_t c = 0; c < 4; ++c)
        expected[static_cast<std::size_t>(m.link(m.node(1, c), Direction::east))] = 125;
    expected[static_cast<std::size_t>(m.injection_port(t.src))] = 125;
    expected[static_cast<std::size_t>(m.ejection_port(t.dst))] = 125;
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), loads.flits().begin(), loads.flits().end()));
    EXPECT_EQ(cost.max_link_flits, 125);
    EXPECT_EQ(cost.max_channel_flits, 125);
    EXPECT_EQ(cost.max_hops, 4);
    EXPECT_EQ(cost.flit_hops, 500);
    EXPECT_DOUBLE_EQ(cost.latency.value(), 125 + 4 * 2);  // a lone stream: flits + path
    EXPECT_DOUBLE_EQ(cost.energy.value(), 500 * 64 * 1.1);
}

TEST(EvaluateTransfers, NodeLocalAndEmptyTransfersAreFree) {
    const Mesh m(4, 4);
    const std::vector<Transfer> ts = {{5, 5, kibibytes(8)}, {3, 9, Bytes(0)}};
    ChannelLoads loads;
    const TransferCost cost = evaluate_transfers(m, ts, NocParams{}, loads);
    EXPECT_EQ(cost.max_channel_flits, 0);
    EXPECT_EQ(cost.max_hops, 0);
    EXPECT_EQ(cost.flit_hops, 0);
    EXPECT_DOUBLE_EQ(cost.latency.value(), 0);
    EXPECT_DOUBLE_EQ(cost.energy.value(), 0);
    EXPECT_TRUE(
        std::all_of(loads.flits().begin(), loads.flits().end(), [](std::int64_t f) { return f == 0; }));
    EXPECT_DOUBLE_EQ(evaluate_transfers(m, {}, NocParams{}).latency.value(), 0);
}

TEST(EvaluateTransfers, RejectsNodesOutsideTheMesh) {
    const Mesh m(2, 2);
    const Transfer bad{0, 4, Bytes(8)};
    EXPECT_THROW((void)evaluate_transfers(m, std::span(&bad, 1), NocParams{}), pimdse::ModelError);
}

// Two streams into one sink from both sides: the sink's ejection port carries both and
// is the bottleneck although no mesh link carries more than one stream.
TEST(EvaluateTransfers, EjectionPortIsAChannel) {
    const Mesh m(1, 3);
    const std::vector<Transfer> ts = {{0, 1, Bytes(800)}, {2, 1, Bytes(800)}};  // 100 flits each
    const TransferCost cost = evaluate_transfers(m, ts, NocParams{64, 1, 1.1});
    EXPECT_EQ(cost.max_link_flits, 100);
    EXPECT_EQ(cost.max_channel_flits, 200);
    EXPECT_DOUBLE_EQ(cost.latency.value(), 200 + 1);  // starts after one hop, ends there
}

TEST(EvaluateTransfers, ScratchIsReusedAcrossMeshes) {
    ChannelLoads loads;
    const Transfer t{0, 3, Bytes(64)};
    const TransferCost big = evaluate_transfers(Mesh(4, 4), std::span(&t, 1), NocParams{}, loads);
    EXPECT_EQ(loads.flits().size(), static_cast<std::size_t>(Mesh(4, 4).channel_count()));
    const TransferCost small = evaluate_transfers(Mesh(2, 2), std::span(&t, 1), NocParams{}, loads);
    EXPECT_EQ(loads.flits().size(), static_cast<std::size_t>(Mesh(2, 2).channel_count()));
    EXPECT_EQ(big.max_hops, 3);
    EXPECT_EQ(small.max_hops, 2);
}

std::vector<Transfer> random_transfers(const Mesh& m, Rng& rng) {
    std::vector<Transfer> ts(static_cast<std::size_t>(rng.uniform_int(1, 3 * m.node_count())));
    for (Transfer& t : ts) {
        t.src = static_cast<NodeId>(rng.uniform_int(0, m.node_count() - 1));
        t.dst = static_cast<NodeId>(rng.uniform_int(0, m.node_count() - 1));
        t.bytes = Bytes(rng.uniform_int(0, 4096));
    }
    return ts;
}

// Properties on generated transfer sets (fixed seeds): link loads add up to flits x hops,
// the bottleneck carries at least any single stream, the latency lies between the
// lone-stream bound and the plain bottleneck bound, energy is flit-hops x bits x pJ.
TEST(EvaluateTransfers, PropertiesOnRandomSets) {
    Rng root(7);
    for (std::uint64_t trial = 0; trial < 200; ++trial) {
        Rng rng = root.split(trial);
        const Mesh m(static_cast<std::int32_t>(rng.uniform_int(1, 9)),
                     static_cast<std::int32_t>(rng.uniform_int(1, 9)));
        NocParams p;
        p.flit_bits = static_cast<std::int32_t>(8 * rng.uniform_int(1, 32));
        p.hop_cycles = static_cast<std::int32_t>(rng.uniform_int(1, 4));
        const std::vector<Transfer> ts = random_transfers(m, rng);
        ChannelLoads loads;
        const TransferCost cost = evaluate_transfers(m, ts, p, loads);

        std::int64_t flit_hops = 0;
        std::int64_t lone = 0;
        std::int64_t biggest_stream = 0;
        for (const Transfer& t : ts) {
            const std::int64_t f = flits_of(t.bytes, p.flit_bits);
            const std::int32_t h = m.hops(t.src, t.dst);
            flit_hops += f * h;
            if (h > 0 && f > 0) {
                biggest_stream = std::max(biggest_stream, f);
                lone = std::max(lone, f + std::int64_t{h} * p.hop_cycles);
            }
        }
        const auto link_loads = loads.flits().first(static_cast<std::size_t>(m.link_count()));
        EXPECT_EQ(std::accumulate(link_loads.begin(), link_loads.end(), std::int64_t{0}), flit_hops);
        EXPECT_EQ(cost.flit_hops, flit_hops);
        EXPECT_GE(cost.max_link_flits, biggest_stream);
        EXPECT_GE(cost.latency.value(), static_cast<double>(lone));
        EXPECT_GE(cost.latency.value(), static_cast<double>(cost.max_channel_flits));
        EXPECT_LE(cost.latency.value(),
                  static_cast<double>(cost.max_channel_flits + std::int64_t{cost.max_hops} * p.hop_cycles));
        EXPECT_DOUBLE_EQ(cost.energy.value(),
                         static_cast<double>(flit_hops) * p.flit_bits * p.pj_per_bit_hop);
    }
}

// A reset clears only the channels loaded since the last one: one scratch reused across
// random transfer sets (and meshes) must give the costs and per-channel loads of a fresh
// one, `loaded()` must list exactly the channels with flits, each once, and loading every
// channel of a mesh (all-to-all) must still reset cleanly.
TEST(ChannelLoads, ReusedScratchEqualsFreshAndListsLoadedChannels) {
    Rng root(20261129);
    ChannelLoads reused;
    for (std::uint64_t trial = 0; trial < 100; ++trial) {
        Rng rng = root.split(trial);
        const Mesh m(static_cast<std::int32_t>(rng.uniform_int(1, 5)),
                     static_cast<std::int32_t>(rng.uniform_int(1, 5)));
        std::vector<Transfer> ts = random_transfers(m, rng);
        if (trial % 10 == 9) {  // every node to every other: every channel loaded
            ts.clear();
            for (NodeId a = 0; a < m.node_count(); ++a)
                for (NodeId b = 0; b < m.node_count(); ++b) ts.push_back({a, b, Bytes(32)});
        }
        ChannelLoads fresh;
        const TransferCost want = evaluate_transfers(m, ts, NocParams{}, fresh);
        const TransferCost got = evaluate_transfers(m, ts, NocParams{}, reused);
        EXPECT_EQ(got.latency.value(), want.latency.value()) << trial;
        EXPECT_EQ(got.max_link_flits, want.max_link_flits) << trial;
        EXPECT_EQ(got.max_channel_flits, want.max_channel_flits) << trial;
        ASSERT_EQ(reused.flits().size(), fresh.flits().size());
        std::vector<std::int32_t> listed(reused.loaded().begin(), reused.loaded().end());
        std::sort(listed.begin(), listed.end());
        EXPECT_EQ(std::adjacent_find(listed.begin(), listed.end()), listed.end()) << trial;
        std::vector<std::int32_t> with_flits;
        for (std::size_t c = 0; c < fresh.flits().size(); ++c) {
            EXPECT_EQ(reused.flits()[c], fresh.flits()[c]) << trial << " channel " << c;
            if (fresh.flits()[c] > 0) {
                with_flits.push_back(static_cast<std::int32_t>(c));
                EXPECT_EQ(reused.min_hops_before()[c], fresh.min_hops_before()[c]) << trial;
                EXPECT_EQ(reused.max_hops_after()[c], fresh.max_hops_after()[c]) << trial;
            }
        }
        EXPECT_EQ(listed, with_flits) << trial;
        if (trial % 10 == 9 && m.node_count() > 1) {
            EXPECT_EQ(listed.size(), static_cast<std::size_t>(m.channel_count())) << trial;
        }
    }
}

}  // namespace
}  // namespace pimdse::sim
