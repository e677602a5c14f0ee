// The `crossbar:` section of a sweep configuration (docs/config.md): the crossbar family's
// settings beside its space. The technology preset is checked by name where the presets
// are (the crossbar family's factory); everything else here, with file, line and key.

#include <string>

#include "config_sections.hpp"

namespace pimdse::io::detail {

namespace {

// Far above any chip (MNSIM's largest examples are a few hundred mm²) and any network's
// tiles, low enough that no product of the cost model overflows.
constexpr double kMaxAreaBudgetMm2 = 1e6;
constexpr std::int64_t kMaxTileBudget = std::int64_t{1} << 40;
constexpr std::int64_t kMaxActiveWordlines = 1 << 20;

}  // namespace

CrossbarOptions read_crossbar(const yaml::Reader& r, const std::optional<yaml::Field>& f,
                              const std::string& family, const std::optional<std::filesystem::path>& dir) {
    CrossbarOptions o;
    if (!f) return o;
    if (family != "crossbar") {
        r.value_error(*f, "no crossbar section unless family is crossbar", "family " + family);
    }
    const yaml::Map m(r, *f,
                      {"technology", "schedule", "tile_budget", "polarity", "active_wordlines",
                       "area_budget_mm2", "accuracy_table"});
    if (auto v = m.get("technology")) o.technology = r.string(*v);
    if (auto v = m.get("schedule")) {
        o.schedule = static_cast<CrossbarSchedule>(r.choice(*v, names_of(kCrossbarScheduleNames)));
    }
    if (auto v = m.get("tile_budget")) o.tile_budget = r.integer(*v, 0, kMaxTileBudget);
    if (auto v = m.get("polarity")) o.polarity = to_int(r.integer(*v, 1, 2));
    if (auto v = m.get("active_wordlines"))
        o.active_wordlines = to_int(r.integer(*v, 0, kMaxActiveWordlines));
    if (auto v = m.get("area_budget_mm2")) o.area_budget_mm2 = r.number(*v, 0, true, kMaxAreaBudgetMm2);
    if (auto v = m.get("accuracy_table")) {
        if (!dir)
            r.value_error(*v, "no accuracy_table in a single design's file (it is a sweep setting)", "one");
        const std::string written = r.string(*v);
        if (written.empty()) r.value_error(*v, "the path of a CSV accuracy table", "an empty string");
        o.accuracy_table =
            (std::filesystem::path(written).is_relative() ? *dir / written : std::filesystem::path(written))
                .lexically_normal();
    }
    return o;
}

}  // namespace pimdse::io::detail
