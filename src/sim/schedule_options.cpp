// The Data-Scheduler's choices by name (include/pimdse/sim/schedule_options.hpp).

#include "pimdse/sim/schedule_options.hpp"

#include <array>
#include <utility>

namespace pimdse::sim {

namespace {

// The one list of names, in enum order.
constexpr std::array<std::pair<SchedulerKind, std::string_view>, 3> kSchedulerNames{{
    {SchedulerKind::ilp, "ilp"},
    {SchedulerKind::tsp, "tsp"},
    {SchedulerKind::shp, "shp"},
}};

}  // namespace

std::string_view to_string(SchedulerKind kind) noexcept {
    for (const auto& [k, name] : kSchedulerNames) {
        if (k == kind) return name;
    }
    return "unknown";
}

const std::vector<std::string_view>& scheduler_names() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out;
        for (const auto& entry : kSchedulerNames) out.push_back(entry.second);
        return out;
    }();
    return names;
}

std::optional<SchedulerKind> parse_scheduler_kind(std::string_view name) noexcept {
    for (const auto& [k, n] : kSchedulerNames) {
        if (n == name) return k;
    }
    return std::nullopt;
}

}  // namespace pimdse::sim
