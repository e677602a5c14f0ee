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
#include <deque>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "pimdse/engine/dispatch.hpp"
#include "pimdse/engine/signals.hpp"
#include "pimdse/engine/write_failure.hpp"
#include "pimdse/io/output_lock.hpp"
#include "pimdse/io/store.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace pimdse::engine {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

ExitCode exit_code_of(const std::exception& e) noexcept {
    if (const auto* c = dynamic_cast<const CollectiveError*>(&e)) return c->code();
    if (dynamic_cast<const InputError*>(&e)) return ExitCode::input;
    if (dynamic_cast<const IoError*>(&e)) return ExitCode::io;
    if (dynamic_cast<const SolverError*>(&e)) return ExitCode::solver;
    return ExitCode::internal_error;
}

eval::EvalContext make_context(const io::Config& config, bool report_warnings) {
    eval::EvalContext ctx;
    ctx.constraints = config.constraints;
    ctx.technology = config.technology;
    ctx.alpha = config.cost.alpha;
    ctx.beta = config.cost.beta;
    ctx.schedule = config.schedule;
    // Every rank parses the networks; one copy of each warning is enough.
    const auto warn = [report_warnings](const std::string& text) {
        if (report_warnings) std::cerr << "pimdse: warning: " << text << '\n';
    };
    for (io::LoadedWorkload& w : io::load_workloads(config, warn)) {
        eval::Workload e{std::move(w.network), {}, w.spec.weight};
        e.segmentation = workload::decompose(e.network);
        ctx.workloads.push_back(std::move(e));
    }
    ctx.faults.throw_candidates = config.engine.fault_throw;
    ctx.faults.stall_candidates = config.engine.fault_stall;
    return ctx;
}

std::vector<std::string> config_differences(const std::string& stored, const std::string& now) {
    // Lines of to_yaml with their top-level section, minus what a resumed run may change: the
    // budget (to extend a sweep), the wall time (a new allocation) and where the file lives.
    struct Line {
        std::string section;
        std::string text;
    };
    const auto lines = [](const std::string& yaml) {
        std::vector<Line> out;
        std::istringstream in(yaml);
        std::string line;
        std::string section;
        while (std::getline(in, line)) {
            if (!line.empty() && line[0] != ' ' && line[0] != '#') section = line.substr(0, line.find(':'));
            const std::size_t first = line.find_first_not_of(' ');
            const std::string text = first == std::string::npos ? "" : line.substr(first);
            const bool skipped =
                (section == "sweep" && (text.rfind("budget:", 0) == 0 || text.rfind("wall_time:", 0) == 0 ||
                                        text.rfind("# wall_time:", 0) == 0)) ||
                (section == "output" && text.rfind("path:", 0) == 0);
            if (!skipped && !text.empty()) out.push_back({section, text});
        }
        return out;
    };
    const std::vector<Line> a = lines(stored);
    const std::vector<Line> b = lines(now);
    const auto same = [&](std::size_t i, std::size_t j) {
        return a[i].section == b[j].section && a[i].text == b[j].text;
    };
    std::vector<std::string> diffs;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() || j < b.size()) {
        if (i < a.size() && j < b.size() && same(i, j)) {
            ++i, ++j;
            continue;
        }
        // Resynchronise on the nearest line the two share (sections come in a fixed order).
        std::size_t ni = a.size();
        std::size_t nj = b.size();
        bool found = false;
        for (std::size_t d = 1; d < a.size() + b.size() && !found; ++d) {
            for (std::size_t k = 0; k <= d && !found; ++k) {
                if (i + k < a.size() && j + (d - k) < b.size() && same(i + k, j + (d - k))) {
                    ni = i + k, nj = j + (d - k), found = true;
                }
            }
        }
        const auto span_text = [](const std::vector<Line>& v, std::size_t from, std::size_t to) {
            if (from == to) return std::string("(nothing)");
            std::string t;
            for (std::size_t k = from; k < to; ++k) {
                t += k > from ? " | " : "";
                t += v[k].text;
            }
            return "'" + t + "'";
        };
        const std::string& section = i < a.size() ? a[i].section : b[j].section;
        diffs.push_back("in " + section + ": stored " + span_text(a, i, ni) + ", now " + span_text(b, j, nj));
        i = ni, j = nj;
    }
    return diffs;
}

namespace {

constexpr int kTagWork = 1;
constexpr int kTagResult = 2;
constexpr int kTagBatchEnd = 3;
constexpr int kTagStop = 4;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

template <class T>
std::vector<char> to_bytes(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<char> out(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
    return out;
}

template <class T>
std::vector<T> from_bytes(const std::vector<char>& bytes) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
}

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

// Waits for a message without burning a core: MPI's blocking receive busy-polls in Open MPI,
// so poll with iprobe and sleep, backing off to 2 ms.
boost::mpi::status wait_for(const boost::mpi::communicator& world, int source, int tag) {
    auto pause = std::chrono::microseconds(50);
    for (;;) {
        if (auto s = world.iprobe(source, tag)) return *s;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
}

// One candidate handed to a worker (sent as bytes: every field is trivially copyable).
struct Work {
    std::int64_t id;
    std::int64_t batch;
    hw::HardwareParams params;
};

// One evaluation on this rank: its rows join `mine` at once (the end of the batch only
// writes), its record goes to rank 0.
io::CandidateRecord run_one(const eval::EvalContext& ctx, const io::Config& config, const Work& w, int rank,
                            io::BatchRows& mine) {
    const eval::Evaluation e =
        eval::evaluate(ctx, {w.id, w.params}, Deadline::after(config.engine.time_limit));
    return mine.add(e, w.batch, config.sweep.proposer, rank, ctx.workloads);
}

double objective(const io::CandidateRecord& c, io::Objective o) {
    switch (o) {
        case io::Objective::latency:
            return c.latency_seconds;
        case io::Objective::energy:
            return c.energy_joules;
        case io::Objective::area:
            return c.area_mm2;
        case io::Objective::cost:
            return c.cost;
    }
    return kInfinity;
}

tuner::Outcome outcome_of(eval::Status s) {
    switch (s) {
        case eval::Status::ok:
            return tuner::Outcome::ok;
        case eval::Status::infeasible:
            return tuner::Outcome::infeasible;
        case eval::Status::failed:
        case eval::Status::timeout:
            break;
    }
    return tuner::Outcome::failed;
}

// Rank 0's view of the sweep: proposer, archive and its history, best cost; rebuilt on resume
// by replaying the stored batches in order, which gives exactly the state the interrupted run
// had.
class Tuner {
public:
    Tuner(const io::Config& config, std::unique_ptr<tuner::Proposer> proposer)
        : config_(config),
          proposer_(std::move(proposer)),
          archive_(config.engine.objectives.size()),
          reference_(config.engine.reference) {}

    [[nodiscard]] tuner::Proposer& proposer() { return *proposer_; }
    /// Predicts evaluation times from the evaluations so far (the order of dispatch).
    [[nodiscard]] const EvalTimeModel& times() const { return times_; }

    /// Tells the proposer and the archive batch `batch`'s results (sorted by id).
    void observe(std::int64_t batch, const std::vector<io::CandidateRecord>& results) {
        ok_in_last_ = 0;
        std::vector<tuner::Observation> obs;
        for (const io::CandidateRecord& c : results) {
            tuner::Observation o;
            o.candidate = c.id;
            o.params = c.params;
            o.outcome = outcome_of(c.status);
            o.cost = c.status == eval::Status::ok ? c.cost : kInfinity;
            for (io::Objective k : config_.engine.objectives) {
                o.objectives.push_back(c.status == eval::Status::ok ? objective(c, k) : kInfinity);
            }
            if (c.status == eval::Status::ok) {
                // Only full evaluations teach the dispatch order: a time-out is cut short and an
                // infeasible candidate may stop early.
                times_.observe(c.params, c.seconds);
                (void)archive_.insert(c.id, o.objectives);
                if (c.cost < best_cost_) best_cost_ = c.cost, best_ = c.id;
                ok_in_last_ += 1;
            }
            obs.push_back(std::move(o));
            records_[c.id] = c;
        }
        update_history(batch);
        // The automatic reference point (docs/config.md): fixed by the first batch with an
        // ok candidate, 1.1 x its worst value of each objective.
        if (reference_.empty()) {
            std::vector<double> worst(config_.engine.objectives.size(), 0.0);
            bool any = false;
            for (const tuner::Observation& o : obs) {
                if (o.outcome != tuner::Outcome::ok) continue;
                any = true;
                for (std::size_t k = 0; k < worst.size(); ++k) worst[k] = std::max(worst[k], o.objectives[k]);
            }
            if (any) {
                for (double& w : worst) w *= 1.1;
                reference_ = worst;
            }
        }
        proposer_->observe(obs);
        evaluations_ += static_cast<std::int64_t>(results.size());
    }

    [[nodiscard]] std::int64_t ok_in_last() const { return ok_in_last_; }
    [[nodiscard]] double best_cost() const { return best_cost_; }
    [[nodiscard]] std::int64_t best() const { return best_; }
    [[nodiscard]] std::int64_t evaluations() const { return evaluations_; }
    [[nodiscard]] std::size_t front_size() const { return archive_.front().size(); }
    [[nodiscard]] double hypervolume() const {
        if (reference_.empty()) return 0.0;
        return tuner::hypervolume(archive_.front(), reference_);
    }
    /// The reference point as the batch rows store it: NaN where unset or unused.
    [[nodiscard]] std::array<double, 3> reference() const {
        std::array<double, 3> out;
        out.fill(std::numeric_limits<double>::quiet_NaN());
        for (std::size_t k = 0; k < reference_.size() && k < out.size(); ++k) out[k] = reference_[k];
        return out;
    }
    /// Every candidate that joined the front, in joining order (the /pareto table).
    [[nodiscard]] const std::vector<io::ParetoRecord>& history() const { return history_; }

private:
    // The front after `batch` against the one before: leavers get left_batch, joiners a row.
    void update_history(std::int64_t batch) {
        std::map<std::int64_t, bool> now;
        for (const tuner::ParetoPoint& p : archive_.front()) now[p.candidate] = false;
        for (io::ParetoRecord& h : history_) {
            if (h.left_batch >= 0) continue;
            auto it = now.find(h.candidate);
            if (it == now.end()) {
                h.left_batch = batch;
            } else {
                it->second = true;  // still on the front
            }
        }
        for (const auto& [id, kept] : now) {
            if (kept) continue;
            const io::CandidateRecord& c = records_.at(id);
            history_.push_back({c.id, batch, -1, c.latency_seconds, c.energy_joules, c.area_mm2, c.cost});
        }
    }

    const io::Config& config_;
    std::unique_ptr<tuner::Proposer> proposer_;
    tuner::ParetoArchive archive_;
    EvalTimeModel times_;
    std::vector<double> reference_;
    std::map<std::int64_t, io::CandidateRecord> records_;
    std::vector<io::ParetoRecord> history_;
    double best_cost_ = kInfinity;
    std::int64_t best_ = -1;
    std::int64_t evaluations_ = 0;
    std::int64_t ok_in_last_ = 0;
};

std::string seconds_text(double s) {
    char buf[32];
    if (!std::isfinite(s)) return "?";
    if (s < 120) {
        std::snprintf(buf, sizeof buf, "%.0f s", s);
    } else if (s < 7200) {
        std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    } else {
        std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    }
    return buf;
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

// The progress line of one batch (rank 0).
std::string progress_line(std::int64_t batch, const Tuner& t, std::int64_t budget, std::int64_t done_now,
                          double seconds) {
    const double rate = static_cast<double>(done_now) / std::max(seconds, 1e-9);
    const double eta = static_cast<double>(budget - t.evaluations()) / rate;
    char line[256];
    std::snprintf(
        line, sizeof line,
        "batch %lld: %lld/%lld evaluations, %.2f eval/s, best cost %.6g (candidate %lld), front %zu, "
        "ETA %s\n",
        static_cast<long long>(batch), static_cast<long long>(t.evaluations()),
        static_cast<long long>(budget), rate, t.best_cost(), static_cast<long long>(t.best()), t.front_size(),
        seconds_text(eta).c_str());
    return line;
}

// Rank 0 of a resumed run: the stored sweep must be this configuration's, and its workload
// files must be unchanged; then the stored batches are replayed into the tuner.
void check_and_replay(const io::StoredSweep& stored, const io::Config& config, const ExploreOptions& options,
                      const fs::path& out, Tuner& tuner) {
    std::vector<std::string> diffs = config_differences(stored.resolved_config, io::to_yaml(config));
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
    std::size_t k = 0;
    for (std::int64_t b = 0; b < stored.batches; ++b) {
        std::vector<io::CandidateRecord> batch;
        while (k < stored.candidates.size() && stored.candidates[k].batch == b)
            batch.push_back(stored.candidates[k++]);
        tuner.observe(b, batch);
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
    std::unique_ptr<Tuner> tuner_state;
    fs::path out;
    agree(world, false, [&] {
        config = io::read_config_file(options.config);
        ctx = make_context(config, rank == 0);
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
        tuner_state = std::make_unique<Tuner>(config, std::move(proposer));
    });
    const std::optional<std::chrono::seconds> wall_time =
        options.wall_time ? options.wall_time : config.sweep.wall_time;

    // ---- the output file ---------------------------------------------------------------------
    // Rank 0 holds the output's lock for the whole run (io/output_lock.hpp); a fresh run's
    // .part is created exclusively, and a resumed file is checked read-only before anything
    // repairs it, so that a refused run changes nothing.
    install_stop_handlers(out, rank == 0, options.resume);
    io::OutputLock lock;
    io::PartFile part_file;
    std::optional<io::Store> store;
    // A fresh run that fails before its first batch leaves no file behind (but never removes a
    // .part it did not create).
    const auto discard_fresh_file = [&] {
        if (options.resume) return;
        const bool made = store.has_value();
        store.reset();
        if (rank == 0 && (made || part_file.held())) {
            std::error_code ec;
            fs::path part = out;
            part += ".part";
            fs::remove(part, ec);
            if (made) fs::remove(out, ec);
        }
    };
    std::int64_t next_batch = 0;
    std::int64_t next_id = 0;
    double wall_before = 0;
    try {
        if (options.resume) {
            agree(world, true, [&] {
                std::error_code ec;
                if (!fs::exists(out, ec)) {
                    throw IoError(out.string() +
                                  ": no such file to resume (start the sweep without --resume)");
                }
                lock = io::OutputLock::acquire(out, !io::OutputLock::locking_disabled_by_environment());
                if (!fs::is_regular_file(out, ec)) throw IoError(out.string() + ": not a regular file");
                const io::StoredSweep stored = io::Store::open_read_only(out, MPI_COMM_SELF).read();
                check_and_replay(stored, config, options, out, *tuner_state);
                next_batch = stored.batches;
                next_id = static_cast<std::int64_t>(stored.candidates.size());
                if (!stored.tuner.empty()) wall_before = stored.tuner.back().wall_seconds;
                io::Store::repair_for_resume(out);
            });
            agree(world, false, [&] { store.emplace(io::Store::open_for_resume(out, world)); });
            // The replayed history undoes what an interrupted batch may have written to /pareto.
            agree(world, false, [&] {
                store->rewrite_pareto(rank == 0 ? tuner_state->history() : std::vector<io::ParetoRecord>{});
            });
        } else {
            agree(world, true, [&] {
                check_output_directory(out);  // the clearest message, before the lock file is made
                lock = io::OutputLock::acquire(out, !io::OutputLock::locking_disabled_by_environment());
                check_output_for_fresh_run(out, options.force);
                fs::path part = out;
                part += ".part";
                part_file = io::PartFile::create(part);
            });
            const HoldStopSignals hold;  // no half-made .part: a signal waits for the whole file
            agree(world, false, [&] { store.emplace(io::Store::create(out, config, ctx.workloads, world)); });
            agree(world, true, [&] { part_file.check_same_file(out); });
            install_stop_handlers(out, rank == 0, true);
        }
        agree(world, false, [&] { store->note_run(size); });
    } catch (const CollectiveError&) {
        discard_fresh_file();
        throw;
    }

    ExploreResult result;
    result.output = out;
    std::ostream* progress = rank == 0 ? options.progress : nullptr;
    if (progress) {
        *progress << "pimdse explore: " << config.sweep.budget << " evaluations in batches of "
                  << config.sweep.batch_size << ", proposer " << io::to_string(config.sweep.proposer) << ", "
                  << size << (size == 1 ? " rank (rank 0 evaluates)" : " ranks (rank 0 proposes, ")
                  << (size == 1 ? "" : std::to_string(size - 1) + " evaluate)") << ", objectives "
                  << objective_names(config) << ", output " << out.string() << '\n';
        if (options.resume) {
            *progress << "resuming after " << next_batch << " batches, " << tuner_state->evaluations()
                      << " evaluations\n";
        }
        *progress << std::flush;
    }

    // ---- the batches ------------------------------------------------------------------------
    io::BatchRows mine;
    double write_total = 0;
    if (rank == 0) {
        std::int64_t done_now = 0;
        double last_batch_seconds = 0;
        try {
            for (;;) {
                const std::int64_t done = tuner_state->evaluations();
                if (done >= config.sweep.budget) {
                    result.budget_reached = true;
                    break;
                }
                // Stop cleanly before a batch that would not end within the wall time.
                if (wall_time && elapsed() + last_batch_seconds >= static_cast<double>(wall_time->count())) {
                    result.wall_time_stop = true;
                    break;
                }
                const auto batch_start = Clock::now();
                const int count = static_cast<int>(
                    std::min<std::int64_t>(config.sweep.batch_size, config.sweep.budget - done));
                const std::vector<hw::HardwareParams> points =
                    tuner_state->proposer().propose(next_batch, count);
                const tuner::ProposalStats stats = tuner_state->proposer().last_stats();
                if (points.empty()) {
                    result.space_exhausted = true;
                    break;
                }

                // Candidates go one at a time to whichever rank is free (rank 0 itself alone),
                // the slowest predicted first (dispatch.hpp); the results are sorted by id.
                std::vector<io::CandidateRecord> results;
                const auto eval_start = Clock::now();
                std::deque<Work> queue;
                for (std::size_t i : slowest_first(points, tuner_state->times())) {
                    queue.push_back(Work{next_id + static_cast<std::int64_t>(i), next_batch, points[i]});
                }
                if (size == 1) {
                    for (const Work& w : queue) results.push_back(run_one(ctx, config, w, 0, mine));
                } else {
                    int busy = 0;
                    for (int worker = 1; worker < size && !queue.empty(); ++worker, ++busy) {
                        world.send(worker, kTagWork, to_bytes(std::vector<Work>{queue.front()}));
                        queue.pop_front();
                    }
                    while (busy > 0) {
                        const boost::mpi::status st = wait_for(world, boost::mpi::any_source, kTagResult);
                        std::vector<char> bytes;
                        world.recv(st.source(), kTagResult, bytes);
                        for (const io::CandidateRecord& r : from_bytes<io::CandidateRecord>(bytes))
                            results.push_back(r);
                        --busy;
                        if (!queue.empty()) {
                            world.send(st.source(), kTagWork, to_bytes(std::vector<Work>{queue.front()}));
                            queue.pop_front();
                            ++busy;
                        }
                    }
                }
                const double evaluate_seconds =
                    std::chrono::duration<double>(Clock::now() - eval_start).count();
                std::sort(
                    results.begin(), results.end(),
                    [](const io::CandidateRecord& a, const io::CandidateRecord& b) { return a.id < b.id; });
                tuner_state->observe(next_batch, results);

                io::BatchRecord row;
                row.batch = next_batch;
                row.proposer = config.sweep.proposer;
                row.candidates = static_cast<std::int64_t>(results.size());
                row.evaluations = tuner_state->evaluations();
                row.ok = tuner_state->ok_in_last();
                row.best_cost = tuner_state->best_cost();
                row.best_candidate = tuner_state->best();
                row.hypervolume = tuner_state->hypervolume();
                row.front_size = static_cast<std::int64_t>(tuner_state->front_size());
                row.reference = tuner_state->reference();
                row.samples = stats.samples;
                row.fit_seconds = stats.fit_seconds;
                row.propose_seconds = stats.propose_seconds;
                row.evaluate_seconds = evaluate_seconds;
                row.wall_seconds = wall_before + elapsed();

                for (int worker = 1; worker < size; ++worker)
                    world.send(worker, kTagBatchEnd, to_bytes(results));
                const auto write_start = Clock::now();
                write_or_stop_all(world, out,
                                  [&] { store->write_batch(mine, results, row, tuner_state->history()); });
                write_total += std::chrono::duration<double>(Clock::now() - write_start).count();
                mine.clear();
                next_id += static_cast<std::int64_t>(results.size());
                ++next_batch;
                done_now += static_cast<std::int64_t>(results.size());
                last_batch_seconds = std::chrono::duration<double>(Clock::now() - batch_start).count();
                if (progress) {
                    *progress << progress_line(next_batch - 1, *tuner_state, config.sweep.budget, done_now,
                                               elapsed())
                              << std::flush;
                }
            }
        } catch (...) {
            if (next_batch == 0 && size == 1 && !options.resume)
                discard_fresh_file();  // H5Fclose is collective
            throw;
        }
        for (int worker = 1; worker < size; ++worker) world.send(worker, kTagStop, 0);
        result.evaluations = tuner_state->evaluations();
        result.evaluated_now = done_now;
        result.batches = next_batch;
    } else {
        for (;;) {
            const boost::mpi::status st = wait_for(world, 0, boost::mpi::any_tag);
            if (st.tag() == kTagWork) {
                std::vector<char> bytes;
                world.recv(0, kTagWork, bytes);
                std::vector<io::CandidateRecord> done;
                for (const Work& w : from_bytes<Work>(bytes))
                    done.push_back(run_one(ctx, config, w, rank, mine));
                world.send(0, kTagResult, to_bytes(done));
            } else if (st.tag() == kTagBatchEnd) {
                std::vector<char> bytes;
                world.recv(0, kTagBatchEnd, bytes);
                const std::vector<io::CandidateRecord> layout = from_bytes<io::CandidateRecord>(bytes);
                const auto write_start = Clock::now();
                write_or_stop_all(world, out,
                                  [&] { store->write_batch(mine, layout, io::BatchRecord{}, {}); });
                write_total += std::chrono::duration<double>(Clock::now() - write_start).count();
                mine.clear();
            } else {
                int dummy = 0;
                world.recv(0, kTagStop, dummy);
                break;
            }
        }
    }
    // Tables grow ahead of their rows: a run that ends cuts them back (a killed one is cut
    // when resumed).
    const auto close_start = Clock::now();
    write_or_stop_all(world, out, [&] {
        store->close_and_trim();
        store.reset();
    });
    remove_stop_handlers();
    write_total += std::chrono::duration<double>(Clock::now() - close_start).count();

    // Every rank learns the outcome (the CLI prints on rank 0 only).
    boost::mpi::broadcast(world, result.evaluations, 0);
    boost::mpi::broadcast(world, result.batches, 0);
    result.wall_seconds = elapsed();
    result.write_seconds = write_total;
    result.rank0_cpu_seconds = cpu_seconds() - cpu_at_start;
    if (progress) {
        *progress << (result.budget_reached   ? "budget reached"
                      : result.wall_time_stop ? "stopped before the wall time; continue with --resume"
                                              : "the space has no legal unseen point left")
                  << ": " << result.evaluations << " evaluations in " << result.batches << " batches, "
                  << out.string() << '\n';
        char line[256];
        std::snprintf(
            line, sizeof line,
            "this run: %lld evaluations in %.2f s (%.2f eval/s), HDF5 writes %.3f s (%.2f%% of the wall "
            "time), rank 0 CPU %.2f s\n",
            static_cast<long long>(result.evaluated_now), result.wall_seconds,
            static_cast<double>(result.evaluated_now) / std::max(result.wall_seconds, 1e-9),
            result.write_seconds, 100.0 * result.write_seconds / std::max(result.wall_seconds, 1e-9),
            result.rank0_cpu_seconds);
        *progress << line << std::flush;
    }
    return result;
}

}  // namespace pimdse::engine
