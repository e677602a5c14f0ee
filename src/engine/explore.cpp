// The MPI driver of a sweep (include/pimdse/engine/explore.hpp, docs/output.md).

#include "pimdse/engine/explore.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "pimdse/engine/signals.hpp"
#include "pimdse/engine/write_failure.hpp"
#include "pimdse/io/config_diff.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/store/output_lock.hpp"
#include "pimdse/store/store.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "sweep_loop.hpp"

namespace pimdse::engine {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

eval::EvalContext make_context(const io::Config& config) {
    eval::EvalContext ctx;
    ctx.constraints = config.constraints;
    ctx.technology = config.technology;
    ctx.alpha = config.cost.alpha;
    ctx.beta = config.cost.beta;
    ctx.schedule = config.schedule;
    // /schedules is kept with the mappings (output.mappings): none kept, none computed.
    ctx.record_schedules = config.output.mappings != io::MappingRows::none;
    ctx.work_limit = config.engine.work_limit;
    for (io::LoadedWorkload& w : io::load_workloads(config)) {
        eval::Workload e{std::move(w.network), {}, w.spec.weight};
        e.segmentation = workload::decompose(e.network);
        ctx.workloads.push_back(std::move(e));
    }
    ctx.faults.throw_candidates = config.engine.fault_throw;
    ctx.faults.stall_candidates = config.engine.fault_stall;
    return ctx;
}

namespace {

// Runs `step` on every rank (or on rank 0 only); if it throws anywhere, every rank throws the
// same CollectiveError (the lowest failing rank's message), so no rank is left waiting in a
// collective call.
void agree(const boost::mpi::communicator& world, bool root_only, const std::function<void()>& step) {
    std::pair<int, std::string> mine{0, ""};
    if (!root_only || world.rank() == 0) {
        try {
            step();
        } catch (const std::exception& e) {
            mine = {static_cast<int>(exit_code_of(e)), e.what()};
        }
    }
    std::vector<std::pair<int, std::string>> all;
    boost::mpi::all_gather(world, mine, all);
    for (const auto& [code, message] : all) {
        if (code != 0) throw CollectiveError(static_cast<ExitCode>(code), message);
    }
}

std::string objective_names(const io::Config& c) {
    std::string out;
    for (io::Objective o : c.engine.objectives) {
        if (!out.empty()) out += ", ";
        out += io::to_string(o);
    }
    return out;
}

// Open MPI's MPI-IO aborts the process (a buffer overflow in its shared-file-pointer
// component) on file names past about 245 characters, with the .part suffix included.
constexpr std::size_t kMaxOutputPathChars = 230;

void check_output_name(const fs::path& out) {
    const std::string name = out.string();
    if (name.size() > kMaxOutputPathChars) {
        throw IoError(name.substr(0, 60) + "...: the output path is " + std::to_string(name.size()) +
                      " characters long, at most " + std::to_string(kMaxOutputPathChars) +
                      " are supported (Open MPI's MPI-IO fails on longer names); choose a shorter path");
    }
    const std::string base = out.filename().string();
    if (base.empty() || base == "." || base == "..")
        throw IoError(name + ": expected an HDF5 file path, got a directory name");
}

void check_output_directory(const fs::path& out) {
    std::error_code ec;
    const fs::path dir = out.parent_path().empty() ? fs::path(".") : out.parent_path();
    if (!fs::is_directory(dir, ec))
        throw IoError(out.string() + ": the directory " + dir.string() + " does not exist");
}

void check_output_for_fresh_run(const fs::path& out, bool force) {
    std::error_code ec;
    if (fs::exists(out, ec)) {
        if (fs::is_directory(out, ec))
            throw IoError(out.string() + ": is a directory, expected an HDF5 file path");
        if (!force) {
            throw IoError(
                out.string() +
                ": exists already; pass --resume to continue the sweep it holds or --force to overwrite it");
        }
    }
    const fs::path dir = out.parent_path().empty() ? fs::path(".") : out.parent_path();
    if (!fs::is_directory(dir, ec))
        throw IoError(out.string() + ": the directory " + dir.string() + " does not exist");
    if (::access(dir.c_str(), W_OK) != 0) {
        throw IoError(out.string() + ": the directory " + dir.string() + " is not writable");
    }
}

}  // namespace

namespace {

// User + system CPU time of this process.
double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto sec = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    return sec(u.ru_utime) + sec(u.ru_stime);
}

// Rank 0 of a resumed run: the stored sweep must be this configuration's, and its workload
// files must be unchanged (the loop then replays the stored batches).
void check_stored(const store::StoredSweep& stored, const io::Config& config, const ExploreOptions& options,
                  const fs::path& out) {
    std::vector<std::string> diffs = io::config_differences(stored.resolved_config, io::to_yaml(config));
    for (std::size_t n = 0; n < stored.workloads.size() && n < config.workloads.size(); ++n) {
        if (io::read_text_file(config.workloads[n].network) != stored.workloads[n].source) {
            diffs.push_back("the network file " + config.workloads[n].network.string() +
                            " differs from the text stored in the file");
        }
    }
    if (!diffs.empty()) {
        std::string what = "differs from the configuration the sweep in " + out.string() +
                           " was started with; refusing to resume: ";
        for (std::size_t i = 0; i < diffs.size(); ++i) {
            what += i ? "; " : "";
            what += diffs[i];
        }
        throw ConfigError(SourceLocation{options.config.string(), 0, 0}, "", what);
    }
}

}  // namespace

ExploreResult explore(const ExploreOptions& options, const boost::mpi::communicator& world) {
    const auto started = Clock::now();
    const double cpu_at_start = cpu_seconds();
    const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
    const int rank = world.rank();
    const int size = world.size();

    // ---- setup: everything validated before the output file is touched ----------------------
    io::Config config;
    eval::EvalContext ctx;
    std::unique_ptr<detail::Tuner> tuner_state;
    fs::path out;
    agree(world, false, [&] {
        config = io::read_config_file(options.config);
        ctx = make_context(config);
        out = options.output.empty() ? config.output.path : fs::absolute(options.output);
        check_output_name(out);
        tuner::ProposerContext pc{config.constraints, config.technology, config.space, config.sweep.seed,
                                  config.sweep.samples_per_round};
        std::unique_ptr<tuner::Proposer> proposer;
        try {
            proposer = tuner::make_proposer(io::to_string(config.sweep.proposer), pc);
        } catch (const std::invalid_argument& e) {
            throw ConfigError(SourceLocation{options.config.string(), 0, 0}, "sweep.proposer", e.what());
        }
        tuner_state = std::make_unique<detail::Tuner>(config, std::move(proposer));
    });
    const std::optional<std::chrono::seconds> wall_time =
        options.wall_time ? options.wall_time : config.sweep.wall_time;

    // ---- the output file: rank 0's alone (docs/engine.md, "One writer") ----------------------
    // Rank 0 holds the output's lock for the whole run (store/output_lock.hpp); a fresh run's
    // .part is created exclusively, and a resumed file is checked read-only before anything
    // repairs it, so that a refused run changes nothing.
    install_stop_handlers(out, rank == 0, options.resume);
    store::OutputLock lock;
    store::PartFile part_file;
    std::optional<store::Store> store;
    // A fresh run that fails before its first batch leaves no file behind.
    const auto discard_fresh_file = [&] {
        if (options.resume || rank != 0) return;
        const bool made = store.has_value();
        store.reset();
        if (!made && !part_file.held()) return;  // never remove a .part this run did not create
        std::error_code ec;
        fs::path part = out;
        part += ".part";
        fs::remove(part, ec);
        if (made) fs::remove(out, ec);
    };
    store::StoredSweep stored;
    try {
        if (options.resume) {
            agree(world, true, [&] {
                std::error_code ec;
                if (!fs::exists(out, ec)) {
                    throw IoError(out.string() +
                                  ": no such file to resume (start the sweep without --resume)");
                }
                lock = store::OutputLock::acquire(out, !store::OutputLock::locking_disabled_by_environment());
                if (!fs::is_regular_file(out, ec)) throw IoError(out.string() + ": not a regular file");
                {
                    // Refused before anything is repaired: the file stays byte for byte.
                    const store::StoredSweep committed =
                        store::Store::open_read_only(out, MPI_COMM_SELF).read();
                    check_stored(committed, config, options, out);
                }
                store::Store::repair_for_resume(out);
                store.emplace(store::Store::open_for_resume(out, MPI_COMM_SELF));
                stored = store->read();
            });
        } else {
            agree(world, true, [&] {
                check_output_directory(out);  // the clearest message, before the lock file is made
                lock = store::OutputLock::acquire(out, !store::OutputLock::locking_disabled_by_environment());
                check_output_for_fresh_run(out, options.force);
                fs::path part = out;
                part += ".part";
                part_file = store::PartFile::create(part);
                const HoldStopSignals hold;  // no half-made .part: a signal waits for the whole file
                try {
                    store.emplace(store::Store::create(out, config, ctx.workloads, MPI_COMM_SELF));
                } catch (const IoError& e) {
                    // errno is often gone by the time HDF5 gives up: ask the file system.
                    throw IoError(explain_write_failure(e.what(), part));
                }
                part_file.check_same_file(out);
            });
            install_stop_handlers(out, rank == 0, true);
        }
        agree(world, true, [&] { store->note_run(size); });
    } catch (const CollectiveError&) {
        discard_fresh_file();
        throw;
    }

    ExploreResult result;
    result.output = out;
    std::ostream* progress = rank == 0 ? options.progress : nullptr;
    Progress report(progress, options.progress_options);
    {
        std::ostringstream start;
        start << "pimdse explore: " << config.sweep.budget << " evaluations in batches of "
              << config.sweep.batch_size << " (lag " << config.sweep.lag << "), proposer "
              << io::to_string(config.sweep.proposer)
              << (config.sweep.evaluator == io::Evaluator::synthetic ? ", synthetic evaluator" : "") << ", "
              << size << (size == 1 ? " rank (rank 0 evaluates)" : " ranks (rank 0 proposes, ")
              << (size == 1 ? "" : std::to_string(size - 1) + " evaluate)") << ", objectives "
              << objective_names(config) << ", output " << out.string() << '\n';
        if (options.resume) {
            start << "resuming after " << stored.batches << " batches, " << stored.candidates.size()
                  << " evaluations\n";
        }
        report.message("start", start.str());
    }

    // ---- the sweep ---------------------------------------------------------------------------
    double write_total = 0;
    double busy = 0;
    if (rank == 0) {
        const double wall_before = stored.tuner.empty() ? 0.0 : stored.tuner.back().wall_seconds;
        detail::RootInputs in{
            config,         ctx,         *tuner_state, *store,   std::move(stored.candidates),
            stored.batches, wall_before, wall_time,    progress, options.progress_options,
            started,        nullptr,     out};
        detail::RootOutcome o;
        try {
            o = detail::run_root(in, world);
        } catch (...) {
            if (size == 1 && !options.resume && tuner_state->evaluations() == 0) discard_fresh_file();
            throw;
        }
        result.budget_reached = o.budget_reached;
        result.wall_time_stop = o.wall_time_stop;
        result.space_exhausted = o.space_exhausted;
        result.evaluations = tuner_state->evaluations();
        result.evaluated_now = o.evaluated_now;
        result.batches = o.batches;
        result.propose_seconds = o.propose_seconds;
        result.busy_while_work_remains = o.busy_while_work_remains;
        write_total = o.write_seconds;
        busy = o.busy_seconds;
        // Tables grow ahead of their rows: a run that ends cuts them back (a killed one is cut
        // when resumed).
        const auto close_start = Clock::now();
        write_or_stop_all(world, out, [&] {
            store->close_and_trim();
            store.reset();
        });
        write_total += std::chrono::duration<double>(Clock::now() - close_start).count();
    } else {
        detail::run_worker(config, ctx, world);
    }
    remove_stop_handlers();

    // Every rank learns the outcome (the CLI prints on rank 0 only).
    boost::mpi::broadcast(world, result.evaluations, 0);
    boost::mpi::broadcast(world, result.batches, 0);
    result.wall_seconds = elapsed();
    result.write_seconds = write_total;
    result.rank0_cpu_seconds = cpu_seconds() - cpu_at_start;
    const int workers = std::max(size - 1, 1);
    result.workers_busy = busy / (static_cast<double>(workers) * std::max(result.wall_seconds, 1e-9));
    {
        std::ostringstream end;
        end << (result.budget_reached   ? "budget reached"
                : result.wall_time_stop ? "stopped before the wall time; continue with --resume"
                                        : "the space has no legal unseen point left")
            << ": " << result.evaluations << " evaluations in " << result.batches << " batches, "
            << out.string() << '\n';
        char line[320];
        std::snprintf(
            line, sizeof line,
            "this run: %lld evaluations in %.2f s (%.2f eval/s), workers busy %.1f%% (%.1f%% while work "
            "remained), HDF5 writes %.3f s "
            "(%.2f%% of the wall time), rank 0 CPU %.2f s, proposals %.3f s (%.2f ms per candidate)\n",
            static_cast<long long>(result.evaluated_now), result.wall_seconds,
            static_cast<double>(result.evaluated_now) / std::max(result.wall_seconds, 1e-9),
            100.0 * result.workers_busy, 100.0 * result.busy_while_work_remains, result.write_seconds,
            100.0 * result.write_seconds / std::max(result.wall_seconds, 1e-9), result.rank0_cpu_seconds,
            result.propose_seconds,
            1e3 * result.propose_seconds /
                static_cast<double>(std::max<std::int64_t>(result.evaluated_now, 1)));
        end << line;
        report.message("end", end.str());
    }
    return result;
}

}  // namespace pimdse::engine
