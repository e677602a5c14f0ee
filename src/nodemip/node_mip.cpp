// The node MIP's search (include/pimdse/nodemip/node_mip.hpp).
#include "pimdse/nodemip/node_mip.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include "pimdse/nodemip/node_program.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/solver/mip.hpp"

namespace pimdse::nodemip {

namespace {

// A program's bound may equal the incumbent's cost (a tie the exhaustive search's order
// decides): solutions within this of it in log space are still re-costed.
constexpr double kTieSlack = 1e-7;
// Simplex iterations of one solve: a safety net far above what these small programs take.
constexpr std::int64_t kIterationsPerSolve = 10000000;

// The exhaustive search's enumeration rank (sim::exact_search): unrolling, then the tile
// indices as an odometer with dim B fastest, then the order; the fast search's choice first.
using Rank = std::tuple<int, std::int64_t, int>;

Rank rank_of(int unroll, const NodeProgram& p, const std::array<std::size_t, sim::kLoopDims>& choice,
             std::size_t order) {
    std::int64_t odometer = 0, scale = 1;
    for (std::size_t i = 0; i < sim::kLoopDims; ++i) {
        odometer += static_cast<std::int64_t>(choice[i]) * scale;
        scale *= static_cast<std::int64_t>(p.tiles[i].size());
    }
    return {unroll, odometer, static_cast<int>(order)};
}

NodeObjective tie_of(NodeObjective o) {
    return o == NodeObjective::latency ? NodeObjective::energy : NodeObjective::latency;
}

struct Search {
    const sim::PartLayer& layer;
    const sim::NodeSpec& node;
    sim::DataLayout in, out;
    const sim::IntraNodeEnergyCoefficients& k;
    const MipNodeOptions& options;
    MipNodeResult result;
    Rank rank{-1, 0, 0};
    bool found = false;
    double unproven_bound = std::numeric_limits<double>::infinity();  // log space

    [[nodiscard]] double log_incumbent() const {
        return found ? std::log(sim::node_objective(result.cost, layer, k, options.objective))
                     : std::numeric_limits<double>::infinity();
    }
    void offer(const sim::IntraNodeCost& c, const Rank& r) {
        const bool better = !found || sim::exact_better(c, result.cost, layer, k, options.objective) ||
                            (!sim::exact_better(result.cost, c, layer, k, options.objective) && r < rank);
        if (!better) return;
        result.cost = c;
        rank = r;
        found = true;
    }
};

// One solve for the solutions at most `cutoff` (log space): CBC prunes every branch whose
// bound exceeds it, so a program that cannot beat the incumbent ends at its root.
solver::MipOutcome solve(Search& s, const solver::LinearModel& m, double cutoff) {
    solver::WorkBudget budget{kIterationsPerSolve, 0};
    solver::MipSettings settings;
    settings.cutoff = cutoff;
    settings.time_limit_seconds = s.options.solve_seconds;
    settings.budget = &budget;
    settings.cuts = false;              // a cut pass costs more than these small programs' trees
    settings.strong_branching = false;  // and so do strong branching's trial LPs
    ++s.result.solves;
    s.result.max_columns = std::max(s.result.max_columns, static_cast<std::int64_t>(m.cols()));
    s.result.max_rows = std::max(s.result.max_rows, static_cast<std::int64_t>(m.rows()));
    return solver::solve_mip(m, settings);
}

// In the tie zone (bound within the slack of the incumbent), the tie measure decides: its
// bound over the tilings whose objective bound ties is solved as a second program.
solver::MipOutcome solve_tie(Search& s, const NodeProgram& p) {
    solver::LinearModel m = p.model;
    const std::size_t row = m.add_row(-solver::infinity(), s.log_incumbent() + kTieSlack);
    for (std::size_t c = 0; c < m.cols(); ++c)
        if (m.obj[c] != 0.0) m.add(row, c, m.obj[c]);
    std::fill(m.obj.begin(), m.obj.end(), 0.0);
    m.obj[s.options.objective == NodeObjective::latency ? p.energy.epigraph : p.latency.epigraph] = 1.0;
    return solve(
        s, m,
        std::log(sim::node_objective(s.result.cost, s.layer, s.k, tie_of(s.options.objective))) + kTieSlack);
}

// What a solve says of a program: done (no tiling left that can win), unproven, or a solution.
enum class Step : std::uint8_t { done, unproven, solution };

Step judge(Search& s, const solver::MipOutcome& o, double incumbent) {
    if (o.status == solver::MipStatus::failed && o.x.empty()) {
        // Proven infeasible or cut off: no tiling left that can win. Any other failure
        // leaves the program unproven.
        if (o.cut_off || o.reason.find("infeasible") != std::string::npos) return Step::done;
        s.unproven_bound = -1e300;
        return Step::unproven;
    }
    if (o.bound > incumbent + kTieSlack) return Step::done;
    if (o.status != solver::MipStatus::optimal || o.x.empty()) {
        s.unproven_bound = std::min(s.unproven_bound, o.bound);
        return Step::unproven;
    }
    return Step::solution;
}

// Solves, re-costs and cuts one program until its bound exceeds the incumbent; false once
// the work limit is spent.
bool run_program(Search& s, NodeProgram& p, int unroll) {
    while (true) {
        if (s.result.solves >= s.options.max_solves) return false;
        solver::MipOutcome o = solve(s, p.model, s.log_incumbent() + kTieSlack);
        Step step = judge(s, o, s.log_incumbent());
        if (step == Step::solution && o.bound >= s.log_incumbent() - kTieSlack) {
            if (s.result.solves >= s.options.max_solves) return false;
            o = solve_tie(s, p);
            step = judge(
                s, o,
                std::log(sim::node_objective(s.result.cost, s.layer, s.k, tie_of(s.options.objective))));
            // A failed tie program (proven infeasible) leaves no tiling in the tie zone either.
        }
        if (step != Step::solution) return true;
        const sim::Tiling t = tiling_of(p, o.x);
        const auto choice = choice_of(p, o.x);
        // Every order of the tiling is costed at once; the no-good cut removes them all.
        if (sim::fits(sim::footprint(s.layer, t), s.node)) {
            const auto all = sim::evaluate_tiling_all_orders(s.layer, s.node, t, s.in, s.out);
            for (std::size_t k = 0; k < sim::kFastOrderCount; ++k)
                s.offer(all[k], rank_of(unroll, p, choice, k));
        }
        add_no_good(p, choice);
        (void)add_tangent_cuts(p, o.x);
    }
}

}  // namespace

MipNodeResult mip_search(const sim::PartLayer& layer, const sim::NodeSpec& node, sim::DataLayout in,
                         sim::DataLayout out, const sim::IntraNodeEnergyCoefficients& k,
                         const MipNodeOptions& options) {
    Search s{layer, node, in, out, k, options, {}};
    const sim::IntraNodeCost fast = sim::AnalyticIntraNodeMapper::search(layer, node, in, out, nullptr, &k);
    if (fast.status == sim::MapStatus::ok) {
        s.result.cost = fast;
        s.found = true;
    }
    const auto unrolls = sim::exact_unrolls();
    bool stopped = false;
    for (std::size_t u = 0; u < unrolls.size() && !stopped; ++u) {
        NodeProgram p = build_program(layer, node, unrolls[u], k, options.objective);
        if (!p.feasible) continue;
        ++s.result.programs;
        stopped = !run_program(s, p, static_cast<int>(u));
    }
    if (!s.found) {
        s.result.cost = sim::IntraNodeCost{};
        s.result.cost.status = sim::MapStatus::infeasible;
        s.result.cost.reason = "no tiling fits the buffers, even with tiles of one element";
        return s.result;
    }
    s.result.objective = sim::node_objective(s.result.cost, layer, k, options.objective);
    if (stopped || s.unproven_bound < std::log(s.result.objective)) {
        s.result.status = sim::ExactStatus::work_limit;
        const double bound = stopped ? 0.0 : std::exp(s.unproven_bound);
        s.result.gap = (s.result.objective - bound) / s.result.objective;
    }
    return s.result;
}

namespace {

// The program of `tiling` with its order and tiles fixed, solved for `objective` (the sum of
// `minimised` instead when given): the point at which its bounds are read; empty when no
// tiling fits.
std::vector<double> solve_fixed(NodeProgram& p, const sim::Tiling& tiling,
                                const std::vector<LogTerm>* minimised) {
    for (std::size_t o = 0; o < sim::kFastOrderCount; ++o)
        p.model.col_lo[p.order_col[o]] = p.model.col_hi[p.order_col[o]] =
            tiling.order == sim::kFastOrders[o] ? 1.0 : 0.0;
    for (std::size_t i = 0; i < sim::kLoopDims; ++i) {
        const auto it = std::find(p.tiles[i].begin(), p.tiles[i].end(), tiling.tile[i]);
        if (it == p.tiles[i].end()) throw std::invalid_argument("program_bound: a tile outside the space");
        const auto chosen = static_cast<std::size_t>(it - p.tiles[i].begin());
        for (std::size_t c = 0; c < p.y[i].size(); ++c)
            p.model.col_lo[p.y[i][c]] = p.model.col_hi[p.y[i][c]] = c == chosen ? 1.0 : 0.0;
    }
    if (!p.feasible) return {};
    if (minimised != nullptr) {
        std::fill(p.model.obj.begin(), p.model.obj.end(), 0.0);
        for (const LogTerm& t : *minimised)
            for (const auto& [col, a] : t.coef) p.model.obj[col] += a;
    }
    solver::WorkBudget budget{kIterationsPerSolve, 0};
    solver::MipSettings settings;
    settings.budget = &budget;
    settings.time_limit_seconds = 10.0;
    settings.cuts = false;
    return solver::solve_mip(p.model, settings).x;
}

}  // namespace

double program_bound(const sim::PartLayer& layer, const sim::NodeSpec& node, const sim::Tiling& tiling,
                     const sim::IntraNodeEnergyCoefficients& k, NodeObjective objective) {
    NodeProgram p = build_program(layer, node, tiling.unroll, k, objective);
    const std::vector<double> x = solve_fixed(p, tiling, nullptr);
    if (x.empty()) return std::numeric_limits<double>::infinity();
    double v = 0;
    for (std::size_t c = 0; c < x.size(); ++c) v += p.model.obj[c] * x[c];
    return std::exp(v);
}

std::array<double, 3> program_activations(const sim::PartLayer& layer, const sim::NodeSpec& node,
                                          const sim::Tiling& tiling,
                                          const sim::IntraNodeEnergyCoefficients& k) {
    NodeProgram p = build_program(layer, node, tiling.unroll, k, NodeObjective::energy);
    const std::vector<LogTerm> terms(p.activations.begin(), p.activations.end());
    const std::vector<double> x = solve_fixed(p, tiling, &terms);
    std::array<double, 3> a{};
    a.fill(std::numeric_limits<double>::infinity());
    if (x.empty()) return a;
    for (std::size_t t = 0; t < 3; ++t) a[t] = std::exp(term_at(p.activations[t], x));
    return a;
}

sim::IntraNodeCost MipIntraNodeMapper::map(const sim::PartLayer& layer, const sim::NodeSpec& node,
                                           sim::DataLayout in, sim::DataLayout out) {
    sim::NodeSearchKey key{layer, node, in, out};
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    const MipNodeResult r = mip_search(layer, node, in, out, energy_, options_);
    if (r.status == sim::ExactStatus::work_limit) ++unproven_;
    memo_.emplace(std::move(key), r.cost);
    return r.cost;
}

std::unique_ptr<sim::IntraNodeMapper> make_node_model(const ModelOptions& options,
                                                      const sim::IntraNodeEnergyCoefficients& energy) {
    if (options.intra_node != IntraNodeModel::exact || options.exact.solver != ExactSolver::mip)
        return sim::make_node_model(options, energy);
    MipNodeOptions mip;
    mip.objective = options.exact.objective;
    mip.max_solves = options.exact.work_limit;
    return std::make_unique<MipIntraNodeMapper>(mip, energy);
}

}  // namespace pimdse::nodemip
