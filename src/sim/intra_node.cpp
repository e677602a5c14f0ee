#include "pimdse/sim/intra_node.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "pimdse/core/units.hpp"

namespace pimdse::sim {
namespace {

// Spatial unrollings tried (rows | cols of the PE array): channel pairs for dense layers,
// output channels against pixels (thin and depthwise layers, dense ones at equal cycles),
// pixels against pixels (docs/model.md, "The mapper and its search space").
constexpr std::array<SpatialUnroll, 8> kUnrolls{{{LoopDim::K, LoopDim::C},
                                                 {LoopDim::C, LoopDim::K},
                                                 {LoopDim::K, LoopDim::Q},
                                                 {LoopDim::Q, LoopDim::K},
                                                 {LoopDim::P, LoopDim::Q},
                                                 {LoopDim::K, LoopDim::B},
                                                 {LoopDim::K, LoopDim::P},
                                                 {LoopDim::P, LoopDim::K}}};

std::int64_t unit_of(const SpatialUnroll& u, LoopDim d, const NodeSpec& node) {
    if (u.row == d) return node.pe_rows;
    if (u.col == d) return node.pe_cols;
    return 1;
}

// Sum over the tiles of `d` of ceil(tile / unit): the cycles a spatially unrolled dim costs.
std::int64_t lane_passes(std::int64_t extent, std::int64_t tile, std::int64_t unit) {
    const std::int64_t n = ceil_div(extent, tile);
    return (n - 1) * ceil_div(tile, unit) + ceil_div(extent - (n - 1) * tile, unit);
}

// Element accesses of one buffer over the part-layer: every PE-array cycle reads one
// element per lane along the unrolled dims the tensor depends on, and one element broadcast
// to all lanes along an unrolled dim it does not depend on. A stationary tensor stays in the
// PEs' registers while a tile's innermost loops run over the dims it does not depend on, so
// along each such dim it is read once per tile (the output per R and S tile: never unrolled).
std::int64_t buffer_accesses(const PartLayer& layer, const NodeSpec& node, const Tiling& t, Tensor tensor,
                             bool stationary) {
    std::int64_t a = layer.R * layer.S;
    if (stationary && tensor == Tensor::output)
        a = ceil_div(layer.R, t[LoopDim::R]) * ceil_div(layer.S, t[LoopDim::S]);
    for (std::size_t i = 0; i < kFastLoopDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        const std::int64_t u = unit_of(t.unroll, d, node);
        const std::int64_t e = extent(layer, d);
        if (relevant(layer, tensor, d))
            a *= e;
        else if (stationary)
            a *= ceil_div(e, t.tile[i]);
        else
            a *= u > 1 ? lane_passes(e, t.tile[i], u) : e;
    }
    return a;
}

// Register fills of the stationary tensor, per PE: like its buffer reads, except that an
// element broadcast along an unrolled dim the tensor ignores fills every busy PE on it, so
// that dim counts its busy lanes per tile, sum over tiles of min(tile, unit).
std::int64_t stationary_fills(const PartLayer& layer, const NodeSpec& node, const Tiling& t, Tensor tensor) {
    std::int64_t a = layer.R * layer.S;
    if (tensor == Tensor::output) a = ceil_div(layer.R, t[LoopDim::R]) * ceil_div(layer.S, t[LoopDim::S]);
    for (std::size_t i = 0; i < kFastLoopDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        const std::int64_t u = unit_of(t.unroll, d, node);
        const std::int64_t e = extent(layer, d);
        const std::int64_t n = ceil_div(e, t.tile[i]);
        if (relevant(layer, tensor, d))
            a *= e;
        else
            a *= u > 1 ? (n - 1) * std::min(t.tile[i], u) + std::min(e - (n - 1) * t.tile[i], u) : n;
    }
    return a;
}

// PEs that accumulate into an output in its first cycle: one per busy lane along the unrolled
// dims the output ignores (the first tile's first pass), for every output element.
std::int64_t first_accumulations(const PartLayer& layer, const NodeSpec& node, const Tiling& t) {
    std::int64_t a = 1;
    for (std::size_t i = 0; i < kFastLoopDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        if (relevant(layer, Tensor::output, d))
            a *= extent(layer, d);
        else
            a *= std::min(t.tile[i], unit_of(t.unroll, d, node));
    }
    return a;
}

constexpr std::array<PeDataflow, kPeDataflows> kDataflows{
    PeDataflow::output_stationary, PeDataflow::weight_stationary, PeDataflow::input_stationary};

// The buffer reads of a dataflow, weighted by bits x sqrt(buffer size): proportional to their
// energy under the technology table's square-root rule (docs/model.md, "Register reuse").
double sram_read_weight(const IntraNodeCost& c, const PartLayer& l, const NodeSpec& n) {
    const auto w = [](std::int64_t count, std::int32_t bits, Bytes size) {
        return static_cast<double>(count) * bits * std::sqrt(static_cast<double>(size.value()));
    };
    return w(c.ibuf.reads, l.data_bits, n.ibuf) + w(c.wbuf.reads, l.data_bits, n.wbuf) +
           w(c.obuf.reads + c.obuf.writes, l.psum_bits, n.obuf);
}

}  // namespace

Tensor stationary_tensor(PeDataflow d) noexcept {
    switch (d) {
        case PeDataflow::weight_stationary:
            return Tensor::weight;
        case PeDataflow::input_stationary:
            return Tensor::input;
        case PeDataflow::output_stationary:
            break;
    }
    return Tensor::output;
}

BufferReads buffer_reads(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                         PeDataflow dataflow) noexcept {
    const Tensor st = stationary_tensor(dataflow);
    BufferReads r;
    r.input = buffer_accesses(layer, node, tiling, Tensor::input, st == Tensor::input);
    r.weight = buffer_accesses(layer, node, tiling, Tensor::weight, st == Tensor::weight);
    r.psum = buffer_accesses(layer, node, tiling, Tensor::output, st == Tensor::output);
    // The first accumulation into an output starts from zero: no obuf read (one distinct
    // element per output), no register fill (every PE that accumulates into it then).
    r.psum_reads = r.psum - layer.B * layer.K * layer.P * layer.Q;
    // A non-stationary operand fills the register of every busy PE at every MAC.
    const std::int64_t macs = layer.macs();
    const auto fills = [&](Tensor t) { return t == st ? stationary_fills(layer, node, tiling, t) : macs; };
    r.input_fills = fills(Tensor::input);
    r.weight_fills = fills(Tensor::weight);
    r.psum_drains = fills(Tensor::output);
    r.psum_fills = r.psum_drains - first_accumulations(layer, node, tiling);
    return r;
}

bool fits(const TileFootprint& f, const NodeSpec& node) noexcept {
    return 2 * f.input.value() <= node.ibuf.value() && 2 * f.weight.value() <= node.wbuf.value() &&
           2 * f.output.value() <= node.obuf.value();
}

namespace {

// The PE-array cycles of a tiling: R x S (never unrolled: their extents whatever their
// tiles) times each other dim's extent, or its lane passes when unrolled.
std::int64_t tiling_cycles(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling) {
    std::int64_t cycles = layer.R * layer.S;
    for (std::size_t i = 0; i < kFastLoopDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        const std::int64_t u = unit_of(tiling.unroll, d, node);
        cycles *= u > 1 ? lane_passes(extent(layer, d), tiling.tile[i], u) : extent(layer, d);
    }
    return cycles;
}

// Everything but the DRAM traffic, which finish() fills in (it depends on the loop order).
IntraNodeCost order_free_cost(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling) {
    IntraNodeCost c;
    c.tiling = tiling;
    c.footprint = footprint(layer, tiling);
    const std::int64_t cycles = tiling_cycles(layer, node, tiling);
    c.compute_cycles = Cycles(static_cast<double>(cycles));
    c.pe_utilisation = static_cast<double>(layer.macs()) /
                       (static_cast<double>(cycles) * static_cast<double>(node.pe_rows) * node.pe_cols);
    c.dram_port_bytes = node.dram_port_bits / 8;
    // The PE dataflow with the least buffer-read energy; it changes no cycle count.
    bool first = true;
    double best = 0;
    for (PeDataflow d : kDataflows) {
        const BufferReads r = buffer_reads(layer, node, tiling, d);
        IntraNodeCost x = c;
        x.dataflow = d;
        x.ibuf.reads = r.input;
        x.wbuf.reads = r.weight;
        // The obuf is written once per accumulation (per register spill when the psum is
        // stationary) and read for each but an output's first, plus write-backs and psum
        // reloads (finish()).
        x.obuf.reads = r.psum_reads;
        x.obuf.writes = r.psum;
        // Per MAC: read the input and weight registers, read and write the psum register;
        // every PE fills its registers from the buffers and drains its psum into the obuf.
        x.register_bits = layer.macs() * (2 * layer.data_bits + 2 * layer.psum_bits) +
                          (r.input_fills + r.weight_fills) * layer.data_bits +
                          (r.psum_fills + r.psum_drains) * layer.psum_bits;
        const double w = sram_read_weight(x, layer, node);
        if (first || w < best) {
            c = std::move(x);
            best = w;
            first = false;
        }
    }
    return c;
}

void finish(IntraNodeCost& c, const PartLayer& /*layer*/, const NodeSpec& node, const DramTraffic& dram) {
    c.dram = dram;
    c.dram_cycles = dram.cycles(node);
    c.total_cycles = std::max(c.compute_cycles, c.dram_cycles);
    c.ibuf.writes = dram[Tensor::input].read_elements;
    c.wbuf.writes = dram[Tensor::weight].read_elements;
    c.obuf.reads += dram[Tensor::output].write_elements;
    c.obuf.writes += dram[Tensor::output].read_elements;
}

}  // namespace

Cycles compute_cycles_lower_bound(const PartLayer& layer, const NodeSpec& node) noexcept {
    // lane_passes(e, t, u) >= ceil(e / u) for every tile t, so each unrolling's probe bounds
    // its tilings' compute cycles, and the total is at least the compute.
    std::int64_t best = -1;
    for (const SpatialUnroll& u : kUnrolls) {
        std::int64_t cycles = layer.R * layer.S;
        for (std::size_t i = 0; i < kFastLoopDims; ++i) {
            const auto d = static_cast<LoopDim>(i);
            const std::int64_t un = unit_of(u, d, node);
            cycles *= un > 1 ? ceil_div(extent(layer, d), un) : extent(layer, d);
        }
        if (best < 0 || cycles < best) best = cycles;
    }
    return Cycles(static_cast<double>(best));
}

IntraNodeCost evaluate_tiling(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                              DataLayout in, DataLayout out) {
    IntraNodeCost c = order_free_cost(layer, node, tiling);
    finish(c, layer, node, dram_traffic(layer, node, tiling, in, out));
    return c;
}

std::array<IntraNodeCost, kFastOrderCount> evaluate_tiling_all_orders(const PartLayer& layer,
                                                                      const NodeSpec& node,
                                                                      const Tiling& tiling, DataLayout in,
                                                                      DataLayout out, TileSumsCache* cache) {
    const auto traffic = dram_traffic_all_orders(layer, node, tiling, in, out, cache);
    const IntraNodeCost base = order_free_cost(layer, node, tiling);
    std::array<IntraNodeCost, kFastOrderCount> costs;
    for (std::size_t o = 0; o < kFastOrderCount; ++o) {
        costs[o] = base;
        costs[o].tiling.order = kFastOrders[o];
        finish(costs[o], layer, node, traffic[o]);
    }
    return costs;
}

std::vector<IntraNodeCost> evaluate_tiling_orders(const PartLayer& layer, const NodeSpec& node,
                                                  const Tiling& tiling, DataLayout in, DataLayout out,
                                                  std::span<const LoopOrder> orders, TileSumsCache* cache) {
    const std::vector<DramTraffic> traffic = dram_traffic_orders(layer, node, tiling, in, out, orders, cache);
    const IntraNodeCost base = order_free_cost(layer, node, tiling);
    std::vector<IntraNodeCost> costs(orders.size(), base);
    for (std::size_t o = 0; o < orders.size(); ++o) {
        costs[o].tiling.order = orders[o];
        finish(costs[o], layer, node, traffic[o]);
    }
    return costs;
}

std::int64_t tiling_compute_cycles(const PartLayer& layer, const NodeSpec& node,
                                   const Tiling& tiling) noexcept {
    return tiling_cycles(layer, node, tiling);
}

namespace {

// Tile sizes tried for one dim: the whole extent and unit * 2^i below it (tiles of an
// unrolled dim are multiples of its PE extent, so no lane idles except at the last tile).
void tile_candidates(std::vector<std::int64_t>& v, std::int64_t extent, std::int64_t unit) {
    v.clear();
    for (std::int64_t t = unit; t < extent; t *= 2) v.push_back(t);
    v.push_back(extent);
}

// The smallest divisor of `extent` that makes as many tiles as `tile` with no more lane
// passes: extent / n for n tiles, or failing that the least multiple of `unit` that keeps n;
// `tile` if neither divides. It computes in the same cycles and moves the same elements with
// a smaller footprint (the power-of-two tiles leave a short last tile: 14 = 8 + 6 where
// 7 + 7 would do), and stays inside the exact search's candidates.
std::int64_t balanced_tile(std::int64_t extent, std::int64_t tile, std::int64_t unit) {
    const std::int64_t n = ceil_div(extent, tile);
    const std::int64_t passes = lane_passes(extent, tile, unit);
    const std::int64_t even = ceil_div(extent, n);
    if (extent % even == 0 && lane_passes(extent, even, unit) <= passes) return even;
    const std::int64_t lanes = unit * ceil_div(ceil_div(extent, unit), n);
    if (lanes < tile && extent % lanes == 0 && lane_passes(extent, lanes, unit) <= passes) return lanes;
    return tile;
}

// The balanced tiles of `pow2`'s candidates, ascending and distinct; true if they differ.
bool balanced_candidates(std::vector<std::int64_t>& v, const std::vector<std::int64_t>& pow2,
                         std::int64_t extent, std::int64_t unit) {
    v.clear();
    for (std::int64_t t : pow2) {
        const std::int64_t b = balanced_tile(extent, t, unit);
        if (v.empty() || v.back() != b) v.push_back(b);
    }
    return v != pow2;
}

// Total cycles first; at equal cycles the lower energy under `energy` when given (a
// part-layer's MACs cost the same in every tiling), then the lower access counts.
bool better(const IntraNodeCost& a, const IntraNodeCost& b, const PartLayer& layer,
            const IntraNodeEnergyCoefficients* energy) {
    if (a.total_cycles != b.total_cycles) return a.total_cycles < b.total_cycles;
    if (energy != nullptr) {
        const double ea = intra_node_energy(a, layer.macs(), *energy).value();
        const double eb = intra_node_energy(b, layer.macs(), *energy).value();
        if (ea != eb) return ea < eb;
    }
    const std::int64_t da = a.dram.accesses() + a.dram.activations();
    const std::int64_t db = b.dram.accesses() + b.dram.activations();
    if (da != db) return da < db;
    return a.ibuf.reads + a.wbuf.reads + a.obuf.reads < b.ibuf.reads + b.wbuf.reads + b.obuf.reads;
}

}  // namespace

namespace {

// One part-layer's search state: the best cost so far over the unrollings tried.
struct SearchState {
    const PartLayer& layer;
    const NodeSpec& node;
    DataLayout in;
    DataLayout out;
    TileSumsCache& sums;                        // tilings of this part-layer share most tensors' tile sums
    const IntraNodeEnergyCoefficients* energy;  // null: ties go to access counts
    IntraNodeCost best;
    bool found = false;
    // The balanced-tile pass looks for less energy at the best total: a tiling whose energy
    // floor is not below the best's is passed over before its DRAM traffic is costed.
    bool energy_pass = false;
    // The power-of-two candidates of the unrolling the pass searches again: a tiling maximal
    // among them was costed by the first search.
    const std::array<std::vector<std::int64_t>, kFastLoopDims>* first_candidates = nullptr;
};

// Whether the first search costed `t`: every tile is one of its candidates and growing any
// dim to its next candidate overflows a buffer.
bool costed_before(const SearchState& s, const Tiling& t) {
    const auto& cand = *s.first_candidates;
    for (std::size_t i = 0; i < kFastLoopDims; ++i) {
        const auto it = std::find(cand[i].begin(), cand[i].end(), t.tile[i]);
        if (it == cand[i].end()) return false;
        if (it + 1 == cand[i].end()) continue;
        Tiling up = t;
        up.tile[i] = *(it + 1);
        if (fits(footprint(s.layer, up), s.node)) return false;
    }
    return true;
}

// A lower bound of the energy of any order of the tiling whose order-free cost is `c`: its
// own energy (MACs, registers, buffer reads) plus every weight and output element and one
// input element per output pixel crossing the DRAM port and its buffer once.
double energy_floor(const IntraNodeCost& c, const PartLayer& l, const IntraNodeEnergyCoefficients& k) {
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    const double in = d(l.B * l.input_channels() * l.P * l.Q);
    const double wt = d(l.has_weights ? l.K * (l.depthwise ? 1 : l.C) * l.R * l.S : l.B * l.K * l.C);
    const double out = d(l.B * l.K * l.P * l.Q);
    return intra_node_energy(c, l.macs(), k).value() + in * k.pj_per_ibuf_access + wt * k.pj_per_wbuf_access +
           out * k.pj_per_obuf_access + (in + wt + out) * l.data_bits * k.pj_per_dram_bit;
}

// Costs a maximal tiling under every loop order and keeps the best. A tiling whose compute
// cycles alone exceed the best total cannot win (its total is at least its compute, and
// better() ranks by total first), so its DRAM traffic is not costed; likewise an order whose
// total (the same max of compute and DRAM cycles finish() takes) exceeds the best total is
// passed over before its full cost is built, and the order-free cost (PE dataflow, buffer
// reads) is built only for a tiling with an order that may win.
void try_tiling(SearchState& s, const Tiling& t) {
    const double compute = static_cast<double>(tiling_cycles(s.layer, s.node, t));
    if (s.found && compute > s.best.total_cycles.value()) return;
    IntraNodeCost base;
    bool have_base = false;
    if (s.energy_pass) {
        if (costed_before(s, t)) return;
        base = order_free_cost(s.layer, s.node, t);
        have_base = true;
        if (energy_floor(base, s.layer, *s.energy) >=
            intra_node_energy(s.best, s.layer.macs(), *s.energy).value())
            return;
    }
    const auto traffic = dram_traffic_all_orders(s.layer, s.node, t, s.in, s.out, &s.sums);
    for (std::size_t i = 0; i < kFastOrderCount; ++i) {
        const LoopOrder& o = kFastOrders[i];
        const DramTraffic& dram = traffic[i];
        if (s.found && std::max(compute, dram.cycles(s.node).value()) > s.best.total_cycles.value()) continue;
        if (!have_base) {
            base = order_free_cost(s.layer, s.node, t);
            have_base = true;
        }
        IntraNodeCost c = base;
        c.tiling.order = o;
        finish(c, s.layer, s.node, dram);
        // A tie-break: energy never changes the cycles the search finds.
        if (s.energy_pass && c.total_cycles != s.best.total_cycles) continue;
        if (!s.found || better(c, s.best, s.layer, s.energy)) {
            s.best = std::move(c);
            s.found = true;
        }
    }
}

// Enumerates unrolling u's tile combinations and tries the maximal ones that fit (growing
// any one dim to its next candidate would overflow a buffer); R and S stay whole.
using Candidates = std::array<std::vector<std::int64_t>, kFastLoopDims>;
using Index = std::array<std::size_t, kFastLoopDims>;

// fits(footprint(layer, t), node) for the tilings of one unrolling's candidates, by
// footprint()'s arithmetic with the halos of the P and Q candidates computed once: the
// enumeration asks this several times per tiling it keeps.
class FitTest {
public:
    // A dim has at most 64 candidates (unit x 2^i below an extent under 2^63, and the extent).
    FitTest(const PartLayer& l, const NodeSpec& n, const Candidates& cand) : l_(l), n_(n), cand_(cand) {
        for (std::size_t j = 0; j < cand[kP].size(); ++j)
            halo_h_[j] = halo_extent(cand[kP][j], l.stride_h, l.R, l.H);
        for (std::size_t j = 0; j < cand[kQ].size(); ++j)
            halo_w_[j] = halo_extent(cand[kQ][j], l.stride_w, l.S, l.W);
    }
    bool operator()(const Index& at) const noexcept {
        const std::int64_t b = cand_[kB][at[kB]], k = cand_[kK][at[kK]], c = cand_[kC][at[kC]];
        const std::int64_t in = b * (l_.depthwise ? k : c) * halo_h_[at[kP]] * halo_w_[at[kQ]];
        const std::int64_t wt = l_.has_weights ? k * (l_.depthwise ? 1 : c) * l_.R * l_.S : b * k * c;
        const std::int64_t out = b * k * cand_[kP][at[kP]] * cand_[kQ][at[kQ]];
        const std::int64_t db = l_.data_bits;
        return 2 * ((in * db + 7) / 8) <= n_.ibuf.value() && 2 * ((wt * db + 7) / 8) <= n_.wbuf.value() &&
               2 * ((out * l_.psum_bits + 7) / 8) <= n_.obuf.value();
    }

private:
    static constexpr auto kB = static_cast<std::size_t>(LoopDim::B);
    static constexpr auto kK = static_cast<std::size_t>(LoopDim::K);
    static constexpr auto kC = static_cast<std::size_t>(LoopDim::C);
    static constexpr auto kP = static_cast<std::size_t>(LoopDim::P);
    static constexpr auto kQ = static_cast<std::size_t>(LoopDim::Q);
    const PartLayer& l_;
    const NodeSpec& n_;
    const Candidates& cand_;
    std::array<std::int64_t, 64> halo_h_{}, halo_w_{};
};

void search_unroll(SearchState& s, const SpatialUnroll& u, const Candidates& cand) {
    Index idx{};
    const auto tiling_at = [&](const Index& at) {
        Tiling t;
        t.unroll = u;
        for (std::size_t i = 0; i < kLoopDims; ++i)
            t.tile[i] = i < kFastLoopDims ? cand[i][at[i]] : extent(s.layer, static_cast<LoopDim>(i));
        return t;
    };
    const FitTest fits_at(s.layer, s.node, cand);
    // Whether idx fits, when the previous step already tested it: -1 unknown, 0 or 1.
    int known = -1;
    while (true) {
        const bool fit = known >= 0 ? known == 1 : fits_at(idx);
        known = -1;
        if (!fit) {
            // Footprints grow with every tile size. With dims 0..z-1 at their first candidate
            // and dim z not, every combination up to dim z's roll-over (same dims above z, dim
            // z no smaller, dims below anything) is at least idx in every dim and misfits too:
            // carry past them at once.
            std::size_t z = 0;
            while (z < kFastLoopDims && idx[z] == 0) ++z;
            for (std::size_t i = 0; i <= z && i < kFastLoopDims; ++i) idx[i] = cand[i].size() - 1;
        } else {
            bool maximal = true;
            bool next = true;         // no dim with room yet: the first one is the odometer's next step
            bool below_first = true;  // every dim below is at its first candidate
            for (std::size_t i = 0; i < kFastLoopDims && maximal; ++i) {
                if (idx[i] + 1 < cand[i].size()) {
                    auto up = idx;
                    ++up[i];
                    const bool up_fits = fits_at(up);
                    // The odometer steps to `up` next when the dims below have nothing to
                    // reset: remember the answer.
                    if (next && below_first) known = up_fits ? 1 : 0;
                    next = false;
                    if (up_fits) maximal = false;
                }
                below_first = below_first && idx[i] == 0;
            }
            if (maximal) try_tiling(s, tiling_at(idx));
        }
        std::size_t i = 0;
        for (; i < kFastLoopDims; ++i) {
            if (++idx[i] < cand[i].size()) break;
            idx[i] = 0;
        }
        if (i == kFastLoopDims) break;
    }
}

// The best tiles under every other unrolling. The enumeration tries a tiling only where it
// is maximal among its unrolling's candidates (multiples of the PE extents), so the best
// tiles of one unrolling can go untried under another whose candidates let a dim grow,
// though at equal cycles it may read its buffers far less (swapping K x C for C x K moves
// the reduction between the PE rows and the columns). A handful of tilings per part-layer.
void try_other_unrolls(SearchState& s) {
    const Tiling winner = s.best.tiling;
    for (const SpatialUnroll& u : kUnrolls) {
        if (u.row == winner.unroll.row && u.col == winner.unroll.col) continue;
        Tiling t = winner;
        t.unroll = u;
        try_tiling(s, t);
    }
}

// The energy tie-break's wider tiles: once the best total is known, every unrolling whose
// compute cycles are that total searches the balanced tiles of its candidates (same tile
// counts, same cycles, smaller footprints), whose maximal tilings let another dim grow.
void try_balanced_tiles(SearchState& s, Candidates& pow2, Candidates& cand) {
    for (const SpatialUnroll& u : kUnrolls) {
        std::int64_t cycles = s.layer.R * s.layer.S;
        bool differs = false;
        for (std::size_t i = 0; i < kFastLoopDims; ++i) {
            const auto d = static_cast<LoopDim>(i);
            const std::int64_t un = unit_of(u, d, s.node);
            const std::int64_t e = extent(s.layer, d);
            cycles *= un > 1 ? ceil_div(e, un) : e;
            tile_candidates(pow2[i], e, un);
            differs = balanced_candidates(cand[i], pow2[i], e, un) || differs;
        }
        // Every tiling of u has its compute cycles (balanced tiles keep the lane passes): it
        // ties the best total only when that is u's compute.
        if (!differs || static_cast<double>(cycles) != s.best.total_cycles.value()) continue;
        s.first_candidates = &pow2;
        search_unroll(s, u, cand);
    }
}

}  // namespace

IntraNodeCost AnalyticIntraNodeMapper::search(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                              DataLayout out, TileSumsStore* sums,
                                              const IntraNodeEnergyCoefficients* energy) {
    validate(layer);
    validate(node);
    // Buffers kept per thread across searches (cleared, not freed): a search allocated its
    // candidates and tile-sum lists afresh, about 50 allocations per part-layer.
    thread_local Candidates cand;
    thread_local TileSumsCache cache;
    cache.clear();
    cache.store = sums;
    SearchState s{layer, node, in, out, cache, energy, {}, false};
    for (const SpatialUnroll& u : kUnrolls) {
        for (std::size_t i = 0; i < kFastLoopDims; ++i) {
            const auto d = static_cast<LoopDim>(i);
            tile_candidates(cand[i], extent(layer, d), unit_of(u, d, node));
        }
        // Compute cycles depend on the unrolling only (tiles are multiples of the PE extent):
        // skip an unrolling that cannot beat the best total.
        std::int64_t cycles = layer.R * layer.S;
        for (std::size_t i = 0; i < kFastLoopDims; ++i) {
            const auto d = static_cast<LoopDim>(i);
            const std::int64_t un = unit_of(u, d, node);
            cycles *= un > 1 ? ceil_div(extent(layer, d), un) : extent(layer, d);
        }
        if (s.found && static_cast<double>(cycles) > s.best.total_cycles.value()) continue;
        search_unroll(s, u, cand);
    }
    if (s.found) try_other_unrolls(s);
    if (s.found && energy != nullptr) {
        s.energy_pass = true;
        thread_local Candidates pow2;
        try_balanced_tiles(s, pow2, cand);
    }
    if (!s.found) {
        s.best = IntraNodeCost{};
        s.best.status = MapStatus::infeasible;
        s.best.reason = "no tiling fits the buffers even with one PE-row of channels and one pixel per tile";
    }
    return s.best;
}

IntraNodeCost AnalyticIntraNodeMapper::map(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                           DataLayout out) {
    NodeSearchKey key{layer, node, in, out};
    if (const auto it = memo_.find(key); it != memo_.end()) {
        ++hits_;
        return it->second;
    }
    IntraNodeCost c = search(layer, node, in, out, &sums_, energy_ ? &*energy_ : nullptr);
    memo_.emplace(std::move(key), c);
    return c;
}

std::size_t NodeSearchKeyHash::operator()(const NodeSearchKey& k) const noexcept {
    std::size_t h = hash_value(k.layer);
    h ^= hash_value(k.node) + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= hash_value(k.in) * 31 + hash_value(k.out);
    return h;
}

}  // namespace pimdse::sim
