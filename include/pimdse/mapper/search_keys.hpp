#pragma once
// The memo keys of the LM search (layer_search.hpp), each a type with its own hash: what a
// search result depends on, named field by field, so that a new layer attribute that changes
// the cost is added in one visible place (LayerShape) rather than as a slot of an array.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pimdse/mapper/lm_enumeration.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/workload/layer.hpp"

namespace pimdse::mapper {

/// The attributes of a layer that the LM search reads: its kind, loop bounds, input extent,
/// strides, padding (before and after), groups, upsampling, the matmul and mul flags, the
/// interpolation, the bias and its number of operands. Two layers with equal shapes have
/// equal options on equal regions (the name and producers do not matter; pooling, norm and
/// activation kinds cost alike; a layer's own quantisation bits are the crossbar family's).
struct LayerShape {
    workload::LayerKind kind = workload::LayerKind::conv;
    std::int64_t B = 0, K = 0, C = 0, P = 0, Q = 0, R = 0, S = 0, H = 0, W = 0;
    std::int64_t stride_h = 0, stride_w = 0, pad_h = 0, pad_w = 0, groups = 0, up_h = 0, up_w = 0;
    std::int64_t pad_h_end = 0, pad_w_end = 0;  ///< the padding after the last row and column
    bool weights_are_activations = false, transpose_b = false, flatten = false, bias = false;
    bool broadcast = false, bilinear = false;
    std::int64_t operands = 0;

    [[nodiscard]] static LayerShape of(const workload::Layer& layer) noexcept;
    [[nodiscard]] std::size_t hash() const noexcept;
    friend bool operator==(const LayerShape&, const LayerShape&) = default;
};

/// One LM search: a layer shape on a region shape between two data layouts; `full` for the
/// full-replication searches of the baseline.
struct SearchKey {
    LayerShape layer;
    std::int32_t rows = 0, cols = 0;
    sim::DataLayout in, out;
    bool full = false;

    [[nodiscard]] std::size_t hash() const noexcept;
    friend bool operator==(const SearchKey&, const SearchKey&) = default;
};

/// The compute cycles of one partition-count vector: they depend on the region's node count
/// only (`search.rows` holds it, `search.cols` is 0), not on the split or the order.
struct ComputeKey {
    SearchKey search;
    Counts counts{};

    [[nodiscard]] std::size_t hash() const noexcept;
    friend bool operator==(const ComputeKey&, const ComputeKey&) = default;
};

/// The arrangement of one data-sharing event in the search's sharing model: the region
/// shape, the split, the spatial order and, for the weights event, the weight groups' size
/// (0 for the other events, which do not depend on WR). Independent of the layer.
struct GeometryKey {
    std::int32_t rows = 0, cols = 0;
    Counts ph{}, pw{};
    std::array<sim::PartDim, sim::kPartDims> order{};
    std::int32_t shards = 0;
    sim::SharingKind kind = sim::SharingKind::inputs;

    [[nodiscard]] std::size_t hash() const noexcept;
    friend bool operator==(const GeometryKey&, const GeometryKey&) = default;
};

/// The sets of one data-sharing event, member lists in order, flattened (each list preceded
/// by its length). An event's geometry depends on its sets alone, and many arrangements (the
/// splits and orders of the loops that do not key the event) give the same sets: the second,
/// content-keyed level of the geometry cache.
struct SetsKey {
    std::vector<std::int32_t> flat;

    [[nodiscard]] static SetsKey of(const std::vector<std::vector<sim::NodeId>>& sets);
    /// The member lists back (the inverse of of()).
    [[nodiscard]] std::vector<std::vector<sim::NodeId>> sets() const;
    [[nodiscard]] std::size_t hash() const noexcept;
    friend bool operator==(const SetsKey&, const SetsKey&) = default;
};

/// The hasher of the keys above, for std::unordered_map.
struct KeyHash {
    template <class Key>
    std::size_t operator()(const Key& key) const noexcept {
        return key.hash();
    }
};

}  // namespace pimdse::mapper
