#pragma once
// Mapping files (docs/mapping.md): a DNN mapping written as YAML so that a user can write
// or edit one and have it evaluated, and so that `pimdse map` output reads back to the same
// numbers. Reading is strict like every input: structural problems name the file, line
// and key; a mapping that breaks a rule (sim::check_mapping) names the layer or segment,
// the rule, and the line of the offending entry.

#include <cstdint>
#include <filesystem>
#include <string>

#include "pimdse/sim/mapping.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper {

/// What a mapping is read against: the network it maps and the node array it runs on.
struct MappingTarget {
    const workload::Network* network = nullptr;
    const workload::Segmentation* segmentation = nullptr;
    std::int32_t node_rows = 1;
    std::int32_t node_cols = 1;
};

[[nodiscard]] sim::NetworkMapping read_mapping_file(const std::filesystem::path& path,
                                                    const MappingTarget& target);
[[nodiscard]] sim::NetworkMapping parse_mapping(const std::string& yaml_text, const std::string& file_name,
                                                const MappingTarget& target);

/// The mapping as a mapping file (comments give each layer's kind and shape); parse_mapping
/// of the result gives back an equal mapping.
[[nodiscard]] std::string to_yaml(const sim::NetworkMapping& mapping, const MappingTarget& target);

}  // namespace pimdse::mapper
