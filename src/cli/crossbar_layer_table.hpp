#pragma once
// The machine-readable per-layer output of `pimdse evaluate --crossbar` (`--layers FILE`,
// docs/cli.md): one row per weighted layer of a costed crossbar design (its geometry on the
// crossbars, conversions, ADC deficit, latency, energy by part and area) as CSV, or as JSON
// with the design and the network's summary beside the rows when FILE ends in `.json`.
// Unrounded, as table_cells.hpp writes numbers.

#include <filesystem>
#include <span>
#include <string>

#include "crossbar_report.hpp"

namespace pimdse::cli {

/// The CSV table (a header, then one row per weighted layer in network order).
[[nodiscard]] std::string crossbar_layers_csv(const CrossbarEvaluation& e);

/// The JSON document: {"network", "batch", "design", "summary": {...}, "layers": [{...}, ...]},
/// the layers' objects with the CSV's columns as keys.
[[nodiscard]] std::string crossbar_layers_json(const CrossbarEvaluation& e);

/// Writes the table to `path` whole (io::write_output_file): JSON when its extension is
/// `.json`, CSV otherwise.
void write_crossbar_layer_table(const std::filesystem::path& path, const CrossbarEvaluation& e,
                                std::span<const std::filesystem::path> inputs);

}  // namespace pimdse::cli
