#pragma once
// Sharing-set placements for experiments and tests: NicePIM Fig. 12's interleaved sets
// (sim::interleaved_sets) and reproducible random ones.

#include <cstdint>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sched {

/// `count` disjoint sets of `members` nodes each, drawn uniformly from the mesh's nodes with
/// pimdse::Rng(seed) (a Fisher-Yates shuffle with Rng::uniform_int: the same sets on every
/// platform); members of each set in ascending node order. Throws std::invalid_argument
/// unless count >= 1, members >= 1 and count * members <= the node count.
[[nodiscard]] std::vector<sim::SharingSet> random_disjoint_sets(const sim::Mesh& mesh, std::int32_t count,
                                                                std::int32_t members, Bytes bytes_per_node,
                                                                std::uint64_t seed);

}  // namespace pimdse::sched
