// Reading solutions (ilp_solver.hpp): tours in member indices and back, a master's or the
// compact model's solution as tours, kept only when they lower the component's heaviest link.
#include <algorithm>
#include <cmath>
#include <utility>

#include "ilp_solver.hpp"

namespace pimdse::sched::detail {

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

std::int64_t ceil_units(double value) {
    return static_cast<std::int64_t>(std::ceil(value - kEps));
}

void Solver::adopt_master_solution(Component& k, const Master& m, const std::vector<double>& x) {
    std::vector<Tour> next = tours_;
    for (std::size_t c = 0; c < m.cols.size(); ++c) {
        if (x[c] > 0.5) next[columns_[m.cols[c]].set] = columns_[m.cols[c]].tour;
    }
    accept_if_better(k, std::move(next));
}

bool Solver::read_compact_tours(const Component& k, const CompactModel& c, const std::vector<double>& x,
                                std::vector<Tour>& next) {
    for (std::size_t i = 0; i < k.sets.size(); ++i) {
        const std::size_t n = sets_[k.sets[i]].members.size();
        std::vector<std::size_t> succ(n, n);
        for (std::size_t a = 0; a < n; ++a) {
            for (std::size_t b = 0; b < n; ++b) {
                if (a != b && x[c.x_col(i, a, b)] > 0.5) succ[a] = b;
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
            status_ = ScheduleStatus::failed;
            reason_ = "CBC solution is not a set of Hamilton cycles; previous cycles kept";
            return false;
        }
        next[k.sets[i]] = std::move(t);
    }
    return true;
}

void Solver::accept_if_better(Component& k, std::vector<Tour> next) {
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

}  // namespace pimdse::sched::detail
