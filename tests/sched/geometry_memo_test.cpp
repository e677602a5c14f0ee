// The ILP's memo of geometries in load units (IlpCycleScheduler): an event whose chunks are a
// solved event's times a common factor (more bytes per node, a narrower flit) is answered
// from the memo, with exactly the cycles, bound, status and counts a fresh solve gives; an
// event whose chunks are not in proportion is solved anew.
#include <gtest/gtest.h>

#include <vector>

#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sched/placements.hpp"

namespace pimdse::sched {
namespace {

const sim::Mesh kMesh(8, 8);
const sim::NocParams kNoc{.flit_bits = 64, .hop_cycles = 2};
const IlpOptions kOptions{.work_limit = 3000, .time_limit_seconds = 600.0};

// Four random sets of eight on 8 x 8, each set's chunk `factor[i]` KiB; with equal chunks the
// event reaches the compact model and the work limit (work_limit_test.cpp).
std::vector<sim::SharingSet> event(std::vector<std::int64_t> factor) {
    std::vector<sim::SharingSet> sets = random_disjoint_sets(kMesh, 4, 8, Bytes(1024), 1);
    for (std::size_t i = 0; i < sets.size(); ++i) sets[i].bytes_per_node = Bytes(1024 * factor[i]);
    return sets;
}

void expect_same(const IlpResult& a, const IlpResult& b) {
    ASSERT_EQ(a.cycles.size(), b.cycles.size());
    for (std::size_t i = 0; i < a.cycles.size(); ++i) {
        EXPECT_EQ(a.cycles[i].order, b.cycles[i].order) << i;
        EXPECT_EQ(a.cycles[i].bytes_per_node, b.cycles[i].bytes_per_node) << i;
    }
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.phase, b.phase);
    EXPECT_EQ(a.objective_flits, b.objective_flits);
    EXPECT_EQ(a.max_link_flits, b.max_link_flits);
    EXPECT_EQ(a.best_bound_flits, b.best_bound_flits);
    EXPECT_EQ(a.latency_fallback, b.latency_fallback);
    EXPECT_EQ(a.simplex_iterations, b.simplex_iterations);
    EXPECT_EQ(a.columns, b.columns);
    EXPECT_EQ(a.pricing_rounds, b.pricing_rounds);
}

TEST(IlpGeometryMemo, ProportionalChunksAreSolvedOnceWithAFreshSolvesAnswer) {
    IlpCycleScheduler warm(kOptions);
    const IlpResult first = warm.solve(kMesh, event({8, 8, 8, 8}), kNoc);
    ASSERT_EQ(first.status, ScheduleStatus::work_limit_incumbent) << first.reason;
    const IlpResult tripled = warm.solve(kMesh, event({24, 24, 24, 24}), kNoc);
    EXPECT_EQ(warm.geometry_hits(), 1U);
    IlpCycleScheduler fresh(kOptions);
    expect_same(tripled, fresh.solve(kMesh, event({24, 24, 24, 24}), kNoc));
    EXPECT_EQ(tripled.best_bound_flits, 3 * first.best_bound_flits);

    // The same chunks in flits of half the width: the same units again.
    const sim::NocParams narrow{.flit_bits = 32, .hop_cycles = 2};
    const IlpResult halved = warm.solve(kMesh, event({8, 8, 8, 8}), narrow);
    EXPECT_EQ(warm.geometry_hits(), 2U);
    expect_same(halved, IlpCycleScheduler(kOptions).solve(kMesh, event({8, 8, 8, 8}), narrow));

    // Unequal chunks in proportion: solved once too.
    (void)warm.solve(kMesh, event({8, 8, 16, 8}), kNoc);
    const IlpResult doubled = warm.solve(kMesh, event({16, 16, 32, 16}), kNoc);
    EXPECT_EQ(warm.geometry_hits(), 3U);
    expect_same(doubled, IlpCycleScheduler(kOptions).solve(kMesh, event({16, 16, 32, 16}), kNoc));
}

TEST(IlpGeometryMemo, ChunksOutOfProportionAreSolvedAnew) {
    IlpCycleScheduler ilp(kOptions);
    (void)ilp.solve(kMesh, event({8, 8, 16, 8}), kNoc);
    (void)ilp.solve(kMesh, event({8, 8, 24, 8}), kNoc);
    (void)ilp.solve(kMesh, event({8, 16, 8, 8}), kNoc);
    EXPECT_EQ(ilp.geometry_hits(), 0U);
}

}  // namespace
}  // namespace pimdse::sched
