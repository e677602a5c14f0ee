// Model building for the ILP's phases (ilp_solver.hpp): components, columns, the restricted
// master and the compact NicePIM Eq. 2-4 model (docs/model.md, "Formulation").
#include <algorithm>
#include <numeric>
#include <utility>

#include "ilp_solver.hpp"

namespace pimdse::sched::detail {

Solver::Solver(const sim::Mesh& mesh, const IlpOptions& options, Clock::time_point deadline,
               std::vector<VarSet> sets, std::vector<std::int64_t> const_load, std::int64_t bound)
    : mesh_(mesh),
      options_(options),
      deadline_(deadline),
      sets_(std::move(sets)),
      const_load_(std::move(const_load)),
      bound_(bound) {
    budget_.limit = options.work_limit;
}

void Solver::split_components() {
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

std::vector<std::pair<std::int32_t, std::int32_t>> Solver::uses_of(std::size_t s, const Tour& t) const {
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

std::size_t Solver::add_column(std::size_t s, const Tour& t) {
    if (seen_.size() < sets_.size()) seen_.resize(sets_.size());
    auto [it, fresh] = seen_[s].emplace(t, columns_.size());
    if (!fresh) return it->second;
    columns_.push_back(Column{s, t, uses_of(s, t)});
    return columns_.size() - 1;
}

Master Solver::build_master(const Component& k, double z_lo, bool integer) const {
    Master m;
    std::vector<std::size_t> pos(sets_.size(), 0);
    for (std::size_t i = 0; i < k.sets.size(); ++i) {
        pos[k.sets[i]] = i;
        m.convex_row.push_back(m.model.add_row(1.0, 1.0));
    }
    std::vector<std::size_t> row_of_link(const_load_.size(), 0);
    for (const std::int32_t l : k.links) {
        const auto c = static_cast<double>(const_load_[static_cast<std::size_t>(l)]);
        m.link_row.push_back(m.model.add_row(c, infinity()));
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
    m.z = m.model.add_col(z_lo, infinity(), 1.0, false);
    for (const std::size_t r : m.link_row) m.model.add(r, m.z, 1.0);
    return m;
}

std::int64_t Solver::compact_binaries(const Component& k) const {
    std::int64_t binaries = 0;
    for (const std::size_t s : k.sets) {
        const auto n = static_cast<std::int64_t>(sets_[s].members.size());
        binaries += n * (n - 1);
    }
    return binaries;
}

CompactModel Solver::build_compact(const Component& k) const {
    CompactModel c;
    for (std::size_t i = 0; i < k.sets.size(); ++i) {
        const std::size_t n = sets_[k.sets[i]].members.size();
        c.size.push_back(n);
        c.first_x.push_back(c.model.cols());
        for (std::size_t col = 0; col < n * (n - 1); ++col) c.model.add_col(0.0, 1.0, 0.0, true);
        c.first_u.push_back(c.model.cols());
        for (std::size_t col = 1; col < n; ++col)
            c.model.add_col(1.0, static_cast<double>(n) - 1.0, 0.0, false);
    }
    c.z = c.model.add_col(static_cast<double>(bound_), infinity(), 1.0, false);
    for (std::size_t i = 0; i < k.sets.size(); ++i) {
        const VarSet& vs = sets_[k.sets[i]];
        add_tour_rows(c, i, vs);
        add_cut_rows(c, i, vs);
    }
    add_link_rows(c, k);
    set_compact_start(c, k);
    return c;
}

void Solver::add_tour_rows(CompactModel& c, std::size_t i, const VarSet& vs) const {
    const std::size_t n = vs.members.size();
    // NicePIM Eq. 2: out-degree and in-degree 1.
    for (std::size_t a = 0; a < n; ++a) {
        const std::size_t r_out = c.model.add_row(1.0, 1.0);
        const std::size_t r_in = c.model.add_row(1.0, 1.0);
        for (std::size_t b = 0; b < n; ++b) {
            if (a == b) continue;
            c.model.add(r_out, c.x_col(i, a, b), 1.0);
            c.model.add(r_in, c.x_col(i, b, a), 1.0);
        }
    }
    // NicePIM Eq. 3 (MTZ): u_a - u_b + (n-1) x_ab <= n-2 for a, b in 1..n-1. Member 0 is the
    // cycle's fixed start (no u), which also removes the n rotations.
    for (std::size_t a = 1; a < n; ++a) {
        for (std::size_t b = 1; b < n; ++b) {
            if (a == b) continue;
            const std::size_t r = c.model.add_row(-infinity(), static_cast<double>(n) - 2.0);
            c.model.add(r, c.first_u[i] + a - 1, 1.0);
            c.model.add(r, c.first_u[i] + b - 1, -1.0);
            c.model.add(r, c.x_col(i, a, b), static_cast<double>(n) - 1.0);
        }
    }
}

// Valid subtour eliminations that tighten MTZ's weak LP: a cycle through members on both
// sides of a row or column cut crosses it at least once each way.
void Solver::add_cut_rows(CompactModel& c, std::size_t i, const VarSet& vs) const {
    const std::size_t n = vs.members.size();
    for (int axis = 0; axis < 2; ++axis) {
        const std::int32_t extent = axis == 0 ? mesh_.cols() : mesh_.rows();
        for (std::int32_t cut = 0; cut + 1 < extent; ++cut) {
            auto side = [&](std::size_t m) {
                const auto coord = mesh_.coord(vs.members[m]);
                return (axis == 0 ? coord.col : coord.row) <= cut;
            };
            std::size_t left = 0;
            for (std::size_t m = 0; m < n; ++m) left += side(m) ? 1 : 0;
            if (left == 0 || left == n) continue;
            const std::size_t r = c.model.add_row(1.0, infinity());
            for (std::size_t a = 0; a < n; ++a) {
                for (std::size_t b = 0; b < n; ++b) {
                    if (a != b && side(a) && !side(b)) c.model.add(r, c.x_col(i, a, b), 1.0);
                }
            }
        }
    }
}

// NicePIM Eq. 4 linearised: z >= load(l) for every link some pair can use.
void Solver::add_link_rows(CompactModel& c, const Component& k) const {
    std::vector<std::vector<std::pair<std::size_t, double>>> link_terms(const_load_.size());
    for (std::size_t i = 0; i < k.sets.size(); ++i) {
        const VarSet& vs = sets_[k.sets[i]];
        const std::size_t n = vs.members.size();
        const auto w = static_cast<double>(vs.w);
        for (std::size_t a = 0; a < n; ++a) {
            for (std::size_t b = 0; b < n; ++b) {
                if (a == b) continue;
                const std::size_t col = c.x_col(i, a, b);
                mesh_.for_each_route_link(vs.members[a], vs.members[b], [&](sim::ChannelId l) {
                    link_terms[static_cast<std::size_t>(l)].emplace_back(col, w);
                });
            }
        }
    }
    for (const std::int32_t l : k.links) {
        const auto& terms = link_terms[static_cast<std::size_t>(l)];
        const std::size_t r =
            c.model.add_row(static_cast<double>(const_load_[static_cast<std::size_t>(l)]), infinity());
        c.model.add(r, c.z, 1.0);
        for (const auto& [col, w] : terms) c.model.add(r, col, -w);
    }
}

// The start: x from the current tours, u from the position on the cycle.
void Solver::set_compact_start(CompactModel& c, const Component& k) const {
    c.start.assign(c.model.cols(), 0.0);
    for (std::size_t i = 0; i < k.sets.size(); ++i) {
        const Tour& t = tours_[k.sets[i]];
        for (std::size_t p = 0; p < t.size(); ++p) {
            c.start[c.x_col(i, t[p], t[(p + 1) % t.size()])] = 1.0;
            if (p > 0) c.start[c.first_u[i] + t[p] - 1] = static_cast<double>(p);
        }
    }
    c.start[c.z] = static_cast<double>(std::max(k.incumbent, bound_));
}

}  // namespace pimdse::sched::detail
