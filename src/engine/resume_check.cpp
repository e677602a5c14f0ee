// Whether a stored sweep may be resumed with this configuration (src/engine/sweep_output.hpp):
// the resolved configurations compared key by key, every network file against the text the
// sweep file keeps, and the stored Pareto history against the one the replay will rebuild.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/config_diff.hpp"
#include "sweep_output.hpp"
#include "sweep_state.hpp"

namespace pimdse::engine::detail {

namespace fs = std::filesystem;

namespace {

// A proposer that only listens: the replay below needs the archive, not proposals.
class ListeningProposer final : public tuner::Proposer {
public:
    [[nodiscard]] std::string_view name() const override { return "replay"; }
    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t, int) override { return {}; }
    void exclude(std::span<const DesignPoint>) override {}
    void observe(std::span<const tuner::Observation>) override {}
};

bool same_row(const store::ParetoRecord& stored, const store::ParetoRecord& replayed, std::int64_t batches) {
    // A left_batch at or past the committed batches was written by an interrupted batch.
    const std::int64_t left = stored.left_batch >= batches ? -1 : stored.left_batch;
    return stored.candidate == replayed.candidate && stored.joined_batch == replayed.joined_batch &&
           left == replayed.left_batch && stored.latency_seconds == replayed.latency_seconds &&
           stored.energy_joules == replayed.energy_joules && stored.area_mm2 == replayed.area_mm2 &&
           stored.cost == replayed.cost;
}

}  // namespace

void check_pareto_replay(const store::StoredSweep& stored, const store::FamilyColumns& columns,
                         const io::Config& config, const fs::path& out) {
    double samples = 0;  // the throughput objective's numerator, as explore() sums it
    for (const store::StoredWorkload& w : stored.workloads) samples += static_cast<double>(w.batch);
    // The dispatch order plays no part in a replay: a prior of one intercept will do.
    SweepState replay(config, columns, std::make_unique<ListeningProposer>(), samples,
                      EvalTimeModel(EvalTimeModel::Vector::Zero(1)));
    std::vector<store::CandidateRecord> batch;
    std::size_t next = 0;
    for (std::int64_t k = 0; k < stored.batches; ++k) {
        batch.clear();
        while (next < stored.candidates.size() && stored.candidates[next].batch == k)
            batch.push_back(stored.candidates[next++]);
        replay.observe(k, batch);
    }
    const std::vector<store::ParetoRecord>& history = replay.history();
    for (std::size_t i = 0; i < std::max(history.size(), stored.pareto.size()); ++i) {
        if (i < history.size() && i < stored.pareto.size() &&
            same_row(stored.pareto[i], history[i], stored.batches))
            continue;
        throw IoError(out.string() + ":/pareto: row " + std::to_string(i) +
                      (i < stored.pareto.size() ? " differs from" : " is missing from") +
                      " the Pareto history the committed candidates give (" + std::to_string(history.size()) +
                      " rows, the file commits " + std::to_string(stored.pareto.size()) +
                      "); the file is damaged or was edited: refusing to resume it");
    }
}

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
