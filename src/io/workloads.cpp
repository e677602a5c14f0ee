#include "pimdse/io/workloads.hpp"

#include "pimdse/io/network_file.hpp"

namespace pimdse::io {

std::vector<LoadedWorkload> load_workloads(const Config& config,
                                           const std::function<void(const std::string&)>& warn) {
    std::vector<LoadedWorkload> out;
    out.reserve(config.workloads.size());
    for (const Workload& w : config.workloads) {
        NetworkReadOptions options;
        if (w.batch) options.batch = *w.batch;
        options.warn = warn;
        out.push_back(LoadedWorkload{w, read_network_file(w.network, options)});
    }
    return out;
}

}  // namespace pimdse::io
