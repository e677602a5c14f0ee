#pragma once
// The phases of NicePIM Eq. 2-4 after the warm start (docs/model.md, "Solution strategy"),
// private to src/sched. One Solver per event, in three files by concern:
//   ilp_model.cpp     builds the models: components, columns, the restricted master, the
//                     compact Eq. 2-4 model with its start;
//   ilp_solve.cpp     runs the phases on each component and drives the MIP and LP solves
//                     (solver/mip.hpp) under the work limit (and the wall-clock safety
//                     net), keeping bound and status;
//   ilp_solution.cpp  reads solutions back into tours and keeps them only if they lower the
//                     component's heaviest link.
// All loads are in units (the gcd of the moving sets' flits), so objectives are integral.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hamilton.hpp"
#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/solver/mip.hpp"

namespace pimdse::sched::detail {

// The models and their solves are the solver module's (solver/mip.hpp); the phases below
// decide what the models mean.
using solver::infinity;
using solver::LinearModel;
using solver::LpOutcome;
using solver::MipOutcome;
using solver::MipSettings;
using solver::MipStatus;
using solver::WorkBudget;

using Clock = std::chrono::steady_clock;

inline constexpr std::size_t kMaxPricingRounds = 200;  // column-generation rounds per component
inline constexpr double kEps = 1e-6;

// A set whose cycle is a decision (>= 3 members, > 0 flits).
struct VarSet {
    std::size_t input = 0;
    std::vector<sim::NodeId> members;  // sorted: member 0 starts every tour
    std::int64_t w = 0;                // load of one chunk, in units
};

// One cycle of one set: the master's column.
struct Column {
    std::size_t set = 0;  // index into Solver::sets_
    Tour tour;
    std::vector<std::pair<std::int32_t, std::int32_t>> uses;  // (link, times), sorted by link
};

struct Component {
    std::vector<std::size_t> sets;    // indices into Solver::sets_
    std::vector<std::int32_t> links;  // every link a route of its sets can use, sorted
    std::int64_t incumbent = 0;       // heaviest of its links under the current tours, units
};

// The restricted master: one column per set from its pool, z >= every link's load.
struct Master {
    LinearModel model;
    std::vector<std::size_t> cols;        // model column -> index into Solver::columns_
    std::vector<std::size_t> link_row;    // per component link (same order as k.links)
    std::vector<std::size_t> convex_row;  // per component set (same order as k.sets)
    std::size_t z = 0;
};

// The compact Eq. 2-4 model of one component: x per ordered member pair, u per member but
// the first (MTZ), z; with the current tours as its start.
struct CompactModel {
    LinearModel model;
    std::vector<std::size_t> first_x;  // per component set
    std::vector<std::size_t> first_u;  // per component set
    std::vector<std::size_t> size;     // members per component set
    std::size_t z = 0;
    std::vector<double> start;

    // The column of x_ab of component set i.
    [[nodiscard]] std::size_t x_col(std::size_t i, std::size_t a, std::size_t b) const {
        return first_x[i] + a * (size[i] - 1) + (b < a ? b : b - 1);
    }
};

// The tour of `order` (node ids) as member indices of `s`, starting at member 0.
[[nodiscard]] Tour tour_of(const VarSet& s, std::span<const sim::NodeId> order);
[[nodiscard]] std::vector<sim::NodeId> order_of(const VarSet& s, const Tour& t);
[[nodiscard]] Tour reversed(const Tour& t);
[[nodiscard]] std::int64_t ceil_units(double value);

class Solver {
public:
    Solver(const sim::Mesh& mesh, const IlpOptions& options, Clock::time_point deadline,
           std::vector<VarSet> sets, std::vector<std::int64_t> const_load, std::int64_t bound);

    // Groups sets that can share a link (union-find over the links of all member pairs).
    void split_components();
    void set_tours(std::vector<Tour> tours) { tours_ = std::move(tours); }
    void add_pool(std::size_t s, const Tour& t) { add_column(s, t); }
    // Runs the phases on every component whose incumbent is above the bound.
    void run();

    [[nodiscard]] const std::vector<Tour>& tours() const noexcept { return tours_; }
    [[nodiscard]] std::int64_t bound() const noexcept { return bound_; }
    [[nodiscard]] IlpPhase phase() const noexcept { return phase_; }
    [[nodiscard]] ScheduleStatus status() const noexcept { return status_; }
    [[nodiscard]] const std::string& reason() const noexcept { return reason_; }
    [[nodiscard]] std::size_t component_count() const noexcept { return components_.size(); }
    [[nodiscard]] std::size_t column_count() const noexcept { return columns_.size(); }
    [[nodiscard]] std::size_t pricing_rounds() const noexcept { return pricing_rounds_; }
    [[nodiscard]] std::int64_t work_used() const noexcept { return budget_.used; }

private:
    // ---- solving (ilp_solve.cpp) ----
    [[nodiscard]] double remaining() const;
    // The work limit is the one that decides; the wall-clock deadline is a safety net.
    [[nodiscard]] bool can_work() const { return remaining() > 0 && !budget_.spent(); }
    [[nodiscard]] bool done(const Component& k) const;
    [[nodiscard]] std::vector<std::int64_t> loads_of_current() const;
    void refresh_incumbents();
    void solve_component(Component& k);
    void solve_master(Component& k);
    void generate_columns(Component& k);
    // Prices component set i under link duals pi (mu: its convexity row's dual): adds its
    // share to the Lagrangian bound, and its cheapest cycle as a column when the reduced cost
    // is negative (setting `added`).
    void price_set(const Component& k, std::size_t i, const std::vector<double>& pi, double mu,
                   double& lagrange, bool& added);
    void solve_compact(Component& k);
    [[nodiscard]] MipSettings mip_settings(const std::vector<double>& start, bool cuts);
    // Folds a MIP's status into the event's (failed, time limit, work limit).
    void note_mip_status(const MipOutcome& out);

    // ---- model building (ilp_model.cpp) ----
    [[nodiscard]] std::vector<std::pair<std::int32_t, std::int32_t>> uses_of(std::size_t s,
                                                                             const Tour& t) const;
    // Adds the column unless the set already has it; returns its index.
    std::size_t add_column(std::size_t s, const Tour& t);
    [[nodiscard]] Master build_master(const Component& k, double z_lo, bool integer) const;
    [[nodiscard]] std::int64_t compact_binaries(const Component& k) const;
    [[nodiscard]] CompactModel build_compact(const Component& k) const;
    void add_tour_rows(CompactModel& c, std::size_t i, const VarSet& vs) const;
    void add_cut_rows(CompactModel& c, std::size_t i, const VarSet& vs) const;
    void add_link_rows(CompactModel& c, const Component& k) const;
    void set_compact_start(CompactModel& c, const Component& k) const;

    // ---- reading solutions (ilp_solution.cpp) ----
    void adopt_master_solution(Component& k, const Master& m, const std::vector<double>& x);
    // The tours of a compact solution; false (status failed) unless one Hamilton cycle per set.
    bool read_compact_tours(const Component& k, const CompactModel& c, const std::vector<double>& x,
                            std::vector<Tour>& next);
    void accept_if_better(Component& k, std::vector<Tour> next);

    const sim::Mesh& mesh_;
    const IlpOptions& options_;
    Clock::time_point deadline_;
    std::vector<VarSet> sets_;
    std::vector<std::int64_t> const_load_;  // per link, units
    std::int64_t bound_ = 0;                // proven lower bound on the event, units
    std::vector<Component> components_;
    std::vector<Tour> tours_;  // current cycle of each set
    std::vector<Column> columns_;
    std::vector<std::map<Tour, std::size_t>> seen_;  // per set: tour -> column
    std::size_t pricing_rounds_ = 0;
    WorkBudget budget_;  // simplex iterations of every LP of the event
    IlpPhase phase_ = IlpPhase::warm_start;
    ScheduleStatus status_ = ScheduleStatus::optimal;
    std::string reason_;
};

}  // namespace pimdse::sched::detail
