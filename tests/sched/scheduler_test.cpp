#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/sched/bounds.hpp"
#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sched/tsp_scheduler.hpp"
#include "pimdse/sched/validate.hpp"

namespace pimdse::sched {
namespace {

using sim::Mesh;
using sim::NodeId;
using sim::SharingCycle;
using sim::SharingSet;

const sim::NocParams kNoc{};  // 64-bit flits, the Fig. 12 setup

// Random disjoint placement of sets of the given sizes.
std::vector<SharingSet> random_sets(const Mesh& mesh, const std::vector<std::size_t>& sizes,
                                    std::uint32_t seed, Bytes bytes = Bytes(8 * 1024)) {
    std::mt19937 rng(seed);
    std::vector<NodeId> nodes(static_cast<std::size_t>(mesh.node_count()));
    for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<NodeId>(i);
    std::shuffle(nodes.begin(), nodes.end(), rng);
    std::vector<SharingSet> sets;
    std::size_t next = 0;
    for (const std::size_t n : sizes) {
        SharingSet s;
        s.members.assign(nodes.begin() + static_cast<std::ptrdiff_t>(next),
                         nodes.begin() + static_cast<std::ptrdiff_t>(next + n));
        s.bytes_per_node = bytes;
        next += n;
        sets.push_back(std::move(s));
    }
    return sets;
}

std::int64_t brute_force_min_hops(const Mesh& mesh, std::vector<NodeId> m) {
    std::sort(m.begin(), m.end());
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    do {
        best = std::min(best, cycle_hops(mesh, m));
    } while (std::next_permutation(m.begin() + 1, m.end()));
    return best;
}

TEST(TspScheduler, MinimumHopsEqualBruteForce) {
    for (const std::int32_t side : {4, 8}) {
        const Mesh mesh(side, side);
        for (std::uint32_t seed = 1; seed <= 6; ++seed) {
            for (const std::size_t n : {3U, 5U, 7U, 8U}) {
                const auto sets = random_sets(mesh, {n}, seed * 31U + n);
                const auto order = min_hop_cycle(mesh, sets[0].members);
                ASSERT_EQ(order.size(), n);
                EXPECT_EQ(cycle_hops(mesh, order), brute_force_min_hops(mesh, sets[0].members));
            }
        }
    }
}

TEST(TspScheduler, LargeSetsUseTwoOptAndStayValid) {
    const Mesh mesh(8, 8);
    const auto sets = random_sets(mesh, {24}, 5);
    TspCycleScheduler tsp;
    const auto cycles = tsp.schedule(mesh, sets);
    EXPECT_EQ(validate_cycles(sets, cycles), std::nullopt);
    EXPECT_LE(cycle_hops(mesh, cycles[0].order), cycle_hops(mesh, sim::snake_order(mesh, sets[0].members)));
}

TEST(Schedulers, AreDeterministicAndIgnoreMemberOrder) {
    const Mesh mesh(8, 8);
    auto sets = random_sets(mesh, {6, 5}, 11);
    IlpCycleScheduler a;
    IlpCycleScheduler b;
    TspCycleScheduler tsp;
    const auto ra = a.solve(mesh, sets, kNoc).cycles;
    const auto ta = tsp.schedule(mesh, sets);
    std::reverse(sets[0].members.begin(), sets[0].members.end());
    const auto rb = b.solve(mesh, sets, kNoc).cycles;
    const auto tb = tsp.schedule(mesh, sets);
    for (std::size_t s = 0; s < sets.size(); ++s) {
        EXPECT_EQ(ra[s].order, rb[s].order);
        EXPECT_EQ(ta[s].order, tb[s].order);
    }
}

TEST(DataScheduler, CacheSolvesIdenticalEventsOnce) {
    const Mesh mesh(4, 4);
    const auto sets = random_sets(mesh, {5, 5}, 3);
    DataScheduler ds;
    const auto first = ds.schedule(mesh, sets, kNoc);
    const auto second = ds.schedule(mesh, sets, kNoc);
    EXPECT_FALSE(first.from_cache);
    EXPECT_TRUE(second.from_cache);
    EXPECT_EQ(ds.cache_size(), 1U);
    EXPECT_EQ(first.cost.max_link_flits, second.cost.max_link_flits);
    for (std::size_t s = 0; s < sets.size(); ++s) EXPECT_EQ(first.cycles[s].order, second.cycles[s].order);
}

TEST(IlpScheduler, TrivialSetsNeedNoIlp) {
    const Mesh mesh(4, 4);
    const std::vector<SharingSet> sets{{{3}, Bytes(64)}, {{0, 15}, Bytes(64)}, {{}, Bytes(64)}};
    IlpCycleScheduler ilp;
    const auto r = ilp.solve(mesh, sets, kNoc);
    EXPECT_EQ(r.status, ScheduleStatus::optimal);
    EXPECT_EQ(validate_cycles(sets, r.cycles), std::nullopt);
    EXPECT_EQ(r.max_link_flits, 8);
}

// The uniform mapping's events on NicePIM 16x16 (ResNet-152): four column strips of 4 x 16
// nodes with chunks of different sizes. Every set loads some link with one whole chunk, so
// the largest chunk bounds Eq. 4; the snake rings reach it, which proves them optimal at
// once (without that bound the 64-member sets ran into the time limit).
TEST(IlpScheduler, LargestChunkBoundsLargeSets) {
    const Mesh mesh(16, 16);
    std::vector<SharingSet> sets(4);
    for (std::int32_t s = 0; s < 4; ++s) {
        for (std::int32_t r = 0; r < 16; ++r)
            for (std::int32_t c = 4 * s; c < 4 * s + 4; ++c)
                sets[static_cast<std::size_t>(s)].members.push_back(mesh.node(r, c));
        sets[static_cast<std::size_t>(s)].bytes_per_node = Bytes(1218 + 70 * s);
    }
    const MaxLinkBound b = max_link_lower_bound(mesh, sets, 64);
    EXPECT_EQ(b.chunk, sim::flits_of(Bytes(1218 + 70 * 3), 64));
    IlpCycleScheduler ilp(IlpOptions{.time_limit_seconds = 10.0});
    const IlpResult r = ilp.solve(mesh, sets, kNoc);
    EXPECT_EQ(validate_cycles(sets, r.cycles), std::nullopt);
    EXPECT_EQ(r.status, ScheduleStatus::optimal) << r.reason;
    EXPECT_EQ(r.objective_flits, b.chunk);
    EXPECT_LT(r.solve_seconds, 1.0);
}

TEST(IlpScheduler, RejectsBadInputAndOptions) {
    const Mesh mesh(4, 4);
    IlpCycleScheduler ilp;
    const std::vector<SharingSet> dup{{{1, 2, 2}, Bytes(8)}};
    const std::vector<SharingSet> outside{{{1, 2, 16}, Bytes(8)}};
    EXPECT_THROW((void)ilp.solve(mesh, dup, kNoc), pimdse::ModelError);
    EXPECT_THROW((void)ilp.solve(mesh, outside, kNoc), pimdse::ModelError);
    EXPECT_THROW(IlpCycleScheduler(IlpOptions{.time_limit_seconds = 0.0}), pimdse::ModelError);
}

TEST(IlpScheduler, Fig12FourByFourBeatsOrEqualsSnake) {
    const Mesh mesh(4, 4);
    SharingSet all;
    for (NodeId n = 0; n < 16; ++n) all.members.push_back(n);
    all.bytes_per_node = Bytes(8 * 1024);
    const std::vector<SharingSet> sets{all};
    IlpCycleScheduler ilp(IlpOptions{.time_limit_seconds = 5.0});
    const auto r = ilp.solve(mesh, sets, kNoc);
    ASSERT_EQ(validate_cycles(sets, r.cycles), std::nullopt);
    sim::SnakeRingScheduler snake;
    EXPECT_LE(r.max_link_flits, step_max_link_flits(mesh, snake.schedule(mesh, sets), 64));
    EXPECT_EQ(r.max_link_flits, 1024);  // one chunk per link: nothing can do better
    EXPECT_NE(r.status, ScheduleStatus::failed) << r.reason;
}

}  // namespace
}  // namespace pimdse::sched
