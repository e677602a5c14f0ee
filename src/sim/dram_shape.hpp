#pragma once
// The DRAM model's geometry of one fetch: a tile of a tensor as
// nested layout levels and the progressions its start moves by between tiles, and what
// such a shape costs in port-wide accesses and row activations, averaged over the starts.
// Internal to the sim module: dram.cpp sums these costs over a part-layer's tiles and
// dram_open_row.cpp asks where a fetch's first row meets the previous fetch's last. Inline:
// the intra-node search's inner loops call these for every tiling it tries.

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/dram.hpp"
#include "pimdse/sim/intra_node_tiling.hpp"

namespace pimdse::sim::detail {

// One level of a layout's nesting, outer to inner: the tensor's extent along it, the box's
// extent, and the element stride (the product of the inner extents: layouts are dense).
struct Level {
    std::int64_t ext = 1;
    std::int64_t box = 1;
    std::int64_t stride = 1;
};

// An arithmetic progression of start offsets: `count` starts `offset` apart.
struct Progression {
    std::int64_t offset = 0;
    std::int64_t count = 1;
};

// The levels of a box plus the progressions by which the box's start varies between the
// tiles it stands for (PIM Optimizer 5.5.4: alignment decides how often a window crosses a
// word or row boundary).
struct Shape {
    std::array<Level, 5> level{};
    int levels = 0;
    std::array<Progression, 8> gen{};
    int gens = 0;
    std::int64_t origin = 0;  // offset of the first box's start

    void push(std::int64_t ext, std::int64_t box) {
        level[static_cast<std::size_t>(levels++)] = {ext, box, 1};
    }
    void generator(std::int64_t offset, std::int64_t count) {
        if (offset > 0 && count > 1) gen[static_cast<std::size_t>(gens++)] = {offset, count};
    }
    void finish_strides() {
        std::int64_t s = 1;
        for (int i = levels - 1; i >= 0; --i) {
            level[static_cast<std::size_t>(i)].stride = s;
            s *= level[static_cast<std::size_t>(i)].ext;
        }
    }
};

struct Cost {
    double accesses = 0;
    double activations = 0;
};

// sum_{i=0}^{n-1} floor((a i + b) / m) for a, b >= 0, m >= 1 (the classic Euclid-like
// reduction: strip the integer parts, then swap the roles of a and m).
inline std::int64_t floor_sum(std::int64_t n, std::int64_t m, std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    while (n > 0) {
        if (a >= m) {
            sum += n * (n - 1) / 2 * (a / m);
            a %= m;
        }
        if (b >= m) {
            sum += n * (b / m);
            b %= m;
        }
        const std::int64_t y = a * n + b;
        if (y < m) break;
        n = y / m;
        b = y % m;
        std::swap(m, a);
    }
    return sum;
}

inline constexpr std::int64_t kEnumerated = 64;

// Mean number of `unit`-sized aligned blocks (words or rows) an interval of `length`
// elements touches, over all starts origin + sum_i j_i offset_i (0 <= j_i < count_i).
// Progressions aligned to `unit` change nothing. The unaligned one with the most starts is
// summed exactly (floor_sum); the next ones are enumerated while their starts number at
// most kEnumerated; any others are taken as spread evenly over their residues modulo
// g = gcd(unit, offsets), where Hermite's identity gives sum_k floor((y + k g) / unit) =
// floor(y / g).
inline double spanned(std::int64_t length, std::int64_t unit, const Progression* gens, int n_gens,
                      std::int64_t origin) {
    std::array<Progression, 16> p{};
    int n = 0;
    for (int i = 0; i < n_gens; ++i) {
        if (gens[i].offset % unit != 0)
            p[static_cast<std::size_t>(n++)] = {gens[i].offset % unit, gens[i].count};
    }
    std::sort(p.begin(), p.begin() + n,
              [](const Progression& a, const Progression& b) { return a.count > b.count; });
    if (n == 0) {
        const std::int64_t o = origin % unit;
        return 1.0 + static_cast<double>((o + length - 1) / unit - o / unit);
    }
    // p[0] exact; p[1..e) enumerated; p[e..n) uniform.
    int e = 1;
    std::int64_t combos = 1;
    while (e < n && combos * p[static_cast<std::size_t>(e)].count <= kEnumerated)
        combos *= p[static_cast<std::size_t>(e++)].count;
    std::int64_t g = unit;
    for (int i = e; i < n; ++i) g = std::gcd(g, p[static_cast<std::size_t>(i)].offset);
    const std::int64_t m = unit / g;
    const Progression x = p[0];
    std::int64_t crossings = 0;
    std::array<std::int64_t, 16> j{};
    for (std::int64_t c = 0; c < combos; ++c) {
        std::int64_t o = origin;
        for (int i = 1; i < e; ++i)
            o += j[static_cast<std::size_t>(i)] * p[static_cast<std::size_t>(i)].offset;
        o %= unit;
        crossings += floor_sum(x.count, g, x.offset, o + length - 1) - floor_sum(x.count, g, x.offset, o);
        for (int i = 1; i < e; ++i) {
            if (++j[static_cast<std::size_t>(i)] < p[static_cast<std::size_t>(i)].count) break;
            j[static_cast<std::size_t>(i)] = 0;
        }
    }
    return 1.0 + static_cast<double>(crossings) /
                     (static_cast<double>(x.count) * static_cast<double>(combos) * static_cast<double>(m));
}

// Accesses: one burst per contiguous run, each covering the aligned words it spans.
// Rows: the runs merge into blocks as long as the gap to the next run is shorter than a
// row (then every row in between is touched); blocks separated by a row or more never share
// one. Words per run and rows per block are averaged over the starts (spanned()).
inline Cost shape_cost(const Shape& s, const DramGeometry& g) {
    int r = s.levels - 1;
    while (r > 0 && s.level[static_cast<std::size_t>(r)].box == s.level[static_cast<std::size_t>(r)].ext) --r;
    const Level& run_level = s.level[static_cast<std::size_t>(r)];
    const std::int64_t run = run_level.box * run_level.stride;

    std::array<Progression, 16> gens{};
    int n = 0;
    for (int i = 0; i < s.gens; ++i) gens[static_cast<std::size_t>(n++)] = s.gen[static_cast<std::size_t>(i)];
    const int tile_gens = n;
    double runs = 1;
    for (int i = 0; i < r; ++i) {
        const Level& l = s.level[static_cast<std::size_t>(i)];
        if (l.box > 1) {
            runs *= static_cast<double>(l.box);
            gens[static_cast<std::size_t>(n++)] = {l.stride, l.box};
        }
    }
    Cost c;
    c.accesses = runs * spanned(run, g.elements_per_access, gens.data(), n, s.origin);

    n = tile_gens;
    std::int64_t span = run;
    bool dense = true;
    double blocks = 1;
    for (int i = r - 1; i >= 0; --i) {
        const Level& l = s.level[static_cast<std::size_t>(i)];
        if (l.box == 1) continue;
        if (dense && l.stride - span < g.elements_per_row) {
            span += (l.box - 1) * l.stride;
            continue;
        }
        dense = false;
        blocks *= static_cast<double>(l.box);
        gens[static_cast<std::size_t>(n++)] = {l.stride, l.box};
    }
    c.activations = blocks * spanned(span, g.elements_per_row, gens.data(), n, s.origin);
    return c;
}

// A box of a 4-D activation tensor as layout levels. Along dim i (b, c, h, w) the box
// stands for count[i] tiles whose starts are step[i] indices apart.
inline Shape tensor_shape(const TensorDims& d, DataLayout l, const TensorBox& box,
                          const std::array<std::int64_t, 4>& step, const std::array<std::int64_t, 4>& count) {
    Shape s;
    if (l.order == LayoutOrder::bhwc) {
        s.push(d.B, box.nb);
        s.push(d.H, box.nh);
        s.push(d.W, box.nw);
        s.push(d.C, box.nc);
        s.finish_strides();
        const std::int64_t st[] = {s.level[0].stride, s.level[3].stride, s.level[1].stride,
                                   s.level[2].stride};
        for (std::size_t i = 0; i < 4; ++i) s.generator(step[i] * st[i], count[i]);
        s.origin = element_offset(d, l, box.b0, box.c0, box.h0, box.w0);
        return s;
    }
    const std::int64_t n = l.group;
    const std::int64_t groups = stored_channels(d, l) / n;
    // A channel range either covers whole groups (aligned, padding read with the last group)
    // or lies inside one group; the mapper's tiles (powers of two or the whole C) always do.
    const bool reaches_end = box.c0 + box.nc == d.C;
    const std::int64_t c_end = reaches_end ? groups * n : box.c0 + box.nc;
    const bool aligned = box.c0 % n == 0 && c_end % n == 0;
    const std::int64_t gbox = aligned ? (c_end - box.c0) / n : (c_end - 1) / n - box.c0 / n + 1;
    const std::int64_t inner = aligned ? n : (gbox == 1 ? c_end - box.c0 : n);
    s.push(d.B, box.nb);
    s.push(groups, gbox);
    s.push(d.H, box.nh);
    s.push(d.W, box.nw);
    s.push(n, inner);
    s.finish_strides();
    s.generator(step[0] * s.level[0].stride, count[0]);
    if (step[1] % n == 0) {
        s.generator(step[1] / n * s.level[1].stride, count[1]);
    } else if (count[1] * step[1] <= n) {
        s.generator(step[1], count[1]);
    } else {  // tiles inside groups, several groups: within a group, then group to group
        s.generator(step[1], n / step[1]);
        s.generator(s.level[1].stride, count[1] * step[1] / n);
    }
    s.generator(step[2] * s.level[2].stride, count[2]);
    s.generator(step[3] * s.level[3].stride, count[3]);
    s.origin = element_offset(d, l, box.b0, box.c0, box.h0, box.w0);
    return s;
}

// The tiles of one loop dim: `first` tiles of size a (at steps of `step`), then one of size b.
struct Split {
    std::int64_t count_a = 0;
    std::int64_t a = 0;
    std::int64_t b = 0;
    std::int64_t step = 0;  // 0 when there is a single tile
};

inline Split split_of(std::int64_t extent, std::int64_t tile) {
    const std::int64_t n = ceil_div(extent, tile);
    return {n - 1, tile, extent - (n - 1) * tile, n > 1 ? tile : 0};
}

// Input rows of output tiles: tile i covers outputs [i t, i t + t) and needs input rows
// [i t s, i t s + (t - 1) s + R), clipped to the input extent.
inline Split halo_split(std::int64_t outputs, std::int64_t tile, std::int32_t stride, std::int64_t kernel,
                        std::int64_t input) {
    const Split o = split_of(outputs, tile);
    const std::int64_t last_start = o.count_a * tile * stride;
    const std::int64_t last = std::min(input - last_start, (o.b - 1) * stride + kernel);
    return {o.count_a, halo_extent(tile, stride, kernel, input), last, o.count_a > 0 ? tile * stride : 0};
}

}  // namespace pimdse::sim::detail
