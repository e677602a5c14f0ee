#pragma once
// The crossbar family's settings beside its design space: the `crossbar:` section of a sweep
// configuration (docs/config.md). Plain values with no behaviour, like the Data-Scheduler's
// (schedule_options.hpp): the configuration reader (io) fills them in without depending on
// sim, the crossbar cost model (sim/crossbar_cost.hpp, which re-exports CrossbarSchedule)
// implements them, and the crossbar family (src/family/crossbar/) resolves the technology
// preset by name.

#include <cstdint>
#include <optional>
#include <string>

#include "pimdse/core/enum_names.hpp"

namespace pimdse {

/// How a network's weighted layers share time on their tiles.
enum class CrossbarSchedule : std::uint8_t {
    pipelined,  ///< every layer on its own tiles, layers overlapped (MNSIM's pipeline)
    sequential  ///< one layer after the other
};
/// `crossbar.schedule`'s choices, declared once.
inline constexpr EnumNames<CrossbarSchedule, 2> kCrossbarScheduleNames{
    {{CrossbarSchedule::pipelined, "pipelined"}, {CrossbarSchedule::sequential, "sequential"}}};

/// The `crossbar:` configuration section.
struct CrossbarOptions {
    /// The technology preset's name (sim/crossbar_technology.hpp: "mnsim2").
    std::string technology = "mnsim2";
    CrossbarSchedule schedule = CrossbarSchedule::pipelined;
    /// Pipelined only: tiles a network may use, its slowest layer replicated while they
    /// allow; 0: no budget (no replication).
    std::int64_t tile_budget = 0;
    int polarity = 2;          ///< columns per weight sign: 2 (signed weights) or 1
    int active_wordlines = 0;  ///< word lines activated at once; 0: the whole crossbar
    /// A design whose area (mm², the largest workload's tiles) exceeds it is infeasible;
    /// empty: no budget.
    std::optional<double> area_budget_mm2;

    friend bool operator==(const CrossbarOptions&, const CrossbarOptions&) = default;
};

}  // namespace pimdse
