// AMOSA's core (include/pimdse/tuner/amosa.hpp): the schedule, the amount of domination
// and the archive with its single-linkage clustering (sections III-A to III-C) of Bandyopadhyay et al., "A
// Simulated Annealing-Based Multiobjective Optimization Algorithm: AMOSA" (IEEE TEC 12(3), 2008).

#include "pimdse/tuner/amosa.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

#include "pimdse/tuner/pareto.hpp"

namespace pimdse::tuner::amosa {
namespace {

void require(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("amosa: invalid setting: ") + what);
}

// Euclidean distance of two members with each objective divided by its range (objectives of
// zero range left out), so that latency in seconds and energy in joules weigh alike.
double scaled_distance(const Member& a, const Member& b, std::span<const double> range) {
    double d = 0;
    for (std::size_t i = 0; i < range.size(); ++i) {
        if (range[i] <= 0) continue;
        const double x = (a.objectives[i] - b.objectives[i]) / range[i];
        d += x * x;
    }
    return std::sqrt(d);
}

// The minimum spanning tree of the complete graph over the members (Prim, O(n^2)), as edges
// (weight, lower index, higher index).
using Edge = std::tuple<double, std::size_t, std::size_t>;

std::vector<Edge> spanning_tree(std::span<const Member> m, std::span<const double> range) {
    const std::size_t n = m.size();
    std::vector<Edge> tree;
    if (n < 2) return tree;
    std::vector<bool> in(n, false);
    std::vector<double> best(n, std::numeric_limits<double>::infinity());
    std::vector<std::size_t> from(n, 0);
    std::size_t at = 0;
    in[0] = true;
    for (std::size_t added = 1; added < n; ++added) {
        std::size_t next = n;
        for (std::size_t j = 0; j < n; ++j) {
            if (in[j]) continue;
            const double d = scaled_distance(m[at], m[j], range);
            if (d < best[j]) {
                best[j] = d;
                from[j] = at;
            }
            if (next == n || best[j] < best[next]) next = j;
        }
        in[next] = true;
        tree.emplace_back(best[next], std::min(next, from[next]), std::max(next, from[next]));
        at = next;
    }
    return tree;
}

std::size_t find(std::vector<std::size_t>& parent, std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

}  // namespace

void validate(const Settings& s) {
    require(std::isfinite(s.t_max) && s.t_max > 0, "t_max > 0");
    require(std::isfinite(s.t_min) && s.t_min > 0 && s.t_min <= s.t_max, "0 < t_min <= t_max");
    require(s.alpha > 0 && s.alpha <= 1, "alpha in (0, 1]");
    require(s.iterations >= 1, "iterations >= 1");
    require(s.hard_limit >= 1 && s.hard_limit <= s.soft_limit, "1 <= hard_limit <= soft_limit");
}

std::int64_t temperatures(const Settings& s) {
    if (s.alpha >= 1) return 0;
    // The k with T_max alpha^k >= T_min are 0 .. floor(log(T_min / T_max) / log(alpha)); the
    // estimate is corrected against the schedule itself, which decides.
    auto k = static_cast<std::int64_t>(std::floor(std::log(s.t_min / s.t_max) / std::log(s.alpha)));
    const auto t = [&](std::int64_t i) { return s.t_max * std::pow(s.alpha, static_cast<double>(i)); };
    while (k > 0 && t(k) < s.t_min) --k;
    while (t(k + 1) >= s.t_min) ++k;
    return k + 1;
}

double temperature(const Settings& s, std::int64_t told) {
    std::int64_t k = told / s.iterations;
    const std::int64_t n = temperatures(s);
    if (n > 0) k %= n;
    return s.t_max * std::pow(s.alpha, static_cast<double>(k));
}

std::vector<double> ranges(std::span<const Member> archive, std::span<const double> a,
                           std::span<const double> b) {
    std::vector<double> lo(a.begin(), a.end()), hi(a.begin(), a.end());
    const auto widen = [&](std::span<const double> f) {
        for (std::size_t i = 0; i < lo.size(); ++i) {
            lo[i] = std::min(lo[i], f[i]);
            hi[i] = std::max(hi[i], f[i]);
        }
    };
    widen(b);
    for (const Member& m : archive) widen(m.objectives);
    for (std::size_t i = 0; i < lo.size(); ++i) hi[i] -= lo[i];
    return hi;
}

double domination_amount(std::span<const double> a, std::span<const double> b,
                         std::span<const double> range) {
    double product = 1;
    bool differs = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] == b[i] || !(range[i] > 0)) continue;  // the product runs over the differing objectives
        differs = true;
        product *= std::abs(a[i] - b[i]) / range[i];
    }
    return differs ? product : 0.0;
}

double accept_dominated(double dom_avg, double temp) {
    return 1.0 / (1.0 + std::exp(dom_avg * temp));
}

double accept_archive_member(double dom_min) {
    return 1.0 / (1.0 + std::exp(-dom_min));
}

Archive::Archive(std::size_t objectives, std::size_t hard_limit, std::size_t soft_limit)
    : objectives_(objectives), hard_limit_(hard_limit), soft_limit_(soft_limit) {
    if (objectives == 0) throw std::invalid_argument("amosa::Archive: zero objectives");
    require(hard_limit >= 1 && hard_limit <= soft_limit, "1 <= hard_limit <= soft_limit");
}

bool Archive::add(Member m) {
    if (m.objectives.size() != objectives_)
        throw std::invalid_argument("amosa::Archive::add: " + std::to_string(m.objectives.size()) +
                                    " objectives, the archive has " + std::to_string(objectives_));
    for (double f : m.objectives) {
        if (!std::isfinite(f)) throw std::invalid_argument("amosa::Archive::add: a non-finite objective");
    }
    for (const Member& a : members_) {
        if (a.objectives == m.objectives || dominates(a.objectives, m.objectives)) return false;
    }
    std::erase_if(members_, [&](const Member& a) { return dominates(m.objectives, a.objectives); });
    const auto at = std::upper_bound(members_.begin(), members_.end(), m.id,
                                     [](std::int64_t id, const Member& a) { return id < a.id; });
    members_.insert(at, std::move(m));
    if (members_.size() > soft_limit_) cluster(hard_limit_);
    return true;
}

void Archive::cluster(std::size_t size) {
    if (members_.size() <= size) return;
    std::vector<Member> kept;
    for (std::size_t i : cluster_representatives(members_, size)) kept.push_back(std::move(members_[i]));
    members_ = std::move(kept);
}

std::vector<std::size_t> cluster_representatives(std::span<const Member> members, std::size_t clusters) {
    const std::size_t n = members.size();
    std::vector<std::size_t> out;
    if (n == 0 || clusters == 0) return out;
    const std::vector<double> range = ranges(members, members[0].objectives, members[0].objectives);
    // Single linkage: joining clusters in the order of the tree's edges, lightest first, and
    // stopping at `clusters` components is cutting the clusters - 1 heaviest edges.
    std::vector<Edge> tree = spanning_tree(members, range);
    std::sort(tree.begin(), tree.end());
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    const std::size_t joins = n > clusters ? n - clusters : 0;
    for (std::size_t e = 0; e < joins; ++e) {
        const auto [w, a, b] = tree[e];
        parent[find(parent, a)] = find(parent, b);
    }
    // Each cluster's representative: the least summed distance to its other members.
    std::vector<double> sum(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            if (find(parent, i) != find(parent, j)) continue;
            const double d = scaled_distance(members[i], members[j], range);
            sum[i] += d;
            sum[j] += d;
        }
    }
    std::vector<std::size_t> best(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t& b = best[find(parent, i)];
        if (b == n || sum[i] < sum[b]) b = i;
    }
    for (std::size_t b : best) {
        if (b != n) out.push_back(b);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace pimdse::tuner::amosa
