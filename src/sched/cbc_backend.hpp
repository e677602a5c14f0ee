#pragma once
// The one adapter to COIN-OR (docs/architecture.md): a solver-neutral sparse model, an LP solve
// (Clp, with row duals, for column generation) and a MIP solve (CBC). Everything CBC-specific
// — silencing, warm start, cut generators, work and time limits, status codes — is in
// cbc_backend.cpp. Private to src/sched.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace pimdse::sched::detail {

/// min obj·x subject to row_lo <= A x <= row_hi, col_lo <= x <= col_hi, some x integer.
struct LinearModel {
    std::vector<double> col_lo, col_hi, obj;
    std::vector<char> integer;
    std::vector<double> row_lo, row_hi;
    std::vector<int> entry_row, entry_col;
    std::vector<double> entry_val;

    std::size_t add_col(double lo, double hi, double cost, bool is_integer);
    std::size_t add_row(double lo, double hi);
    void add(std::size_t row, std::size_t col, double value);
    [[nodiscard]] std::size_t cols() const noexcept { return obj.size(); }
    [[nodiscard]] std::size_t rows() const noexcept { return row_lo.size(); }
};

/// +infinity for bounds (COIN_DBL_MAX without the Coin header).
[[nodiscard]] double infinity() noexcept;

/// A deterministic work limit shared by every LP of one event: Clp's simplex iterations,
/// counted in Clp's own loop (those of the LPs inside CBC, strong branching included, too).
/// Once it is spent every LP stops at its next iteration, as at a time limit, but at the same
/// point on any machine: single-threaded Clp and CBC with fixed seeds follow the same path
/// for the same model and the same count.
struct WorkBudget {
    std::int64_t limit = std::numeric_limits<std::int64_t>::max();
    std::int64_t used = 0;
    [[nodiscard]] bool spent() const noexcept { return used >= limit; }
    [[nodiscard]] std::int64_t left() const noexcept { return spent() ? 0 : limit - used; }
};

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
    /// A feasible start (one value per column), handed to CBC as its first incumbent.
    const std::vector<double>* start = nullptr;
    /// Gomory and MIR cuts with at most 3 passes at the root, when the root LP was cheap
    /// enough for them to fit the work budget left; off: no cut generators at all.
    bool cuts = true;
    bool log = false;
};

struct MipOutcome {
    MipStatus status = MipStatus::failed;
    std::vector<double> x;  ///< empty unless a solution exists
    double objective = 0.0;
    double bound = 0.0;  ///< proven lower bound on the optimum (-infinity() when none)
    std::string reason;  ///< CBC's status codes when not optimal
};

[[nodiscard]] MipOutcome solve_mip(const LinearModel& model, const MipSettings& settings);

}  // namespace pimdse::sched::detail
