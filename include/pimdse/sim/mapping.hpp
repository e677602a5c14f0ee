#pragma once
// The description of a DNN mapping that the evaluator costs and the mapper produces
// (NicePIM III-B to III-E): per segment its regions and the region of each branch (SM); per
// layer its partition bi-tuples and spatial order (LM), weight replication (WR) and data
// layouts (DL). It lives in sim, below the mapper, because the evaluator must read it.
//
// From a layer mapping follow, for every node of the layer's region, the part-layer it
// computes (part_ranges) and the data-sharing events the partitioning causes
// (sharing_events, NicePIM VII).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pimdse/core/enum_names.hpp"

#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/noc.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::sim {

/// The five partitionable loops (NicePIM III-C: R and S are never partitioned).
enum class PartDim : std::uint8_t { b, p, q, k, c };
inline constexpr std::size_t kPartDims = 5;
inline constexpr std::array<PartDim, kPartDims> kAllPartDims{PartDim::b, PartDim::p, PartDim::q, PartDim::k,
                                                             PartDim::c};
[[nodiscard]] std::string_view to_string(PartDim d) noexcept;  ///< "B", "P", "Q", "K", "C"
/// The position of `d` in arrays indexed by PartDim (LayerMapping::parts, loop bounds).
[[nodiscard]] constexpr std::size_t index_of(PartDim d) noexcept {
    return static_cast<std::size_t>(d);
}
[[nodiscard]] std::optional<PartDim> parse_part_dim(char c) noexcept;

/// Partition counts (Ph, Pw) of one loop: Ph along the region's height, Pw along its width.
struct Partition {
    std::int32_t h = 1;
    std::int32_t w = 1;
    [[nodiscard]] constexpr std::int32_t count() const noexcept { return h * w; }
    friend constexpr bool operator==(Partition, Partition) = default;
};

/// A rectangle of the node array: the position-shape pair of NicePIM III-B.
struct Region {
    std::int32_t row = 0;   ///< h_pos: smallest row index
    std::int32_t col = 0;   ///< w_pos: smallest column index
    std::int32_t rows = 1;  ///< h_shape
    std::int32_t cols = 1;  ///< w_shape
    [[nodiscard]] constexpr std::int32_t nodes() const noexcept { return rows * cols; }
    [[nodiscard]] constexpr bool overlaps(const Region& o) const noexcept {
        return row < o.row + o.rows && o.row < row + rows && col < o.col + o.cols && o.col < col + cols;
    }
    friend constexpr bool operator==(const Region&, const Region&) = default;
};

/// "2x4@0,1": rows x cols at (row, col); one token, for tables and messages.
[[nodiscard]] std::string to_string(const Region& r);

/// LM + WR + DL of one layer.
struct LayerMapping {
    std::array<Partition, kPartDims> parts{};  ///< indexed by PartDim
    /// P_order: the loop partitioned first (outermost, the coarsest blocks of nodes) first.
    std::array<PartDim, kPartDims> order = kAllPartDims;
    std::int32_t wr = 1;  ///< weight replication: full copies of the weights in the region (III-D)
    DataLayout dl_in{};   ///< DL_i (III-E)
    DataLayout dl_out{};  ///< DL_o

    [[nodiscard]] constexpr Partition& part(PartDim d) noexcept { return parts[index_of(d)]; }
    [[nodiscard]] constexpr Partition part(PartDim d) const noexcept { return parts[index_of(d)]; }
    /// Rows x columns of nodes the partitions fill: (prod Ph, prod Pw).
    [[nodiscard]] constexpr std::pair<std::int32_t, std::int32_t> shape() const noexcept {
        std::int32_t rows = 1;
        std::int32_t cols = 1;
        for (const Partition& p : parts) {
            rows *= p.h;
            cols *= p.w;
        }
        return {rows, cols};
    }
    friend bool operator==(const LayerMapping&, const LayerMapping&) = default;
};

/// SM of one segment: its regions and the region index of each branch.
struct SegmentMapping {
    std::vector<Region> regions;
    std::vector<std::int32_t> branch_region;  ///< per branch of the segment (IR, III-B)
    friend bool operator==(const SegmentMapping&, const SegmentMapping&) = default;
};

struct NetworkMapping {
    std::vector<SegmentMapping> segments;  ///< per segment of the network's decomposition
    std::vector<LayerMapping> layers;      ///< per layer, in network order
    friend bool operator==(const NetworkMapping&, const NetworkMapping&) = default;
};

/// The region a layer runs on under `mapping`.
[[nodiscard]] const Region& layer_region(const workload::Segmentation& seg, const NetworkMapping& mapping,
                                         workload::LayerIndex layer);

/// A half-open index range of one loop.
struct Range {
    std::int64_t begin = 0;
    std::int64_t end = 0;
    [[nodiscard]] constexpr std::int64_t size() const noexcept { return end - begin; }
    friend constexpr bool operator==(Range, Range) = default;
};

/// Loop bound of the loop `d` of `layer`.
[[nodiscard]] std::int64_t loop_bound(const workload::Layer& layer, PartDim d) noexcept;

/// Partition index of each loop for the node at (y, x) inside a region of the mapping's
/// shape: walking P_order, each loop splits the remaining block of rows into parts[d].h
/// and of columns into parts[d].w (NicePIM Fig. 5); index = ih * Pw + iw.
[[nodiscard]] std::array<std::int32_t, kPartDims> part_indices(const LayerMapping& m, std::int32_t y,
                                                               std::int32_t x) noexcept;

/// Part i of n of a loop of length L, balanced: the first L mod n parts are one longer.
[[nodiscard]] constexpr Range split(std::int64_t length, std::int32_t n, std::int32_t i) noexcept {
    const std::int64_t base = length / n;
    const std::int64_t extra = length % n;
    const std::int64_t begin = i * base + std::min<std::int64_t>(i, extra);
    return {begin, begin + base + (i < extra ? 1 : 0)};
}

/// The loop ranges of B, P, Q, K, C that the node at (y, x) of the region computes.
[[nodiscard]] std::array<Range, kPartDims> part_ranges(const workload::Layer& layer, const LayerMapping& m,
                                                       std::int32_t y, std::int32_t x) noexcept;

/// A rule a mapping breaks, named in messages and tests.
enum class MappingRule : std::uint8_t {
    segment_count,       ///< one SegmentMapping per segment
    layer_count,         ///< one LayerMapping per layer
    region_outside,      ///< a region leaves the node array or is empty
    region_overlap,      ///< two regions of a segment overlap
    branch_assignment,   ///< every branch assigned to an existing region, every region used
    partition_product,   ///< prod Ph = region rows and prod Pw = region cols
    partition_bound,     ///< more partitions of a loop than its bound
    grouped_c_split,     ///< C is not partitioned for grouped convolutions
    spatial_order,       ///< P_order is a permutation of B P Q K C
    weight_replication,  ///< 1 <= WR <= nodes needing the same weights
    data_layout,         ///< a DL that does not exist
    layout_mismatch,     ///< producer DL_o differs from consumer DL_i (III-E)
    layout_rows,         ///< an RA block that is not a whole number of DRAM rows
};
[[nodiscard]] std::string_view to_string(MappingRule rule) noexcept;

struct MappingIssue {
    MappingRule rule;
    std::int32_t segment = -1;        ///< the segment concerned, or -1
    workload::LayerIndex layer = -1;  ///< the layer concerned, or -1
    std::string message;              ///< names the layer (or segment) and the rule
};

/// Checks `mapping` against the network and an array of node_rows x node_cols nodes;
/// returns the first broken rule, or nothing. With `row_elements` (a DRAM row's elements at
/// the data width; 0 skips it), an RA layout's block must be whole rows: the DRAM models
/// take every block and channel as starting on a row boundary (PIM Optimizer Eq. 53).
/// Capacity is checked by the evaluator, which knows the node's DRAM.
[[nodiscard]] std::optional<MappingIssue> check_mapping(const workload::Network& network,
                                                        const workload::Segmentation& seg,
                                                        const NetworkMapping& mapping, std::int32_t node_rows,
                                                        std::int32_t node_cols,
                                                        std::int64_t row_elements = 0);

/// Nodes that need the same weights (all nodes with equal K and C indices) in a layer:
/// N_node of NicePIM III-D.
[[nodiscard]] std::int32_t nodes_sharing_weights(const LayerMapping& m) noexcept;

/// Weight elements one node stores for the layer: its part of the weights divided by
/// ceil(N_node / WR) (NicePIM III-D), rounded up; 0 for layers without weights.
[[nodiscard]] std::int64_t stored_weights_per_node(const workload::Layer& layer,
                                                   const LayerMapping& m) noexcept;

/// What a data-sharing event moves (NicePIM VII).
enum class SharingKind : std::uint8_t {
    inputs,        ///< K-partitioned layers: nodes with different K parts need the same inputs
    weights,       ///< B/P/Q-partitioned layers with WR below N_node: weight parts are gathered
    partial_sums,  ///< C-partitioned layers: partial sums are reduced around the cycle
};
inline constexpr EnumNames<SharingKind, 3> kSharingKindNames{{{SharingKind::inputs, "inputs"},
                                                              {SharingKind::weights, "weights"},
                                                              {SharingKind::partial_sums, "partial_sums"}}};
[[nodiscard]] std::string_view to_string(SharingKind kind) noexcept;

/// One data-sharing event: simultaneous sharing sets (mesh node ids) of one kind.
struct SharingEvent {
    SharingKind kind = SharingKind::inputs;
    std::vector<SharingSet> sets;
};

/// The data-sharing events of `layer` mapped by `m` on `region` of `mesh`. Members of a set
/// are in node order; bytes_per_node is the share of the common data each member holds
/// (ceil(data / members)). data_bits and psum_bits are the element widths; a set's data is
/// its elements bit-packed (packed_bytes).
[[nodiscard]] std::vector<SharingEvent> sharing_events(const workload::Layer& layer, const LayerMapping& m,
                                                       const Region& region, const Mesh& mesh,
                                                       std::int32_t data_bits, std::int32_t psum_bits);

}  // namespace pimdse::sim
