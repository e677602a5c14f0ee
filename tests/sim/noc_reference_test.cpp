// The step-level reference simulator: hand-computed timings and its agreement with the
// analytic model's channel loads and lower bound.
#include "pimdse/sim/noc_reference.hpp"
#include "pimdse/core/error.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/sim/noc.hpp"

namespace pimdse::sim {
namespace {

// A lone stream of F flits over h hops arrives at F + h * hop_cycles: one flit per cycle
// through a pipeline h hops deep.
TEST(ReferenceSim, LoneStreamTakesFlitsPlusPath) {
    const Mesh m(4, 6);
    for (std::int32_t hop : {1, 2, 5}) {
        for (std::int64_t bytes : {1, 8, 72, 4096}) {
            const NocParams p{64, hop, 1.1};
            const Transfer t{m.node(3, 0), m.node(1, 5), Bytes(bytes)};
            const ReferenceResult r = simulate_transfers(m, std::span(&t, 1), p);
            const std::int64_t expected = flits_of(t.bytes, 64) + 7 * hop;
            EXPECT_DOUBLE_EQ(r.latency.value(), static_cast<double>(expected)) << hop << " " << bytes;
            EXPECT_EQ(r.transfer_done[0], expected);
            EXPECT_DOUBLE_EQ(evaluate_transfers(m, std::span(&t, 1), p).latency.value(),
                             static_cast<double>(expected));
        }
    }
}

// 1 x 3 mesh, streams 0 -> 2 and 1 -> 2 of F flits, hop 1. Link 1->2 starts in cycle 0
// with the local stream and is busy for 2F cycles; its last flit reaches node 2's
// ejection port one cycle later and has arrived at the end of that cycle: 2F + 1.
TEST(ReferenceSim, MergingStreamsSerialiseOnTheSharedLink) {
    const Mesh m(1, 3);
    const NocParams p{64, 1, 1.1};
    const std::vector<Transfer> ts = {{0, 2, Bytes(8 * 50)}, {1, 2, Bytes(8 * 50)}};
    const ReferenceResult r = simulate_transfers(m, ts, p);
    EXPECT_DOUBLE_EQ(r.latency.value(), 101);
    EXPECT_EQ(r.channel_flits[static_cast<std::size_t>(m.link(1, Direction::east))], 100);
    // Round-robin: both streams progress together and finish within a couple of cycles.
    EXPECT_LE(std::abs(r.transfer_done[0] - r.transfer_done[1]), 2);
    EXPECT_DOUBLE_EQ(evaluate_transfers(m, ts, p).latency.value(), 101);
}

TEST(ReferenceSim, NodeLocalTransfersNeverEnterTheNetwork) {
    const Mesh m(2, 2);
    const std::vector<Transfer> ts = {{3, 3, kibibytes(8)}};
    const ReferenceResult r = simulate_transfers(m, ts, NocParams{});
    EXPECT_DOUBLE_EQ(r.latency.value(), 0);
    EXPECT_EQ(r.transfer_done[0], 0);
    for (std::int64_t f : r.channel_flits) EXPECT_EQ(f, 0);
}

TEST(ReferenceSim, RejectsNodesOutsideTheMesh) {
    const Mesh m(2, 2);
    const Transfer bad{-1, 0, Bytes(8)};
    EXPECT_THROW((void)simulate_transfers(m, std::span(&bad, 1), NocParams{}), pimdse::ModelError);
    EXPECT_THROW((void)reference_lower_bound(m, std::span(&bad, 1), NocParams{}), pimdse::ModelError);
}

// On random sets: the simulator moves exactly the flits the analytic model puts on each
// channel, it never beats the lower bound, and the analytic latency is never below it.
TEST(ReferenceSim, AgreesWithAnalyticLoadsAndBoundsOnRandomSets) {
    Rng root(99);
    for (std::uint64_t trial = 0; trial < 60; ++trial) {
        Rng rng = root.split(trial);
        const Mesh m(static_cast<std::int32_t>(rng.uniform_int(1, 6)),
                     static_cast<std::int32_t>(rng.uniform_int(1, 6)));
        const NocParams p{64, static_cast<std::int32_t>(rng.uniform_int(1, 3)), 1.1};
        std::vector<Transfer> ts(static_cast<std::size_t>(rng.uniform_int(1, 2 * m.node_count())));
        for (Transfer& t : ts) {
            t.src = static_cast<NodeId>(rng.uniform_int(0, m.node_count() - 1));
            t.dst = static_cast<NodeId>(rng.uniform_int(0, m.node_count() - 1));
            t.bytes = Bytes(rng.uniform_int(0, 1024));
        }
        ChannelLoads loads;
        const TransferCost a = evaluate_transfers(m, ts, p, loads);
        const ReferenceResult r = simulate_transfers(m, ts, p);
        ASSERT_EQ(r.channel_flits.size(), loads.flits().size());
        for (std::size_t c = 0; c < r.channel_flits.size(); ++c)
            EXPECT_EQ(r.channel_flits[c], loads.flits()[c]);
        const double lower = reference_lower_bound(m, ts, p).value();
        EXPECT_GE(r.latency.value(), lower) << "trial " << trial;
        EXPECT_GE(a.latency.value(), lower) << "trial " << trial;
        for (std::size_t i = 0; i < ts.size(); ++i) {
            const std::int64_t f = flits_of(ts[i].bytes, p.flit_bits);
            if (f == 0 || ts[i].src == ts[i].dst) continue;
            EXPECT_GE(r.transfer_done[i], f + std::int64_t{m.hops(ts[i].src, ts[i].dst)} * p.hop_cycles);
        }
    }
}

}  // namespace
}  // namespace pimdse::sim
