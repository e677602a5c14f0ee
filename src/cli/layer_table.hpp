#pragma once
// The machine-readable per-layer output of `pimdse map` and `pimdse evaluate` (`--layers
// FILE`, docs/cli.md): one row per layer of a costed mapping (its name, kind, region,
// partitions, WR, data layouts, cycles by part, energy by component, utilisation, status)
// as CSV, or as JSON with the network's summary beside the rows when FILE ends in `.json`.
// Every number is written with 17 significant digits: reading it back gives the value the
// text report rounds.

#include <filesystem>
#include <span>
#include <string>

#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::cli {

/// What the rows describe besides the layers: the heading of the JSON document.
struct LayerTableContext {
    std::string hardware;  ///< the hardware point, as hw::to_string prints it
    std::string mapping;   ///< what was costed: "PIM-Mapper mapping", "uniform mapping", ...
    bool timing = false;   ///< add start_cycles and finish_cycles (the timeline's, overlapped or not)
};

/// The CSV table (a header, then one row per layer in network order); with `timing`, each
/// layer's start and finish from the network's start after its latency.
[[nodiscard]] std::string layers_csv(const workload::Network& network, const workload::Segmentation& seg,
                                     const sim::NetworkMapping& mapping, const sim::NetworkCost& cost,
                                     bool timing = false);

/// The JSON document: {"network", "batch", "hardware", "mapping", "summary": {...}, "layers":
/// [{...}, ...]}, the layers' objects with the CSV's columns as keys.
[[nodiscard]] std::string layers_json(const workload::Network& network, const workload::Segmentation& seg,
                                      const sim::NetworkMapping& mapping, const sim::NetworkCost& cost,
                                      const LayerTableContext& context);

/// Writes the table to `path` whole (io::write_output_file): JSON when its extension is
/// `.json`, CSV otherwise.
void write_layer_table(const std::filesystem::path& path, const workload::Network& network,
                       const workload::Segmentation& seg, const sim::NetworkMapping& mapping,
                       const sim::NetworkCost& cost, const LayerTableContext& context,
                       std::span<const std::filesystem::path> inputs);

}  // namespace pimdse::cli
