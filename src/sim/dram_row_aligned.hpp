#pragma once
// The DRAM model's cost of fetching boxes of a tensor in the row-aligned layout RA[bh x bw]
// (PIM Optimizer 8.1.1, Eq. 52-56): the box's H and W ranges cut at block boundaries into
// pieces, each piece pair a rectangle inside one block, every block its own DRAM rows.
// Internal to the sim module, beside dram_shape.hpp, whose shape costs price a rectangle.

#include <array>
#include <cstdint>
#include <numeric>

#include "dram_shape.hpp"

namespace pimdse::sim::detail {

// A range inside one block: offset from the block's start and length.
struct Piece {
    std::int64_t off = 0;
    std::int64_t len = 0;
    double weight = 0;  // how many of the averaged tiles' ranges contain it
};

// Up to this many distinct pieces per axis; beyond, the rest are merged into the nearest
// kind by length (never reached by power-of-two tiles: their starts have few residues).
inline constexpr std::size_t kMaxPieces = 48;

struct Pieces {
    std::array<Piece, kMaxPieces> p{};
    std::size_t n = 0;

    void add(std::int64_t off, std::int64_t len, double weight) {
        for (std::size_t i = 0; i < n; ++i)
            if (p[i].off == off && p[i].len == len) {
                p[i].weight += weight;
                return;
            }
        if (n < kMaxPieces) {
            p[n++] = {off, len, weight};
            return;
        }
        p[n - 1].weight += weight;  // overflow: counted with the last kind
    }
};

// The pieces of the ranges [first + i step, first + i step + len) for 0 <= i < count cut at
// multiples of `block`, each weighted by its number of occurrences. The cut depends on the
// start modulo `block` only, which repeats every block / gcd(step, block) tiles (the GCD rule
// of PIM Optimizer Eq. 58), so one period is enumerated and weighted.
inline Pieces pieces_of(std::int64_t first, std::int64_t step, std::int64_t count, std::int64_t len,
                        std::int64_t block) {
    Pieces out;
    const std::int64_t period = step == 0 ? 1 : block / std::gcd(step % block == 0 ? block : step, block);
    const std::int64_t distinct = std::min(count, period);
    for (std::int64_t i = 0; i < distinct; ++i) {
        const double weight = static_cast<double>((count - i + period - 1) / period);
        const std::int64_t start = (first + i * step) % block;
        const std::int64_t head = std::min(len, block - start);
        out.add(start, head, weight);
        const std::int64_t rest = len - head;
        if (rest >= block) out.add(0, block, weight * static_cast<double>(rest / block));
        if (rest % block != 0) out.add(0, rest % block, weight);
    }
    return out;
}

// Mean accesses and rows of one tile of `box` in RA layout `l` over the tiles whose starts
// move by step[i] along axis i (b, c, h, w) count[i] times. Each (b, c) plane and each block
// is its own rows (a block is whole rows: check_mapping), so the cost is the sum over the
// (h piece, w piece) rectangles, each priced as a two-level shape inside its block.
inline Cost row_aligned_cost(DataLayout l, const TensorBox& box, const std::array<std::int64_t, 4>& step,
                             const std::array<std::int64_t, 4>& count, const DramGeometry& g) {
    const Pieces ph = pieces_of(box.h0, step[2], count[2], box.nh, l.block_h);
    const Pieces pw = pieces_of(box.w0, step[3], count[3], box.nw, l.block_w);
    Cost sum;
    for (std::size_t i = 0; i < ph.n; ++i)
        for (std::size_t j = 0; j < pw.n; ++j) {
            Shape s;
            s.push(l.block_h, ph.p[i].len);
            s.push(l.block_w, pw.p[j].len);
            s.finish_strides();
            s.origin = ph.p[i].off * l.block_w + pw.p[j].off;
            const Cost c = shape_cost(s, g);
            const double w = ph.p[i].weight * pw.p[j].weight;
            sum.accesses += w * c.accesses;
            sum.activations += w * c.activations;
        }
    const double per = static_cast<double>(box.nb * box.nc) /
                       (static_cast<double>(count[2]) * static_cast<double>(count[3]));
    return {sum.accesses * per, sum.activations * per};
}

// The progressions of the start offsets of tiles moving by step[i] along axis i, count[i]
// times (the generators of tensor_shape for RA): whole blocks when a step is a multiple of
// the block, else its offset inside the block (exact while the tiles stay in one block).
inline Shape row_aligned_starts(const TensorDims& d, DataLayout l, const std::array<std::int64_t, 4>& step,
                                const std::array<std::int64_t, 4>& count) {
    Shape s;
    const std::int64_t plane = channel_stride(d, l), block = std::int64_t{l.block_h} * l.block_w;
    s.generator(step[0] * d.C * plane, count[0]);
    s.generator(step[1] * plane, count[1]);
    s.generator(step[2] % l.block_h == 0 ? step[2] / l.block_h * blocks_w(d, l) * block : step[2] * l.block_w,
                count[2]);
    s.generator(step[3] % l.block_w == 0 ? step[3] / l.block_w * block : step[3], count[3]);
    return s;
}

}  // namespace pimdse::sim::detail
