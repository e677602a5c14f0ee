#include "pimdse/io/workloads.hpp"

#include <map>
#include <set>

#include "pimdse/io/network_file.hpp"

namespace pimdse::io {

namespace {

// The same network under another name (a Network is immutable; rebuilding revalidates it,
// which is cheap next to parsing).
workload::Network renamed(const workload::Network& n, std::string name) {
    workload::NetworkInfo info = n.info();
    info.name = std::move(name);
    return {std::move(info), n.batch(), n.input(),
            std::vector<workload::Layer>(n.layers().begin(), n.layers().end())};
}

}  // namespace

std::vector<std::string> workload_names(const std::vector<LoadedWorkload>& workloads) {
    std::map<std::string, int> count;
    for (const LoadedWorkload& w : workloads) ++count[w.network.name()];
    std::vector<std::string> names;
    std::set<std::string> taken;
    for (std::size_t n = 0; n < workloads.size(); ++n) {
        const workload::Network& net = workloads[n].network;
        std::string name = net.name();
        if (count[name] > 1) name += "_b" + std::to_string(net.batch());
        if (taken.count(name) > 0) name += "_w" + std::to_string(n);
        taken.insert(name);
        names.push_back(std::move(name));
    }
    return names;
}

std::vector<LoadedWorkload> load_workloads(const Config& config,
                                           const std::function<void(const std::string&)>& warn) {
    std::vector<LoadedWorkload> out;
    out.reserve(config.workloads.size());
    for (const Workload& w : config.workloads) {
        NetworkReadOptions options;
        if (w.batch) options.batch = *w.batch;
        options.warn = warn;
        // dram_pim and crossbar cost the forward pass; hetero3d costs a training step too.
        options.inference_only = config.family != "hetero3d";
        out.push_back(LoadedWorkload{w, read_network_file(w.network, options)});
    }
    const std::vector<std::string> names = workload_names(out);
    for (std::size_t n = 0; n < out.size(); ++n) {
        if (names[n] != out[n].network.name()) out[n].network = renamed(out[n].network, names[n]);
    }
    return out;
}

}  // namespace pimdse::io
