#pragma once
// The ILP's limits, checked alike wherever they enter (sched::IlpOptions and the
// `schedule:` section's ScheduleOptions): a NaN or an infinity is rejected like any other
// value out of range. Private to src/sched.

#include <cstdint>
#include <string_view>

namespace pimdse::sched::detail {

/// Throws ModelError, its message starting with `owner`, unless 0 < time_limit_seconds <
/// infinity, work_limit >= 1 and 0 <= relative_gap < infinity.
void check_limits(std::string_view owner, double time_limit_seconds, std::int64_t work_limit,
                  double relative_gap);

}  // namespace pimdse::sched::detail
