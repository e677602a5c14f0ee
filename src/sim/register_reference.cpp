#include "pimdse/sim/register_reference.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <unordered_set>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/core/units.hpp"

namespace pimdse::sim {
namespace {

// Loop indices b, k, c, p, q, r, s (LoopDim order).
constexpr std::size_t kAll = kLoopDims;
using Index = std::array<std::int64_t, kAll>;

// Whether operand `t` is indexed by loop `i` (R and S index the input and the weights).
bool indexes(const PartLayer& l, Tensor t, std::size_t i) {
    return relevant(l, t, static_cast<LoopDim>(i));
}

// The element of `t` a MAC at `x` uses, as one number: 8 bits per index (7 x 8 = 56 bits),
// enough for the small part-layers a brute-force reference can step through.
constexpr std::int64_t kIndexBase = 256;
std::int64_t key(const PartLayer& l, Tensor t, const Index& x) {
    std::int64_t k = 0;
    for (std::size_t i = 0; i < kAll; ++i) k = k * kIndexBase + (indexes(l, t, i) ? x[i] + 1 : 0);
    return k;
}

/// One cycle of a tile's temporal nest: the tile's and the step's indices, the tile's sizes,
/// each loop's step (PEs along the unrolled loops) and the loops unrolled on rows and columns.
struct Cycle {
    const std::array<std::int64_t, kAll>& t_idx;
    const std::array<std::int64_t, kAll>& s_idx;
    const std::array<std::int64_t, kAll>& tile;
    const std::array<std::int64_t, kAll>& unit;
    const std::array<std::int64_t, kAll>& size;
    std::size_t row;
    std::size_t col;
};

/// What one operand costs in one cycle: the PEs that fill their register with it and the
/// distinct elements read from its buffer for them; `old_*` the same restricted to elements
/// in `before` (outputs accumulated in an earlier cycle).
struct CycleReads {
    std::int64_t fills = 0;
    std::int64_t distinct = 0;
    std::int64_t old_fills = 0;
    std::int64_t old_distinct = 0;
};

std::int64_t distinct_count(std::vector<std::int64_t>& v) {
    std::sort(v.begin(), v.end());
    return static_cast<std::int64_t>(std::unique(v.begin(), v.end()) - v.begin());
}

/// The elements of `t` the busy PEs need in one cycle (left distinct in `needed`). A
/// stationary operand fills only a PE whose register holds another element (`reg`, per PE,
/// updated); the others fill every busy PE. Each distinct element filled is one buffer read.
CycleReads cycle_reads(const PartLayer& layer, const NodeSpec& node, Tensor t, bool stationary,
                       const Cycle& c, std::vector<std::int64_t>& reg, std::vector<std::int64_t>& needed,
                       const std::unordered_set<std::int64_t>& before) {
    CycleReads out;
    needed.clear();
    std::vector<std::int64_t> old;
    for (std::int64_t a = 0; a < node.pe_rows; ++a)
        for (std::int64_t b = 0; b < node.pe_cols; ++b) {
            Index x{};
            bool busy = true;
            for (std::size_t i = 0; i < kAll; ++i) {
                const std::int64_t lane = i == c.row ? a : i == c.col ? b : 0;
                const std::int64_t within = c.s_idx[i] * c.unit[i] + lane;
                busy = busy && within < c.size[i];
                x[i] = c.t_idx[i] * c.tile[i] + within;
            }
            if (!busy) continue;
            const std::int64_t k = key(layer, t, x);
            if (stationary) {
                std::int64_t& r = reg[static_cast<std::size_t>(a * node.pe_cols + b)];
                if (r == k) continue;
                r = k;
            }
            ++out.fills;
            needed.push_back(k);
            if (before.contains(k)) {
                ++out.old_fills;
                old.push_back(k);
            }
        }
    out.distinct = distinct_count(needed);
    needed.resize(static_cast<std::size_t>(out.distinct));
    out.old_distinct = distinct_count(old);
    return out;
}

// Adds one cycle's reads of `t` to `out`. Every accumulation writes the obuf and drains its
// PEs; only one into an output accumulated in an earlier cycle reads it and fills a register.
void add(BufferReads& out, Tensor t, const CycleReads& r) {
    if (t == Tensor::input) {
        out.input += r.distinct;
        out.input_fills += r.fills;
    } else if (t == Tensor::weight) {
        out.weight += r.distinct;
        out.weight_fills += r.fills;
    } else {
        out.psum += r.distinct;
        out.psum_drains += r.fills;
        out.psum_reads += r.old_distinct;
        out.psum_fills += r.old_fills;
    }
}

}  // namespace

BufferReads simulate_buffer_reads(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                  PeDataflow dataflow) {
    const Tensor st = stationary_tensor(dataflow);
    const std::array<Tensor, 3> tensors{Tensor::input, Tensor::weight, Tensor::output};
    std::array<std::int64_t, kAll> ext{};
    std::array<std::int64_t, kAll> tile{};
    for (std::size_t i = 0; i < kAll; ++i) {
        ext[i] = extent(layer, static_cast<LoopDim>(i));
        tile[i] = tiling.tile[i];
    }
    for (std::int64_t e : ext)
        if (e >= kIndexBase - 1) throw ModelError("simulate_buffer_reads: loop bounds must be below 255");
    const auto row = static_cast<std::size_t>(tiling.unroll.row);
    const auto col = static_cast<std::size_t>(tiling.unroll.col);
    std::array<std::int64_t, kAll> unit{};
    unit.fill(1);
    unit[row] = node.pe_rows;
    unit[col] = node.pe_cols;
    // Temporal loops of a tile, outer to inner: the stationary operand's own loops, then the others.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < kAll; ++i)
        if (indexes(layer, st, i)) order.push_back(i);
    for (std::size_t i = 0; i < kAll; ++i)
        if (!indexes(layer, st, i)) order.push_back(i);

    BufferReads out;
    std::array<std::int64_t, kAll> n_tiles{};
    for (std::size_t i = 0; i < kAll; ++i) n_tiles[i] = ceil_div(ext[i], tile[i]);
    const auto lanes = static_cast<std::size_t>(node.pe_rows) * static_cast<std::size_t>(node.pe_cols);
    std::array<std::int64_t, kAll> t_idx{};
    std::unordered_set<std::int64_t> accumulated;  // outputs with a partial sum
    while (true) {
        // One tile: its extents, empty registers, every cycle of its temporal nest.
        std::array<std::int64_t, kAll> size{};
        std::array<std::int64_t, kAll> steps{};
        for (std::size_t i = 0; i < kAll; ++i) {
            size[i] = std::min(tile[i], ext[i] - t_idx[i] * tile[i]);
            steps[i] = ceil_div(size[i], unit[i]);
        }
        std::vector<std::int64_t> reg(lanes, -1);
        std::array<std::int64_t, kAll> s_idx{};
        std::vector<std::int64_t> needed;
        while (true) {
            const Cycle cycle{t_idx, s_idx, tile, unit, size, row, col};
            for (const Tensor t : tensors) {
                add(out, t, cycle_reads(layer, node, t, t == st, cycle, reg, needed, accumulated));
                if (t == Tensor::output) accumulated.insert(needed.begin(), needed.end());
            }
            // Next cycle: the innermost loop of `order` advances first.
            std::size_t j = order.size();
            while (j > 0) {
                const std::size_t i = order[j - 1];
                if (++s_idx[i] < steps[i]) break;
                s_idx[i] = 0;
                --j;
            }
            if (j == 0) break;
        }
        std::size_t i = 0;
        for (; i < kAll; ++i) {
            if (++t_idx[i] < n_tiles[i]) break;
            t_idx[i] = 0;
        }
        if (i == kAll) break;
    }
    return out;
}

}  // namespace pimdse::sim
