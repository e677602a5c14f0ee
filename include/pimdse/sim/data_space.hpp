#pragma once
// Data spaces of a mapped layer (OverlaPIM III-B): the box of a producer's output that a
// consumer node reads through one operand (what the inter-layer redistribution moves), and
// the temporal steps of each node of a layer: the output tile each step completes and the
// input boxes it reads. The boxes follow from the node cut (mapping.hpp) and the tiling the
// node model returns (layer_cost.hpp's PartTiling) by interval arithmetic, never by
// enumerating loop iterations. docs/model.md, "Overlapped layers", states the model.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::sim {

/// A box of a layer's output (or of a producer's output as a consumer reads it): batch,
/// channels, rows, columns. Index 0..3 of the arrays below: B, K, P, Q of the layer.
using Box = std::array<Range, 4>;
inline constexpr std::size_t kBoxDims = 4;

[[nodiscard]] constexpr Range intersect(Range a, Range b) noexcept {
    const std::int64_t lo = a.begin > b.begin ? a.begin : b.begin;
    const std::int64_t hi = a.end < b.end ? a.end : b.end;
    return {lo, hi > lo ? hi : lo};
}
[[nodiscard]] constexpr std::int64_t volume(const Box& b) noexcept {
    return b[0].size() * b[1].size() * b[2].size() * b[3].size();
}

/// Index of the part of split(length, n, .) that holds element e.
[[nodiscard]] std::int32_t part_of(std::int64_t length, std::int32_t n, std::int64_t e) noexcept;

/// The box of a producer's output (batch, channels, rows, columns) that one consumer node
/// reads through one operand, and the share of it delivered by redistribution.
struct Need {
    Range b, c, h, w;
    std::int64_t divisor = 1;  ///< members of a sharing set that gather the rest (VII)
    std::int64_t rank = 0;     ///< this node's position in that set
    [[nodiscard]] Box box() const noexcept { return {b, c, h, w}; }
};

/// What the consumer node with loop ranges `r` and partition indices `idx` reads from
/// operand j of `layer` (docs/model.md, "Inter-layer redistribution"), clipped to the
/// producer's output; nothing when the node reads nothing of it (a concat operand outside
/// its channels).
[[nodiscard]] std::optional<Need> needed_box(const workload::Network& net, const workload::Layer& layer,
                                             const LayerMapping& m, const std::array<Range, kPartDims>& r,
                                             const std::array<std::int32_t, kPartDims>& idx, std::size_t j);

/// The temporal steps of one node of a layer: a grid over the output dims (B, K, P, Q) that
/// the tile loops run outside the C loop, in loop order; the other dims run whole in every
/// step. Step s is the mixed-radix number of its grid index (outer dim first).
struct NodeSteps {
    NodeId node = 0;
    std::array<Range, kPartDims> ranges{};      ///< the node's loop ranges (part_ranges)
    std::array<std::int32_t, kPartDims> idx{};  ///< its partition indices
    Box out{};                                  ///< its output box
    std::array<std::int64_t, kBoxDims> tile{};  ///< per output dim; the whole extent if not a step dim
    std::array<std::int64_t, kBoxDims> count{1, 1, 1, 1};  ///< tiles per output dim
    std::array<std::int64_t, kBoxDims> stride{};           ///< step-number weight per output dim
    std::int64_t steps = 1;
    /// Step-number divisors d, coarsest first (0: none), whose blocks s / d a reordering of
    /// the steps keeps contiguous so that no tensor is fetched more often than in loop order
    /// (overlap_transform.hpp): an input or weight tile that consecutive steps reuse.
    std::array<std::int64_t, 2> keep{0, 0};

    /// The output box of step s.
    [[nodiscard]] Box step_box(std::int64_t s) const noexcept;
    /// The step that completes output element e (each coordinate inside `out`).
    [[nodiscard]] std::int64_t step_of(const std::array<std::int64_t, kBoxDims>& e) const noexcept;
};

/// The data spaces of one mapped layer, for a timeline that starts a layer on its inputs'
/// complete parts. Holds references to the network and the mapping, which must outlive it.
struct LayerSpaces {
    const workload::Network* net = nullptr;
    const LayerMapping* mapping = nullptr;
    workload::LayerIndex layer = 0;
    /// Data sharing (cycles > 0) or a C split: the layer runs as one block (docs/model.md).
    bool barrier = false;
    /// Row-major over the region; of a barrier only `node` is filled (it has no steps).
    std::vector<NodeSteps> nodes;
    std::array<std::int32_t, kBoxDims> parts{1, 1, 1, 1};  ///< partitions of B, K, P, Q
    std::vector<std::int32_t> owner;  ///< per block (b, k, p, q) of parts: index into nodes

    /// The node (index into nodes) that computes output block (b, k, p, q).
    [[nodiscard]] std::int32_t owner_of(const std::array<std::int32_t, kBoxDims>& block) const noexcept;
    /// The box step s of node n reads from operand j, nothing when it reads none of it.
    [[nodiscard]] std::optional<Box> step_input(std::size_t n, std::int64_t s, std::size_t j) const;
};

/// The spaces of `layer` mapped by `m` on `region` of `mesh` and costed as `cost`: the
/// nodes' steps cut by cost.part (the slowest node's tiling; one step per node for a layer
/// computed as a stream), a barrier when its data sharing takes time or C is split.
[[nodiscard]] LayerSpaces layer_spaces(const workload::Network& net, workload::LayerIndex layer,
                                       const LayerMapping& m, const Region& region, const Mesh& mesh,
                                       const LayerCost& cost);

}  // namespace pimdse::sim
