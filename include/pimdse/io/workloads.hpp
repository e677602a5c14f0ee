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
/// Each network is named as workload_names says, so that names identify workloads.
[[nodiscard]] std::vector<LoadedWorkload> load_workloads(
    const Config& config, const std::function<void(const std::string&)>& warn = {});

/// One name per workload, unique and readable: the network's own name, followed by `_b<batch>`
/// when the configuration lists that name more than once (one network at several batch
/// sizes), and by `_w<index>` if that is still taken (two files naming their networks alike).
[[nodiscard]] std::vector<std::string> workload_names(const std::vector<LoadedWorkload>& workloads);

}  // namespace pimdse::io
