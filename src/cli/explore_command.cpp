// `pimdse explore CONFIG.yaml [-o OUT.h5] [--resume] [--force] [--wall-time T] [--status-file F]`: the sweep
// (docs/cli.md, docs/output.md), under `mpirun -np N` or as one process. MPI lives only for
// the duration of the command.

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/engine/explore.hpp"
#include "pimdse/io/config.hpp"

#include "option_checks.hpp"

namespace pimdse::cli {

namespace {

struct ExploreCliOptions {
    std::string config;
    std::string output;
    bool resume = false;
    bool force = false;
    std::string wall_time;
    std::string status_file;
    double progress_interval = 60;
    bool json = false;
    bool quiet = false;
};

// Why the sweep ended, as one word a job script can test (docs/cli.md, "Job scripts").
const char* end_reason(const engine::ExploreResult& r) {
    return r.budget_reached ? "budget_reached" : r.wall_time_stop ? "wall_time_stop" : "space_exhausted";
}

// Rank 0 alone, after the sweep (no collective is pending): a failure is its exit code only.
int write_status(const std::string& path, const engine::ExploreResult& r) {
    std::ofstream out(path, std::ios::trunc);
    out << end_reason(r) << '\n';
    out.close();
    if (out) return static_cast<int>(ExitCode::ok);
    std::cerr << "pimdse: error: " << path << ": cannot write the status file: " << std::strerror(errno)
              << '\n';
    return static_cast<int>(ExitCode::io);
}

int run_explore(const ExploreCliOptions& o) {
    // abort_on_exception = false: errors are handled below, rank by rank. Funneled: rank 0
    // proposes on a second thread that makes no MPI call (docs/engine.md, "Rank 0").
    boost::mpi::environment env(boost::mpi::threading::funneled, false);
    boost::mpi::communicator world;
    engine::ExploreOptions options;
    options.config = o.config;
    options.output = o.output;
    options.resume = o.resume;
    options.force = o.force;
    options.progress = &std::cout;
    options.progress_options.interval_seconds = o.progress_interval;
    options.progress_options.format = o.quiet  ? engine::ProgressFormat::quiet
                                      : o.json ? engine::ProgressFormat::json
                                               : engine::ProgressFormat::text;
    if (!o.wall_time.empty()) {
        const std::optional<std::int64_t> seconds = io::parse_duration(o.wall_time);
        if (seconds && *seconds > 0) options.wall_time = std::chrono::seconds(*seconds);
        if (!options.wall_time) {
            if (world.rank() == 0) {
                std::cerr << "pimdse: error: --wall-time: expected a positive duration in whole seconds "
                             "(3600), with a unit (90m, 12h, 2d) or as [D-]HH:MM:SS, got '"
                          << o.wall_time << "'\n";
            }
            return static_cast<int>(ExitCode::usage);
        }
    }
    try {
        const engine::ExploreResult r = engine::explore(options, world);
        if (o.status_file.empty())
            return static_cast<int>(r.wall_time_stop ? ExitCode::wall_time_stop : ExitCode::ok);
        // Launchers report any non-zero exit as a failure (mpirun with an abort banner), so
        // a clean end of any kind exits 0 here and the file says which it was.
        return world.rank() == 0 ? write_status(o.status_file, r) : static_cast<int>(ExitCode::ok);
    } catch (const engine::CollectiveError& e) {
        // Every rank failed alike: one message, a normal exit everywhere.
        if (world.rank() == 0) std::cerr << "pimdse: " << error_label(e.code()) << ": " << e.what() << '\n';
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        if (world.size() == 1) throw;  // main reports it
        // The ranks disagree: another rank may wait forever in a collective, so end the job.
        std::cerr << "pimdse: error on rank " << world.rank() << ": " << message_of(e)
                  << "; every rank stops, and the output holds every batch committed before\n"
                  << std::flush;
        env.abort(static_cast<int>(exit_code_of(e)));
    }
    return static_cast<int>(ExitCode::internal_error);
}

}  // namespace

void add_explore_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand(
        "explore",
        "Run (or resume) a design-space sweep, writing an HDF5 file (docs/cli.md, docs/output.md)");
    auto o = std::make_shared<ExploreCliOptions>();
    cmd->add_option("config", o->config, "sweep configuration (YAML, docs/config.md)")->required();
    cmd->add_option("-o,--output", o->output, "HDF5 output file; default: the configuration's output.path")
        ->check(output_path("a file name"));  // empty would silently mean output.path
    CLI::Option* resume = cmd->add_flag("--resume", o->resume,
                                        "continue the sweep stored in the output file (same configuration)");
    CLI::Option* force = cmd->add_flag("--force", o->force, "overwrite an existing output file");
    resume->excludes(force);
    force->excludes(resume);
    cmd->add_option("--wall-time", o->wall_time,
                    "stop cleanly before this much wall time (overrides sweep.wall_time): seconds, 90m, 12h, "
                    "HH:MM:SS");
    cmd->add_option("--status-file", o->status_file,
                    "for job scripts: rank 0 writes why the run ended (budget_reached, wall_time_stop, "
                    "space_exhausted) to this file, and a wall-time stop exits 0 instead of 7")
        ->check([](const std::string& v) {
            return v.empty() ? std::string("expected a file name, got an empty string") : std::string();
        });
    cmd->add_option("--progress-interval", o->progress_interval,
                    "within a batch, a progress line at most every this many seconds; 0: at batch ends only "
                    "(default 60)")
        ->check(number_in(0, 86400));
    CLI::Option* json =
        cmd->add_flag("--json", o->json, "progress as JSON lines (one object per line), for scripts");
    CLI::Option* quiet = cmd->add_flag("--quiet", o->quiet, "no progress lines (errors only)");
    json->excludes(quiet);
    quiet->excludes(json);
    cmd->callback([&action, o] { action = [o] { return run_explore(*o); }; });
}

}  // namespace pimdse::cli
