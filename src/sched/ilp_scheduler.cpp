// NicePIM Eq. 2-4 solved in phases, each stopping as soon as the incumbent meets the best
// proven lower bound (docs/model.md, "Data-Scheduler"):
//   1. warm start (baselines and their reversals) and the combinatorial bound (bounds.hpp);
//   2. a restricted master: each set picks one cycle from a pool (warm start, TSP, snake,
//      every min-hop cycle), min max link load, on CBC;
//   3. column generation: the master's LP duals price new cycles exactly (Held-Karp on
//      dual-weighted routes); every round gives a Lagrangian lower bound; then the master
//      again over all columns;
//   4. the compact model (x per ordered pair, MTZ, cut rows) on CBC for what is left.
// Sets that share no link are independent groups (components) solved separately. This file
// prepares the event (warm start, bound, sets with a choice, the initial pool) and picks the
// answer; phases 2-4 are detail::Solver's (ilp_solver.hpp).
#include "pimdse/sched/ilp_scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "ilp_solver.hpp"
#include "limits.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/core/units.hpp"
#include "pimdse/sched/bounds.hpp"
#include "pimdse/sched/validate.hpp"

namespace pimdse::sched {

void detail::check_limits(std::string_view owner, double time_limit_seconds, std::int64_t work_limit,
                          double relative_gap) {
    const std::string who(owner);
    if (!(time_limit_seconds > 0.0) || !std::isfinite(time_limit_seconds)) {
        throw ModelError(who + ": time_limit_seconds must be a finite number > 0");
    }
    if (work_limit < 1) throw ModelError(who + ": work_limit must be >= 1");
    if (!(relative_gap >= 0.0) || !std::isfinite(relative_gap)) {
        throw ModelError(who + ": relative_gap must be a finite number >= 0");
    }
}

void validate(const IlpOptions& options) {
    detail::check_limits("IlpOptions", options.time_limit_seconds, options.work_limit, options.relative_gap);
    if (options.max_compact_binaries < 1) throw ModelError("IlpOptions: max_compact_binaries must be >= 1");
}

const char* to_string(IlpPhase phase) noexcept {
    switch (phase) {
        case IlpPhase::trivial:
            return "trivial";
        case IlpPhase::warm_start:
            return "warm_start";
        case IlpPhase::pool:
            return "pool";
        case IlpPhase::column_generation:
            return "column_generation";
        case IlpPhase::compact:
            return "compact";
    }
    return "unknown";
}

namespace {

using detail::Clock;
using detail::Solver;
using detail::Tour;
using detail::VarSet;

constexpr std::size_t kPoolMaxCycles = 64;     // min-hop cycles kept per set shape
constexpr std::size_t kPoolMaxSteps = 200000;  // search steps per set shape

// Heaviest mesh link and how many links carry it: a lexicographic score that lets a local
// search make progress on plateaus where the maximum alone does not move.
std::pair<std::int64_t, std::int64_t> load_score(const sim::Mesh& mesh,
                                                 std::span<const sim::SharingCycle> cycles,
                                                 std::int32_t flit_bits) {
    std::vector<std::int64_t> load(static_cast<std::size_t>(mesh.link_count()), 0);
    for (const auto& c : cycles) {
        const std::size_t n = c.order.size();
        if (n < 2) continue;
        const std::int64_t f = sim::flits_of(c.bytes_per_node, flit_bits);
        for (std::size_t i = 0; i < n; ++i) {
            mesh.for_each_route_link(c.order[i], c.order[(i + 1) % n],
                                     [&](sim::ChannelId l) { load[static_cast<std::size_t>(l)] += f; });
        }
    }
    const std::int64_t top = load.empty() ? 0 : *std::max_element(load.begin(), load.end());
    return {top, std::count(load.begin(), load.end(), top)};
}

// Warm start: per set, pick among snake, TSP and their reversals by coordinate descent on
// load_score. Reversal matters: interleaved sets that share rows stop colliding when
// neighbours run in opposite directions.
std::vector<sim::SharingCycle> warm_start(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                          std::span<const sim::SharingCycle> snake,
                                          std::span<const sim::SharingCycle> tsp, std::int32_t flit_bits) {
    std::vector<std::vector<std::vector<sim::NodeId>>> options(sets.size());
    for (std::size_t s = 0; s < sets.size(); ++s) {
        for (const auto* src : {&snake, &tsp}) {
            auto order = (*src)[s].order;
            options[s].push_back(order);
            std::reverse(order.begin(), order.end());
            options[s].push_back(std::move(order));
        }
    }
    std::vector<sim::SharingCycle> cur(snake.begin(), snake.end());
    if (load_score(mesh, tsp, flit_bits) < load_score(mesh, cur, flit_bits))
        cur.assign(tsp.begin(), tsp.end());
    auto best = load_score(mesh, cur, flit_bits);
    for (int pass = 0; pass < 8; ++pass) {
        bool improved = false;
        for (std::size_t s = 0; s < sets.size(); ++s) {
            if (sets[s].members.size() < 3) continue;
            for (const auto& o : options[s]) {
                auto keep = cur[s].order;
                cur[s].order = o;
                const auto sc = load_score(mesh, cur, flit_bits);
                if (sc < best) {
                    best = sc;
                    improved = true;
                } else {
                    cur[s].order = std::move(keep);
                }
            }
        }
        if (!improved) break;
    }
    return cur;
}

void check_sets(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets) {
    for (std::size_t i = 0; i < sets.size(); ++i) {
        std::vector<sim::NodeId> m = sets[i].members;
        std::sort(m.begin(), m.end());
        if (std::adjacent_find(m.begin(), m.end()) != m.end()) {
            throw ModelError("IlpCycleScheduler: set " + std::to_string(i) + " has a repeated member");
        }
        for (const sim::NodeId v : m) {
            if (!mesh.contains(v)) {
                throw ModelError("IlpCycleScheduler: set " + std::to_string(i) + " has node " +
                                 std::to_string(v) + " outside the mesh");
            }
        }
    }
}

// The gcd of the moving sets' flits is the unit of the models: every load is a whole number
// of units, so the objective is integral (cutoff increment, rounded bounds).
std::int64_t load_unit(std::span<const sim::SharingSet> sets, std::int32_t flit_bits) {
    std::int64_t unit = 0;
    for (const auto& s : sets) {
        const std::int64_t f = sim::flits_of(s.bytes_per_node, flit_bits);
        if (s.members.size() >= 2 && f > 0) unit = std::gcd(unit, f);
    }
    return unit;
}

// The sets whose cycle is a decision; two-member sets (one cycle, a -> b -> a) become the
// constant load of their links, in units.
std::vector<VarSet> decision_sets(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                  std::int32_t flit_bits, std::int64_t unit,
                                  std::vector<std::int64_t>& const_load) {
    std::vector<VarSet> vars;
    const_load.assign(static_cast<std::size_t>(mesh.link_count()), 0);
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const std::int64_t f = sim::flits_of(sets[i].bytes_per_node, flit_bits);
        if (f == 0 || sets[i].members.size() < 2) continue;
        VarSet vs;
        vs.input = i;
        vs.members = sets[i].members;
        std::sort(vs.members.begin(), vs.members.end());
        vs.w = f / unit;
        if (vs.members.size() == 2) {  // a -> b -> a: the only cycle
            for (int k = 0; k < 2; ++k) {
                mesh.for_each_route_link(
                    vs.members[static_cast<std::size_t>(k)], vs.members[static_cast<std::size_t>(1 - k)],
                    [&](sim::ChannelId l) { const_load[static_cast<std::size_t>(l)] += vs.w; });
            }
        } else {
            vars.push_back(std::move(vs));
        }
    }
    return vars;
}

// What finish() needs besides the result: the baselines and the limits.
struct Finish {
    const sim::Mesh& mesh;
    const sim::NocParams& noc;
    const std::vector<sim::SharingCycle>& tsp;
    const std::vector<sim::SharingCycle>& warm;
    double relative_gap;
    Clock::time_point t0;
    Clock::time_point deadline;
};

// The event in load units: mesh shape, then per set its chunk in units (0: moves nothing)
// and its members in their given order. Everything the solver phases see (warm start,
// bound, models, pools) is a function of it, so equal keys get equal answers.
std::vector<std::int64_t> geometry_key(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                       std::int32_t flit_bits, std::int64_t unit) {
    std::vector<std::int64_t> key{mesh.rows(), mesh.cols()};
    for (const sim::SharingSet& s : sets) {
        const std::int64_t f = sim::flits_of(s.bytes_per_node, flit_bits);
        key.push_back(s.members.size() >= 2 && f > 0 ? f / unit : 0);
        key.push_back(static_cast<std::int64_t>(s.members.size()));
        key.insert(key.end(), s.members.begin(), s.members.end());
    }
    return key;
}

void finish(const Finish& f, IlpResult& r) {
    const std::int32_t flit_bits = f.noc.flit_bits;
    r.objective_flits = step_max_link_flits(f.mesh, r.cycles, flit_bits);
    r.best_bound_flits = std::min(r.best_bound_flits, r.objective_flits);
    r.gap = r.objective_flits > 0 ? static_cast<double>(r.objective_flits - r.best_bound_flits) /
                                        static_cast<double>(r.objective_flits)
                                  : 0.0;
    if (r.gap <= 0.0) {
        r.status = ScheduleStatus::optimal;
        r.reason.clear();
    } else if (r.gap <= f.relative_gap + 1e-9) {
        r.status = ScheduleStatus::gap_reached;
    } else if (r.status == ScheduleStatus::optimal || r.status == ScheduleStatus::gap_reached) {
        // Phases cut short by the limit (or switched off in IlpOptions).
        r.status = ScheduleStatus::time_limit_incumbent;
        if (Clock::now() < f.deadline) r.reason = "gap left with solution phases switched off";
    }
    // The answer: the lowest event latency among the cycles at hand (the solver's, TSP's,
    // the warm start's); ties keep the lighter heaviest link, then the solver's. Eq. 4 is
    // the latency's proxy and is exact when chunks are long; with chunks of a few flits
    // the hop pipeline weighs more than one chunk of link load, and a baseline can be
    // faster. So the ILP is never slower than TSP under the shared latency model.
    double best_latency = sim::share_along_cycles(f.mesh, r.cycles, f.noc).latency.value();
    r.max_link_flits = r.objective_flits;
    for (const auto* alt : {&f.tsp, &f.warm}) {
        const double lat = sim::share_along_cycles(f.mesh, *alt, f.noc).latency.value();
        const std::int64_t link = step_max_link_flits(f.mesh, *alt, flit_bits);
        if (lat < best_latency || (lat == best_latency && link < r.max_link_flits)) {
            best_latency = lat;
            r.max_link_flits = link;
            r.cycles = *alt;
        }
    }
    r.latency_fallback = r.max_link_flits > r.objective_flits;
    r.solve_seconds = std::chrono::duration<double>(Clock::now() - f.t0).count();
}

}  // namespace

// The settled answer of an event as this event's result (the bound back in flits).
void IlpCycleScheduler::apply(const Settled& s, std::int64_t unit, IlpResult& r) {
    for (std::size_t i = 0; i < r.cycles.size(); ++i) r.cycles[i].order = s.orders[i];
    r.best_bound_flits = s.bound_units * unit;
    r.phase = s.phase;
    r.status = s.status;
    r.reason = s.reason;
    r.components = s.components;
    r.columns = s.columns;
    r.pricing_rounds = s.pricing_rounds;
    r.simplex_iterations = s.simplex_iterations;
}

IlpCycleScheduler::IlpCycleScheduler(IlpOptions options) : options_(options) {
    validate(options_);
}

// The initial pool: warm start, TSP, snake, their reversals, and every min-hop cycle of the
// set's shape (all of them for the Fig. 12 shapes; capped for shapes with many).
void IlpCycleScheduler::add_pools(detail::Solver& solver, const sim::Mesh& mesh,
                                  std::span<const detail::VarSet> vars, const Baselines& b,
                                  std::span<const std::int64_t> min_hops,
                                  std::chrono::steady_clock::time_point deadline) {
    for (std::size_t s = 0; s < vars.size(); ++s) {
        const VarSet& vs = vars[s];
        for (const auto* src : {&b.warm, &b.tsp, &b.snake}) {
            const Tour t = detail::tour_of(vs, (*src)[vs.input].order);
            solver.add_pool(s, t);
            solver.add_pool(s, detail::reversed(t));
        }
        if (!options_.pool || vs.members.size() > detail::kHeldKarpMaxPoints || Clock::now() >= deadline)
            continue;
        auto key = detail::shape_key(mesh, vs.members);
        auto it = min_hop_cycles_.find(key);
        if (it == min_hop_cycles_.end()) {
            const std::size_t n = vs.members.size();
            std::vector<std::int64_t> d(n * n);
            for (std::size_t a = 0; a < n; ++a) {
                for (std::size_t c = 0; c < n; ++c) d[a * n + c] = mesh.hops(vs.members[a], vs.members[c]);
            }
            auto list =
                detail::enumerate_short_cycles(d, n, min_hops[vs.input], kPoolMaxCycles, kPoolMaxSteps);
            if (min_hop_cycles_.size() >= 4096) min_hop_cycles_.clear();
            it = min_hop_cycles_.emplace(std::move(key), std::move(list.tours)).first;
        }
        for (const Tour& t : it->second) solver.add_pool(s, t);
    }
}

IlpResult IlpCycleScheduler::solve(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                   const sim::NocParams& noc) {
    const auto t0 = Clock::now();
    const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(options_.time_limit_seconds));
    sim::validate(noc);
    const std::int32_t flit_bits = noc.flit_bits;
    check_sets(mesh, sets);

    // Baselines (the TSP memo makes translated sets cheap) and the warm start.
    Baselines b;
    b.snake = sim::SnakeRingScheduler{}.schedule(mesh, sets);
    b.tsp = tsp_.schedule(mesh, sets);
    b.warm = warm_start(mesh, sets, b.snake, b.tsp, flit_bits);
    const Finish fin{mesh, noc, b.tsp, b.warm, options_.relative_gap, t0, deadline};

    IlpResult result;
    result.cycles = b.warm;
    result.warm_start_flits = step_max_link_flits(mesh, b.warm, flit_bits);

    const std::int64_t unit = load_unit(sets, flit_bits);
    std::vector<std::int64_t> min_hops(sets.size(), 0);
    for (std::size_t i = 0; i < sets.size(); ++i) {
        min_hops[i] = sets[i].members.size() <= detail::kHeldKarpMaxPoints
                          ? cycle_hops(mesh, b.tsp[i].order)
                          : min_cycle_hops_bound(mesh, sets[i].members);
    }
    const MaxLinkBound comb = max_link_lower_bound(mesh, sets, flit_bits, min_hops);
    result.combinatorial_bound_flits = comb.flits;

    std::vector<std::int64_t> const_load;
    const std::vector<VarSet> vars =
        unit == 0 ? std::vector<VarSet>{} : decision_sets(mesh, sets, flit_bits, unit, const_load);
    if (vars.empty() || unit == 0) {
        result.status = ScheduleStatus::optimal;
        result.phase = IlpPhase::trivial;
        result.best_bound_flits = result.warm_start_flits;
        finish(fin, result);
        return result;
    }

    std::vector<std::int64_t> key = geometry_key(mesh, sets, flit_bits, unit);
    auto it = settled_.find(key);
    if (it == settled_.end()) {
        const Settled s =
            run_solver(mesh, vars, const_load, b, min_hops, ceil_div(comb.flits, unit), deadline);
        if (s.status == ScheduleStatus::time_limit_incumbent) {
            apply(s, unit, result);
            finish(fin, result);
            return result;
        }
        if (settled_.size() >= kMaxSettled) settled_.clear();
        it = settled_.emplace(std::move(key), s).first;
    } else {
        ++geometry_hits_;
    }
    apply(it->second, unit, result);
    finish(fin, result);
    return result;
}

IlpCycleScheduler::Settled IlpCycleScheduler::run_solver(const sim::Mesh& mesh, std::span<const VarSet> vars,
                                                         std::span<const std::int64_t> const_load,
                                                         const Baselines& b,
                                                         std::span<const std::int64_t> min_hops,
                                                         std::int64_t bound_units,
                                                         Clock::time_point deadline) {
    Solver solver(mesh, options_, deadline, {vars.begin(), vars.end()},
                  {const_load.begin(), const_load.end()}, bound_units);
    solver.split_components();
    std::vector<Tour> tours;
    for (const VarSet& vs : vars) tours.push_back(detail::tour_of(vs, b.warm[vs.input].order));
    solver.set_tours(tours);
    add_pools(solver, mesh, vars, b, min_hops, deadline);

    solver.run();

    Settled s;
    for (const sim::SharingCycle& c : b.warm) s.orders.push_back(c.order);
    for (std::size_t v = 0; v < vars.size(); ++v) {
        s.orders[vars[v].input] = detail::order_of(vars[v], solver.tours()[v]);
    }
    s.bound_units = solver.bound();
    s.phase = solver.phase();
    s.status = solver.status();
    s.reason = solver.reason();
    s.components = solver.component_count();
    s.columns = solver.column_count();
    s.pricing_rounds = solver.pricing_rounds();
    s.simplex_iterations = solver.work_used();
    return s;
}

}  // namespace pimdse::sched
