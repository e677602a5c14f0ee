#pragma once
// Hamilton-cycle building blocks shared by the TSP baseline and the ILP's column generation:
// exact Held-Karp over a cost matrix, a bounded enumeration of all cycles up to a total
// length, and the translation-invariant shape of a member set. Private to src/sched.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/sim/noc.hpp"

namespace pimdse::sched::detail {

/// A cycle over n points as the order of point indices, starting at point 0.
using Tour = std::vector<std::uint16_t>;

/// Largest point count Held-Karp solves (2^(n-1) x (n-1) states).
inline constexpr std::size_t kHeldKarpMaxPoints = 16;

/// A cheapest directed cycle through all n points for the row-major n x n `cost` matrix
/// (cost[a*n+b]: a -> b), with its cost. Exact; ties go to the smaller predecessor index,
/// so the answer is deterministic. Preconditions: 2 <= n <= kHeldKarpMaxPoints.
template <class T>
struct HeldKarpResult {
    Tour tour;
    T cost{};
};
[[nodiscard]] HeldKarpResult<std::int64_t> held_karp(std::span<const std::int64_t> cost, std::size_t n);
[[nodiscard]] HeldKarpResult<double> held_karp(std::span<const double> cost, std::size_t n);

/// Every directed cycle through the n points (starting at point 0) whose total length under
/// the integer matrix `dist` is at most `max_length`, stopping after `max_cycles` cycles or
/// `max_steps` search steps. `complete` says whether the list is all of them.
struct CycleList {
    std::vector<Tour> tours;
    bool complete = true;
};
[[nodiscard]] CycleList enumerate_short_cycles(std::span<const std::int64_t> dist, std::size_t n,
                                               std::int64_t max_length, std::size_t max_cycles,
                                               std::size_t max_steps);

/// The positions of `sorted_members` (ascending node ids) relative to their bounding box's
/// north-west corner, in the same order. Two sets with the same shape are translates: the
/// same tour (by index) has the same hops in both.
[[nodiscard]] std::vector<std::int32_t> shape_key(const sim::Mesh& mesh,
                                                  std::span<const sim::NodeId> sorted_members);

}  // namespace pimdse::sched::detail
