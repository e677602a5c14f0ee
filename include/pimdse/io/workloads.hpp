#pragma once
// The workload DNNs of a sweep, loaded: each configured network file parsed and validated
// with its batch override applied. A sweep loads them once, before anything runs, so a
// malformed network stops the run at the start with the network file's own error.

#include <functional>
#include <string>
#include <vector>

#include "pimdse/io/config.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::io {

struct LoadedWorkload {
    Workload spec;              ///< as configured: path, weight gamma, batch override
    workload::Network network;  ///< parsed, with the batch override applied
};

/// Parses every workload of `config` in order; throws the first network file's InputError.
/// `warn` receives the network files' warnings (NetworkReadOptions::warn; unset: stderr).
[[nodiscard]] std::vector<LoadedWorkload> load_workloads(
    const Config& config, const std::function<void(const std::string&)>& warn = {});

}  // namespace pimdse::io
