#pragma once
// An independent check that a scheduler's answer is usable: one Hamilton cycle per sharing
// set, covering exactly that set's members.

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sched {

/// std::nullopt if `cycles` has one entry per set, in the same order, and each cycle's order
/// is a permutation of its set's members (so every member has exactly one successor and one
/// predecessor, and the successors form a single cycle); otherwise what is wrong, naming
/// the set and the node.
[[nodiscard]] std::optional<std::string> validate_cycles(std::span<const sim::SharingSet> sets,
                                                         std::span<const sim::SharingCycle> cycles);

/// Heaviest directional mesh link (ports excluded) of one step in which every set with at
/// least two members sends one chunk to its successor: the value of NicePIM Eq. 4, in flits.
[[nodiscard]] std::int64_t step_max_link_flits(const sim::Mesh& mesh,
                                               std::span<const sim::SharingCycle> cycles,
                                               std::int32_t flit_bits);

/// Sum of Manhattan hops around the cycle (the TSP objective).
[[nodiscard]] std::int64_t cycle_hops(const sim::Mesh& mesh, std::span<const sim::NodeId> order);

}  // namespace pimdse::sched
