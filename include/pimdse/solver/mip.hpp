#pragma once
// The solver module: the one adapter to COIN-OR (docs/architecture.md). It owns a
// solver-neutral linear model (solver/linear_model.hpp), its solve as an LP (Clp's dual
// simplex, with row duals, for column generation) and as a MIP (CBC: a feasible start as the
// first incumbent, optional cut generators), both under a deterministic work budget
// (solver/work_budget.hpp) with a wall-clock limit as a safety net, and the status of a MIP
// solve (MipStatus), CBC's status codes mapped in one place. Everything CBC- and
// Clp-specific (silencing, seeds, warm start, cuts, limits, status codes) is in
// src/solver/cbc_backend.cpp, the only code that includes Coin headers. It depends on core
// only; what the models mean is the caller's (sched's Hamilton-cycle ILP).

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "pimdse/solver/linear_model.hpp"
#include "pimdse/solver/work_budget.hpp"

namespace pimdse::solver {

struct LpOutcome {
    bool optimal = false;
    double objective = 0.0;
    std::vector<double> x;
    std::vector<double> row_duals;  ///< Clp row prices: reduced cost = obj - A^T duals
};

/// Solves the LP relaxation (integrality ignored) with Clp's dual simplex; not optimal when
/// the work budget or the wall-clock limit stops it.
[[nodiscard]] LpOutcome solve_lp(const LinearModel& model, double time_limit_seconds, WorkBudget& budget);

enum class MipStatus : unsigned char {
    optimal,      ///< proven optimal (or no better solution exists than the start)
    gap_reached,  ///< stopped with (objective - bound) / objective <= relative_gap
    time_limit,   ///< the time limit stopped it; `x` holds the best solution (at worst the start)
    work_limit,   ///< the work budget stopped it; `x` holds the best solution (at worst the start)
    failed,       ///< no solution, numerical trouble or an unknown outcome; see `reason`
};

struct MipSettings {
    /// The wall-clock safety net; `budget` is the deterministic limit.
    double time_limit_seconds = 1.0;
    WorkBudget* budget = nullptr;
    double relative_gap = 0.0;
    /// A new solution must beat the incumbent by this much (1 - eps for integral objectives).
    double cutoff_increment = 1e-6;
    /// Only solutions with an objective at most this are wanted: branches whose bound exceeds
    /// it are pruned, and a model with none is reported proven infeasible (`cut_off`).
    double cutoff = std::numeric_limits<double>::infinity();
    /// A feasible start (one value per column), handed to CBC as its first incumbent.
    const std::vector<double>* start = nullptr;
    /// Gomory and MIR cuts with at most 3 passes at the root, when the root LP was cheap
    /// enough for them to fit the work budget left; off: no cut generators at all.
    bool cuts = true;
    /// Strong branching (CBC's trial LPs on candidate variables at each node); off, CBC
    /// branches on pseudo-costs alone: for small models, whose trees cost less than the trials.
    bool strong_branching = true;
    bool log = false;
};

struct MipOutcome {
    MipStatus status = MipStatus::failed;
    std::vector<double> x;  ///< empty unless a solution exists
    double objective = 0.0;
    double bound = 0.0;  ///< proven lower bound on the optimum (-infinity() when none)
    std::string reason;  ///< CBC's status codes when not optimal
    /// Proven: no solution with an objective at most MipSettings::cutoff (status failed).
    bool cut_off = false;
};

[[nodiscard]] MipOutcome solve_mip(const LinearModel& model, const MipSettings& settings);

}  // namespace pimdse::solver
