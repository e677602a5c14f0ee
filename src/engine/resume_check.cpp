// Whether a stored sweep may be resumed with this configuration (src/engine/sweep_output.hpp):
// the resolved configurations compared key by key, and every network file against the text
// the sweep file keeps.

#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/config_diff.hpp"
#include "sweep_output.hpp"

namespace pimdse::engine::detail {

namespace fs = std::filesystem;

void check_resumable(const store::StoredSweep& stored, const io::Config& config, const fs::path& config_file,
                     const fs::path& out) {
    std::vector<std::string> diffs = io::config_differences(stored.resolved_config, io::to_yaml(config));
    for (std::size_t n = 0; n < stored.workloads.size() && n < config.workloads.size(); ++n) {
        if (io::workload_source(config.workloads[n].network) != stored.workloads[n].source) {
            diffs.push_back("the network file " + config.workloads[n].network.string() +
                            " differs from the text stored in the file");
        }
    }
    if (diffs.empty()) return;
    std::string what = "differs from the configuration the sweep in " + out.string() +
                       " was started with; refusing to resume: ";
    for (std::size_t i = 0; i < diffs.size(); ++i) {
        what += i ? "; " : "";
        what += diffs[i];
    }
    throw ConfigError(SourceLocation{config_file.string(), 0, 0}, "", what);
}

}  // namespace pimdse::engine::detail
