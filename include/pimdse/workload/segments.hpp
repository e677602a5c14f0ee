#pragma once
// Segments and branches (NicePIM III-B): the network is cut into the smallest serial
// pieces; each piece (segment) takes one timestep, and the independent branches of a
// multi-branch segment may run in parallel on separate regions of the node array.
//
// The rule (docs/workloads.md, "Segments and branches"):
//  * a layer is a *cut* when it is ordered with respect to every other layer (each other
//    layer is its ancestor or its descendant). Equivalently it lies on every source-to-sink
//    path once edges implied by longer paths are dropped: a shortcut edge that skips over
//    layers adds no ordering, so an identity residual does not turn its block into a
//    2-branch segment, and a residual around a whole attention block does not hide the
//    12 heads inside it;
//  * each cut is a single-layer, single-branch segment;
//  * each maximal run of non-cut layers between two consecutive cuts (in topological
//    order) is one segment whose branches are the weakly connected components of the
//    layers of the run. A branch may be a small DAG; its layers run in topological order.
//  * an identity shortcut has no layers and therefore is no branch.
//
// Cost O(V + E): two prefix/suffix scans find the cuts, one search finds the components.

#include <cstdint>
#include <vector>

#include "pimdse/workload/network.hpp"

namespace pimdse::workload {

struct Branch {
    std::vector<LayerIndex> layers;  ///< ascending = topological order
};

struct Segment {
    std::vector<Branch> branches;  ///< ordered by their first layer

    [[nodiscard]] bool multi_branch() const noexcept { return branches.size() > 1; }
    [[nodiscard]] std::int64_t layer_count() const noexcept;
};

struct Segmentation {
    std::vector<Segment> segments;         ///< in execution (topological) order
    std::vector<std::int32_t> segment_of;  ///< per layer: index into segments
    std::vector<std::int32_t> branch_of;   ///< per layer: index into its segment's branches

    [[nodiscard]] std::int32_t multi_branch_segments() const noexcept;
    [[nodiscard]] std::int32_t max_branches() const noexcept;
};

/// Per layer: true when it is a cut (ordered with respect to every other layer).
[[nodiscard]] std::vector<bool> cut_layers(const Network& network);
[[nodiscard]] Segmentation decompose(const Network& network);
/// decompose(network).segments.
[[nodiscard]] std::vector<Segment> segments(const Network& network);

}  // namespace pimdse::workload
