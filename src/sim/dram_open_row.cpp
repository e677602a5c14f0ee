#include "dram_open_row.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "dram_row_aligned.hpp"
#include "dram_shape.hpp"
#include "pimdse/sim/dram.hpp"

namespace pimdse::sim::detail {
namespace {

using Index = std::array<std::int64_t, kLoopDims>;

constexpr std::size_t at(LoopDim d) noexcept {
    return static_cast<std::size_t>(d);
}

// The first and the last address a fetch of `box` touches, in its walk order (outer to inner
// levels of the layout; a grouped layout reads the last group's padding along).
struct Ends {
    std::int64_t first = 0;
    std::int64_t last = 0;
};

Ends box_ends(const TensorDims& d, DataLayout l, const TensorBox& b) {
    std::int64_t c_last = b.c0 + b.nc - 1;
    if (l.order != LayoutOrder::bhwc && b.c0 + b.nc == d.C) c_last = stored_channels(d, l) - 1;
    return {element_offset(d, l, b.b0, b.c0, b.h0, b.w0),
            element_offset(d, l, b.b0 + b.nb - 1, c_last, b.h0 + b.nh - 1, b.w0 + b.nw - 1)};
}

// Tile `i` along loop dim `d`: [start, start + size) of d's extent.
std::int64_t tile_start(const Tiling& t, LoopDim d, const Index& i) {
    return i[at(d)] * t[d];
}
std::int64_t tile_size(const PartLayer& l, const Tiling& t, LoopDim d, const Index& i) {
    return std::min(t[d], extent(l, d) - tile_start(t, d, i));
}

TensorDims output_dims(const PartLayer& l) {
    return {l.B, l.K, l.P, l.Q};
}

Ends output_ends(const PartLayer& l, const Tiling& t, DataLayout out, const Index& i) {
    const TensorBox b{tile_start(t, LoopDim::B, i), tile_size(l, t, LoopDim::B, i),
                      tile_start(t, LoopDim::K, i), tile_size(l, t, LoopDim::K, i),
                      tile_start(t, LoopDim::P, i), tile_size(l, t, LoopDim::P, i),
                      tile_start(t, LoopDim::Q, i), tile_size(l, t, LoopDim::Q, i)};
    return box_ends(output_dims(l), out, b);
}

// The weight tile of step `i`: a contiguous block at its (K tile, C tile) slot, or the box
// of an activation matmul's second operand (B x C x K x 1 in the input layout).
Ends weight_ends(const PartLayer& l, const Tiling& t, const Index& n, DataLayout in, const Index& i) {
    if (!l.has_weights) {
        const TensorBox b{tile_start(t, LoopDim::B, i),
                          tile_size(l, t, LoopDim::B, i),
                          tile_start(t, LoopDim::C, i),
                          tile_size(l, t, LoopDim::C, i),
                          tile_start(t, LoopDim::K, i),
                          tile_size(l, t, LoopDim::K, i),
                          0,
                          1};
        return box_ends({l.B, l.C, l.K, 1}, in, b);
    }
    const std::int64_t nc = l.depthwise ? 1 : n[at(LoopDim::C)];
    const std::int64_t ci = l.depthwise ? 0 : i[at(LoopDim::C)];
    const std::int64_t c_tile = l.depthwise ? 1 : t[LoopDim::C];
    const std::int64_t c_size = l.depthwise ? 1 : tile_size(l, t, LoopDim::C, i);
    const std::int64_t base = (i[at(LoopDim::K)] * nc + ci) * t[LoopDim::K] * c_tile * l.R * l.S;
    return {base, base + tile_size(l, t, LoopDim::K, i) * c_size * l.R * l.S - 1};
}

bool same_row(std::int64_t a, std::int64_t b, std::int64_t row) {
    return a / row == b / row;
}

// The tensor axis (b, c, h, w) of the output that loop dim `d` moves.
std::size_t output_axis(LoopDim d) {
    switch (d) {
        case LoopDim::B:
            return 0;
        case LoopDim::K:
            return 1;
        case LoopDim::P:
            return 2;
        default:
            return 3;
    }
}

// Spills that start in the row their reload left open, per advance of the C loop: in every
// context of the loops outside C, the reload of the inner loops' first output tile is
// followed by the spill of their last, into the same ping-pong region. Averaged over the
// outer contexts class by class (full or last tile along each outer dim), as the tile sums
// of dram.cpp are.
double spills_per_advance(const PartLayer& l, const Tiling& t, const Index& n, DataLayout out,
                          const DramGeometry& psum, const std::array<LoopDim, kLoopDims>& loops, int pos_c) {
    Index first{}, last{};
    for (int p = pos_c + 1; p < static_cast<int>(kLoopDims); ++p)
        last[at(loops[static_cast<std::size_t>(p)])] = n[at(loops[static_cast<std::size_t>(p)])] - 1;
    std::array<LoopDim, kLoopDims> outer{};
    int n_outer = 0;
    for (int p = 0; p < pos_c; ++p) {
        if (n[at(loops[static_cast<std::size_t>(p)])] > 1)
            outer[static_cast<std::size_t>(n_outer++)] = loops[static_cast<std::size_t>(p)];
    }
    const std::int64_t row = psum.elements_per_row;
    double same = 0;
    for (int mask = 0; mask < (1 << n_outer); ++mask) {
        double mult = 1;
        Index x = first, y = last;
        std::array<std::int64_t, 4> step{}, count{1, 1, 1, 1};
        bool empty = false;
        for (int j = 0; j < n_outer; ++j) {
            const LoopDim d = outer[static_cast<std::size_t>(j)];
            const Split sp = split_of(extent(l, d), t[d]);
            if ((mask >> j) & 1) {  // the last tile along d
                x[at(d)] = y[at(d)] = sp.count_a;
            } else if (sp.count_a == 0) {
                empty = true;
            } else {  // full tiles 0 .. count_a - 1
                mult *= static_cast<double>(sp.count_a);
                step[output_axis(d)] = t[d];
                count[output_axis(d)] = sp.count_a;
            }
        }
        if (empty) continue;
        const std::int64_t a = output_ends(l, t, out, x).last;
        const std::int64_t b = output_ends(l, t, out, y).first;
        const std::int64_t lo = std::min(a, b), gap = std::abs(a - b);
        if (gap >= row) continue;
        const Shape s = out.order == LayoutOrder::row_aligned
                            ? row_aligned_starts(output_dims(l), out, step, count)
                            : tensor_shape(output_dims(l), out, TensorBox{}, step, count);
        same += mult * (2.0 - spanned(gap + 1, row, s.gen.data(), s.gens, lo));
    }
    return same;
}

}  // namespace

namespace {

double spill_rows(const PartLayer& layer, const Tiling& tiling, const Index& n, DataLayout out,
                  const DramGeometry& psum, const LoopOrder& order) {
    const auto& loops = loops_of(order);
    const int pos_c = static_cast<int>(std::find(loops.begin(), loops.end(), LoopDim::C) - loops.begin());
    bool output_inside_c = false;
    for (int p = pos_c + 1; p < static_cast<int>(kLoopDims); ++p)
        output_inside_c = output_inside_c || n[at(loops[static_cast<std::size_t>(p)])] > 1;
    return output_inside_c ? spills_per_advance(layer, tiling, n, out, psum, loops, pos_c) : 0.0;
}

}  // namespace

double spill_rows_per_advance(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                              const Index& n, DataLayout out, const LoopOrder& order) {
    return spill_rows(layer, tiling, n, out, geometry(node, layer.psum_bits), order);
}

std::array<double, kFastOrderCount> spill_rows_per_advance(const PartLayer& layer, const NodeSpec& node,
                                                           const Tiling& tiling, const Index& n,
                                                           DataLayout out) {
    std::array<double, kFastOrderCount> per{};
    const DramGeometry psum = geometry(node, layer.psum_bits);
    for (std::size_t o = 0; o < kFastOrderCount; ++o)
        per[o] = spill_rows(layer, tiling, n, out, psum, kFastOrders[o]);
    return per;
}

OpenRowHits open_row_hits(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling, const Index& n,
                          DataLayout in, DataLayout out, double spills_per_c_advance) {
    OpenRowHits hits;
    const auto& loops = loops_of(tiling.order);
    int inner = -1;
    for (int p = 0; p < static_cast<int>(kLoopDims); ++p)
        if (n[at(loops[static_cast<std::size_t>(p)])] > 1) inner = p;
    if (inner < 0) return hits;  // one step: nothing follows anything of its own region
    const LoopDim d = loops[static_cast<std::size_t>(inner)];
    const DramGeometry data = geometry(node, layer.data_bits);
    if (relevant(layer, Tensor::weight, d) && !relevant(layer, Tensor::input, d)) {
        Index second{};
        second[at(d)] = 1;
        if (same_row(weight_ends(layer, tiling, n, in, Index{}).last,
                     weight_ends(layer, tiling, n, in, second).first, data.elements_per_row))
            hits.weight = 1;
    }
    if (relevant(layer, Tensor::output, d)) {
        Index last{}, before{};
        for (std::size_t i = 0; i < kLoopDims; ++i) last[i] = before[i] = std::max<std::int64_t>(n[i] - 1, 0);
        --before[at(d)];
        if (same_row(output_ends(layer, tiling, out, before).last,
                     output_ends(layer, tiling, out, last).first, data.elements_per_row))
            hits.output_writes = 1;
    }
    const std::int64_t spills =
        std::llround(spills_per_c_advance * static_cast<double>(n[at(LoopDim::C)] - 1));
    hits.output_writes += spills;
    hits.read_write_turns = spills;
    return hits;
}

}  // namespace pimdse::sim::detail
