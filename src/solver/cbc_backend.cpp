// The only file that includes Coin headers (docs/architecture.md). Everything CBC- and
// Clp-specific — silencing, warm start, cut generators, the work budget, status codes — stays
// in this file (include/pimdse/solver/mip.hpp).
#include "pimdse/solver/mip.hpp"

#include <CbcModel.hpp>
#include <CglGomory.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <ClpEventHandler.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <string>

namespace pimdse::solver {

double infinity() noexcept {
    return COIN_DBL_MAX;
}

namespace {

// Clp's seed for its perturbations, written out (it is Clp's built-in default) so that the
// search cannot depend on anything but the model. CBC keeps its built-in seeds (randomSeed
// -1) and runs serial (numberThreads 0): with both, its path is a function of the model,
// the start and the work budget.
constexpr int kClpSeed = 1234567;

// Counts every simplex iteration of Clp against the event's WorkBudget and stops the LP once
// the budget is spent (Clp status 5, "stopped by event"). CBC clones its solver, and with it
// this handler; every clone counts into the same budget.
class BudgetHandler final : public ClpEventHandler {
public:
    explicit BudgetHandler(WorkBudget* budget) : budget_(budget) {}
    BudgetHandler(const BudgetHandler&) = default;
    BudgetHandler& operator=(const BudgetHandler&) = delete;
    ~BudgetHandler() override = default;

    int event(Event which) override {
        if (which != endOfIteration || budget_ == nullptr) return -1;
        ++budget_->used;
        return budget_->spent() ? 0 : -1;
    }
    [[nodiscard]] ClpEventHandler* clone() const override { return new BudgetHandler(*this); }

private:
    WorkBudget* budget_;
};

void load(OsiClpSolverInterface& lp, const LinearModel& m, bool log, WorkBudget* budget) {
    lp.messageHandler()->setLogLevel(log ? 1 : 0);
    const CoinPackedMatrix matrix(true, m.entry_row.data(), m.entry_col.data(), m.entry_val.data(),
                                  static_cast<CoinBigIndex>(m.entry_val.size()));
    // A matrix built from triplets has as many rows/columns as its largest index: pad it,
    // so that empty trailing rows and columns keep their bounds.
    CoinPackedMatrix padded(matrix);
    padded.setDimensions(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
    lp.loadProblem(padded, m.col_lo.data(), m.col_hi.data(), m.obj.data(), m.row_lo.data(), m.row_hi.data());
    lp.getModelPtr()->setRandomSeed(kClpSeed);
    const BudgetHandler handler(budget);
    lp.getModelPtr()->passInEventHandler(&handler);  // keeps a clone
}

// The ONE place CBC status codes become MipStatus. CBC status: -1 not started, 0 finished
// (optimal, or stopped on the allowable gap, or infeasible), 1 stopped on a limit
// (secondary 4 = seconds, 3 = nodes, 5 = user event, ...), 2 numerical difficulties.
// Anything else is unknown and reported as failed with the codes in the reason.
MipStatus map_cbc_status(int status, int secondary, bool infeasible, bool has_solution, double objective,
                         double bound, double relative_gap, std::string& reason) {
    std::string codes = "CBC status ";
    codes += std::to_string(status);
    codes += ", secondary ";
    codes += std::to_string(secondary);
    if (status == 0 && infeasible && !has_solution) {
        reason = codes + ": proven infeasible";
        return MipStatus::failed;
    }
    if (status == 0 && has_solution) {
        const double gap = objective > 0 ? (objective - bound) / objective : 0.0;
        if (gap <= 1e-9) return MipStatus::optimal;
        if (gap <= relative_gap + 1e-9) return MipStatus::gap_reached;
        // Finished with a larger gap: the cutoff increment closed the rest (no solution
        // better by a whole increment exists), which is optimality for integral objectives.
        return MipStatus::optimal;
    }
    if (status == 1 && has_solution) {
        if (secondary != 4) reason = codes + ": stopped on a limit other than time";
        return MipStatus::time_limit;
    }
    if (status == 1) {
        reason = codes + ": limit reached without a solution";
        return MipStatus::failed;
    }
    if (status == 2) {
        reason = codes + ": numerical difficulties";
        return MipStatus::failed;
    }
    reason = codes + ": unknown outcome";
    return MipStatus::failed;
}

}  // namespace

LpOutcome solve_lp(const LinearModel& model, double time_limit_seconds, WorkBudget& budget) {
    OsiClpSolverInterface lp;
    load(lp, model, false, &budget);
    lp.getModelPtr()->setMaximumWallSeconds(std::max(0.0, time_limit_seconds));
    lp.initialSolve();
    LpOutcome out;
    out.optimal = lp.isProvenOptimal();
    if (!out.optimal) return out;
    out.objective = lp.getObjValue();
    out.x.assign(lp.getColSolution(), lp.getColSolution() + model.cols());
    out.row_duals.assign(lp.getRowPrice(), lp.getRowPrice() + model.rows());
    return out;
}

namespace {

// CBC on the model whose root LP `lp` has solved: silenced, serial, the start as its first
// incumbent, cut generators only when the root LP was cheap next to the budget left.
MipOutcome branch_and_bound(OsiClpSolverInterface& lp, const LinearModel& model, const MipSettings& s,
                            double seconds_left, std::int64_t root_iterations) {
    CbcModel cbc(lp);
    const int level = s.log ? 1 : 0;
    // Silenced on the model, its message handler and the Clp solver it copied.
    cbc.setLogLevel(level);
    cbc.messageHandler()->setLogLevel(level);
    cbc.solver()->messageHandler()->setLogLevel(level);
    cbc.setNumberThreads(0);  // serial: a parallel tree search depends on timing
    cbc.setUseElapsedTime(true);
    cbc.setMaximumSeconds(std::max(0.01, seconds_left));
    cbc.setAllowableFractionGap(s.relative_gap);
    cbc.setAllowableGap(1e-6);
    cbc.setCutoffIncrement(s.cutoff_increment);
    if (s.cutoff < infinity()) cbc.setCutoff(s.cutoff);
    const bool has_start = s.start != nullptr && s.start->size() == model.cols();
    if (has_start) {
        double value = 0.0;
        for (std::size_t c = 0; c < model.cols(); ++c) value += model.obj[c] * (*s.start)[c];
        cbc.setBestSolution(s.start->data(), static_cast<int>(model.cols()), value);
    }
    // No CglProbing: with default settings it cut off the optimum on small instances with
    // constant (two-member) loads — found by the brute-force test.
    CglGomory gomory;
    CglMixedIntegerRounding2 mir;
    // A cut pass costs a few root LPs: only when twenty root LPs fit the budget left.
    const std::int64_t left =
        s.budget != nullptr ? s.budget->left() : std::numeric_limits<std::int64_t>::max();
    if (s.cuts && root_iterations < left / 20) {
        cbc.addCutGenerator(&gomory, -1, "Gomory");
        cbc.addCutGenerator(&mir, -1, "MIR2");
        cbc.setMaximumCutPassesAtRoot(3);
    } else {
        cbc.setMaximumCutPassesAtRoot(0);
    }
    if (!s.strong_branching) {  // no trial LPs per node: CBC's defaults are 5 and 10
        cbc.setNumberStrong(0);
        cbc.setNumberBeforeTrust(0);
    }
    cbc.initialSolve();  // from the optimal basis above: no iterations
    cbc.branchAndBound();

    MipOutcome out;
    const bool has_solution = cbc.bestSolution() != nullptr;
    out.objective = has_solution ? cbc.getObjValue() : 0.0;
    out.bound = cbc.getBestPossibleObjValue();
    out.status = map_cbc_status(cbc.status(), cbc.secondaryStatus(), cbc.isProvenInfeasible(), has_solution,
                                out.objective, out.bound, s.relative_gap, out.reason);
    if (has_solution) out.x.assign(cbc.bestSolution(), cbc.bestSolution() + model.cols());
    return out;
}

// Past a limit an LP may have been stopped by Clp mid-way, which CBC takes for an infeasible
// node: its proof and its tree bound are then not to be trusted. Only the root LP's bound is.
void distrust_after_limit(MipOutcome& out, MipStatus limit, double root_bound, const char* what) {
    if (out.status == MipStatus::optimal || out.status == MipStatus::gap_reached ||
        out.status == MipStatus::time_limit) {
        out.status = out.x.empty() ? MipStatus::failed : limit;
    }
    out.bound = root_bound;
    if (out.reason.empty() || limit == MipStatus::work_limit) out.reason = what;
}

}  // namespace

MipOutcome solve_mip(const LinearModel& model, const MipSettings& s) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    const double limit = std::max(0.01, s.time_limit_seconds);
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    const bool has_start = s.start != nullptr && s.start->size() == model.cols();

    OsiClpSolverInterface lp;
    load(lp, model, s.log, s.budget);
    for (std::size_t c = 0; c < model.cols(); ++c) {
        if (model.integer[c]) lp.setInteger(static_cast<int>(c));
    }
    // CBC checks its limits only between nodes; the root LP, root cut passes and strong
    // branching can each run far past them. So Clp itself stops when the budget is spent (an
    // event handler counting iterations, copied into CBC's solver) or at the wall-clock
    // deadline, and the root LP is solved here first: its bound is valid whatever happens
    // later, and its cost says whether cut passes are affordable.
    lp.getModelPtr()->setMaximumWallSeconds(limit);
    lp.initialSolve();
    const bool budget_spent = s.budget != nullptr && s.budget->spent();
    if (!lp.isProvenOptimal()) {
        MipOutcome out;
        if (lp.isProvenPrimalInfeasible() && !budget_spent) {
            out.reason = "the LP relaxation is infeasible";
            return out;
        }
        const MipStatus stop = budget_spent ? MipStatus::work_limit : MipStatus::time_limit;
        out.status = has_start ? stop : MipStatus::failed;
        out.reason =
            budget_spent ? "the work limit stopped the root LP" : "the time limit stopped the root LP";
        if (has_start) {
            out.x = *s.start;
            for (std::size_t c = 0; c < model.cols(); ++c) out.objective += model.obj[c] * (*s.start)[c];
        }
        out.bound = -infinity();
        return out;
    }
    const double root_bound = lp.getObjValue();
    if (root_bound > s.cutoff) {  // the relaxation alone proves it: no tree needed
        MipOutcome out;
        out.bound = root_bound;
        out.cut_off = true;
        out.reason = "the LP relaxation's bound is above the cutoff";
        return out;
    }
    MipOutcome out = branch_and_bound(lp, model, s, limit - elapsed(), lp.getIterationCount());
    if (s.budget != nullptr && s.budget->spent()) {
        distrust_after_limit(out, MipStatus::work_limit, root_bound, "work limit reached");
    } else if (elapsed() >= limit) {
        distrust_after_limit(out, MipStatus::time_limit, root_bound, "time limit reached");
    } else if (s.cutoff < infinity() && out.x.empty() &&
               out.reason.find("proven infeasible") != std::string::npos) {
        // Finished within the limits without a solution under the cutoff: none exists.
        out.cut_off = true;
    }
    return out;
}

}  // namespace pimdse::solver
