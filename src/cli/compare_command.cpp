// `pimdse compare A.h5 B.h5 [--target COST]`: two sweeps side by side (docs/cli.md): best
// cost, Pareto front size, hypervolume against one reference point for both (1.1 x the
// nadir of the union of the two fronts), and the evaluations each needed to reach a cost.
// Reads only the committed part of each file (store::Store::read).

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/store.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "report.hpp"

namespace pimdse::cli {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Side {
    std::string path;
    store::StoredSweep s;
    store::FamilyColumns columns;  ///< the family's columns (its metrics may be objectives)
    std::string objectives;
    std::vector<tuner::ParetoPoint> front;
    double best_cost = kInf;
    std::int64_t best_candidate = -1;
    std::int64_t ok = 0;
};

std::string info(const store::StoredSweep& s, const std::string& key) {
    for (const auto& [k, v] : s.info) {
        if (k == key) return v;
    }
    return "?";
}

// Candidate `id`'s value of objective `name` as the sweep's archive minimises it
// (store::objective_value); `samples` is the workloads' batch sizes summed.
double objective(const store::StoredSweep& s, const store::FamilyColumns& columns, std::int64_t id,
                 const std::string& name, double samples, const std::string& path) {
    const std::optional<io::Objective> o = value_of(io::kObjectiveNames, std::string_view(name));
    if (!o) throw InputError({path}, "objectives", "an objective pimdse does not know: '" + name + "'");
    // Candidates are stored in id order, 0, 1, 2, ...
    if (id < 0 || id >= std::ssize(s.candidates) || s.candidates[static_cast<std::size_t>(id)].id != id)
        throw InputError({path}, "pareto",
                         "a front candidate " + std::to_string(id) + " not among /candidates");
    return store::objective_value(s.candidates[static_cast<std::size_t>(id)], columns, *o, samples);
}

Side load(const std::string& path) {
    io::check_input_file(path);
    const store::Store file = store::Store::open_read_only(path, MPI_COMM_SELF);
    Side d{path, file.read(), file.columns(), {}, {}, kInf, -1, 0};
    d.objectives = info(d.s, "objectives");
    std::vector<std::string> names;
    for (std::size_t i = 0, j; i <= d.objectives.size(); i = j + 1) {
        j = std::min(d.objectives.find(',', i), d.objectives.size());
        names.push_back(d.objectives.substr(i, j - i));
    }
    double samples = 0;
    for (const store::StoredWorkload& w : d.s.workloads) samples += static_cast<double>(w.batch);
    for (const store::ParetoRecord& p : d.s.pareto) {
        if (p.left_batch >= 0 && p.left_batch < d.s.batches) continue;  // off the front
        tuner::ParetoPoint point{p.candidate, {}};
        for (const std::string& n : names)
            point.objectives.push_back(objective(d.s, d.columns, p.candidate, n, samples, path));
        d.front.push_back(std::move(point));
    }
    for (const store::CandidateRecord& c : d.s.candidates) {
        if (c.status != eval::Status::ok) continue;
        ++d.ok;
        if (c.cost < d.best_cost) d.best_cost = c.cost, d.best_candidate = c.id;
    }
    return d;
}

// Evaluations done when the lowest ok cost first fell to `target` or below; -1 if never.
std::int64_t evaluations_to(const Side& d, double target) {
    double best = kInf;
    for (std::size_t i = 0; i < d.s.candidates.size(); ++i) {
        const store::CandidateRecord& c = d.s.candidates[i];
        if (c.status == eval::Status::ok) best = std::min(best, c.cost);
        if (best <= target) return static_cast<std::int64_t>(i) + 1;
    }
    return -1;
}

// A sweep's workloads as the comparison cares about them: each network's name, batch and
// weight, in the configured order.
std::string workloads_of(const Side& d) {
    std::string out;
    for (const store::StoredWorkload& w : d.s.workloads) {
        if (!out.empty()) out += ", ";
        out += w.name + " (batch " + std::to_string(w.batch) + ", weight " + format("%g", w.weight) + ")";
    }
    return out;
}

// Costs, evaluations to a target and hypervolumes of sweeps over different workloads (another
// network, batch size, weight or network file text) measure different things: say so.
void warn_if_different_workloads(const Side& a, const Side& b) {
    bool same = a.s.workloads.size() == b.s.workloads.size();
    for (std::size_t i = 0; same && i < a.s.workloads.size(); ++i) {
        const store::StoredWorkload& x = a.s.workloads[i];
        const store::StoredWorkload& y = b.s.workloads[i];
        same = x.name == y.name && x.batch == y.batch && x.weight == y.weight && x.source == y.source;
    }
    if (same) return;
    std::cerr << "pimdse compare: warning: A and B evaluated different workloads, so their costs, "
                 "evaluations to target and hypervolumes are not comparable\n"
              << "  A: " << workloads_of(a) << "\n  B: " << workloads_of(b) << '\n';
}

void row(const char* name, const std::string& a, const std::string& b) {
    std::cout << format("%-24s %16s %16s\n", name, a.c_str(), b.c_str());
}

std::string number(double v) {
    return std::isfinite(v) ? format("%.9g", v) : std::string("-");
}

int run_compare(const std::string& path_a, const std::string& path_b, double target) {
    boost::mpi::environment env(false);
    boost::mpi::communicator world;
    if (world.rank() != 0) return 0;
    const Side a = load(path_a);
    const Side b = load(path_b);
    if (a.objectives != b.objectives) {
        throw InputError({path_b}, "objectives",
                         "expected the objectives of " + path_a + " (" + a.objectives + "), got " +
                             b.objectives + ": hypervolumes over different objectives cannot be compared");
    }
    // One reference point for both: 1.1 x the worst value of each objective over the two
    // fronts, the sweep's own automatic convention (docs/config.md, engine.reference).
    const std::size_t m =
        a.front.empty() ? (b.front.empty() ? 0 : b.front[0].objectives.size()) : a.front[0].objectives.size();
    std::vector<double> reference(m, 0.0);
    for (const Side* d : {&a, &b}) {
        for (const tuner::ParetoPoint& p : d->front) {
            for (std::size_t k = 0; k < m; ++k) reference[k] = std::max(reference[k], p.objectives[k]);
        }
    }
    for (double& r : reference) r *= 1.1;
    warn_if_different_workloads(a, b);
    if (std::isnan(target)) target = std::max(a.best_cost, b.best_cost);

    for (const Side* d : {&a, &b}) {
        std::cout << (d == &a ? "A: " : "B: ") << d->path << " (" << info(d->s, "proposer") << ", seed "
                  << info(d->s, "seed") << ", " << d->s.batches << " batches)\n";
    }
    std::cout << "objectives: " << a.objectives << '\n'
              << "reference point (1.1 x the nadir of both fronts):";
    for (double r : reference) std::cout << ' ' << format("%.9g", r);
    std::cout << "\ntarget cost: " << number(target) << " (NicePIM Eq. 1)\n\n";
    row("", "A", "B");
    row("evaluations", std::to_string(a.s.candidates.size()), std::to_string(b.s.candidates.size()));
    row("ok", std::to_string(a.ok), std::to_string(b.ok));
    row("best cost", a.ok ? format("%.6g", a.best_cost) : "-", b.ok ? format("%.6g", b.best_cost) : "-");
    row("best candidate", std::to_string(a.best_candidate), std::to_string(b.best_candidate));
    row("front size", std::to_string(a.front.size()), std::to_string(b.front.size()));
    const auto hv = [&](const Side& d) { return m ? tuner::hypervolume(d.front, reference) : 0.0; };
    row("hypervolume", format("%.9g", hv(a)), format("%.9g", hv(b)));
    const auto reach = [&](const Side& d) {
        const std::int64_t n = evaluations_to(d, target);
        return n < 0 ? std::string("-") : std::to_string(n);
    };
    row("evaluations to target", reach(a), reach(b));
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand("compare", "Compare two sweep files side by side (docs/cli.md)");
    auto a = std::make_shared<std::string>();
    auto b = std::make_shared<std::string>();
    auto target = std::make_shared<double>(std::numeric_limits<double>::quiet_NaN());
    // Not required(): CLI11 would say "b is required"; run_compare says which file is missing.
    cmd->add_option("A", *a, "the first sweep file (required)");
    cmd->add_option("B", *b, "the second sweep file (required)");
    cmd->add_option("--target", *target,
                    "cost whose first reach is reported (default: the higher of the two best costs)")
        ->check(CLI::PositiveNumber);
    cmd->callback([&action, a, b, target] {
        action = [a, b, target] {
            if (a->empty() || b->empty()) {
                throw UsageError(
                    std::string("compare: expected two sweep files (pimdse compare A.h5 B.h5), got ") +
                    (a->empty() ? "none" : "only " + *a));
            }
            return run_compare(*a, *b, *target);
        };
    });
}

}  // namespace pimdse::cli
