// The COIN-OR adapter (solver/mip.hpp) on small models whose answers are computed here by
// hand or by brute force: a knapsack's optimum (with and without strong branching, under a
// cutoff), an LP's duals, infeasible models, trailing empty rows and columns, and a solve
// stopped by the deterministic work budget.
#include "pimdse/solver/mip.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pimdse::solver {
namespace {

constexpr double kTol = 1e-6;

struct Knapsack {
    std::vector<std::int64_t> weight, value;
    std::int64_t capacity = 0;
};

// Strongly correlated items (value = weight + 10), whose LP bound is loose: branch and
// bound has work to do. Weights from a fixed linear congruential sequence.
Knapsack make_knapsack(std::size_t n) {
    Knapsack k;
    std::uint32_t state = 12345;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        state = state * 1103515245U + 12345U;
        const std::int64_t w = 10 + static_cast<std::int64_t>((state >> 16) % 90);
        k.weight.push_back(w);
        k.value.push_back(w + 10);
        total += w;
    }
    k.capacity = total / 2;
    return k;
}

// The best value over all 2^n subsets.
std::int64_t brute_force(const Knapsack& k) {
    const std::size_t n = k.weight.size();
    std::int64_t best = 0;
    for (std::uint32_t mask = 0; mask < (1U << n); ++mask) {
        std::int64_t w = 0, v = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if ((mask >> i) & 1U) {
                w += k.weight[i];
                v += k.value[i];
            }
        }
        if (w <= k.capacity && v > best) best = v;
    }
    return best;
}

// max value·x, weight·x <= capacity, x binary; as min -value·x.
LinearModel model_of(const Knapsack& k) {
    LinearModel m;
    const std::size_t row = m.add_row(-infinity(), static_cast<double>(k.capacity));
    for (std::size_t i = 0; i < k.weight.size(); ++i) {
        const std::size_t c = m.add_col(0.0, 1.0, -static_cast<double>(k.value[i]), true);
        m.add(row, c, static_cast<double>(k.weight[i]));
    }
    return m;
}

// The value of a binary solution; fails the test unless x is integral and fits.
std::int64_t checked_value(const Knapsack& k, const std::vector<double>& x) {
    EXPECT_EQ(x.size(), k.weight.size());
    std::int64_t w = 0, v = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_NEAR(x[i], std::round(x[i]), kTol) << "item " << i;
        if (std::round(x[i]) == 1.0) {
            w += k.weight[i];
            v += k.value[i];
        }
    }
    EXPECT_LE(w, k.capacity);
    return v;
}

MipSettings settings_with(WorkBudget& budget, const std::vector<double>* start) {
    MipSettings s;
    s.time_limit_seconds = 600.0;  // the work budget, not the clock, decides
    s.budget = &budget;
    s.cutoff_increment = 1.0 - kTol;  // integral objective
    s.start = start;
    return s;
}

TEST(SolveMip, KnapsackMatchesBruteForce) {
    const Knapsack k = make_knapsack(16);
    const std::int64_t best = brute_force(k);
    ASSERT_GT(best, 0);
    for (const bool cuts : {true, false}) {
        SCOPED_TRACE(cuts ? "with cuts" : "without cuts");
        WorkBudget budget;
        MipSettings s = settings_with(budget, nullptr);
        s.cuts = cuts;
        const MipOutcome out = solve_mip(model_of(k), s);
        ASSERT_EQ(out.status, MipStatus::optimal) << out.reason;
        EXPECT_EQ(checked_value(k, out.x), best);
        EXPECT_NEAR(out.objective, -static_cast<double>(best), kTol);
        // Proven: the bound is the optimum, up to the cutoff increment of an integral objective.
        EXPECT_LE(out.bound, out.objective + kTol);
        EXPECT_GT(out.bound, out.objective - 1.0);
        EXPECT_GT(budget.used, 0);
    }
}

TEST(SolveMip, WithoutStrongBranchingTheSameOptimum) {
    const Knapsack k = make_knapsack(16);
    WorkBudget budget;
    MipSettings s = settings_with(budget, nullptr);
    s.strong_branching = false;
    const MipOutcome out = solve_mip(model_of(k), s);
    ASSERT_EQ(out.status, MipStatus::optimal) << out.reason;
    EXPECT_EQ(checked_value(k, out.x), brute_force(k));
}

// A cutoff at the optimum keeps it; just below it, nothing is left and that is proven,
// whether the root LP or the tree proves it.
TEST(SolveMip, ACutoffKeepsOnlySolutionsAtMostIt) {
    const Knapsack k = make_knapsack(16);
    const auto best = static_cast<double>(brute_force(k));
    for (const double cutoff : {-best + 0.5, -best + 10.0}) {
        WorkBudget budget;
        MipSettings s = settings_with(budget, nullptr);
        s.cutoff = cutoff;
        const MipOutcome out = solve_mip(model_of(k), s);
        ASSERT_EQ(out.status, MipStatus::optimal) << out.reason;
        EXPECT_NEAR(out.objective, -best, kTol);
        EXPECT_FALSE(out.cut_off);
    }
    for (const double cutoff : {-best - 0.5, -1e9}) {
        WorkBudget budget;
        MipSettings s = settings_with(budget, nullptr);
        s.cutoff = cutoff;
        const MipOutcome out = solve_mip(model_of(k), s);
        EXPECT_EQ(out.status, MipStatus::failed);
        EXPECT_TRUE(out.x.empty());
        EXPECT_TRUE(out.cut_off) << out.reason;
    }
}

TEST(SolveMip, StartIsImprovedToTheOptimum) {
    const Knapsack k = make_knapsack(12);
    const std::vector<double> start(k.weight.size(), 0.0);  // the empty knapsack
    WorkBudget budget;
    const MipOutcome out = solve_mip(model_of(k), settings_with(budget, &start));
    ASSERT_EQ(out.status, MipStatus::optimal) << out.reason;
    EXPECT_EQ(checked_value(k, out.x), brute_force(k));
}

// An infeasible model: no solution, and a reason that says so.
void expect_infeasible(const LinearModel& m) {
    WorkBudget budget;
    const MipOutcome out = solve_mip(m, settings_with(budget, nullptr));
    EXPECT_EQ(out.status, MipStatus::failed);
    EXPECT_TRUE(out.x.empty());
    EXPECT_NE(out.reason.find("infeasible"), std::string::npos) << out.reason;
}

TEST(SolveMip, InfeasibleModelsFail) {
    {
        SCOPED_TRACE("x >= 2 with x <= 1: the LP relaxation is infeasible");
        LinearModel m;
        const std::size_t x = m.add_col(0.0, 1.0, 1.0, true);
        m.add(m.add_row(2.0, infinity()), x, 1.0);
        expect_infeasible(m);
    }
    {
        SCOPED_TRACE("2x = 1, x integer: the relaxation's x = 0.5 only, CBC proves infeasibility");
        LinearModel m;
        const std::size_t x = m.add_col(0.0, 1.0, 1.0, true);
        m.add(m.add_row(1.0, 1.0), x, 2.0);
        expect_infeasible(m);
    }
}

TEST(SolveMip, TrailingEmptyRowsAndColumnsKeepTheirBounds) {
    // min x + z, x >= 1 (a row), z in [2, 5] with no matrix entry: the optimum is 3.
    LinearModel m;
    const std::size_t x = m.add_col(0.0, 10.0, 1.0, true);
    m.add(m.add_row(1.0, infinity()), x, 1.0);
    m.add_col(2.0, 5.0, 1.0, false);
    WorkBudget budget;
    const MipOutcome out = solve_mip(m, settings_with(budget, nullptr));
    ASSERT_EQ(out.status, MipStatus::optimal) << out.reason;
    EXPECT_NEAR(out.objective, 3.0, kTol);
    ASSERT_EQ(out.x.size(), 2U);
    EXPECT_NEAR(out.x[1], 2.0, kTol);
    // A last row with no entries and bounds [1, inf] makes it infeasible (0 >= 1).
    m.add_row(1.0, infinity());
    WorkBudget again;
    EXPECT_EQ(solve_mip(m, settings_with(again, nullptr)).status, MipStatus::failed);
}

TEST(SolveMip, WorkBudgetStopsDeterministicallyWithTheStartAtWorst) {
    const Knapsack k = make_knapsack(30);
    const LinearModel m = model_of(k);
    const std::vector<double> start(k.weight.size(), 0.0);
    WorkBudget unlimited;
    const MipOutcome full = solve_mip(m, settings_with(unlimited, &start));
    ASSERT_EQ(full.status, MipStatus::optimal) << full.reason;
    ASSERT_GE(unlimited.used, 4) << "the model must need a few iterations for this test";

    std::vector<MipOutcome> stopped;
    std::vector<std::int64_t> used;
    for (int run = 0; run < 2; ++run) {
        WorkBudget budget{.limit = unlimited.used / 2};
        stopped.push_back(solve_mip(m, settings_with(budget, &start)));
        used.push_back(budget.used);
        EXPECT_TRUE(budget.spent());
    }
    const MipOutcome& a = stopped[0];
    ASSERT_EQ(a.status, MipStatus::work_limit) << a.reason;
    EXPECT_FALSE(a.reason.empty());
    // At worst the start (value 0), never better than the optimum; the bound stays valid.
    const std::int64_t value = checked_value(k, a.x);
    EXPECT_GE(value, 0);
    EXPECT_LE(value, checked_value(k, full.x));
    EXPECT_NEAR(a.objective, -static_cast<double>(value), kTol);
    EXPECT_LE(a.bound, full.objective + kTol);
    // The same stop twice: the budget counts iterations, not time.
    EXPECT_EQ(stopped[1].status, a.status);
    EXPECT_EQ(stopped[1].x, a.x);
    EXPECT_EQ(stopped[1].objective, a.objective);
    EXPECT_EQ(stopped[1].bound, a.bound);
    EXPECT_EQ(used[1], used[0]);
}

TEST(SolveMip, SpentBudgetStopsTheRootLp) {
    const Knapsack k = make_knapsack(30);
    const LinearModel m = model_of(k);
    std::vector<double> start(k.weight.size(), 0.0);
    start[0] = 1.0;  // one item: feasible, not optimal
    // A budget spent by earlier solves stops the root LP at its first iteration: the start
    // is the answer, with no bound proven; without a start there is no answer.
    WorkBudget spent{.limit = 1, .used = 1};
    const MipOutcome with_start = solve_mip(m, settings_with(spent, &start));
    ASSERT_EQ(with_start.status, MipStatus::work_limit) << with_start.reason;
    EXPECT_EQ(with_start.x, start);
    EXPECT_NEAR(with_start.objective, -static_cast<double>(k.value[0]), kTol);
    EXPECT_EQ(with_start.bound, -infinity());
    WorkBudget spent_again{.limit = 1, .used = 1};
    const MipOutcome without = solve_mip(m, settings_with(spent_again, nullptr));
    EXPECT_EQ(without.status, MipStatus::failed);
    EXPECT_TRUE(without.x.empty());
}

TEST(SolveLp, OptimumAndRowDuals) {
    // min -3x - 2y, x + y <= 4, x in [0, 3], y in [0, 10]: x = 3, y = 1, objective -11; y is
    // basic, so its reduced cost -2 - dual is 0 and the row's dual is -2.
    LinearModel m;
    const std::size_t row = m.add_row(-infinity(), 4.0);
    const std::size_t x = m.add_col(0.0, 3.0, -3.0, false);
    const std::size_t y = m.add_col(0.0, 10.0, -2.0, false);
    m.add(row, x, 1.0);
    m.add(row, y, 1.0);
    WorkBudget budget;
    const LpOutcome lp = solve_lp(m, 600.0, budget);
    ASSERT_TRUE(lp.optimal);
    EXPECT_NEAR(lp.objective, -11.0, kTol);
    ASSERT_EQ(lp.x.size(), 2U);
    EXPECT_NEAR(lp.x[x], 3.0, kTol);
    EXPECT_NEAR(lp.x[y], 1.0, kTol);
    ASSERT_EQ(lp.row_duals.size(), 1U);
    EXPECT_NEAR(lp.row_duals[row], -2.0, kTol);
}

TEST(SolveLp, IntegralityIgnoredAndBudgetShared) {
    const Knapsack k = make_knapsack(16);
    const LinearModel m = model_of(k);
    WorkBudget budget;
    const LpOutcome first = solve_lp(m, 600.0, budget);
    ASSERT_TRUE(first.optimal);
    const std::int64_t once = budget.used;
    ASSERT_GT(once, 0);
    // The relaxation is at least as good as the integer optimum.
    EXPECT_LE(first.objective, -static_cast<double>(brute_force(k)) + kTol);
    // A second solve counts into the same budget, the same number of iterations again.
    const LpOutcome second = solve_lp(m, 600.0, budget);
    EXPECT_EQ(budget.used, 2 * once);
    EXPECT_EQ(second.objective, first.objective);
    // A budget spent beforehand stops the LP.
    WorkBudget spent{.limit = 1, .used = 1};
    EXPECT_FALSE(solve_lp(m, 600.0, spent).optimal);
}

}  // namespace
}  // namespace pimdse::solver
