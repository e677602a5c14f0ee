#include "pimdse/sched/validate.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace pimdse::sched {

std::optional<std::string> validate_cycles(std::span<const sim::SharingSet> sets,
                                           std::span<const sim::SharingCycle> cycles) {
    if (sets.size() != cycles.size()) {
        std::string msg = "expected ";
        msg += std::to_string(sets.size());
        msg += " cycles, got ";
        msg += std::to_string(cycles.size());
        return msg;
    }
    for (std::size_t s = 0; s < sets.size(); ++s) {
        const auto& members = sets[s].members;
        const auto& order = cycles[s].order;
        std::string where = "set ";
        where += std::to_string(s);
        if (order.size() != members.size()) {
            where += ": cycle has ";
            where += std::to_string(order.size());
            where += " nodes, set has ";
            where += std::to_string(members.size());
            return where;
        }
        std::vector<sim::NodeId> a(members.begin(), members.end());
        std::vector<sim::NodeId> b(order.begin(), order.end());
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        // A sequence that is a permutation of the members visits each exactly once, so each
        // member has one successor and one predecessor and all lie on a single cycle.
        for (std::size_t i = 0; i < b.size(); ++i) {
            if (i > 0 && b[i] == b[i - 1]) {
                where += ": node ";
                where += std::to_string(b[i]);
                where += " appears twice in the cycle";
                return where;
            }
            if (!std::binary_search(a.begin(), a.end(), b[i])) {
                where += ": node ";
                where += std::to_string(b[i]);
                where += " is not a member";
                return where;
            }
        }
        for (const sim::NodeId m : a) {
            if (!std::binary_search(b.begin(), b.end(), m)) {
                where += ": member ";
                where += std::to_string(m);
                where += " is missing from the cycle";
                return where;
            }
        }
        if (cycles[s].bytes_per_node != sets[s].bytes_per_node) {
            where += ": bytes_per_node differs from the set's";
            return where;
        }
    }
    return std::nullopt;
}

std::int64_t step_max_link_flits(const sim::Mesh& mesh, std::span<const sim::SharingCycle> cycles,
                                 std::int32_t flit_bits) {
    std::vector<std::int64_t> load(static_cast<std::size_t>(mesh.link_count()), 0);
    for (const auto& c : cycles) {
        const std::size_t n = c.order.size();
        if (n < 2) continue;
        const std::int64_t flits = sim::flits_of(c.bytes_per_node, flit_bits);
        for (std::size_t i = 0; i < n; ++i) {
            mesh.for_each_route_link(c.order[i], c.order[(i + 1) % n],
                                     [&](sim::ChannelId l) { load[static_cast<std::size_t>(l)] += flits; });
        }
    }
    return load.empty() ? 0 : *std::max_element(load.begin(), load.end());
}

std::int64_t cycle_hops(const sim::Mesh& mesh, std::span<const sim::NodeId> order) {
    std::int64_t hops = 0;
    for (std::size_t i = 0; i < order.size(); ++i) hops += mesh.hops(order[i], order[(i + 1) % order.size()]);
    return hops;
}

}  // namespace pimdse::sched
