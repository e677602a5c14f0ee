#include "pimdse/sched/bounds.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamilton.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/core/units.hpp"

namespace pimdse::sched {

namespace {

// The rows (or columns) a set may use to cross one cut in one direction, and its flits.
struct Crossing {
    std::vector<std::int32_t> lines;  // sorted, distinct
    std::int64_t flits = 0;
};

// Hall-type bound of one cut and direction: for each crossing set's line set Q, every set
// whose lines lie inside Q puts its flits on the |Q| links of Q; the heaviest carries at
// least the average. Q = all lines used by any set is included.
std::int64_t cut_bound(std::vector<Crossing>& crossings) {
    if (crossings.empty()) return 0;
    std::int64_t best = 0;
    std::vector<std::int32_t> all;
    std::int64_t total = 0;
    for (const Crossing& c : crossings) {
        all.insert(all.end(), c.lines.begin(), c.lines.end());
        total += c.flits;
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    best = all.empty() ? 0 : ceil_div(total, static_cast<std::int64_t>(all.size()));
    for (const Crossing& q : crossings) {
        std::int64_t inside = 0;
        for (const Crossing& c : crossings) {
            if (std::includes(q.lines.begin(), q.lines.end(), c.lines.begin(), c.lines.end()))
                inside += c.flits;
        }
        if (!q.lines.empty())
            best = std::max(best, ceil_div(inside, static_cast<std::int64_t>(q.lines.size())));
    }
    return best;
}

}  // namespace

std::int64_t min_cycle_hops_bound(const sim::Mesh& mesh, std::span<const sim::NodeId> members) {
    const std::size_t n = members.size();
    if (n < 2) return 0;
    std::vector<std::int64_t> d(n * n);
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) d[a * n + b] = mesh.hops(members[a], members[b]);
    }
    if (n <= detail::kHeldKarpMaxPoints) return detail::held_karp(std::span<const std::int64_t>(d), n).cost;
    std::int64_t nearest = 0;
    std::int32_t r0 = std::numeric_limits<std::int32_t>::max(), c0 = r0, r1 = -1, c1 = -1;
    for (std::size_t a = 0; a < n; ++a) {
        std::int64_t m = std::numeric_limits<std::int64_t>::max();
        for (std::size_t b = 0; b < n; ++b) {
            if (a != b) m = std::min(m, d[a * n + b]);
        }
        nearest += m;
        const sim::NodeCoord c = mesh.coord(members[a]);
        r0 = std::min(r0, c.row);
        r1 = std::max(r1, c.row);
        c0 = std::min(c0, c.col);
        c1 = std::max(c1, c.col);
    }
    return std::max<std::int64_t>(nearest, 2 * ((r1 - r0) + (c1 - c0)));
}

namespace {

// The cut bound over every row and column cut of the mesh (docs/model.md, "Lower bounds").
std::int64_t cuts_bound(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                        std::int32_t flit_bits) {
    std::int64_t best = 0;
    // Cuts. Vertical cut after column c: east crossings leave from a member at col <= c and
    // run in its row; west crossings from a member at col > c. Horizontal cut after row r:
    // south crossings end at a member at row > r and run in its column; north ones at row <= r.
    std::vector<Crossing> fwd, back;
    for (int axis = 0; axis < 2; ++axis) {
        const std::int32_t extent = axis == 0 ? mesh.cols() : mesh.rows();
        for (std::int32_t cut = 0; cut + 1 < extent; ++cut) {
            fwd.clear();
            back.clear();
            for (const sim::SharingSet& s : sets) {
                const std::int64_t f = sim::flits_of(s.bytes_per_node, flit_bits);
                if (s.members.size() < 2 || f == 0) continue;
                Crossing low{{}, f}, high{{}, f};  // lines of members before / after the cut
                for (const sim::NodeId v : s.members) {
                    const sim::NodeCoord c = mesh.coord(v);
                    const std::int32_t pos = axis == 0 ? c.col : c.row;
                    const std::int32_t line = axis == 0 ? c.row : c.col;
                    (pos <= cut ? low : high).lines.push_back(line);
                }
                if (low.lines.empty() || high.lines.empty()) continue;
                for (Crossing* x : {&low, &high}) {
                    std::sort(x->lines.begin(), x->lines.end());
                    x->lines.erase(std::unique(x->lines.begin(), x->lines.end()), x->lines.end());
                }
                if (axis == 0) {  // east uses the sources' rows (low side), west the high side
                    fwd.push_back(std::move(low));
                    back.push_back(std::move(high));
                } else {  // south uses the destinations' columns (high side), north the low side
                    fwd.push_back(std::move(high));
                    back.push_back(std::move(low));
                }
            }
            best = std::max({best, cut_bound(fwd), cut_bound(back)});
        }
    }
    return best;
}

}  // namespace

MaxLinkBound max_link_lower_bound(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                  std::int32_t flit_bits, std::span<const std::int64_t> min_cycle_hops) {
    if (!min_cycle_hops.empty() && min_cycle_hops.size() != sets.size()) {
        throw ModelError("max_link_lower_bound: one min_cycle_hops entry per set");
    }
    for (const sim::SharingSet& s : sets) {
        for (const sim::NodeId m : s.members) {
            if (!mesh.contains(m)) {
                throw ModelError("max_link_lower_bound: node " + std::to_string(m) + " outside the mesh");
            }
        }
    }
    MaxLinkBound out;
    const auto links = static_cast<std::size_t>(mesh.link_count());

    // Total hops: sum of link loads >= sum over sets of flits x min hops, and only links some
    // route can use carry load.
    std::vector<char> usable(links, 0);
    std::int64_t flit_hops = 0;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        const auto& m = sets[i].members;
        const std::int64_t f = sim::flits_of(sets[i].bytes_per_node, flit_bits);
        if (m.size() < 2 || f == 0) continue;
        for (const sim::NodeId a : m) {
            for (const sim::NodeId b : m) {
                mesh.for_each_route_link(a, b,
                                         [&](sim::ChannelId l) { usable[static_cast<std::size_t>(l)] = 1; });
            }
        }
        const std::int64_t h = min_cycle_hops.empty() ? min_cycle_hops_bound(mesh, m) : min_cycle_hops[i];
        flit_hops += f * h;
    }
    const auto used = static_cast<std::int64_t>(std::count(usable.begin(), usable.end(), 1));
    out.total_hops = used > 0 ? ceil_div(flit_hops, used) : 0;

    out.cut = cuts_bound(mesh, sets, flit_bits);
    // Every link load is a sum of whole chunks, so a multiple of the gcd of the moving sets'
    // chunk sizes: the bound rounds up to the next multiple.
    std::int64_t unit = 0;
    for (const sim::SharingSet& s : sets) {
        const std::int64_t f = sim::flits_of(s.bytes_per_node, flit_bits);
        if (s.members.size() >= 2 && f > 0) unit = std::gcd(unit, f);
    }
    for (const sim::SharingSet& s : sets) {
        if (s.members.size() >= 2)
            out.chunk = std::max(out.chunk, sim::flits_of(s.bytes_per_node, flit_bits));
    }
    out.flits = std::max({out.chunk, out.total_hops, out.cut});
    if (unit > 0) out.flits = ceil_div(out.flits, unit) * unit;
    return out;
}

}  // namespace pimdse::sched
