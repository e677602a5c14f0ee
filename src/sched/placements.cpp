#include "pimdse/sched/placements.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/core/rng.hpp"

namespace pimdse::sched {

std::vector<sim::SharingSet> random_disjoint_sets(const sim::Mesh& mesh, std::int32_t count,
                                                  std::int32_t members, Bytes bytes_per_node,
                                                  std::uint64_t seed) {
    if (count < 1 || members < 1 ||
        static_cast<std::int64_t>(count) * members > static_cast<std::int64_t>(mesh.node_count())) {
        throw ModelError("random_disjoint_sets: " + std::to_string(count) + " sets of " +
                         std::to_string(members) + " members do not fit " +
                         std::to_string(mesh.node_count()) + " nodes");
    }
    std::vector<sim::NodeId> nodes(static_cast<std::size_t>(mesh.node_count()));
    for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<sim::NodeId>(i);
    Rng rng(seed);
    // Fisher-Yates with our own uniform draw (std::shuffle differs between libraries).
    for (std::size_t i = nodes.size(); i > 1; --i) {
        const auto j = static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i) - 1));
        std::swap(nodes[i - 1], nodes[j]);
    }
    std::vector<sim::SharingSet> sets(static_cast<std::size_t>(count));
    for (std::size_t s = 0; s < sets.size(); ++s) {
        const auto first = nodes.begin() + static_cast<std::ptrdiff_t>(s * static_cast<std::size_t>(members));
        sets[s].members.assign(first, first + members);
        std::sort(sets[s].members.begin(), sets[s].members.end());
        sets[s].bytes_per_node = bytes_per_node;
    }
    return sets;
}

}  // namespace pimdse::sched
