// The ILP's work limit (IlpOptions::work_limit, `schedule.work_limit`) binds deterministically:
// an event that needs more simplex iterations than the limit stops at the same point on every
// run, with the same cycles, bound and count, whatever the machine's speed or load. The
// wall-clock safety net is set far above what these solves take, so only the work limit can
// stop them.
#include <gtest/gtest.h>

#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sched/placements.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sched/validate.hpp"

namespace pimdse::sched {
namespace {

const sim::NocParams kNoc{.flit_bits = 64, .hop_cycles = 2};

// Four random sets of eight on 8 x 8 (`pimdse schedule --mesh 8x8 --sets random:4x8 --seed 1`):
// the pool and column generation leave a gap of one chunk (2048 against a bound of 1024
// flits) that the compact model cannot close within 20 000 iterations.
std::vector<sim::SharingSet> hard_event() {
    return random_disjoint_sets(sim::Mesh(8, 8), 4, 8, Bytes(8 * 1024), 1);
}

IlpResult solve(std::int64_t work_limit) {
    IlpCycleScheduler ilp(IlpOptions{.work_limit = work_limit, .time_limit_seconds = 600.0});
    return ilp.solve(sim::Mesh(8, 8), hard_event(), kNoc);
}

TEST(IlpWorkLimit, BindsAtTheSamePointTwice) {
    const IlpResult a = solve(3000);
    const IlpResult b = solve(3000);
    ASSERT_EQ(a.status, ScheduleStatus::work_limit_incumbent) << a.reason;
    EXPECT_EQ(b.status, ScheduleStatus::work_limit_incumbent) << b.reason;
    // Spent: the count passed the limit (by at most the iteration that noticed it per LP).
    EXPECT_GE(a.simplex_iterations, 3000);
    EXPECT_EQ(a.simplex_iterations, b.simplex_iterations);
    ASSERT_EQ(a.cycles.size(), b.cycles.size());
    for (std::size_t i = 0; i < a.cycles.size(); ++i) EXPECT_EQ(a.cycles[i].order, b.cycles[i].order) << i;
    EXPECT_EQ(a.objective_flits, b.objective_flits);
    EXPECT_EQ(a.best_bound_flits, b.best_bound_flits);
    EXPECT_EQ(a.pricing_rounds, b.pricing_rounds);
    EXPECT_EQ(a.columns, b.columns);
    EXPECT_EQ(a.phase, b.phase);
    EXPECT_EQ(validate_cycles(hard_event(), a.cycles), std::nullopt);
    EXPECT_GT(a.gap, 0.0);  // a limit that binds leaves a gap
}

TEST(IlpWorkLimit, OneIterationKeepsTheWarmStart) {
    // With one iteration no LP gets anywhere: the cycles are at worst the warm start's and
    // the bound is the combinatorial one.
    const IlpResult r = solve(1);
    EXPECT_EQ(r.status, ScheduleStatus::work_limit_incumbent) << r.reason;
    EXPECT_LE(r.simplex_iterations, 2);
    EXPECT_EQ(r.best_bound_flits, r.combinatorial_bound_flits);
    EXPECT_LE(r.objective_flits, r.warm_start_flits);
    EXPECT_EQ(validate_cycles(hard_event(), r.cycles), std::nullopt);
}

TEST(IlpWorkLimit, AnEventWithinTheLimitIsNotAffected) {
    // Fig. 12's 8 x 8 instance is proven optimal in a few dozen iterations: a limit that does
    // not bind changes nothing, and the count is the same as without a limit.
    const sim::Mesh mesh(8, 8);
    std::vector<sim::SharingSet> sets(4);
    for (sim::NodeId n = 0; n < 64; ++n) {
        const auto r = n / 8, c = n % 8;
        sets[static_cast<std::size_t>((r % 2) * 2 + (c % 2))].members.push_back(n);
    }
    for (auto& s : sets) s.bytes_per_node = Bytes(8 * 1024);
    IlpCycleScheduler limited(IlpOptions{.work_limit = 20000, .time_limit_seconds = 600.0});
    IlpCycleScheduler unlimited(IlpOptions{.work_limit = 1000000000, .time_limit_seconds = 600.0});
    const IlpResult a = limited.solve(mesh, sets, kNoc);
    const IlpResult b = unlimited.solve(mesh, sets, kNoc);
    EXPECT_EQ(a.status, ScheduleStatus::optimal);
    EXPECT_LT(a.simplex_iterations, 20000);
    EXPECT_EQ(a.simplex_iterations, b.simplex_iterations);
    for (std::size_t i = 0; i < a.cycles.size(); ++i) EXPECT_EQ(a.cycles[i].order, b.cycles[i].order) << i;
}

TEST(IlpWorkLimit, DataSchedulerCountsOnlyWallClockStops) {
    // The work limit is reproducible and is not a wall-clock stop; the safety net is.
    DataScheduler by_work(ScheduleOptions{.time_limit_seconds = 600.0, .work_limit = 3000});
    const auto r = by_work.schedule(sim::Mesh(8, 8), hard_event(), kNoc);
    EXPECT_EQ(r.status, ScheduleStatus::work_limit_incumbent);
    EXPECT_EQ(by_work.wall_clock_stops(), 0U);
    DataScheduler by_time(ScheduleOptions{.time_limit_seconds = 0.001, .work_limit = 1000000000});
    const auto t = by_time.schedule(sim::Mesh(8, 8), hard_event(), kNoc);
    EXPECT_EQ(t.status, ScheduleStatus::time_limit_incumbent);
    EXPECT_EQ(by_time.wall_clock_stops(), 1U);
}

TEST(IlpWorkLimit, RejectsANonPositiveLimit) {
    EXPECT_THROW(IlpCycleScheduler(IlpOptions{.work_limit = 0}), pimdse::ModelError);
    EXPECT_THROW(DataScheduler(ScheduleOptions{.work_limit = 0}), pimdse::ModelError);
}

}  // namespace
}  // namespace pimdse::sched
