#pragma once
// The TSP baseline of NicePIM Fig. 12 (DDAM [47]): each sharing set's Hamilton cycle has the
// fewest total hops; link loads are ignored.

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sched {

/// Largest set solved exactly (Held-Karp: 2^(n-1) x n states; 16 is the Fig. 12 set size).
inline constexpr std::size_t kTspExactMaxMembers = 16;

/// A cycle through `members` of minimum total Manhattan hops. Exact (Held-Karp dynamic
/// programming over subsets) for at most kTspExactMaxMembers members; above, nearest
/// neighbour followed by 2-opt. Deterministic: members are sorted by node id, the cycle
/// starts at the smallest id, and ties go to the smaller index. Members must be distinct.
[[nodiscard]] std::vector<sim::NodeId> min_hop_cycle(const sim::Mesh& mesh,
                                                     std::span<const sim::NodeId> members);

/// min_hop_cycle for every set, independently. Each set shape (members relative to their
/// bounding box) is solved once and remembered, so translated copies of a set — the
/// interleaved sets of Fig. 12, the sets of a partitioned region — cost one Held-Karp.
/// The memo makes an instance not thread-safe; use one per thread.
class TspCycleScheduler final : public sim::CycleScheduler {
public:
    [[nodiscard]] std::vector<sim::SharingCycle> schedule(const sim::Mesh& mesh,
                                                          std::span<const sim::SharingSet> sets) override;

    /// min_hop_cycle(mesh, members), remembered per shape.
    [[nodiscard]] std::vector<sim::NodeId> cycle(const sim::Mesh& mesh, std::span<const sim::NodeId> members);

private:
    static constexpr std::size_t kMaxCachedShapes = 4096;  // cleared when full
    std::map<std::vector<std::int32_t>, std::vector<std::uint16_t>> shapes_;
};

}  // namespace pimdse::sched
