// NicePIM Eq. 2-4 solved in phases, each stopping as soon as the incumbent meets the best
// proven lower bound (docs/model.md, "Data-Scheduler"):
//   1. warm start (baselines and their reversals) and the combinatorial bound (bounds.hpp);
//   2. a restricted master: each set picks one cycle from a pool (warm start, TSP, snake,
//      every min-hop cycle), min max link load, on CBC;
//   3. column generation: the master's LP duals price new cycles exactly (Held-Karp on
//      dual-weighted routes); every round gives a Lagrangian lower bound; then the master
//      again over all columns;
//   4. the compact model (x per ordered pair, MTZ, cut rows) on CBC for what is left.
// Sets that share no link are independent groups (components) solved separately.
#include "pimdse/sched/ilp_scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "cbc_backend.hpp"
#include "hamilton.hpp"
#include "pimdse/sched/bounds.hpp"
#include "pimdse/sched/validate.hpp"

namespace pimdse::sched {

void validate(const IlpOptions& options) {
    if (!(options.time_limit_seconds > 0.0))
        throw std::invalid_argument("IlpOptions: time_limit_seconds must be > 0");
    if (!(options.relative_gap >= 0.0)) throw std::invalid_argument("IlpOptions: relative_gap must be >= 0");
    if (options.work_limit < 1) throw std::invalid_argument("IlpOptions: work_limit must be >= 1");
    if (options.max_compact_binaries < 1)
        throw std::invalid_argument("IlpOptions: max_compact_binaries must be >= 1");
}

const char* to_string(IlpStatus status) noexcept {
    switch (status) {
        case IlpStatus::optimal:
            return "optimal";
        case IlpStatus::gap_reached:
            return "gap_reached";
        case IlpStatus::time_limit_incumbent:
            return "time_limit_incumbent";
        case IlpStatus::model_too_large:
            return "model_too_large";
        case IlpStatus::failed:
            return "failed";
        case IlpStatus::work_limit_incumbent:
            return "work_limit_incumbent";
    }
    return "unknown";
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

using Clock = std::chrono::steady_clock;
using detail::Tour;

constexpr std::size_t kPoolMaxCycles = 64;      // min-hop cycles kept per set shape
constexpr std::size_t kPoolMaxSteps = 200000;   // search steps per set shape
constexpr std::size_t kMaxPricingRounds = 200;  // column-generation rounds per component
constexpr double kEps = 1e-6;

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

Tour tour_of(const VarSet& s, std::span<const sim::NodeId> order) {
    const std::size_t n = s.members.size();
    auto idx = [&](sim::NodeId v) {
        return static_cast<std::uint16_t>(std::lower_bound(s.members.begin(), s.members.end(), v) -
                                          s.members.begin());
    };
    const std::size_t start =
        static_cast<std::size_t>(std::find(order.begin(), order.end(), s.members[0]) - order.begin());
    Tour t;
    t.reserve(n);
    for (std::size_t i = 0; i < n; ++i) t.push_back(idx(order[(start + i) % n]));
    return t;
}

std::vector<sim::NodeId> order_of(const VarSet& s, const Tour& t) {
    std::vector<sim::NodeId> order;
    order.reserve(t.size());
    for (const std::uint16_t i : t) order.push_back(s.members[i]);
    return order;
}

Tour reversed(const Tour& t) {
    Tour r{t[0]};
    r.insert(r.end(), t.rbegin(), t.rend() - 1);
    return r;
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

std::int64_t ceil_units(double value) {
    return static_cast<std::int64_t>(std::ceil(value - kEps));
}

class Solver {
public:
    Solver(const sim::Mesh& mesh, const IlpOptions& options, Clock::time_point deadline,
           std::vector<VarSet> sets, std::vector<std::int64_t> const_load, std::int64_t bound)
        : mesh_(mesh),
          options_(options),
          deadline_(deadline),
          sets_(std::move(sets)),
          const_load_(std::move(const_load)),
          bound_(bound) {
        budget_.limit = options.work_limit;
    }

    // Groups sets that can share a link (union-find over the links of all member pairs).
    void split_components() {
        const std::size_t n = sets_.size();
        std::vector<std::size_t> parent(n);
        std::iota(parent.begin(), parent.end(), 0);
        auto find = [&](std::size_t a) {
            while (parent[a] != a) a = parent[a] = parent[parent[a]];
            return a;
        };
        std::vector<std::int64_t> owner(const_load_.size(), -1);
        for (std::size_t s = 0; s < n; ++s) {
            for (const sim::NodeId a : sets_[s].members) {
                for (const sim::NodeId b : sets_[s].members) {
                    mesh_.for_each_route_link(a, b, [&](sim::ChannelId l) {
                        auto& o = owner[static_cast<std::size_t>(l)];
                        if (o < 0) {
                            o = static_cast<std::int64_t>(s);
                        } else {
                            parent[find(static_cast<std::size_t>(o))] = find(s);
                        }
                    });
                }
            }
        }
        std::vector<std::int64_t> comp_of(n, -1);
        for (std::size_t s = 0; s < n; ++s) {
            const std::size_t r = find(s);
            if (comp_of[r] < 0) {
                comp_of[r] = static_cast<std::int64_t>(components_.size());
                components_.emplace_back();
            }
            components_[static_cast<std::size_t>(comp_of[r])].sets.push_back(s);
        }
        for (std::size_t l = 0; l < owner.size(); ++l) {
            if (owner[l] >= 0) {
                const auto c = static_cast<std::size_t>(comp_of[find(static_cast<std::size_t>(owner[l]))]);
                components_[c].links.push_back(static_cast<std::int32_t>(l));
            }
        }
    }

    void set_tours(std::vector<Tour> tours) { tours_ = std::move(tours); }
    void add_pool(std::size_t s, const Tour& t) { add_column(s, t); }

    // Runs the phases on every component whose incumbent is above the bound; returns the
    // phase that settled the last one worked on.
    void run() {
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

    [[nodiscard]] const std::vector<Tour>& tours() const noexcept { return tours_; }
    [[nodiscard]] std::int64_t bound() const noexcept { return bound_; }
    [[nodiscard]] IlpPhase phase() const noexcept { return phase_; }
    [[nodiscard]] IlpStatus status() const noexcept { return status_; }
    [[nodiscard]] const std::string& reason() const noexcept { return reason_; }
    [[nodiscard]] std::size_t component_count() const noexcept { return components_.size(); }
    [[nodiscard]] std::size_t column_count() const noexcept { return columns_.size(); }
    [[nodiscard]] std::size_t pricing_rounds() const noexcept { return pricing_rounds_; }
    [[nodiscard]] std::int64_t work_used() const noexcept { return budget_.used; }
    [[nodiscard]] std::int64_t incumbent() const {
        std::int64_t m = 0;
        for (const auto& c : components_) m = std::max(m, c.incumbent);
        return m;
    }

private:
    [[nodiscard]] double remaining() const {
        return std::chrono::duration<double>(deadline_ - Clock::now()).count();
    }
    // The work limit is the one that decides; the wall-clock deadline is a safety net.
    [[nodiscard]] bool can_work() const { return remaining() > 0 && !budget_.spent(); }
    [[nodiscard]] bool done(const Component& k) const {
        if (k.incumbent <= bound_) return true;
        return static_cast<double>(k.incumbent - bound_) <=
               options_.relative_gap * static_cast<double>(k.incumbent) + 1e-9;
    }

    std::vector<std::pair<std::int32_t, std::int32_t>> uses_of(std::size_t s, const Tour& t) const {
        const VarSet& vs = sets_[s];
        std::vector<std::int32_t> links;
        const std::size_t n = t.size();
        for (std::size_t i = 0; i < n; ++i) {
            mesh_.for_each_route_link(vs.members[t[i]], vs.members[t[(i + 1) % n]],
                                      [&](sim::ChannelId l) { links.push_back(l); });
        }
        std::sort(links.begin(), links.end());
        std::vector<std::pair<std::int32_t, std::int32_t>> uses;
        for (const std::int32_t l : links) {
            if (!uses.empty() && uses.back().first == l) {
                ++uses.back().second;
            } else {
                uses.emplace_back(l, 1);
            }
        }
        return uses;
    }

    // Adds the column unless the set already has it; returns its index.
    std::size_t add_column(std::size_t s, const Tour& t) {
        if (seen_.size() < sets_.size()) seen_.resize(sets_.size());
        auto [it, fresh] = seen_[s].emplace(t, columns_.size());
        if (!fresh) return it->second;
        columns_.push_back(Column{s, t, uses_of(s, t)});
        return columns_.size() - 1;
    }

    std::vector<std::int64_t> loads_of_current() const {
        std::vector<std::int64_t> load = const_load_;
        for (std::size_t s = 0; s < sets_.size(); ++s) {
            for (const auto& [l, times] : uses_of(s, tours_[s]))
                load[static_cast<std::size_t>(l)] += sets_[s].w * times;
        }
        return load;
    }

    void refresh_incumbents() {
        const auto load = loads_of_current();
        for (auto& k : components_) {
            k.incumbent = 0;
            for (const std::int32_t l : k.links)
                k.incumbent = std::max(k.incumbent, load[static_cast<std::size_t>(l)]);
        }
    }

    void solve_component(Component& k) {
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
        if (status_ == IlpStatus::optimal) {
            if (budget_.spent()) {
                status_ = IlpStatus::work_limit_incumbent;
            } else if (remaining() <= 0) {
                status_ = IlpStatus::time_limit_incumbent;
            }
        }
    }

    // The restricted master: one column per set from its pool, z >= every link's load.
    struct Master {
        detail::LinearModel model;
        std::vector<std::size_t> cols;        // model column -> index into columns_
        std::vector<std::size_t> link_row;    // per component link (same order as k.links)
        std::vector<std::size_t> convex_row;  // per component set (same order as k.sets)
        std::size_t z = 0;
    };

    Master build_master(const Component& k, double z_lo, bool integer) const {
        Master m;
        std::vector<std::size_t> pos(sets_.size(), 0);
        for (std::size_t i = 0; i < k.sets.size(); ++i) {
            pos[k.sets[i]] = i;
            m.convex_row.push_back(m.model.add_row(1.0, 1.0));
        }
        std::vector<std::size_t> row_of_link(const_load_.size(), 0);
        for (const std::int32_t l : k.links) {
            const auto c = static_cast<double>(const_load_[static_cast<std::size_t>(l)]);
            m.link_row.push_back(m.model.add_row(c, detail::infinity()));
            row_of_link[static_cast<std::size_t>(l)] = m.link_row.back();
        }
        std::vector<char> in(sets_.size(), 0);
        for (const std::size_t s : k.sets) in[s] = 1;
        for (std::size_t j = 0; j < columns_.size(); ++j) {
            const Column& col = columns_[j];
            if (!in[col.set]) continue;
            const std::size_t c = m.model.add_col(0.0, 1.0, 0.0, integer);
            m.cols.push_back(j);
            m.model.add(m.convex_row[pos[col.set]], c, 1.0);
            const auto w = static_cast<double>(sets_[col.set].w);
            for (const auto& [l, times] : col.uses)
                m.model.add(row_of_link[static_cast<std::size_t>(l)], c, -w * times);
        }
        m.z = m.model.add_col(z_lo, detail::infinity(), 1.0, false);
        for (const std::size_t r : m.link_row) m.model.add(r, m.z, 1.0);
        return m;
    }

    void solve_master(Component& k) {
        for (const std::size_t s : k.sets) add_column(s, tours_[s]);
        Master m = build_master(k, static_cast<double>(bound_), true);
        std::vector<double> start(m.model.cols(), 0.0);
        for (std::size_t c = 0; c < m.cols.size(); ++c) {
            const Column& col = columns_[m.cols[c]];
            if (col.tour == tours_[col.set]) start[c] = 1.0;
        }
        start[m.z] = static_cast<double>(std::max(k.incumbent, bound_));
        detail::MipSettings settings;
        settings.time_limit_seconds = remaining();
        settings.budget = &budget_;
        settings.relative_gap = options_.relative_gap;
        settings.cutoff_increment = 1.0 - kEps;  // loads are whole units
        settings.start = &start;
        settings.cuts = false;  // a small multiple-choice model: branching alone is quick
        settings.log = options_.log;
        if (settings.time_limit_seconds <= 0 || budget_.spent()) return;
        const detail::MipOutcome out = detail::solve_mip(m.model, settings);
        if (out.x.empty()) return;
        adopt_master_solution(k, m, out.x);
    }

    void adopt_master_solution(Component& k, const Master& m, const std::vector<double>& x) {
        std::vector<Tour> next = tours_;
        for (std::size_t c = 0; c < m.cols.size(); ++c) {
            if (x[c] > 0.5) next[columns_[m.cols[c]].set] = columns_[m.cols[c]].tour;
        }
        accept_if_better(k, std::move(next));
    }

    void accept_if_better(Component& k, std::vector<Tour> next) {
        std::swap(tours_, next);
        const auto load = loads_of_current();
        std::int64_t top = 0;
        for (const std::int32_t l : k.links) top = std::max(top, load[static_cast<std::size_t>(l)]);
        if (top < k.incumbent) {
            k.incumbent = top;
        } else {
            std::swap(tours_, next);  // not better: keep the old tours
        }
    }

    // Dantzig-Wolfe column generation on the master's LP. For link duals pi >= 0 summing to
    // 1, sum_l pi_l load_l <= max_l load_l, and the left side is minimised set by set by a
    // cheapest cycle under edge costs w_s * (pi along the XY route): a Lagrangian lower
    // bound, exact (Held-Karp) for sets of up to 16 members and bounded below for larger.
    void generate_columns(Component& k) {
        std::vector<double> pi(const_load_.size(), 0.0);
        std::vector<double> cost;
        for (std::size_t round = 0; round < kMaxPricingRounds && can_work(); ++round) {
            const Master m = build_master(k, 0.0, false);
            const detail::LpOutcome lp = detail::solve_lp(m.model, remaining(), budget_);
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
                // One Held-Karp of 16 members takes ~10 ms: check the limit per set.
                if (!can_work()) {
                    priced_all = false;
                    break;
                }
                const std::size_t s = k.sets[i];
                const VarSet& vs = sets_[s];
                const std::size_t n = vs.members.size();
                cost.assign(n * n, 0.0);
                const auto w = static_cast<double>(vs.w);
                for (std::size_t a = 0; a < n; ++a) {
                    for (std::size_t b = 0; b < n; ++b) {
                        if (a == b) continue;
                        double c = 0.0;
                        mesh_.for_each_route_link(vs.members[a], vs.members[b], [&](sim::ChannelId l) {
                            c += pi[static_cast<std::size_t>(l)];
                        });
                        cost[a * n + b] = w * c;
                    }
                }
                if (n <= detail::kHeldKarpMaxPoints) {
                    const auto best = detail::held_karp(std::span<const double>(cost), n);
                    lagrange += best.cost;
                    const double mu = lp.row_duals[m.convex_row[i]];
                    if (best.cost - mu < -1e-7 * std::max(1.0, std::abs(mu))) {
                        const std::size_t before = columns_.size();
                        add_column(s, best.tour);
                        added = added || columns_.size() > before;
                    }
                } else {
                    // Every member leaves once: the cheapest exit of each is a valid bound.
                    for (std::size_t a = 0; a < n; ++a) {
                        double mn = std::numeric_limits<double>::max();
                        for (std::size_t b = 0; b < n; ++b) {
                            if (a != b) mn = std::min(mn, cost[a * n + b]);
                        }
                        lagrange += mn;
                    }
                }
            }
            if (!priced_all) return;
            bound_ = std::max(bound_, ceil_units(lagrange / sum));
            if (!added || done(k)) return;
        }
    }

    // The compact model of NicePIM Eq. 2-4 for one component (see docs/model.md).
    void solve_compact(Component& k) {
        std::int64_t binaries = 0;
        for (const std::size_t s : k.sets) {
            const auto n = static_cast<std::int64_t>(sets_[s].members.size());
            binaries += n * (n - 1);
        }
        if (binaries > options_.max_compact_binaries) {
            status_ = IlpStatus::model_too_large;
            reason_ = "compact model of " + std::to_string(binaries) +
                      " binaries exceeds max_compact_binaries " +
                      std::to_string(options_.max_compact_binaries);
            return;
        }
        detail::LinearModel model;
        struct Vars {
            std::size_t first_x = 0, first_u = 0;
        };
        std::vector<Vars> vars(k.sets.size());
        auto x_col = [&](std::size_t i, std::size_t a, std::size_t b) {
            const std::size_t n = sets_[k.sets[i]].members.size();
            return vars[i].first_x + a * (n - 1) + (b < a ? b : b - 1);
        };
        for (std::size_t i = 0; i < k.sets.size(); ++i) {
            const std::size_t n = sets_[k.sets[i]].members.size();
            vars[i].first_x = model.cols();
            for (std::size_t c = 0; c < n * (n - 1); ++c) model.add_col(0.0, 1.0, 0.0, true);
            vars[i].first_u = model.cols();
            for (std::size_t c = 1; c < n; ++c) model.add_col(1.0, static_cast<double>(n) - 1.0, 0.0, false);
        }
        const std::size_t z = model.add_col(static_cast<double>(bound_), detail::infinity(), 1.0, false);
        const double inf = detail::infinity();
        std::vector<std::vector<std::pair<std::size_t, double>>> link_terms(const_load_.size());
        for (std::size_t i = 0; i < k.sets.size(); ++i) {
            const VarSet& vs = sets_[k.sets[i]];
            const std::size_t n = vs.members.size();
            // NicePIM Eq. 2: out-degree and in-degree 1.
            for (std::size_t a = 0; a < n; ++a) {
                const std::size_t r_out = model.add_row(1.0, 1.0);
                const std::size_t r_in = model.add_row(1.0, 1.0);
                for (std::size_t b = 0; b < n; ++b) {
                    if (a == b) continue;
                    model.add(r_out, x_col(i, a, b), 1.0);
                    model.add(r_in, x_col(i, b, a), 1.0);
                }
            }
            // NicePIM Eq. 3 (MTZ): u_a - u_b + (n-1) x_ab <= n-2 for a, b in 1..n-1. Member 0
            // is the cycle's fixed start (no u), which also removes the n rotations.
            for (std::size_t a = 1; a < n; ++a) {
                for (std::size_t b = 1; b < n; ++b) {
                    if (a == b) continue;
                    const std::size_t r = model.add_row(-inf, static_cast<double>(n) - 2.0);
                    model.add(r, vars[i].first_u + a - 1, 1.0);
                    model.add(r, vars[i].first_u + b - 1, -1.0);
                    model.add(r, x_col(i, a, b), static_cast<double>(n) - 1.0);
                }
            }
            // Cut rows (valid subtour eliminations that tighten MTZ's weak LP): a cycle through
            // members on both sides of a row or column cut crosses it at least once each way.
            for (int axis = 0; axis < 2; ++axis) {
                const std::int32_t extent = axis == 0 ? mesh_.cols() : mesh_.rows();
                for (std::int32_t cut = 0; cut + 1 < extent; ++cut) {
                    auto side = [&](std::size_t m) {
                        const auto c = mesh_.coord(vs.members[m]);
                        return (axis == 0 ? c.col : c.row) <= cut;
                    };
                    std::size_t left = 0;
                    for (std::size_t m = 0; m < n; ++m) left += side(m) ? 1 : 0;
                    if (left == 0 || left == n) continue;
                    const std::size_t r = model.add_row(1.0, inf);
                    for (std::size_t a = 0; a < n; ++a) {
                        for (std::size_t b = 0; b < n; ++b) {
                            if (a != b && side(a) && !side(b)) model.add(r, x_col(i, a, b), 1.0);
                        }
                    }
                }
            }
            const auto w = static_cast<double>(vs.w);
            for (std::size_t a = 0; a < n; ++a) {
                for (std::size_t b = 0; b < n; ++b) {
                    if (a == b) continue;
                    const std::size_t c = x_col(i, a, b);
                    mesh_.for_each_route_link(vs.members[a], vs.members[b], [&](sim::ChannelId l) {
                        link_terms[static_cast<std::size_t>(l)].emplace_back(c, w);
                    });
                }
            }
        }
        // NicePIM Eq. 4 linearised: z >= load(l) for every link some pair can use.
        for (const std::int32_t l : k.links) {
            const auto& terms = link_terms[static_cast<std::size_t>(l)];
            const std::size_t r =
                model.add_row(static_cast<double>(const_load_[static_cast<std::size_t>(l)]), inf);
            model.add(r, z, 1.0);
            for (const auto& [c, w] : terms) model.add(r, c, -w);
        }
        // Start: x from the current tours, u from the position on the cycle.
        std::vector<double> start(model.cols(), 0.0);
        for (std::size_t i = 0; i < k.sets.size(); ++i) {
            const Tour& t = tours_[k.sets[i]];
            for (std::size_t p = 0; p < t.size(); ++p) {
                start[x_col(i, t[p], t[(p + 1) % t.size()])] = 1.0;
                if (p > 0) start[vars[i].first_u + t[p] - 1] = static_cast<double>(p);
            }
        }
        start[z] = static_cast<double>(std::max(k.incumbent, bound_));

        detail::MipSettings settings;
        settings.time_limit_seconds = remaining();
        settings.budget = &budget_;
        settings.relative_gap = options_.relative_gap;
        settings.cutoff_increment = 1.0 - kEps;
        settings.start = &start;
        settings.cuts = true;
        settings.log = options_.log;
        if (settings.time_limit_seconds <= 0 || budget_.spent()) return;
        const detail::MipOutcome out = detail::solve_mip(model, settings);
        if (out.status == detail::MipStatus::failed) {
            status_ = IlpStatus::failed;
            reason_ = out.reason;
        } else if (out.status == detail::MipStatus::time_limit) {
            status_ = IlpStatus::time_limit_incumbent;
            reason_ = out.reason;
        } else if (out.status == detail::MipStatus::work_limit) {
            status_ = IlpStatus::work_limit_incumbent;
            reason_ = out.reason;
        }
        if (out.x.empty()) return;
        // The component's optimum (or CBC's bound on it) bounds the whole event from below.
        if (out.status == detail::MipStatus::optimal) {
            bound_ = std::max(bound_, ceil_units(out.objective));
        } else if (std::isfinite(out.bound) && out.bound < detail::infinity()) {
            bound_ = std::max(bound_, ceil_units(out.bound));
        }
        std::vector<Tour> next = tours_;
        for (std::size_t i = 0; i < k.sets.size(); ++i) {
            const std::size_t n = sets_[k.sets[i]].members.size();
            std::vector<std::size_t> succ(n, n);
            for (std::size_t a = 0; a < n; ++a) {
                for (std::size_t b = 0; b < n; ++b) {
                    if (a != b && out.x[x_col(i, a, b)] > 0.5) succ[a] = b;
                }
            }
            Tour t;
            std::size_t cur = 0;
            for (std::size_t step = 0; step < n && cur < n; ++step) {
                t.push_back(static_cast<std::uint16_t>(cur));
                cur = succ[cur];
            }
            // Only a single cycle through every member is taken; anything else is a model bug.
            Tour sorted_t = t;
            std::sort(sorted_t.begin(), sorted_t.end());
            bool valid = t.size() == n && cur == 0;
            for (std::size_t p = 0; valid && p < n; ++p) valid = sorted_t[p] == p;
            if (!valid) {
                status_ = IlpStatus::failed;
                reason_ = "CBC solution is not a set of Hamilton cycles; previous cycles kept";
                return;
            }
            next[k.sets[i]] = std::move(t);
        }
        accept_if_better(k, std::move(next));
    }

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
    detail::WorkBudget budget_;  // simplex iterations of every LP of the event
    IlpPhase phase_ = IlpPhase::warm_start;
    IlpStatus status_ = IlpStatus::optimal;
    std::string reason_;
};

}  // namespace

IlpCycleScheduler::IlpCycleScheduler(IlpOptions options) : options_(options) {
    validate(options_);
}

IlpResult IlpCycleScheduler::solve(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                   const sim::NocParams& noc) {
    const auto t0 = Clock::now();
    const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(options_.time_limit_seconds));
    sim::validate(noc);
    const std::int32_t flit_bits = noc.flit_bits;

    for (std::size_t i = 0; i < sets.size(); ++i) {
        std::vector<sim::NodeId> m = sets[i].members;
        std::sort(m.begin(), m.end());
        if (std::adjacent_find(m.begin(), m.end()) != m.end()) {
            throw std::invalid_argument("IlpCycleScheduler: set " + std::to_string(i) +
                                        " has a repeated member");
        }
        for (const sim::NodeId v : m) {
            if (!mesh.contains(v)) {
                throw std::out_of_range("IlpCycleScheduler: set " + std::to_string(i) + " has node " +
                                        std::to_string(v) + " outside the mesh");
            }
        }
    }

    // Baselines (the TSP memo makes translated sets cheap) and the warm start.
    const auto snake = sim::SnakeRingScheduler{}.schedule(mesh, sets);
    const auto tsp = tsp_.schedule(mesh, sets);
    const auto warm = warm_start(mesh, sets, snake, tsp, flit_bits);

    IlpResult result;
    result.cycles = warm;
    result.warm_start_flits = step_max_link_flits(mesh, warm, flit_bits);

    // The gcd of the moving sets' flits is the unit of the models: every load is a whole
    // number of units, so the objective is integral (cutoff increment, rounded bounds).
    std::int64_t unit = 0;
    for (const auto& s : sets) {
        const std::int64_t f = sim::flits_of(s.bytes_per_node, flit_bits);
        if (s.members.size() >= 2 && f > 0) unit = std::gcd(unit, f);
    }
    std::vector<std::int64_t> min_hops(sets.size(), 0);
    for (std::size_t i = 0; i < sets.size(); ++i) {
        min_hops[i] = sets[i].members.size() <= detail::kHeldKarpMaxPoints
                          ? cycle_hops(mesh, tsp[i].order)
                          : min_cycle_hops_bound(mesh, sets[i].members);
    }
    const MaxLinkBound comb = max_link_lower_bound(mesh, sets, flit_bits, min_hops);
    result.combinatorial_bound_flits = comb.flits;

    std::vector<VarSet> vars;
    std::vector<std::int64_t> const_load(static_cast<std::size_t>(mesh.link_count()), 0);
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

    auto finish = [&](IlpResult& r) {
        r.objective_flits = step_max_link_flits(mesh, r.cycles, flit_bits);
        r.best_bound_flits = std::min(r.best_bound_flits, r.objective_flits);
        r.gap = r.objective_flits > 0 ? static_cast<double>(r.objective_flits - r.best_bound_flits) /
                                            static_cast<double>(r.objective_flits)
                                      : 0.0;
        if (r.gap <= 0.0) {
            r.status = IlpStatus::optimal;
            r.reason.clear();
        } else if (r.gap <= options_.relative_gap + 1e-9) {
            r.status = IlpStatus::gap_reached;
        } else if (r.status == IlpStatus::optimal || r.status == IlpStatus::gap_reached) {
            // Phases cut short by the limit (or switched off in IlpOptions).
            r.status = IlpStatus::time_limit_incumbent;
            if (Clock::now() < deadline) r.reason = "gap left with solution phases switched off";
        }
        // The answer: the lowest event latency among the cycles at hand (the solver's, TSP's,
        // the warm start's); ties keep the lighter heaviest link, then the solver's. Eq. 4 is
        // the latency's proxy and is exact when chunks are long; with chunks of a few flits
        // the hop pipeline weighs more than one chunk of link load, and a baseline can be
        // faster. So the ILP is never slower than TSP under the shared latency model.
        double best_latency = sim::share_along_cycles(mesh, r.cycles, noc).latency.value();
        r.max_link_flits = r.objective_flits;
        for (const auto* alt : {&tsp, &warm}) {
            const double lat = sim::share_along_cycles(mesh, *alt, noc).latency.value();
            const std::int64_t link = step_max_link_flits(mesh, *alt, flit_bits);
            if (lat < best_latency || (lat == best_latency && link < r.max_link_flits)) {
                best_latency = lat;
                r.max_link_flits = link;
                r.cycles = *alt;
            }
        }
        r.latency_fallback = r.max_link_flits > r.objective_flits;
        r.solve_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    };

    if (vars.empty() || unit == 0) {
        result.status = IlpStatus::optimal;
        result.phase = IlpPhase::trivial;
        result.best_bound_flits = result.warm_start_flits;
        finish(result);
        return result;
    }

    const std::int64_t bound_units = (comb.flits + unit - 1) / unit;
    Solver solver(mesh, options_, deadline, vars, const_load, bound_units);
    solver.split_components();
    std::vector<Tour> tours;
    for (const VarSet& vs : vars) tours.push_back(tour_of(vs, warm[vs.input].order));
    solver.set_tours(tours);

    // The initial pool: warm start, TSP, snake, their reversals, and every min-hop cycle of
    // the set's shape (all of them for the Fig. 12 shapes; capped for shapes with many).
    for (std::size_t s = 0; s < vars.size(); ++s) {
        const VarSet& vs = vars[s];
        for (const auto* src : {&warm, &tsp, &snake}) {
            const Tour t = tour_of(vs, (*src)[vs.input].order);
            solver.add_pool(s, t);
            solver.add_pool(s, reversed(t));
        }
        if (!options_.pool || vs.members.size() > detail::kHeldKarpMaxPoints || Clock::now() >= deadline)
            continue;
        auto key = detail::shape_key(mesh, vs.members);
        auto it = min_hop_cycles_.find(key);
        if (it == min_hop_cycles_.end()) {
            const std::size_t n = vs.members.size();
            std::vector<std::int64_t> d(n * n);
            for (std::size_t a = 0; a < n; ++a) {
                for (std::size_t b = 0; b < n; ++b) d[a * n + b] = mesh.hops(vs.members[a], vs.members[b]);
            }
            auto list =
                detail::enumerate_short_cycles(d, n, min_hops[vs.input], kPoolMaxCycles, kPoolMaxSteps);
            if (min_hop_cycles_.size() >= 4096) min_hop_cycles_.clear();
            it = min_hop_cycles_.emplace(std::move(key), std::move(list.tours)).first;
        }
        for (const Tour& t : it->second) solver.add_pool(s, t);
    }

    solver.run();

    for (std::size_t s = 0; s < vars.size(); ++s) {
        result.cycles[vars[s].input].order = order_of(vars[s], solver.tours()[s]);
    }
    result.best_bound_flits = solver.bound() * unit;
    result.phase = solver.phase();
    result.status = solver.status();
    result.reason = solver.reason();
    result.components = solver.component_count();
    result.columns = solver.column_count();
    result.pricing_rounds = solver.pricing_rounds();
    result.simplex_iterations = solver.work_used();
    finish(result);
    return result;
}

}  // namespace pimdse::sched
