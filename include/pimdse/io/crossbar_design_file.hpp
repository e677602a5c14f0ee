#pragma once
// The crossbar design file (docs/config.md, "Crossbar design files"): one design of the
// crossbar family, its six parameter values under `design:` and, optionally, the family's
// `crossbar:` settings, for `pimdse evaluate --crossbar`. Read with the strict YAML reader
// like every input file: each error names the file, the line, the key and what was expected.
// The technology preset is checked by name where the presets are (sim); the reader keeps
// the line of `crossbar.technology` so that that error points at it too.

#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "pimdse/core/crossbar_options.hpp"

namespace pimdse::io {

struct CrossbarDesignFile {
    /// The six values in kCrossbarParamRules order: crossbar size, ADC, DAC and cell bits,
    /// weight and activation bits; each within its rule's [lo, hi].
    std::array<int, kCrossbarParamRules.size()> values{};
    /// `crossbar:` (its defaults when absent); `area_budget_mm2` is reported against.
    CrossbarOptions crossbar;
    /// The line of `crossbar.technology` (0: not given), for the preset's error.
    std::size_t technology_line = 0;

    std::filesystem::path source_file;
};

/// Read and validate a crossbar design file (at most kMaxConfigFileBytes).
[[nodiscard]] CrossbarDesignFile read_crossbar_design_file(const std::filesystem::path& path);
/// As read_crossbar_design_file, from text; `file_name` names the file in messages.
[[nodiscard]] CrossbarDesignFile parse_crossbar_design(std::string_view text,
                                                       const std::filesystem::path& file_name);

}  // namespace pimdse::io
