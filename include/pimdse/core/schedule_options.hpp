#pragma once
// Which Data-Scheduler costs the data-sharing events behind the sim::SharingScheduler seam
// (noc_sharing.hpp), and its limits: the `schedule:` section of a configuration
// (docs/config.md). Plain values with no behaviour: the implementations live in sched
// (sched/scheduler.hpp, which re-exports these names), and the configuration reader (io)
// fills them in without depending on sim or sched (docs/architecture.md, "Dependencies").

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "pimdse/core/enum_names.hpp"

namespace pimdse {

/// How data-sharing events are scheduled (NicePIM Fig. 12 compares the three).
enum class SchedulerKind : std::uint8_t {
    ilp,  ///< Hamilton cycles minimising the heaviest link (Eq. 2-4)
    tsp,  ///< Hamilton cycles of fewest hops, link loads ignored (DDAM [47])
    shp,  ///< every member sends its chunk to every other member along its XY route
};
/// The `schedule.scheduler` choices and the sweep file's `/schedules` `method`, declared once.
inline constexpr EnumNames<SchedulerKind, 3> kSchedulerKindNames{
    {{SchedulerKind::ilp, "ilp"}, {SchedulerKind::tsp, "tsp"}, {SchedulerKind::shp, "shp"}}};

[[nodiscard]] std::string_view to_string(SchedulerKind kind) noexcept;
/// "ilp", "tsp", "shp", in enum order.
[[nodiscard]] const std::vector<std::string_view>& scheduler_names();
[[nodiscard]] std::optional<SchedulerKind> parse_scheduler_kind(std::string_view name) noexcept;

/// Defaults of the `schedule:` section and of sched::IlpOptions (docs/config.md; why 2 500:
/// docs/model.md, "Work limit, time limit, gap and status").
inline constexpr std::int64_t kDefaultWorkLimit = 2500;
inline constexpr double kDefaultTimeLimitSeconds = 60.0;

/// The `schedule:` configuration section.
struct ScheduleOptions {
    SchedulerKind scheduler = SchedulerKind::ilp;
    /// ILP wall-clock safety net per event, seconds (> 0); the best cycles found are used after
    /// it, which makes the result depend on the machine (wall_clock_stops() counts it).
    double time_limit_seconds = kDefaultTimeLimitSeconds;
    /// ILP: stop once (incumbent - bound) / incumbent <= this (>= 0; 0 = prove optimality).
    double relative_gap = 0.0;
    /// ILP work limit per event: simplex iterations (>= 1); the best cycles found are used
    /// after it. Deterministic: the same on any machine (IlpOptions::work_limit).
    std::int64_t work_limit = kDefaultWorkLimit;

    friend bool operator==(const ScheduleOptions&, const ScheduleOptions&) = default;
};

}  // namespace pimdse
