// The Data-Scheduler's choices by name (include/pimdse/core/schedule_options.hpp).

#include "pimdse/core/schedule_options.hpp"

namespace pimdse {

std::string_view to_string(SchedulerKind kind) noexcept {
    return name_of(kSchedulerKindNames, kind);
}

const std::vector<std::string_view>& scheduler_names() {
    static const std::vector<std::string_view> names = names_of(kSchedulerKindNames);
    return names;
}

std::optional<SchedulerKind> parse_scheduler_kind(std::string_view name) noexcept {
    return value_of(kSchedulerKindNames, name);
}

}  // namespace pimdse
