// The lines a sweep prints on rank 0 (src/engine/run_report.hpp).

#include "run_report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace pimdse::engine::detail {

namespace {

std::string objective_names(const io::Config& c) {
    std::string out;
    for (io::Objective o : c.engine.objectives) {
        if (!out.empty()) out += ", ";
        out += io::to_string(o);
    }
    return out;
}

}  // namespace

std::string start_message(const io::Config& config, int ranks, const std::filesystem::path& out,
                          const store::StoredSweep* resumed) {
    std::ostringstream start;
    start << "pimdse explore: " << config.sweep.budget << " evaluations in batches of "
          << config.sweep.batch_size << " (lag " << config.sweep.lag << "), proposer "
          << io::to_string(config.sweep.proposer)
          << (config.sweep.evaluator == io::Evaluator::synthetic ? ", synthetic evaluator" : "") << ", "
          << ranks << (ranks == 1 ? " rank (rank 0 evaluates)" : " ranks (rank 0 proposes, ")
          << (ranks == 1 ? "" : std::to_string(ranks - 1) + " evaluate)") << ", objectives "
          << objective_names(config) << ", output " << out.string() << '\n';
    if (resumed != nullptr) {
        start << "resuming after " << resumed->batches << " batches, " << resumed->candidates.size()
              << " evaluations\n";
    }
    return start.str();
}

std::string end_message(const ExploreResult& result, const std::filesystem::path& out) {
    std::ostringstream end;
    end << (result.budget_reached   ? "budget reached"
            : result.wall_time_stop ? "stopped before the wall time; continue with --resume"
                                    : "the space has no legal unseen point left")
        << ": " << result.evaluations << " evaluations in " << result.batches << " batches, " << out.string()
        << '\n';
    const double wall = std::max(result.wall_seconds, 1e-9);
    char line[320];
    std::snprintf(
        line, sizeof line,
        "this run: %lld evaluations in %.2f s (%.2f eval/s), workers busy %.1f%% (%.1f%% while work "
        "remained), HDF5 writes %.3f s "
        "(%.2f%% of the wall time), rank 0 CPU %.2f s, proposals %.3f s (%.2f ms per candidate)\n",
        static_cast<long long>(result.evaluated_now), result.wall_seconds,
        static_cast<double>(result.evaluated_now) / wall, 100.0 * result.workers_busy,
        100.0 * result.busy_while_work_remains, result.write_seconds, 100.0 * result.write_seconds / wall,
        result.rank0_cpu_seconds, result.propose_seconds,
        1e3 * result.propose_seconds / static_cast<double>(std::max<std::int64_t>(result.evaluated_now, 1)));
    end << line;
    if (!result.cheap_evaluations.empty()) {
        std::int64_t total = 0;
        std::ostringstream by_rank;
        for (std::size_t r = 0; r < result.cheap_evaluations.size(); ++r) {
            total += result.cheap_evaluations[r];
            by_rank << (r == 0 ? "" : ", ") << "rank " << r << ": " << result.cheap_evaluations[r];
        }
        end << "cheap evaluations: " << total << " (" << by_rank.str() << ")\n";
    }
    return end.str();
}

}  // namespace pimdse::engine::detail
