// Solving (ilp_solver.hpp): the phases on each component — restricted master, column
// generation, compact model — each stopping as soon as the incumbent meets the bound, all
// under the event's work limit, with the wall-clock deadline as a safety net
// (docs/model.md, "Solution strategy").
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "ilp_solver.hpp"

namespace pimdse::sched::detail {

double Solver::remaining() const {
    return std::chrono::duration<double>(deadline_ - Clock::now()).count();
}

bool Solver::done(const Component& k) const {
    if (k.incumbent <= bound_) return true;
    return static_cast<double>(k.incumbent - bound_) <=
           options_.relative_gap * static_cast<double>(k.incumbent) + 1e-9;
}

std::vector<std::int64_t> Solver::loads_of_current() const {
    std::vector<std::int64_t> load = const_load_;
    for (std::size_t s = 0; s < sets_.size(); ++s) {
        for (const auto& [l, times] : uses_of(s, tours_[s]))
            load[static_cast<std::size_t>(l)] += sets_[s].w * times;
    }
    return load;
}

void Solver::refresh_incumbents() {
    const auto load = loads_of_current();
    for (auto& k : components_) {
        k.incumbent = 0;
        for (const std::int32_t l : k.links)
            k.incumbent = std::max(k.incumbent, load[static_cast<std::size_t>(l)]);
    }
}

void Solver::run() {
    refresh_incumbents();
    std::vector<std::size_t> order(components_.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return components_[a].incumbent > components_[b].incumbent;
    });
    for (const std::size_t k : order) {
        if (done(components_[k])) continue;
        solve_component(components_[k]);
    }
}

void Solver::solve_component(Component& k) {
    if (options_.pool) {
        phase_ = IlpPhase::pool;
        solve_master(k);
        if (done(k)) return;
    }
    if (options_.column_generation && can_work()) {
        phase_ = IlpPhase::column_generation;
        generate_columns(k);
        if (done(k)) return;
        if (can_work()) solve_master(k);
        if (done(k)) return;
    }
    if (options_.compact && can_work()) {
        phase_ = IlpPhase::compact;
        solve_compact(k);
        if (done(k)) return;
    }
    if (status_ == ScheduleStatus::optimal) {
        if (budget_.spent()) {
            status_ = ScheduleStatus::work_limit_incumbent;
        } else if (remaining() <= 0) {
            status_ = ScheduleStatus::time_limit_incumbent;
        }
    }
}

MipSettings Solver::mip_settings(const std::vector<double>& start, bool cuts) {
    MipSettings settings;
    settings.time_limit_seconds = remaining();
    settings.budget = &budget_;
    settings.relative_gap = options_.relative_gap;
    settings.cutoff_increment = 1.0 - kEps;  // loads are whole units
    settings.start = &start;
    settings.cuts = cuts;
    settings.log = options_.log;
    return settings;
}

void Solver::solve_master(Component& k) {
    for (const std::size_t s : k.sets) add_column(s, tours_[s]);
    Master m = build_master(k, static_cast<double>(bound_), true);
    std::vector<double> start(m.model.cols(), 0.0);
    for (std::size_t c = 0; c < m.cols.size(); ++c) {
        const Column& col = columns_[m.cols[c]];
        if (col.tour == tours_[col.set]) start[c] = 1.0;
    }
    start[m.z] = static_cast<double>(std::max(k.incumbent, bound_));
    // A small multiple-choice model: branching alone is quick, no cuts.
    const MipSettings settings = mip_settings(start, false);
    if (settings.time_limit_seconds <= 0 || budget_.spent()) return;
    const MipOutcome out = solve_mip(m.model, settings);
    if (out.x.empty()) return;
    adopt_master_solution(k, m, out.x);
}

// Dantzig-Wolfe column generation on the master's LP. For link duals pi >= 0 summing to 1,
// sum_l pi_l load_l <= max_l load_l, and the left side is minimised set by set by a cheapest
// cycle under edge costs w_s * (pi along the XY route): a Lagrangian lower bound, exact
// (Held-Karp) for sets of up to 16 members and bounded below for larger.
void Solver::generate_columns(Component& k) {
    std::vector<double> pi(const_load_.size(), 0.0);
    for (std::size_t round = 0; round < kMaxPricingRounds && can_work(); ++round) {
        const Master m = build_master(k, 0.0, false);
        const LpOutcome lp = solve_lp(m.model, remaining(), budget_);
        if (!lp.optimal) return;
        ++pricing_rounds_;
        double sum = 0.0;
        std::fill(pi.begin(), pi.end(), 0.0);
        double lagrange = 0.0;
        for (std::size_t i = 0; i < k.links.size(); ++i) {
            const double p = std::max(0.0, lp.row_duals[m.link_row[i]]);
            const auto l = static_cast<std::size_t>(k.links[i]);
            pi[l] = p;
            sum += p;
            lagrange += p * static_cast<double>(const_load_[l]);
        }
        if (sum <= 1e-9) return;
        bool added = false;
        bool priced_all = true;  // the Lagrangian bound needs every set's cheapest cycle
        for (std::size_t i = 0; i < k.sets.size(); ++i) {
            // One Held-Karp of 16 members takes ~10 ms: check the limits per set.
            if (!can_work()) {
                priced_all = false;
                break;
            }
            price_set(k, i, pi, lp.row_duals[m.convex_row[i]], lagrange, added);
        }
        if (!priced_all) return;
        bound_ = std::max(bound_, ceil_units(lagrange / sum));
        if (!added || done(k)) return;
    }
}

void Solver::price_set(const Component& k, std::size_t i, const std::vector<double>& pi, double mu,
                       double& lagrange, bool& added) {
    const std::size_t s = k.sets[i];
    const VarSet& vs = sets_[s];
    const std::size_t n = vs.members.size();
    std::vector<double> cost(n * n, 0.0);
    const auto w = static_cast<double>(vs.w);
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
            if (a == b) continue;
            double c = 0.0;
            mesh_.for_each_route_link(vs.members[a], vs.members[b],
                                      [&](sim::ChannelId l) { c += pi[static_cast<std::size_t>(l)]; });
            cost[a * n + b] = w * c;
        }
    }
    if (n <= kHeldKarpMaxPoints) {
        const auto best = held_karp(std::span<const double>(cost), n);
        lagrange += best.cost;
        if (best.cost - mu < -1e-7 * std::max(1.0, std::abs(mu))) {
            const std::size_t before = columns_.size();
            add_column(s, best.tour);
            added = added || columns_.size() > before;
        }
        return;
    }
    // Every member leaves once: the cheapest exit of each is a valid bound.
    for (std::size_t a = 0; a < n; ++a) {
        double mn = std::numeric_limits<double>::max();
        for (std::size_t b = 0; b < n; ++b) {
            if (a != b) mn = std::min(mn, cost[a * n + b]);
        }
        lagrange += mn;
    }
}

void Solver::note_mip_status(const MipOutcome& out) {
    if (out.status == MipStatus::failed) {
        status_ = ScheduleStatus::failed;
        reason_ = out.reason;
    } else if (out.status == MipStatus::time_limit) {
        status_ = ScheduleStatus::time_limit_incumbent;
        reason_ = out.reason;
    } else if (out.status == MipStatus::work_limit) {
        status_ = ScheduleStatus::work_limit_incumbent;
        reason_ = out.reason;
    }
}

// The compact model of NicePIM Eq. 2-4 for one component (docs/model.md, "Formulation").
void Solver::solve_compact(Component& k) {
    const std::int64_t binaries = compact_binaries(k);
    if (binaries > options_.max_compact_binaries) {
        status_ = ScheduleStatus::model_too_large;
        reason_ = "compact model of " + std::to_string(binaries) + " binaries exceeds max_compact_binaries " +
                  std::to_string(options_.max_compact_binaries);
        return;
    }
    const CompactModel c = build_compact(k);
    const MipSettings settings = mip_settings(c.start, true);
    if (settings.time_limit_seconds <= 0 || budget_.spent()) return;
    const MipOutcome out = solve_mip(c.model, settings);
    note_mip_status(out);
    if (out.x.empty()) return;
    // The component's optimum (or CBC's bound on it) bounds the whole event from below.
    if (out.status == MipStatus::optimal) {
        bound_ = std::max(bound_, ceil_units(out.objective));
    } else if (std::isfinite(out.bound) && out.bound < infinity()) {
        bound_ = std::max(bound_, ceil_units(out.bound));
    }
    std::vector<Tour> next = tours_;
    if (!read_compact_tours(k, c, out.x, next)) return;
    accept_if_better(k, std::move(next));
}

}  // namespace pimdse::sched::detail
