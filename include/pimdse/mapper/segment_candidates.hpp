#pragma once
// SM candidates of one segment (NicePIM VI-A): for every number of regions from 1 to the
// branch count, the branches are assigned to regions so that the regions' operations are
// balanced, and the regions are placed by a slicing tree that halves the node array again
// and again, each cut keeping the two sides' node counts proportional to their work.

#include <cstdint>
#include <utility>
#include <vector>

#include "pimdse/sim/mapping.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper {

/// Branches split into `groups` groups with balanced operations: longest-processing-time
/// first (largest branch to the lightest group; ties to the lower group index). Per branch,
/// its group. Every group gets at least one branch when groups <= branches.
[[nodiscard]] std::vector<std::int32_t> balance_branches(const std::vector<std::int64_t>& branch_ops,
                                                         std::int32_t groups);

/// Places regions with the given works on a rows x cols array by a slicing tree: the groups,
/// heaviest first, are split into two sides of balanced work; the longer side of the
/// rectangle is cut so that each side's share of nodes is as close as possible to its share
/// of work (at least one row or column each). Regions are returned in the order of `work`.
/// Empty when a rectangle must be cut that has a single node.
[[nodiscard]] std::vector<sim::Region> slice_regions(const std::vector<std::int64_t>& work, std::int32_t rows,
                                                     std::int32_t cols);

/// The SM candidates of a segment, distinct, for 1..branches regions (the one-region
/// candidate, every branch on the whole array, first). Branch operations are the sums of
/// the layers' workload::Layer::ops().
[[nodiscard]] std::vector<sim::SegmentMapping> segment_candidates(const workload::Network& network,
                                                                  const workload::Segment& segment,
                                                                  std::int32_t rows, std::int32_t cols);

/// Region shapes from rows x cols down (most nodes, then most rows): where a segment goes
/// when no candidate can map every layer on its region (a layer with fewer iterations than
/// nodes).
[[nodiscard]] std::vector<std::pair<std::int32_t, std::int32_t>> shrinking_shapes(std::int32_t rows,
                                                                                  std::int32_t cols);

}  // namespace pimdse::mapper
