// The MPI driver of a sweep (include/pimdse/engine/explore.hpp, docs/engine.md): setup on
// every rank, the output file (sweep_output.hpp), rank 0's loop or a worker's
// (sweep_loop.hpp), and the run's report (run_report.hpp).

#include "pimdse/engine/explore.hpp"

#include <boost/mpi/collectives.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <span>
#include <stdexcept>

#include "cheap_level.hpp"
#include "collective.hpp"
#include "pimdse/engine/signals.hpp"
#include "pimdse/engine/write_failure.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/io/objective_units.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "run_report.hpp"
#include "sweep_loop.hpp"
#include "sweep_output.hpp"

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
    ctx.model = config.model;
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

store::FamilyColumns family_columns(const family::Family& family, const io::Config& config) {
    store::FamilyColumns c;
    for (const ParamAxis& a : family.space().axes()) c.params.push_back({a.name, a.unit, a.meaning});
    for (const family::EnergyPart& p : family.energy_parts())
        c.energy_parts.push_back({p.name, "J", p.meaning});
    for (const family::Metric& m : family.metrics()) c.metrics.push_back({m.name, m.unit, m.meaning});
    c.cost_unit = io::cost_unit(config.cost);
    for (io::Objective o : config.engine.objectives) {
        std::string metric_unit;
        for (const family::Metric& m : family.metrics()) {
            if (m.name == io::objective_metric(o)) metric_unit = m.unit;
        }
        c.objective_units.push_back(io::objective_unit(o, config.cost, metric_unit));
    }
    c.hypervolume_unit = store::hypervolume_unit(c.objective_units);
    return c;
}

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

// What every rank reads and checks before the output file is touched.
struct Setup {
    io::Config config;
    std::unique_ptr<family::Family> family;  ///< the family `config.family` names
    eval::EvalContext ctx;
    /// The filter's second level (docs/tuner.md, "Cheap fidelity"); null without it.
    std::shared_ptr<detail::CheapLevel> cheap;
    std::unique_ptr<detail::SweepState> state;
    fs::path out;
};

Setup set_up(const ExploreOptions& options, const boost::mpi::communicator& world) {
    Setup s;
    detail::agree(world, false, [&] {
        s.config = io::read_config_file(options.config);
        s.family = family::make_family(s.config);
        s.ctx = make_context(s.config);
        s.out = options.output.empty() ? s.config.output.path : fs::absolute(options.output);
        detail::check_output_name(s.out);
        const io::Config& c = s.config;
        const family::Family& fam = *s.family;
        tuner::ProposerContext pc{fam.space(),        [&fam](const DesignPoint& p) { return fam.legal(p); },
                                  c.sweep.seed,       c.sweep.samples_per_round,
                                  c.sweep.batch_size, nullptr};
        if (c.sweep.proposer_options.cheap_fidelity != CheapFidelity::none) {
            s.cheap =
                std::make_shared<detail::CheapLevel>(fam, s.ctx, c.sweep.proposer_options.cheap_fidelity);
            pc.cheap_costs = [level = s.cheap](std::span<const DesignPoint> points) {
                return level->costs(points);
            };
        }
        std::unique_ptr<tuner::Proposer> proposer;
        try {
            proposer = tuner::make_proposer(io::to_string(c.sweep.proposer), pc, c.sweep.proposer_options);
        } catch (const ModelError& e) {
            throw ConfigError(SourceLocation{options.config.string(), 0, 0}, "sweep.proposer", e.what());
        }
        double samples = 0;
        for (const eval::Workload& w : s.ctx.workloads) samples += static_cast<double>(w.network.batch());
        const std::vector<double> prior = fam.eval_time_prior();
        s.state = std::make_unique<detail::SweepState>(
            c, family_columns(fam, c), std::move(proposer), samples,
            EvalTimeModel(Eigen::Map<const EvalTimeModel::Vector>(prior.data(), std::ssize(prior))));
    });
    return s;
}

// Rank 0's part: the loop, then the file cut back to its rows and closed. Fills `result`;
// returns the workers' summed evaluation time.
double run_rank0(const ExploreOptions& options, Setup& s, detail::SweepOutput& output, ExploreResult& result,
                 Clock::time_point started, const boost::mpi::communicator& world) {
    store::StoredSweep& stored = output.stored();
    const double wall_before = stored.tuner.empty() ? 0.0 : stored.tuner.back().wall_seconds;
    const std::optional<std::chrono::seconds> wall_time =
        options.wall_time ? options.wall_time : s.config.sweep.wall_time;
    detail::RootInputs in{s.config,
                          *s.family,
                          s.ctx,
                          *s.state,
                          output.store(),
                          std::move(stored.candidates),
                          stored.batches,
                          wall_before,
                          wall_time,
                          options.progress,
                          options.progress_options,
                          started,
                          nullptr,
                          s.out,
                          s.cheap.get()};
    detail::RootOutcome o;
    try {
        o = detail::run_root(in, world);
    } catch (...) {
        if (world.size() == 1 && !options.resume && s.state->evaluations() == 0) output.discard_fresh();
        throw;
    }
    result.budget_reached = o.budget_reached;
    result.wall_time_stop = o.wall_time_stop;
    result.space_exhausted = o.space_exhausted;
    result.evaluations = s.state->evaluations();
    result.evaluated_now = o.evaluated_now;
    result.batches = o.batches;
    result.propose_seconds = o.propose_seconds;
    result.busy_while_work_remains = o.busy_while_work_remains;
    result.cheap_evaluations = o.cheap_by_rank;
    // Tables grow ahead of their rows: a run that ends cuts them back (a killed one is cut
    // when resumed).
    const auto close_start = Clock::now();
    write_or_stop_all(world, s.out, [&] { output.close(); });
    result.write_seconds =
        o.write_seconds + std::chrono::duration<double>(Clock::now() - close_start).count();
    return o.busy_seconds;
}

}  // namespace

ExploreResult explore(const ExploreOptions& options, const boost::mpi::communicator& world) {
    const auto started = Clock::now();
    const double cpu_at_start = cpu_seconds();
    const int rank = world.rank();
    Setup s = set_up(options, world);
    detail::SweepOutput output(options, s.config, *s.family, s.ctx, s.out, world);

    ExploreResult result;
    result.output = s.out;
    Progress report(rank == 0 ? options.progress : nullptr, options.progress_options);
    report.message("start", detail::start_message(s.config, world.size(), s.out,
                                                  options.resume ? &output.stored() : nullptr));
    double busy = 0;
    if (rank == 0) {
        busy = run_rank0(options, s, output, result, started, world);
    } else {
        detail::run_worker(s.config, *s.family, s.ctx, s.cheap.get(), world);
    }
    remove_stop_handlers();

    // Every rank learns the outcome (the CLI prints on rank 0 only).
    boost::mpi::broadcast(world, result.evaluations, 0);
    boost::mpi::broadcast(world, result.batches, 0);
    result.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
    result.rank0_cpu_seconds = cpu_seconds() - cpu_at_start;
    const int workers = std::max(world.size() - 1, 1);
    result.workers_busy = busy / (static_cast<double>(workers) * std::max(result.wall_seconds, 1e-9));
    report.message("end", detail::end_message(result, s.out));
    return result;
}

}  // namespace pimdse::engine
