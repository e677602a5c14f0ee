#pragma once
// How a data-sharing event's schedule was settled: the one status of the Data-Scheduler,
// the ILP's (IlpResult) and every scheduler's record (ScheduleRecord, the sweep file's
// `/schedules` `outcome`) alike. docs/model.md, "Work limit, time limit, gap and status".

#include <cstdint>
#include <string_view>

#include "pimdse/core/enum_names.hpp"

namespace pimdse::sched {

enum class ScheduleStatus : std::uint8_t {
    optimal,               ///< ILP: proven optimal (also: no ILP needed, every set trivial)
    gap_reached,           ///< ILP: within the configured relative gap
    time_limit_incumbent,  ///< ILP: the wall-clock safety net hit; the best cycles found
    model_too_large,       ///< ILP: too large for the exact model; the best cycles found
    failed,                ///< ILP: the solver failed; the best cycles found (always valid)
    baseline,              ///< TSP or SHP: a fixed rule, no optimality claim (never the ILP's)
    work_limit_incumbent,  ///< ILP: the work limit hit; the best cycles found (reproducible)
};
/// The statuses' names (reports, the sweep file's `/schedules` `outcome`), declared once.
inline constexpr EnumNames<ScheduleStatus, 7> kScheduleStatusNames{
    {{ScheduleStatus::optimal, "optimal"},
     {ScheduleStatus::gap_reached, "gap_reached"},
     {ScheduleStatus::time_limit_incumbent, "time_limit_incumbent"},
     {ScheduleStatus::model_too_large, "model_too_large"},
     {ScheduleStatus::failed, "failed"},
     {ScheduleStatus::baseline, "baseline"},
     {ScheduleStatus::work_limit_incumbent, "work_limit_incumbent"}}};

[[nodiscard]] std::string_view to_string(ScheduleStatus status) noexcept;

}  // namespace pimdse::sched
