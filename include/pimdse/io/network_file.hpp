#pragma once
// Network files (docs/workloads.md, "File format"): a hand-writable YAML description of a
// DNN whose shapes are inferred from the producers. Reading is strict: unknown keys, wrong
// types, missing keys, bad values, unknown producers, cycles and shape mismatches are
// pimdse::InputError naming the file, the 1-based line, the key path
// (`layers[3].stride`, 0-based list indices) and what was expected.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pimdse/workload/network.hpp"

namespace pimdse::io {

struct NetworkReadOptions {
    /// Replaces the file's `batch` (a sweep gives each workload its own batch size).
    std::optional<std::int64_t> batch;
    /// Receives each warning ("file:line: layer 'x' ..."): legal text that is likely not what
    /// its author meant (docs/workloads.md, "The format's traps"). Unset: printed to stderr as
    /// "pimdse: warning: ...".
    std::function<void(const std::string&)> warn;
    /// Refuse `mode: training` (an InputError on `mode`): set by what costs only the forward
    /// pass (`map`, `evaluate`, sweeps), so that a training network is never costed as
    /// inference without a word.
    bool inference_only = false;
};

/// Reads and validates a network file; a file that cannot be opened is an InputError too.
/// A path ending in `.onnx` is an ONNX model, imported with import_onnx (onnx_import.hpp).
[[nodiscard]] workload::Network read_network_file(const std::filesystem::path& path,
                                                  const NetworkReadOptions& options = {});

/// The network as network-file YAML (docs/workloads.md): one flow mapping per layer, every
/// producer written out (no default chaining), `batch` the network's. Reading the text back
/// gives an equal network; `header` lines are written first as comments.
[[nodiscard]] std::string emit_network(const workload::Network& network,
                                       const std::vector<std::string>& header = {});

/// Parses network YAML text; `file_name` is what error messages call the text.
[[nodiscard]] workload::Network parse_network(const std::string& yaml_text, const std::string& file_name,
                                              const NetworkReadOptions& options = {});

}  // namespace pimdse::io
