// The only file that includes Coin headers (STYLE.md habit 4). Everything CBC-specific —
// model building, silencing, warm start, status codes — stays in this file.
#include "pimdse/sched/ilp_scheduler.hpp"

#include <CbcModel.hpp>
#include <CglGomory.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "pimdse/sched/tsp_scheduler.hpp"
#include "pimdse/sched/validate.hpp"

namespace pimdse::sched {

void validate(const IlpOptions& options) {
    if (!(options.time_limit_seconds > 0.0))
        throw std::invalid_argument("IlpOptions: time_limit_seconds must be > 0");
    if (!(options.relative_gap >= 0.0)) throw std::invalid_argument("IlpOptions: relative_gap must be >= 0");
    if (options.flit_bits < 1) throw std::invalid_argument("IlpOptions: flit_bits must be >= 1");
}

const char* to_string(IlpStatus status) noexcept {
    switch (status) {
        case IlpStatus::optimal:
            return "optimal";
        case IlpStatus::gap_reached:
            return "gap_reached";
        case IlpStatus::time_limit_incumbent:
            return "time_limit_incumbent";
        case IlpStatus::failed:
            return "failed";
    }
    return "unknown";
}

namespace {

// What CBC said, read once after branchAndBound.
struct CbcOutcome {
    int status = 0;     // CbcModel::status()
    int secondary = 0;  // CbcModel::secondaryStatus()
    bool proven_optimal = false;
    bool proven_infeasible = false;
    bool has_solution = false;
    double objective = 0.0;
    double bound = 0.0;
};

// The ONE place CBC status codes become IlpStatus. CBC status: -1 not started, 0 finished
// (optimal, or stopped on the allowable gap, or infeasible), 1 stopped on a limit
// (secondary 4 = seconds, 3 = nodes, 5 = user event, ...), 2 numerical difficulties.
// Anything else is unknown and reported as failed with the codes in the reason.
IlpStatus map_cbc_status(const CbcOutcome& o, double relative_gap, std::string& reason) {
    std::string codes = "CBC status ";
    codes += std::to_string(o.status);
    codes += ", secondary ";
    codes += std::to_string(o.secondary);
    if (o.status == 0 && o.proven_infeasible) {
        // Cannot happen for a valid model (the warm start is feasible): a model bug.
        reason = codes + ": proven infeasible";
        return IlpStatus::failed;
    }
    if (o.status == 0 && o.has_solution) {
        const double gap = o.objective > 0 ? (o.objective - o.bound) / o.objective : 0.0;
        if (gap <= 1e-9) return IlpStatus::optimal;
        if (gap <= relative_gap + 1e-9) return IlpStatus::gap_reached;
        // Finished with a gap larger than asked for: CBC's cutoff increment closed the rest.
        return IlpStatus::optimal;
    }
    if (o.status == 1 && o.has_solution) {
        if (o.secondary == 4) return IlpStatus::time_limit_incumbent;
        reason = codes + ": stopped on a limit other than time";
        return IlpStatus::time_limit_incumbent;
    }
    if (o.status == 1) {
        reason = codes + ": limit reached without a solution";
        return IlpStatus::failed;
    }
    if (o.status == 2) {
        reason = codes + ": numerical difficulties";
        return IlpStatus::failed;
    }
    reason = codes + ": unknown outcome";
    return IlpStatus::failed;
}

// One sharing set as the model sees it: sorted members, flits per step.
struct ModelSet {
    std::vector<sim::NodeId> members;  // sorted; members[0] starts the cycle
    std::int64_t flits = 0;
    std::size_t input_index = 0;
    std::size_t first_x = 0;  // column of x[0][1]; x[a][b] at first_x + a*(n-1) + (b<a ? b : b-1)
    std::size_t first_u = 0;  // column of u[1]; u[k] at first_u + k - 1
};

std::size_t x_col(const ModelSet& s, std::size_t a, std::size_t b) {
    const std::size_t n = s.members.size();
    return s.first_x + a * (n - 1) + (b < a ? b : b - 1);
}

// Successor positions of a cycle given as node ids, in member-index terms.
std::vector<std::size_t> successors(const ModelSet& s, std::span<const sim::NodeId> order) {
    const std::size_t n = s.members.size();
    auto idx = [&](sim::NodeId v) {
        return static_cast<std::size_t>(std::lower_bound(s.members.begin(), s.members.end(), v) -
                                        s.members.begin());
    };
    std::vector<std::size_t> succ(n);
    for (std::size_t i = 0; i < n; ++i) succ[idx(order[i])] = idx(order[(i + 1) % n]);
    return succ;
}

std::vector<sim::NodeId> cycle_from_successors(const ModelSet& s, std::span<const std::size_t> succ) {
    std::vector<sim::NodeId> order;
    std::size_t cur = 0;
    for (std::size_t k = 0; k < s.members.size(); ++k) {
        order.push_back(s.members[cur]);
        cur = succ[cur];
    }
    return order;
}

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
                                          std::int32_t flit_bits) {
    auto snake = sim::SnakeRingScheduler{}.schedule(mesh, sets);
    auto tsp = TspCycleScheduler{}.schedule(mesh, sets);
    std::vector<std::vector<std::vector<sim::NodeId>>> options(sets.size());
    for (std::size_t s = 0; s < sets.size(); ++s) {
        for (auto* src : {&snake, &tsp}) {
            auto order = (*src)[s].order;
            options[s].push_back(order);
            std::reverse(order.begin(), order.end());
            options[s].push_back(std::move(order));
        }
    }
    auto cur = snake;
    if (load_score(mesh, tsp, flit_bits) < load_score(mesh, cur, flit_bits)) cur = tsp;
    auto best = load_score(mesh, cur, flit_bits);
    for (int pass = 0; pass < 8; ++pass) {
        bool improved = false;
        for (std::size_t s = 0; s < sets.size(); ++s) {
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

}  // namespace

IlpCycleScheduler::IlpCycleScheduler(IlpOptions options) : options_(options) {
    validate(options_);
}

std::vector<sim::SharingCycle> IlpCycleScheduler::schedule(const sim::Mesh& mesh,
                                                           std::span<const sim::SharingSet> sets) {
    return solve(mesh, sets).cycles;
}

IlpResult IlpCycleScheduler::solve(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::int32_t flit_bits = options_.flit_bits;

    // Cache key: mesh shape, then per set flits, size and sorted members (member order
    // carries no meaning, so permuted inputs hit the same entry).
    std::vector<std::int64_t> key{mesh.rows(), mesh.cols()};
    std::vector<ModelSet> model_sets;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        ModelSet ms;
        ms.members = sets[i].members;
        std::sort(ms.members.begin(), ms.members.end());
        if (std::adjacent_find(ms.members.begin(), ms.members.end()) != ms.members.end()) {
            std::string msg = "IlpCycleScheduler: set ";
            msg += std::to_string(i);
            msg += " has a repeated member";
            throw std::invalid_argument(msg);
        }
        for (const sim::NodeId m : ms.members) {
            if (!mesh.contains(m)) {
                std::string msg = "IlpCycleScheduler: set ";
                msg += std::to_string(i);
                msg += " has node ";
                msg += std::to_string(m);
                msg += " outside the mesh";
                throw std::out_of_range(msg);
            }
        }
        ms.flits = sim::flits_of(sets[i].bytes_per_node, flit_bits);
        ms.input_index = i;
        key.push_back(ms.flits);
        key.push_back(static_cast<std::int64_t>(ms.members.size()));
        key.insert(key.end(), ms.members.begin(), ms.members.end());
        model_sets.push_back(std::move(ms));
    }
    if (auto it = cache_.find(key); it != cache_.end()) {
        IlpResult hit = it->second;
        for (std::size_t i = 0; i < sets.size(); ++i) hit.cycles[i].bytes_per_node = sets[i].bytes_per_node;
        hit.from_cache = true;
        hit.solve_seconds = 0.0;
        return hit;
    }

    // Warm start: the best of the baselines and their reversals (all feasible).
    const auto warm = warm_start(mesh, sets, flit_bits);
    IlpResult result;
    result.cycles = warm;
    result.warm_start_flits = step_max_link_flits(mesh, warm, flit_bits);
    result.max_link_flits = result.warm_start_flits;
    result.best_bound_flits = static_cast<double>(result.max_link_flits);

    // Sets with < 3 members have a single cycle: constant loads. Others are variables.
    const std::size_t links = static_cast<std::size_t>(mesh.link_count());
    std::vector<double> const_load(links, 0.0);
    std::vector<ModelSet> vars;
    // gcd of the moving sets' flits: keeps coefficients small and every load a whole number
    // of units, so the objective is integral (used by the cutoff increment and the bound).
    std::int64_t unit = 0;
    for (auto& ms : model_sets) {
        if (ms.members.size() >= 2 && ms.flits > 0) unit = std::gcd(unit, ms.flits);
    }
    for (auto& ms : model_sets) {
        if (ms.members.size() >= 3 && ms.flits > 0) {
            vars.push_back(ms);
        } else if (ms.members.size() == 2) {
            for (int k = 0; k < 2; ++k) {
                mesh.for_each_route_link(ms.members[static_cast<std::size_t>(k)],
                                         ms.members[static_cast<std::size_t>(1 - k)], [&](sim::ChannelId l) {
                                             const_load[static_cast<std::size_t>(l)] +=
                                                 static_cast<double>(ms.flits);
                                         });
            }
        }
    }
    if (vars.empty()) {
        result.status = IlpStatus::optimal;
        result.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        cache_.emplace(std::move(key), result);
        return result;
    }
    const double scale = static_cast<double>(unit);  // model loads are in units of `unit` flits

    // Columns: x per set (ordered pairs a != b), u per set (members 1..n-1), then z.
    std::size_t ncols = 0;
    for (auto& ms : vars) {
        const std::size_t n = ms.members.size();
        ms.first_x = ncols;
        ncols += n * (n - 1);
        ms.first_u = ncols;
        ncols += n - 1;
    }
    const std::size_t z_col = ncols++;

    std::vector<int> rows_i, cols_i;
    std::vector<double> vals;
    std::vector<double> row_lo, row_hi;
    const double inf = COIN_DBL_MAX;
    auto add = [&](std::size_t r, std::size_t c, double v) {
        rows_i.push_back(static_cast<int>(r));
        cols_i.push_back(static_cast<int>(c));
        vals.push_back(v);
    };
    auto new_row = [&](double lo, double hi) {
        row_lo.push_back(lo);
        row_hi.push_back(hi);
        return row_lo.size() - 1;
    };

    std::vector<std::vector<std::pair<std::size_t, double>>> link_terms(links);
    for (const auto& ms : vars) {
        const std::size_t n = ms.members.size();
        const double w = static_cast<double>(ms.flits) / scale;
        // NicePIM Eq. 2: out-degree and in-degree 1.
        for (std::size_t a = 0; a < n; ++a) {
            const std::size_t r_out = new_row(1.0, 1.0);
            const std::size_t r_in = new_row(1.0, 1.0);
            for (std::size_t b = 0; b < n; ++b) {
                if (a == b) continue;
                add(r_out, x_col(ms, a, b), 1.0);
                add(r_in, x_col(ms, b, a), 1.0);
            }
        }
        // NicePIM Eq. 3 (MTZ): u_a - u_b + (n-1) x_ab <= n-2 for a, b in 1..n-1. Member 0 is
        // the cycle's fixed start (no u), which also removes the n rotations of each cycle.
        for (std::size_t a = 1; a < n; ++a) {
            for (std::size_t b = 1; b < n; ++b) {
                if (a == b) continue;
                const std::size_t r = new_row(-inf, static_cast<double>(n) - 2.0);
                add(r, ms.first_u + a - 1, 1.0);
                add(r, ms.first_u + b - 1, -1.0);
                add(r, x_col(ms, a, b), static_cast<double>(n) - 1.0);
            }
        }
        // Cut constraints (valid subtour eliminations that tighten MTZ's weak LP): a cycle
        // through members on both sides of a row or column cut crosses it at least once
        // in each direction.
        for (int axis = 0; axis < 2; ++axis) {
            const std::int32_t extent = axis == 0 ? mesh.cols() : mesh.rows();
            for (std::int32_t cut = 0; cut + 1 < extent; ++cut) {
                auto side = [&](std::size_t k) {
                    const auto c = mesh.coord(ms.members[k]);
                    return (axis == 0 ? c.col : c.row) <= cut;
                };
                std::size_t left = 0;
                for (std::size_t k = 0; k < n; ++k) left += side(k) ? 1 : 0;
                if (left == 0 || left == n) continue;
                const std::size_t r = new_row(1.0, inf);
                for (std::size_t a = 0; a < n; ++a) {
                    for (std::size_t b = 0; b < n; ++b) {
                        if (a != b && side(a) && !side(b)) add(r, x_col(ms, a, b), 1.0);
                    }
                }
            }
        }
        for (std::size_t a = 0; a < n; ++a) {
            for (std::size_t b = 0; b < n; ++b) {
                if (a == b) continue;
                const std::size_t c = x_col(ms, a, b);
                mesh.for_each_route_link(ms.members[a], ms.members[b], [&](sim::ChannelId l) {
                    link_terms[static_cast<std::size_t>(l)].emplace_back(c, w);
                });
            }
        }
    }
    // NicePIM Eq. 4 linearised: z >= load(l) for every link some pair can use.
    double z_lo = 0.0;
    for (std::size_t l = 0; l < links; ++l) {
        const double c0 = const_load[l] / scale;
        z_lo = std::max(z_lo, c0);
        if (link_terms[l].empty()) continue;
        const std::size_t r = new_row(c0, inf);
        add(r, z_col, 1.0);
        for (const auto& [c, w] : link_terms[l]) add(r, c, -w);
    }

    std::vector<double> col_lo(ncols, 0.0), col_hi(ncols, 1.0), obj(ncols, 0.0);
    for (const auto& ms : vars) {
        for (std::size_t k = 1; k < ms.members.size(); ++k) {
            col_lo[ms.first_u + k - 1] = 1.0;
            col_hi[ms.first_u + k - 1] = static_cast<double>(ms.members.size()) - 1.0;
        }
    }
    col_lo[z_col] = z_lo;
    col_hi[z_col] = inf;
    obj[z_col] = 1.0;

    const CoinPackedMatrix matrix(true, rows_i.data(), cols_i.data(), vals.data(),
                                  static_cast<CoinBigIndex>(vals.size()));
    OsiClpSolverInterface lp;
    lp.messageHandler()->setLogLevel(options_.log ? 1 : 0);
    lp.loadProblem(matrix, col_lo.data(), col_hi.data(), obj.data(), row_lo.data(), row_hi.data());
    for (const auto& ms : vars) {
        for (std::size_t c = ms.first_x; c < ms.first_u; ++c) lp.setInteger(static_cast<int>(c));
    }

    // Warm start as a full column vector: x from successors, u from the position on the cycle.
    std::vector<double> start(ncols, 0.0);
    for (const auto& ms : vars) {
        const auto& order = warm[ms.input_index].order;
        const auto succ = successors(ms, order);
        std::size_t cur = 0;
        for (std::size_t pos = 0; pos < ms.members.size(); ++pos) {
            const std::size_t nxt = succ[cur];
            start[x_col(ms, cur, nxt)] = 1.0;
            if (cur != 0) start[ms.first_u + cur - 1] = static_cast<double>(pos);
            cur = nxt;
        }
    }
    start[z_col] = static_cast<double>(result.warm_start_flits) / scale;

    CbcModel model(lp);
    model.setLogLevel(options_.log ? 1 : 0);
    model.messageHandler()->setLogLevel(options_.log ? 1 : 0);
    model.solver()->messageHandler()->setLogLevel(options_.log ? 1 : 0);
    // The limit covers the whole solve: model building and the warm start count against it.
    const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    model.setUseElapsedTime(true);
    model.setMaximumSeconds(std::max(0.01, options_.time_limit_seconds - used));
    model.setAllowableFractionGap(options_.relative_gap);
    model.setAllowableGap(1e-6);
    // The objective is integral in `unit`s: a solution must beat the incumbent by a whole unit.
    model.setCutoffIncrement(1.0 - 1e-6);
    model.setBestSolution(start.data(), static_cast<int>(ncols), start[z_col]);
    // No CglProbing: with default settings it cut off the optimum on small instances with
    // constant (two-member) loads — found by the brute-force test.
    CglGomory gomory;
    CglMixedIntegerRounding2 mir;
    model.addCutGenerator(&gomory, -1, "Gomory");
    model.addCutGenerator(&mir, -1, "MIR2");
    // Root cut passes do not check the time limit: keep them few so the limit holds.
    model.setMaximumCutPassesAtRoot(3);
    model.initialSolve();
    model.branchAndBound();

    CbcOutcome out;
    out.status = model.status();
    out.secondary = model.secondaryStatus();
    out.proven_optimal = model.isProvenOptimal();
    out.proven_infeasible = model.isProvenInfeasible();
    out.has_solution = model.bestSolution() != nullptr;
    out.objective = out.has_solution ? model.getObjValue() : 0.0;
    out.bound = model.getBestPossibleObjValue();
    result.status = map_cbc_status(out, options_.relative_gap, result.reason);

    if (out.has_solution && result.status != IlpStatus::failed) {
        const double* x = model.bestSolution();
        std::vector<sim::SharingCycle> cycles = warm;
        for (const auto& ms : vars) {
            const std::size_t n = ms.members.size();
            std::vector<std::size_t> succ(n, n);
            for (std::size_t a = 0; a < n; ++a) {
                for (std::size_t b = 0; b < n; ++b) {
                    if (a != b && x[x_col(ms, a, b)] > 0.5) succ[a] = b;
                }
            }
            if (std::find(succ.begin(), succ.end(), n) == succ.end()) {
                cycles[ms.input_index].order = cycle_from_successors(ms, succ);
            }
        }
        // Keep CBC's answer only if it is a valid set of cycles at least as good as the start.
        const std::int64_t flits = step_max_link_flits(mesh, cycles, flit_bits);
        if (!validate_cycles(sets, cycles) && flits <= result.max_link_flits) {
            result.cycles = std::move(cycles);
            result.max_link_flits = flits;
        } else if (validate_cycles(sets, cycles)) {
            result.reason = "CBC solution is not a set of Hamilton cycles; warm start kept";
            result.status = IlpStatus::failed;
        }
    }
    const double bound_flits = std::ceil(out.bound - 1e-6) * scale;
    result.best_bound_flits = result.status == IlpStatus::failed
                                  ? 0.0
                                  : std::min(bound_flits, static_cast<double>(result.max_link_flits));
    if (result.status == IlpStatus::optimal)
        result.best_bound_flits = static_cast<double>(result.max_link_flits);
    result.gap = result.max_link_flits > 0
                     ? (static_cast<double>(result.max_link_flits) - result.best_bound_flits) /
                           static_cast<double>(result.max_link_flits)
                     : 0.0;
    result.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cache_.emplace(std::move(key), result);
    return result;
}

}  // namespace pimdse::sched
