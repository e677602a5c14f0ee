#pragma once
// Enumeration of a layer's LMs on a region (NicePIM III-C, VI-A): the partition bi-tuples
// (Ph, Pw) of the loops B, P, Q, K, C that fill a rows x cols region, grouped by their
// per-loop partition counts Ph * Pw, the spatial orders that place the parts differently,
// and the WR values with distinct footprints. Pure functions of the layer's loop bounds and
// the region's shape; the LM search (layer_search.hpp) decides which of them to cost.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "pimdse/sim/mapping.hpp"
#include "pimdse/workload/layer.hpp"

namespace pimdse::mapper {

/// One number per partitionable loop, indexed by sim::PartDim (partition counts or factors).
using Counts = std::array<std::int32_t, sim::kPartDims>;

/// Ordered factorisations of n into kPartDims factors (each >= 1), in lexicographic order.
[[nodiscard]] std::vector<Counts> factorisations(std::int32_t n);

/// The spatial orders that differ in effect for the splits (ph, pw): one per distinct pair
/// of per-axis sequences of split loops. Split loops come first in each order.
[[nodiscard]] std::vector<std::array<sim::PartDim, sim::kPartDims>> distinct_orders(const Counts& ph,
                                                                                    const Counts& pw);

/// The WR values with distinct footprints for N_node nodes sharing weights: for every
/// distinct ceil(N_node / WR), the largest such WR, descending (N_node first).
[[nodiscard]] std::vector<std::int32_t> distinct_wr(std::int32_t n_node);

/// The most parts each loop of `layer` may have: its loop bound, and 1 for C unless the
/// layer is an ungrouped compute layer (only those have partial sums to reduce, III-C).
[[nodiscard]] std::array<std::int64_t, sim::kPartDims> partition_bounds(const workload::Layer& layer);

/// The most nodes a region may have for `layer` to fill it: the product of its partition
/// bounds (saturating). A split's counts multiply to the region's node count and each is
/// within its bound, so a larger region has no split; the mapper skips such shapes without
/// searching them (on a 256 x 256 array, tens of thousands of shapes).
[[nodiscard]] std::int64_t most_nodes(const workload::Layer& layer);

/// The splits of one region: the row factorisations `hs`, the column factorisations `ws`,
/// and the (Ph, Pw) pairs that fit the layer (index into hs, index into ws) grouped by their
/// count vector Ph * Pw, in ascending order of the vector; within a vector, in enumeration
/// order (hs major). Compute cost depends on the count vector alone (LM-search pruning 1).
struct RegionSplits {
    std::vector<Counts> hs;
    std::vector<Counts> ws;
    std::map<Counts, std::vector<std::pair<std::size_t, std::size_t>>> by_counts;

    /// The mapping of split (i, j) of hs and ws: its parts, other fields untouched.
    void apply(std::size_t i, std::size_t j, sim::LayerMapping& m) const;
};

/// Every split of a rows x cols region that fits `layer` (each count within its bound).
[[nodiscard]] RegionSplits region_splits(const workload::Layer& layer, std::int32_t rows, std::int32_t cols);

}  // namespace pimdse::mapper
