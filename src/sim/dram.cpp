#include "pimdse/sim/dram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "dram_open_row.hpp"
#include "dram_row_aligned.hpp"
#include "dram_shape.hpp"
#include "pimdse/core/units.hpp"

namespace pimdse::sim {

using detail::Cost;
using detail::halo_split;
using detail::Shape;
using detail::shape_cost;
using detail::Split;
using detail::split_of;
using detail::tensor_shape;

DramGeometry geometry(const NodeSpec& node, std::int32_t bits) noexcept {
    return {node.dram_port_bits / bits, node.row_buffer.value() * 8 / bits};
}

std::int64_t DramTraffic::accesses() const noexcept {
    std::int64_t a = 0;
    for (const TensorTraffic& t : tensor) a += t.read_accesses + t.write_accesses;
    return a;
}

std::int64_t DramTraffic::activations() const noexcept {
    std::int64_t a = 0;
    for (const TensorTraffic& t : tensor) a += t.activations;
    return a;
}

double refresh_interruptions(const NodeSpec& node, double accesses, double activations) noexcept {
    // A refresh at a uniformly random instant of the stream costs tRFC, and on top: half a
    // tRP when it falls in a row's precharge; tRAS + tRP in the tRCD before the row's first
    // column (the row must stay open tRAS, then closes and re-opens); tRTP - tCCD_L + tRP +
    // tRCD in a tCCD_L between two columns (precharge after the read, re-open the row). The
    // tRFC share is the stretch F; the rest, integrated over the stream's time, is E, and
    // refreshes come every tREFI of the stretched time F x T, so they add F^2 E / tREFI
    // (the first order in E / tREFI of T / (1 - tRFC / tREFI - E / (T tREFI))).
    const double p = node.precharge_cycles, d = node.activate_cycles, c = node.access_cycles;
    const double e = activations * (p * p / 2 + d * (node.ras_cycles + p)) +
                     (accesses - activations) * c * (node.read_precharge_cycles - c + p + d);
    const double f = node.refresh_factor;
    return f * f * e / node.refresh_interval_cycles;
}

double short_row_wait(const NodeSpec& node, const TensorTraffic& t) noexcept {
    // A row of a accesses closed after a read spends tRCD + (a - 1) tCCD_L + tRTP from its
    // activation to its precharge (tWP after a write); tRAS holds it open for the rest.
    // The rest falls with a: the loop stops at the first row length tRAS no longer holds.
    double wait = 0;
    for (std::size_t w = 0; w < 2; ++w) {
        const double close = w == 0 ? node.read_precharge_cycles : node.write_precharge_cycles;
        for (std::size_t a = 0; a < kShortRowAccesses; ++a) {
            const double rest =
                node.ras_cycles - node.activate_cycles - close - static_cast<double>(a) * node.access_cycles;
            if (rest <= 0) break;
            wait += static_cast<double>(t.short_rows[w][a]) * rest;
        }
    }
    return wait;
}

Cycles dram_cycles(const NodeSpec& node, double accesses, double activations, double write_activations,
                   double short_row_wait) noexcept {
    // Per row: tRCD to its first column, tCCD_L between columns, tRTP (read) or the write
    // recovery (write) from its last column to the precharge; at least tRAS from ACT to PRE.
    const double columns = activations * node.activate_cycles +
                           (accesses - activations) * node.access_cycles +
                           (activations - write_activations) * node.read_precharge_cycles +
                           write_activations * node.write_precharge_cycles;
    // The short rows' wait for tRAS is counted row by row; the max with N tRAS stands for
    // rows longer than the ones counted (none on HBM timing).
    const double open = std::max(activations * node.ras_cycles, columns + short_row_wait);
    return Cycles(node.refresh_factor * (activations * node.precharge_cycles + open) +
                  refresh_interruptions(node, accesses, activations));
}

Cycles DramTraffic::cycles(const NodeSpec& node) const noexcept {
    // Per tensor: tRAS binds only on the short rows, which each tensor counts by length.
    Cycles c{0};
    for (const TensorTraffic& t : tensor) {
        // A row's precharge waits after its last column: a row that a read opened and a write
        // continued (a spill in its reload's row) closes after a write, and the other way round.
        const auto closed_by_writes = static_cast<double>(std::clamp(
            t.write_activations + t.read_write_turns - t.write_read_turns, std::int64_t{0}, t.activations));
        c += dram_cycles(node, static_cast<double>(t.read_accesses + t.write_accesses),
                         static_cast<double>(t.activations), closed_by_writes, short_row_wait(node, t));
        // A turnaround replaces one tCCD_L between columns of an open row.
        c +=
            Cycles(node.refresh_factor *
                   (static_cast<double>(t.read_write_turns) * (node.read_write_cycles - node.access_cycles) +
                    static_cast<double>(t.write_read_turns) * (node.write_read_cycles - node.access_cycles)));
    }
    // The stream's ends: its first row finds the bank precharged (no tRP), and its time ends
    // with the last burst of the final write-back, before that row's write recovery.
    const TensorTraffic& out = tensor[static_cast<std::size_t>(Tensor::output)];
    if (out.write_activations > 0)
        c -= Cycles(node.refresh_factor *
                    (node.precharge_cycles + node.write_precharge_cycles - node.access_cycles));
    return c;
}

namespace {

// The cached sums of `key` in `slot`, computed by `compute(store)` on a miss (or always,
// without a cache), where `store` is the cache's shared store or null.
template <class F>
TileSums cached(TileSumsCache* cache, std::size_t slot, const TileSumsCache::Key& key, F&& compute) {
    if (cache == nullptr) return compute(static_cast<TileSumsStore*>(nullptr));
    auto& entries = cache->entries[slot];
    for (const auto& [k, v] : entries)
        if (k == key) return v;
    const TileSums t = compute(cache->store);
    entries.emplace_back(key, t);
    return t;
}

// The open-row spills of `key` (the output tiles), computed by `compute()` on a miss (or
// always, without a cache).
template <class F>
std::array<double, kFastOrderCount> cached_spills(TileSumsCache* cache, const TileSumsCache::Key& key,
                                                  F&& compute) {
    if (cache == nullptr) return compute();
    for (const auto& [k, v] : cache->open_row_spills)
        if (k == key) return v;
    const std::array<double, kFastOrderCount> v = compute();
    cache->open_row_spills.emplace_back(key, v);
    return v;
}

// The sums in `store` under the key of `kind`, `dims`, `layout`, `g` and `sp`, computed by
// `compute` and stored on a miss; computed alone without a store or when a value of the key
// does not fit in 32 bits.
template <class F>
TileSums stored(TileSumsStore* store, std::int32_t kind, const std::array<std::int64_t, 4>& dims,
                const std::array<std::int64_t, 2>& layout, const DramGeometry& g,
                const std::array<Split, 4>& sp, F&& compute) {
    if (store == nullptr) return compute();
    TileSumsStore::Key key{};
    std::size_t i = 0;
    bool fit = true;
    const auto put = [&](std::int64_t v) {
        fit = fit && v >= std::numeric_limits<std::int32_t>::min() &&
              v <= std::numeric_limits<std::int32_t>::max();
        key[i++] = static_cast<std::int32_t>(v);
    };
    put(kind);
    for (const std::int64_t d : dims) put(d);
    put(layout[0]);
    put(layout[1]);
    put(g.elements_per_access);
    put(g.elements_per_row);
    for (const Split& x : sp) {
        put(x.count_a);
        put(x.a);
        put(x.b);
        put(x.step);
    }
    if (!fit) return compute();
    if (const TileSums* t = store->find(key)) return *t;
    const TileSums t = compute();
    store->insert(key, t);
    return t;
}

// Adds `mult` tiles of cost `c` to `t`: elements, accesses, rows, and the short rows, the
// tile's rows spread over the two whole access counts nearest their mean (accesses / rows).
void add_tiles(TileSums& t, double mult, double elements, const Cost& c) {
    t.elements += mult * elements;
    t.accesses += mult * c.accesses;
    t.activations += mult * c.activations;
    t.tiles += mult;
    if (c.activations <= 0) return;
    const double mean = std::max(1.0, c.accesses / c.activations);
    const double lo = std::floor(mean);
    const double frac = mean - lo;
    const auto at = static_cast<std::size_t>(lo);
    if (at <= kShortRowAccesses) t.short_rows[at - 1] += mult * c.activations * (1 - frac);
    if (at < kShortRowAccesses) t.short_rows[at] += mult * c.activations * frac;
}

// Sum of a cost over the distinct tiles of a 4-D tensor: every combination of full and
// last tiles along the four dims, weighted by how many tiles share it.
TileSums tensor_totals_of(const TensorDims& d, DataLayout l, const std::array<Split, 4>& sp,
                          const DramGeometry& g) {
    TileSums t;
    for (int mask = 0; mask < 16; ++mask) {
        double mult = 1;
        std::array<std::int64_t, 4> size{}, first{}, step{}, count{};
        bool empty = false;
        for (std::size_t i = 0; i < 4; ++i) {
            if ((mask >> i) & 1) {  // the last tile
                size[i] = sp[i].b;
                first[i] = sp[i].count_a * sp[i].step;
                count[i] = 1;
            } else {
                if (sp[i].count_a == 0) {
                    empty = true;
                    break;
                }
                size[i] = sp[i].a;
                step[i] = sp[i].step;
                count[i] = sp[i].count_a;
                mult *= static_cast<double>(sp[i].count_a);
            }
        }
        if (empty) continue;
        const TensorBox box{first[0], size[0], first[1], size[1], first[2], size[2], first[3], size[3]};
        const Cost c = l.order == LayoutOrder::row_aligned
                           ? detail::row_aligned_cost(l, box, step, count, g)
                           : shape_cost(tensor_shape(d, l, box, step, count), g);
        add_tiles(t, mult, static_cast<double>(size[0] * size[1] * size[2] * size[3]), c);
    }
    return t;
}

// tensor_totals_of through `store`.
TileSums tensor_totals(TileSumsStore* store, const TensorDims& d, DataLayout l,
                       const std::array<Split, 4>& sp, const DramGeometry& g) {
    // RA's block enters the key as its two exponents (the group is 1 there).
    const std::int64_t shape = l.order == LayoutOrder::row_aligned
                                   ? std::countr_zero(static_cast<std::uint32_t>(l.block_h)) * 64 +
                                         std::countr_zero(static_cast<std::uint32_t>(l.block_w))
                                   : l.group;
    return stored(store, 1, {d.B, d.C, d.H, d.W}, {static_cast<std::int64_t>(l.order), shape}, g, sp,
                  [&] { return tensor_totals_of(d, l, sp, g); });
}

// Weight tiles are stored as contiguous blocks in fetch order, one block per (K, C) tile at
// a stride of the full tile's size (NicePIM III-E: weights are re-arranged offline).
TileSums weight_totals_of(const Split& k, const Split& c, std::int64_t rs, const DramGeometry& g) {
    const std::int64_t block = k.a * c.a * rs;
    const std::int64_t nc = c.count_a + 1;
    TileSums t;
    for (int mask = 0; mask < 4; ++mask) {
        const bool k_last = mask & 1;
        const bool c_last = (mask >> 1) & 1;
        if ((!k_last && k.count_a == 0) || (!c_last && c.count_a == 0)) continue;
        const double mult =
            static_cast<double>(k_last ? 1 : k.count_a) * static_cast<double>(c_last ? 1 : c.count_a);
        const std::int64_t elems = (k_last ? k.b : k.a) * (c_last ? c.b : c.a) * rs;
        Shape s;
        s.push(std::numeric_limits<std::int64_t>::max(), elems);
        s.level[0].stride = 1;
        s.origin = ((k_last ? k.count_a : 0) * nc + (c_last ? c.count_a : 0)) * block;
        if (!k_last) s.generator(nc * block, k.count_a);
        if (!c_last) s.generator(block, c.count_a);
        add_tiles(t, mult, static_cast<double>(elems), shape_cost(s, g));
    }
    return t;
}

// weight_totals_of of `layer` under `tiling` through `store`.
TileSums weight_totals(TileSumsStore* store, const PartLayer& layer, const Tiling& tiling,
                       const DramGeometry& g) {
    const Split k = split_of(layer.K, tiling[LoopDim::K]);
    const Split c = layer.depthwise ? Split{0, 1, 1, 0} : split_of(layer.C, tiling[LoopDim::C]);
    const std::int64_t rs = layer.R * layer.S;
    return stored(store, 0, {rs, 0, 0, 0}, {0, 0}, g, {k, c, Split{}, Split{}},
                  [&] { return weight_totals_of(k, c, rs, g); });
}

// Tile visits of a tensor over the nest: a tile is (re)fetched whenever one of its relevant
// loops advances, so the visits are the product of the trip counts from the outermost loop
// down to the innermost relevant loop that has more than one tile. `moves` holds bit d when
// loop d has more than one tile and is relevant to the tensor (relevance_masks).
double visits(const LoopOrder& order, unsigned moves, const std::array<std::int64_t, kLoopDims>& n) {
    double v = 1, at_inner = 1;
    for (const LoopDim d : order.loops) {
        const auto i = static_cast<std::size_t>(d);
        v *= static_cast<double>(n[i]);
        if (((moves >> i) & 1U) != 0) at_inner = v;
    }
    return at_inner;
}

// Per tensor, the bits of the loops with more than one tile that move its tile.
std::array<unsigned, kTensors> relevance_masks(const PartLayer& layer,
                                               const std::array<std::int64_t, kLoopDims>& n) {
    std::array<unsigned, kTensors> m{};
    for (std::size_t t = 0; t < kTensors; ++t)
        for (std::size_t d = 0; d < kLoopDims; ++d)
            if (n[d] > 1 && relevant(layer, static_cast<Tensor>(t), static_cast<LoopDim>(d))) m[t] |= 1U << d;
    return m;
}

// std::llround(x) (half away from zero) for |x| < 2^63, inline: the cast truncates toward
// zero and x minus the truncation is exact in a double (below 2^52 both share x's ulp or
// finer; above, x is an integer), so comparing it with +-0.5 rounds as llround does.
std::int64_t round_half_away(double x) noexcept {
    const auto i = static_cast<std::int64_t>(x);
    const double f = x - static_cast<double>(i);
    return f >= 0.5 ? i + 1 : (f <= -0.5 ? i - 1 : i);
}

void add(TensorTraffic& out, const TileSums& t, double times, bool write) {
    const auto r = round_half_away;
    (write ? out.write_elements : out.read_elements) += r(t.elements * times);
    (write ? out.write_accesses : out.read_accesses) += r(t.accesses * times);
    const std::int64_t rows = r(t.activations * times);
    out.activations += rows;
    if (write) out.write_activations += rows;
    for (std::size_t a = 0; a < kShortRowAccesses; ++a)  // most tensors have no short rows
        if (t.short_rows[a] != 0) out.short_rows[write ? 1 : 0][a] += r(t.short_rows[a] * times);
    out.fetches += r(t.tiles * times);
}

}  // namespace

FetchCount box_fetch(const TensorDims& dims, DataLayout layout, const TensorBox& box,
                     const DramGeometry& g) noexcept {
    const Cost c = layout.order == LayoutOrder::row_aligned
                       ? detail::row_aligned_cost(layout, box, {0, 0, 0, 0}, {1, 1, 1, 1}, g)
                       : shape_cost(tensor_shape(dims, layout, box, {0, 0, 0, 0}, {1, 1, 1, 1}), g);
    return {std::llround(c.accesses), std::llround(c.activations)};
}

namespace {

// dram_traffic of `tiling` under each of `orders` into `result`, with spill_of(i, order) the
// open-row spills per advance of the C loop of the i-th order: the tile sums do not depend
// on the loop order, only how often each tile is visited does.
template <class SpillOf>
void traffic_of_orders(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                       const std::array<std::int64_t, kLoopDims>& n, DataLayout in, DataLayout out,
                       TileSumsCache* cache, const LoopOrder* orders, std::size_t count, DramTraffic* result,
                       SpillOf&& spill_of) {
    const DramGeometry data = geometry(node, layer.data_bits);
    const DramGeometry psum = geometry(node, layer.psum_bits);

    const std::int64_t tb = tiling[LoopDim::B], tk = tiling[LoopDim::K], tc = tiling[LoopDim::C];
    const std::int64_t tp = tiling[LoopDim::P], tq = tiling[LoopDim::Q];
    // Input: B x C_in x H x W in the input layout.
    const std::int64_t tin = layer.depthwise ? tk : tc;  // the input's channel tile
    const TileSums t_in = cached(cache, 0, {tb, tin, tp, tq}, [&](TileSumsStore* store) {
        const std::array<Split, 4> sp{split_of(layer.B, tb), split_of(layer.input_channels(), tin),
                                      halo_split(layer.P, tp, layer.stride_h, layer.R, layer.H),
                                      halo_split(layer.Q, tq, layer.stride_w, layer.S, layer.W)};
        return tensor_totals(store, {layer.B, layer.input_channels(), layer.H, layer.W}, in, sp, data);
    });
    // Weights, or the second operand of an activation matmul (B x C x K x 1, input layout).
    const TileSums t_w = cached(cache, 1, {layer.has_weights ? 0 : tb, tk, tc, 0}, [&](TileSumsStore* store) {
        if (layer.has_weights) return weight_totals(store, layer, tiling, data);
        const std::array<Split, 4> sp{split_of(layer.B, tb), split_of(layer.C, tc), split_of(layer.K, tk),
                                      Split{0, 1, 1, 0}};
        return tensor_totals(store, {layer.B, layer.C, layer.K, 1}, in, sp, data);
    });
    // Output: every tile is written once with data width; a tile visited v times also spills
    // and reloads its partial sums v - 1 times (psum width, ping-pong regions).
    const TensorDims out_dims{layer.B, layer.K, layer.P, layer.Q};
    const std::array<Split, 4> out_split{split_of(layer.B, tb), split_of(layer.K, tk), split_of(layer.P, tp),
                                         split_of(layer.Q, tq)};
    const TileSumsCache::Key out_key{tb, tk, tp, tq};
    const TileSums t_out = cached(cache, 2, out_key, [&](TileSumsStore* store) {
        return tensor_totals(store, out_dims, out, out_split, data);
    });
    TileSums t_psum;
    bool have_psum = false;
    const std::array<unsigned, kTensors> moves = relevance_masks(layer, n);
    const auto visits_of = [&](const LoopOrder& order, Tensor x) {
        return visits(order, moves[static_cast<std::size_t>(x)], n);
    };

    for (std::size_t o = 0; o < count; ++o) {
        Tiling t = tiling;
        t.order = orders[o];
        DramTraffic& traffic = result[o];
        traffic = DramTraffic{};
        add(traffic[Tensor::input], t_in, visits_of(t.order, Tensor::input) / t_in.tiles, false);
        add(traffic[Tensor::weight], t_w, visits_of(t.order, Tensor::weight) / t_w.tiles, false);
        add(traffic[Tensor::output], t_out, 1.0, true);
        const double revisits = visits_of(t.order, Tensor::output) / t_out.tiles - 1.0;
        if (revisits > 0.5) {
            if (!have_psum) {
                t_psum = cached(cache, 3, out_key, [&](TileSumsStore* store) {
                    return tensor_totals(store, out_dims, out, out_split, psum);
                });
                have_psum = true;
            }
            add(traffic[Tensor::output], t_psum, revisits, true);
            add(traffic[Tensor::output], t_psum, revisits, false);
        }
        const detail::OpenRowHits hits =
            detail::open_row_hits(layer, node, t, n, in, out, spill_of(o, t.order));
        traffic[Tensor::weight].activations -= hits.weight;
        TensorTraffic& o_traffic = traffic[Tensor::output];
        o_traffic.activations -= hits.output_writes;
        o_traffic.write_activations -= hits.output_writes;
        o_traffic.read_write_turns += hits.read_write_turns;
    }
}

std::array<std::int64_t, kLoopDims> tile_counts(const PartLayer& layer, const Tiling& tiling) noexcept {
    std::array<std::int64_t, kLoopDims> n{};
    for (std::size_t d = 0; d < kLoopDims; ++d)
        n[d] = ceil_div(extent(layer, static_cast<LoopDim>(d)), tiling.tile[d]);
    return n;
}

}  // namespace

std::array<DramTraffic, kFastOrderCount> dram_traffic_all_orders(const PartLayer& layer, const NodeSpec& node,
                                                                 const Tiling& tiling, DataLayout in,
                                                                 DataLayout out, TileSumsCache* cache) {
    const std::array<std::int64_t, kLoopDims> n = tile_counts(layer, tiling);
    const std::array<double, kFastOrderCount> spills =
        cached_spills(cache, {tiling[LoopDim::B], tiling[LoopDim::K], tiling[LoopDim::P], tiling[LoopDim::Q]},
                      [&] { return detail::spill_rows_per_advance(layer, node, tiling, n, out); });
    std::array<DramTraffic, kFastOrderCount> result{};
    traffic_of_orders(layer, node, tiling, n, in, out, cache, kFastOrders.data(), kFastOrderCount,
                      result.data(), [&](std::size_t o, const LoopOrder&) { return spills[o]; });
    return result;
}

std::vector<DramTraffic> dram_traffic_orders(const PartLayer& layer, const NodeSpec& node,
                                             const Tiling& tiling, DataLayout in, DataLayout out,
                                             std::span<const LoopOrder> orders, TileSumsCache* cache) {
    const std::array<std::int64_t, kLoopDims> n = tile_counts(layer, tiling);
    // The spills depend on the loops with more than one tile (and C's place) only: orders
    // that agree there share them.
    std::vector<std::pair<std::int64_t, double>> spills;
    const auto spill_of = [&](std::size_t, const LoopOrder& order) {
        std::int64_t key = 0;
        for (const LoopDim d : order.loops)
            if (d == LoopDim::C || n[static_cast<std::size_t>(d)] > 1)
                key = key * 8 + static_cast<std::int64_t>(d) + 1;
        for (const auto& [k, v] : spills)
            if (k == key) return v;
        const double v = detail::spill_rows_per_advance(layer, node, tiling, n, out, order);
        spills.emplace_back(key, v);
        return v;
    };
    std::vector<DramTraffic> result(orders.size());
    traffic_of_orders(layer, node, tiling, n, in, out, cache, orders.data(), orders.size(), result.data(),
                      spill_of);
    return result;
}

std::uint64_t TileSumsStore::hash_of(const Key& k) noexcept {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (const std::int32_t v : k) {
        h ^= static_cast<std::uint32_t>(v);
        h *= 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
    }
    return h;
}

const TileSums* TileSumsStore::find(const Key& k) const noexcept {
    if (slots_.empty()) return nullptr;
    const std::uint64_t h = hash_of(k);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const Slot& s = slots_[i];
        if (s.entry == 0) return nullptr;
        if (s.hash == h && entries_[s.entry - 1].first == k) return &entries_[s.entry - 1].second;
    }
}

void TileSumsStore::place(std::uint64_t hash, std::uint32_t entry) noexcept {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash & mask;
    while (slots_[i].entry != 0) i = (i + 1) & mask;
    slots_[i] = {hash, entry};
}

void TileSumsStore::insert(const Key& k, const TileSums& t) {
    entries_.emplace_back(k, t);
    if (2 * entries_.size() > slots_.size()) {  // grow, re-placing every entry by its kept hash
        std::vector<Slot> old(std::max<std::size_t>(1024, 2 * slots_.size()), Slot{});
        old.swap(slots_);
        for (const Slot& s : old)
            if (s.entry != 0) place(s.hash, s.entry);
        place(hash_of(k), static_cast<std::uint32_t>(entries_.size()));
    } else {
        place(hash_of(k), static_cast<std::uint32_t>(entries_.size()));
    }
}

DramTraffic dram_traffic(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling, DataLayout in,
                         DataLayout out) noexcept {
    const std::array<std::int64_t, kLoopDims> n = tile_counts(layer, tiling);
    DramTraffic result;
    traffic_of_orders(layer, node, tiling, n, in, out, nullptr, &tiling.order, 1, &result,
                      [&](std::size_t, const LoopOrder& order) {
                          return detail::spill_rows_per_advance(layer, node, tiling, n, out, order);
                      });
    return result;
}

}  // namespace pimdse::sim
