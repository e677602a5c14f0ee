#pragma once
// Combinatorial lower bounds on NicePIM Eq. 4 — the heaviest directional mesh link of one
// step of Hamilton-cycle sharing — that hold for every choice of cycles. When the best
// cycles found reach the bound they are proven optimal without any branching; the ILP uses
// them that way. docs/model.md, "Data-Scheduler", derives them.

#include <cstdint>
#include <span>

#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sched {

struct MaxLinkBound {
    /// The best of the bounds below, rounded up to a multiple of the gcd of the moving sets'
    /// chunk sizes (every link load is such a multiple), flits.
    std::int64_t flits = 0;
    /// The largest chunk: a set with two or more members sends its chunk over at least one
    /// link in every step.
    std::int64_t chunk = 0;
    /// Total hops: sum over sets of (flits x fewest hops of any cycle) spread evenly over
    /// every link some route of some set can use, rounded up.
    std::int64_t total_hops = 0;
    /// Cuts: a cycle through members on both sides of a row or column cut crosses it in
    /// each direction, and under XY routing on a link in a row (east/west) of one of its
    /// source members or a column (north/south) of one of its destination members. For each
    /// cut, direction and set s, the sets whose possible crossing links all lie among s's
    /// must share those links (a Hall-type count; one possible row means a forced load).
    std::int64_t cut = 0;
};

/// Lower bounds for `sets` on `mesh` with `flit_bits` flits. `min_cycle_hops`, if given,
/// holds per set a lower bound on the hops of any cycle through its members (the exact
/// minimum from the TSP baseline is the best); if empty, it is computed (exact Held-Karp up
/// to 16 members, otherwise max(sum of nearest-member distances, twice the bounding box's
/// half perimeter)). Sets with fewer than two members or no bytes move nothing. Throws
/// std::out_of_range for a member outside the mesh.
[[nodiscard]] MaxLinkBound max_link_lower_bound(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                                std::int32_t flit_bits,
                                                std::span<const std::int64_t> min_cycle_hops = {});

/// A lower bound on the hops of any Hamilton cycle through `members` (distinct): exact for
/// up to 16 members (Held-Karp), otherwise the nearest-member and bounding-box bounds.
[[nodiscard]] std::int64_t min_cycle_hops_bound(const sim::Mesh& mesh, std::span<const sim::NodeId> members);

}  // namespace pimdse::sched
