#pragma once
// The crossbar family's settings beside its design space: the `crossbar:` section of a sweep
// configuration (docs/config.md). Plain values with no behaviour, like the Data-Scheduler's
// (schedule_options.hpp): the configuration reader (io) fills them in without depending on
// sim, the crossbar cost model (sim/crossbar_cost.hpp, which re-exports CrossbarSchedule)
// implements them, and the crossbar family (src/family/crossbar/) resolves the technology
// preset by name. The six design parameters' names and bounds are here too, so that a sweep's
// `space:` (the family) and a single design's file (io/crossbar_design_file.hpp) accept the
// same values.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "pimdse/core/enum_names.hpp"

namespace pimdse {

/// One of the crossbar family's design parameters: its name (a `space:` key and a design
/// file's key), unit, meaning, and the values any range or design may hold, [lo, hi].
struct CrossbarParamRule {
    const char* name;
    const char* unit;
    const char* meaning;
    int lo;
    int hi;
};

/// The six parameters in the order of a design point's values (Gibbon, Table II). The bounds
/// are the cost model's (sim/crossbar.hpp: cell and DAC bits <= 16) and, for the others, far
/// beyond any converter or crossbar built.
inline constexpr std::array<CrossbarParamRule, 6> kCrossbarParamRules{{
    {"crossbar_size", "", "rows = columns of one crossbar (word lines, bit lines)", 2, 4096},
    {"adc_bits", "bit", "resolution of a column's ADC", 1, 24},
    {"dac_bits", "bit", "bits one DAC input step applies to a word line", 1, 16},
    {"cell_bits", "bit", "bits one memristor cell stores", 1, 16},
    {"weight_bits", "bit", "precision of a weight", 1, 32},
    {"activation_bits", "bit", "precision of an input activation", 1, 32},
}};

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
    /// A CSV of measured accuracy losses (io/accuracy_table.hpp), resolved against the sweep
    /// file's directory; empty: none, and no `accuracy_loss` metric.
    std::filesystem::path accuracy_table;

    friend bool operator==(const CrossbarOptions&, const CrossbarOptions&) = default;
};

}  // namespace pimdse
