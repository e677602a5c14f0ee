// The ILP's limits are checked alike where they enter: sched::IlpOptions (the scheduler's
// own options) and ScheduleOptions (the `schedule:` section). Both reject a NaN or an
// infinity as they reject any other value out of range, and accept the same values.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sched/scheduler.hpp"

namespace pimdse::sched {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Limits {
    double time_limit_seconds;
    std::int64_t work_limit;
    double relative_gap;
};

IlpOptions ilp_of(const Limits& l) {
    return IlpOptions{.work_limit = l.work_limit,
                      .time_limit_seconds = l.time_limit_seconds,
                      .relative_gap = l.relative_gap};
}

ScheduleOptions schedule_of(const Limits& l) {
    return ScheduleOptions{.time_limit_seconds = l.time_limit_seconds,
                           .relative_gap = l.relative_gap,
                           .work_limit = l.work_limit};
}

TEST(OptionLimits, BothRejectNonFiniteAndOutOfRangeValues) {
    const std::vector<Limits> bad{
        {kNan, 1, 0.0}, {kInf, 1, 0.0}, {-kInf, 1, 0.0}, {0.0, 1, 0.0},   {-1.0, 1, 0.0},
        {1.0, 1, kNan}, {1.0, 1, kInf}, {1.0, 1, -kInf}, {1.0, 1, -0.01}, {1.0, 0, 0.0},
    };
    for (const Limits& l : bad) {
        SCOPED_TRACE(testing::Message() << "time " << l.time_limit_seconds << ", work " << l.work_limit
                                        << ", gap " << l.relative_gap);
        EXPECT_THROW(validate(ilp_of(l)), ModelError);
        EXPECT_THROW(validate(schedule_of(l)), ModelError);
        EXPECT_THROW(IlpCycleScheduler{ilp_of(l)}, ModelError);
        EXPECT_THROW(DataScheduler{schedule_of(l)}, ModelError);
    }
}

TEST(OptionLimits, BothAcceptTheSameFiniteValues) {
    const std::vector<Limits> good{
        {1e-9, 1, 0.0},
        {60.0, 20000, 0.0},
        {std::numeric_limits<double>::max(), std::numeric_limits<std::int64_t>::max(), 0.5},
        {1.0, 1, std::numeric_limits<double>::max()},
    };
    for (const Limits& l : good) {
        SCOPED_TRACE(testing::Message() << "time " << l.time_limit_seconds << ", work " << l.work_limit
                                        << ", gap " << l.relative_gap);
        EXPECT_NO_THROW(validate(ilp_of(l)));
        EXPECT_NO_THROW(validate(schedule_of(l)));
    }
}

TEST(OptionLimits, MessagesNameTheOptionsAndTheField) {
    try {
        validate(ilp_of({kInf, 1, 0.0}));
        FAIL() << "an infinite time limit was accepted";
    } catch (const ModelError& e) {
        EXPECT_STREQ(e.what(), "IlpOptions: time_limit_seconds must be a finite number > 0");
    }
    try {
        validate(schedule_of({1.0, 1, kNan}));
        FAIL() << "a NaN gap was accepted";
    } catch (const ModelError& e) {
        EXPECT_STREQ(e.what(), "ScheduleOptions: relative_gap must be a finite number >= 0");
    }
}

}  // namespace
}  // namespace pimdse::sched
