#pragma once
// Network files (docs/workloads.md, "File format"): a hand-writable YAML description of a
// DNN whose shapes are inferred from the producers. Reading is strict: unknown keys, wrong
// types, missing keys, bad values, unknown producers, cycles and shape mismatches are
// pimdse::InputError naming the file, the 1-based line, the key path
// (`layers[3].stride`, 0-based list indices) and what was expected.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "pimdse/workload/network.hpp"

namespace pimdse::io {

struct NetworkReadOptions {
    /// Replaces the file's `batch` (a sweep gives each workload its own batch size).
    std::optional<std::int64_t> batch;
};

/// Reads and validates a network file; a file that cannot be opened is an InputError too.
[[nodiscard]] workload::Network read_network_file(const std::filesystem::path& path,
                                                  const NetworkReadOptions& options = {});

/// Parses network YAML text; `file_name` is what error messages call the text.
[[nodiscard]] workload::Network parse_network(const std::string& yaml_text, const std::string& file_name,
                                              const NetworkReadOptions& options = {});

}  // namespace pimdse::io
