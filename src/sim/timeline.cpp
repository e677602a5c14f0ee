#include "pimdse/sim/timeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/core/units.hpp"

namespace pimdse::sim {

using workload::Layer;
using workload::LayerIndex;
using workload::LayerKind;

std::string_view to_string(EvalStatus s) noexcept {
    return name_of(kEvalStatusNames, s);
}

namespace {

Range intersect(Range a, Range b) noexcept {
    const std::int64_t lo = std::max(a.begin, b.begin);
    return {lo, std::max(lo, std::min(a.end, b.end))};
}

/// Input rows (or columns) that output rows r read, clipped to the input (padding excluded).
Range input_extent(Range r, std::int64_t stride, std::int64_t pad, std::int64_t kernel, std::int64_t size) {
    const std::int64_t lo = std::max<std::int64_t>(0, r.begin * stride - pad);
    const std::int64_t hi = std::min<std::int64_t>(size, (r.end - 1) * stride - pad + kernel);
    return {lo, std::max(lo, hi)};
}

/// Index of the part of split(length, n, .) that holds element e.
std::int32_t part_of(std::int64_t length, std::int32_t n, std::int64_t e) noexcept {
    const std::int64_t base = length / n;
    const std::int64_t extra = length % n;
    const std::int64_t long_span = extra * (base + 1);
    if (e < long_span) return static_cast<std::int32_t>(e / (base + 1));
    return static_cast<std::int32_t>(extra + (e - long_span) / base);
}

bool is_depthwise(const Layer& l) noexcept {
    return l.is_convolution() && l.groups > 1 && l.groups == l.C && l.K == l.C;
}

/// The part-layer a node computes (NicePIM III-C) for a conv or matmul layer.
PartLayer part_layer(const Layer& l, const std::array<Range, kPartDims>& r, const System& sys) {
    PartLayer p;
    p.B = r[index_of(PartDim::b)].size();
    p.K = r[index_of(PartDim::k)].size();
    p.P = r[index_of(PartDim::p)].size();
    p.Q = r[index_of(PartDim::q)].size();
    p.R = l.R;
    p.S = l.S;
    p.stride_h = static_cast<std::int32_t>(l.stride_h);
    p.stride_w = static_cast<std::int32_t>(l.stride_w);
    if (is_depthwise(l)) {
        p.depthwise = true;
        p.C = 1;
    } else if (l.is_convolution() && l.groups > 1) {
        p.C = l.C / l.groups;  // a grouped conv as one group's contraction (docs/model.md)
    } else {
        p.C = r[index_of(PartDim::c)].size();
    }
    p.H = std::max<std::int64_t>(1,
                                 input_extent(r[index_of(PartDim::p)], l.stride_h, l.pad_h, l.R, l.H).size());
    p.W = std::max<std::int64_t>(1,
                                 input_extent(r[index_of(PartDim::q)], l.stride_w, l.pad_w, l.S, l.W).size());
    p.has_weights = l.has_weights();
    p.data_bits = sys.data_bits;
    p.psum_bits = sys.psum_bits;
    return p;
}

/// One node's share of an auxiliary layer, as a stream (docs/model.md): elements read and
/// written through the DRAM port, operations at one per PE per cycle.
struct StreamCost {
    Cycles cycles{0};
    IntraNodeEnergy energy;
};

StreamCost stream_cost(const Layer& l, const std::array<Range, kPartDims>& r, const System& sys) {
    const std::int64_t out = r[index_of(PartDim::b)].size() * r[index_of(PartDim::k)].size() *
                             r[index_of(PartDim::p)].size() * r[index_of(PartDim::q)].size();
    std::int64_t in = out;
    if (l.kind == LayerKind::pool || l.kind == LayerKind::upsample) {
        const Range p = r[index_of(PartDim::p)];
        const Range q = r[index_of(PartDim::q)];
        const auto [h0, h1] = l.input_rows(p.begin, p.end, false);
        const auto [w0, w1] = l.input_rows(q.begin, q.end, true);
        in = r[index_of(PartDim::b)].size() * r[index_of(PartDim::k)].size() * (h1 - h0) * (w1 - w0);
    } else if (l.kind == LayerKind::add) {
        in = out * static_cast<std::int64_t>(l.inputs.size());
    } else if (l.kind == LayerKind::mul) {
        // The broadcast operand is one factor per channel.
        in = out + (l.broadcast ? r[index_of(PartDim::b)].size() * r[index_of(PartDim::k)].size() : out);
    }
    const double ops =
        static_cast<double>(l.ops()) * static_cast<double>(out) / static_cast<double>(l.output_elements());
    const NodeSpec& n = sys.node;
    const std::int64_t port_bytes = n.dram_port_bits / 8;
    const std::int64_t in_bytes = in * sys.data_bytes();
    const std::int64_t out_bytes = out * sys.data_bytes();
    const std::int64_t accesses = ceil_div(in_bytes, port_bytes) + ceil_div(out_bytes, port_bytes);
    const std::int64_t activations =
        ceil_div(in_bytes, n.row_buffer.value()) + ceil_div(out_bytes, n.row_buffer.value());
    const double dram =
        sim::dram_cycles(n, static_cast<double>(accesses), static_cast<double>(activations)).value();
    const double op_cycles = std::ceil(ops / static_cast<double>(n.pe_rows * n.pe_cols));
    StreamCost s;
    s.cycles = Cycles(std::max(dram, op_cycles));
    const IntraNodeEnergyCoefficients& k = sys.energy;
    s.energy.pe = Picojoules(ops * k.pj_per_mac);
    // Every element is written into and read out of a buffer once: inputs the ibuf, outputs the obuf.
    s.energy.sram = Picojoules(2.0 * static_cast<double>(in) * k.pj_per_ibuf_access +
                               2.0 * static_cast<double>(out) * k.pj_per_obuf_access);
    s.energy.dram_access =
        Picojoules(static_cast<double>(accesses) * static_cast<double>(n.dram_port_bits) * k.pj_per_dram_bit);
    s.energy.dram_activation = Picojoules(static_cast<double>(activations) * k.pj_per_row_activation);
    // The operands pass the PE registers once each way, as in a MAC (no reuse to model).
    s.energy.registers = Picojoules(static_cast<double>(in + out) * sys.data_bits * k.pj_per_register_bit);
    return s;
}

/// Who holds each block of a layer's output: for partition indices (b, k, p, q), the node
/// whose C index is 0 (after a partial-sum reduction the outputs are taken to be there).
struct OutputOwners {
    std::array<std::int32_t, 4> n{1, 1, 1, 1};  // parts of B, K, P, Q
    std::vector<NodeId> owner;

    [[nodiscard]] std::size_t index(std::int32_t b, std::int32_t k, std::int32_t p, std::int32_t q) const {
        return static_cast<std::size_t>(((b * n[1] + k) * n[2] + p) * n[3] + q);
    }
};

OutputOwners output_owners(const LayerMapping& m, const Region& region, const Mesh& mesh) {
    OutputOwners o;
    o.n = {m.part(PartDim::b).count(), m.part(PartDim::k).count(), m.part(PartDim::p).count(),
           m.part(PartDim::q).count()};
    o.owner.assign(static_cast<std::size_t>(o.n[0] * o.n[1] * o.n[2] * o.n[3]), 0);
    for (std::int32_t y = 0; y < region.rows; ++y)
        for (std::int32_t x = 0; x < region.cols; ++x) {
            const auto i = part_indices(m, y, x);
            if (i[index_of(PartDim::c)] != 0) continue;
            o.owner[o.index(i[index_of(PartDim::b)], i[index_of(PartDim::k)], i[index_of(PartDim::p)],
                            i[index_of(PartDim::q)])] = mesh.node(region.row + y, region.col + x);
        }
    return o;
}

/// The box of a producer's output (batch, channels, rows, columns) that one consumer node
/// reads through one operand, and the share of it delivered by redistribution.
struct Need {
    Range b, c, h, w;
    std::int64_t divisor = 1;  ///< members of a sharing set that gather the rest (VII)
    std::int64_t rank = 0;     ///< this node's position in that set
};

/// needed_box's matmul operands: the second operand of an attention product (gathered like
/// weights), a flattened input, or the rows and columns the node's outputs read.
void matmul_need(const workload::TensorShape& ps, const Layer& l, const LayerMapping& m,
                 const std::array<Range, kPartDims>& r, const std::array<std::int32_t, kPartDims>& idx,
                 std::size_t j, Need& n) {
    const std::int32_t k_parts = m.part(PartDim::k).count();
    const Range k = r[index_of(PartDim::k)];
    const Range c = r[index_of(PartDim::c)];
    const Range p = r[index_of(PartDim::p)];
    const Range q = r[index_of(PartDim::q)];
    if (l.weights_are_activations && j == 1) {
        // The second operand: B x C x K (transposed) or B x K x C, spread over the nodes
        // that share it and gathered like weights (VII, WR = 1).
        n.c = l.transpose_b ? c : k;
        n.h = l.transpose_b ? k : c;
        n.w = {0, ps.width};
        n.divisor = nodes_sharing_weights(m);
        n.rank = (static_cast<std::int64_t>(idx[index_of(PartDim::b)]) * m.part(PartDim::p).count() +
                  idx[index_of(PartDim::p)]) *
                     m.part(PartDim::q).count() +
                 idx[index_of(PartDim::q)];
    } else if (l.flatten) {
        const std::int64_t hw = ps.height * ps.width;
        n.c = {c.begin / hw, ceil_div(c.end, hw)};
        n.h = {0, ps.height};
        n.w = {0, ps.width};
        n.divisor = k_parts;
        n.rank = idx[index_of(PartDim::k)];
    } else {
        n.c = c;
        n.h = p;
        n.w = q;
        n.divisor = k_parts;
        n.rank = idx[index_of(PartDim::k)];
    }
}

/// What the consumer node with ranges r reads from operand j (producer `prod`).
std::optional<Need> needed_box(const workload::Network& net, const Layer& l, const LayerMapping& m,
                               const std::array<Range, kPartDims>& r,
                               const std::array<std::int32_t, kPartDims>& idx, std::size_t j) {
    const LayerIndex prod = l.inputs[j];
    const workload::TensorShape ps = net.output_shape(prod);
    const Range k = r[index_of(PartDim::k)];
    const Range c = r[index_of(PartDim::c)];
    const Range p = r[index_of(PartDim::p)];
    const Range q = r[index_of(PartDim::q)];
    Need n;
    n.b = r[index_of(PartDim::b)];
    const std::int32_t k_parts = m.part(PartDim::k).count();
    const auto rows = [&](Range out, bool columns) {
        const auto [lo, hi] = l.input_rows(out.begin, out.end, columns);
        return Range{lo, hi};
    };
    switch (l.kind) {
        case LayerKind::conv:
        case LayerKind::deconv:
            if (l.groups > 1) {
                const std::int64_t kg = l.K / l.groups;
                const std::int64_t cg = l.C / l.groups;
                n.c = {k.begin / kg * cg, ((k.end - 1) / kg + 1) * cg};
            } else {
                n.c = c;
                n.divisor = k_parts;  // the K-partitioned nodes gather their common input
                n.rank = idx[index_of(PartDim::k)];
            }
            n.h = rows(p, false);
            n.w = rows(q, true);
            break;
        case LayerKind::matmul:
            matmul_need(ps, l, m, r, idx, j, n);
            break;
        case LayerKind::pool:
        case LayerKind::upsample:
            n.c = k;
            n.h = rows(p, false);
            n.w = rows(q, true);
            break;
        case LayerKind::mul:
            n.c = k;
            n.h = l.broadcast && j == 1 ? Range{0, 1} : p;
            n.w = l.broadcast && j == 1 ? Range{0, 1} : q;
            break;
        case LayerKind::concat: {
            std::int64_t offset = 0;
            for (std::size_t i = 0; i < j; ++i) offset += net.output_shape(l.inputs[i]).channels;
            const Range mine = intersect(k, {offset, offset + ps.channels});
            if (mine.size() == 0) return std::nullopt;
            n.c = {mine.begin - offset, mine.end - offset};
            n.h = p;
            n.w = q;
            break;
        }
        default:  // add, norm, softmax, activation: elementwise
            n.c = k;
            n.h = p;
            n.w = q;
            break;
    }
    n.c = intersect(n.c, {0, ps.channels});
    n.h = intersect(n.h, {0, ps.height});
    n.w = intersect(n.w, {0, ps.width});
    if (n.b.size() == 0 || n.c.size() == 0 || n.h.size() == 0 || n.w.size() == 0) return std::nullopt;
    return n;
}

struct Evaluator {
    const workload::Network& net;
    const workload::Segmentation& seg;
    const NetworkMapping& mapping;
    const System& sys;
    IntraNodeMapper& mapper;
    SharingScheduler& scheduler;

    ChannelLoads loads;
    std::vector<Transfer> transfers;
    std::vector<OutputOwners> owners;
    // The current layer's per-node ranges and partition indices, row-major over its region.
    std::vector<std::array<Range, kPartDims>> node_ranges;
    std::vector<std::array<std::int32_t, kPartDims>> node_indices;

    void fill_parts(LayerIndex li) {
        const Layer& l = net.layer(li);
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        const Region& region = layer_region(seg, mapping, li);
        node_ranges.clear();
        node_indices.clear();
        for (std::int32_t y = 0; y < region.rows; ++y)
            for (std::int32_t x = 0; x < region.cols; ++x) {
                node_ranges.push_back(part_ranges(l, m, y, x));
                node_indices.push_back(part_indices(m, y, x));
            }
    }

    void redistribution(LayerIndex li, LayerCost& out) {
        const Layer& l = net.layer(li);
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        const Region& region = layer_region(seg, mapping, li);
        transfers.clear();
        for (std::int32_t y = 0; y < region.rows; ++y)
            for (std::int32_t x = 0; x < region.cols; ++x) {
                const NodeId dst = sys.mesh.node(region.row + y, region.col + x);
                const std::size_t at_node = static_cast<std::size_t>(y * region.cols + x);
                const auto& r = node_ranges[at_node];
                const auto& dst_idx = node_indices[at_node];
                for (std::size_t j = 0; j < l.inputs.size(); ++j) {
                    const LayerIndex prod = l.inputs[j];
                    if (prod == workload::kNetworkInput) continue;  // already in the nodes' DRAM
                    const std::optional<Need> need = needed_box(net, l, m, r, dst_idx, j);
                    if (!need) continue;
                    const Layer& pl = net.layer(prod);
                    const OutputOwners& o = owners[static_cast<std::size_t>(prod)];
                    const std::array<std::int64_t, 4> len{pl.B, pl.K, pl.P, pl.Q};
                    const std::array<Range, 4> want{need->b, need->c, need->h, need->w};
                    std::array<std::int32_t, 4> lo{}, hi{};
                    for (std::size_t d = 0; d < 4; ++d) {
                        lo[d] = part_of(len[d], o.n[d], want[d].begin);
                        hi[d] = part_of(len[d], o.n[d], want[d].end - 1);
                    }
                    // The producer blocks that overlap, in a 4-D box of block indices.
                    std::array<std::int64_t, 4> extent{};
                    std::int64_t blocks = 1;
                    for (std::size_t d = 0; d < 4; ++d) {
                        extent[d] = hi[d] - lo[d] + 1;
                        blocks *= extent[d];
                    }
                    // A sharing set needs its slice once: with enough blocks, member `rank` of
                    // the set takes every divisor-th block whole; otherwise each member takes
                    // 1/divisor of every block. The sharing event then completes the slice (VII).
                    const bool whole = need->divisor > 1 && blocks >= need->divisor;
                    const std::int64_t first = whole ? need->rank : 0;
                    const std::int64_t step = whole ? need->divisor : 1;
                    const std::int64_t divisor = whole ? 1 : need->divisor;
                    for (std::int64_t t = first; t < blocks; t += step) {
                        std::array<std::int32_t, 4> idx{};
                        std::int64_t rest = t;
                        for (std::size_t d = 4; d-- > 0;) {
                            idx[d] = lo[d] + static_cast<std::int32_t>(rest % extent[d]);
                            rest /= extent[d];
                        }
                        const NodeId src = o.owner[o.index(idx[0], idx[1], idx[2], idx[3])];
                        if (src == dst) continue;  // node-local: free
                        std::int64_t elems = 1;
                        for (std::size_t d = 0; d < 4; ++d)
                            elems *= intersect(want[d], split(len[d], o.n[d], idx[d])).size();
                        const std::int64_t bytes = ceil_div(elems * sys.data_bytes(), divisor);
                        if (bytes > 0) transfers.push_back({src, dst, Bytes(bytes)});
                    }
                }
            }
        if (transfers.empty()) return;
        const TransferCost t = evaluate_transfers(sys.mesh, transfers, sys.noc, loads);
        out.redistribution = t.latency;
        out.energy.noc += t.energy;
    }

    void sharing(LayerIndex li, LayerCost& out) {
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        add_sharing_cost(net.layer(li), m, layer_region(seg, mapping, li), sys, scheduler, loads, out);
    }

    void compute(LayerIndex li, LayerCost& out) {
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        const Region& region = layer_region(seg, mapping, li);
        add_compute_cost(net.layer(li), m, region.rows, region.cols, sys, mapper, out);
    }

    /// Weights stored per node (NicePIM III-D) against the node's DRAM.
    void capacity(NetworkCost& cost) const {
        std::vector<std::int64_t> stored(static_cast<std::size_t>(sys.mesh.node_count()), 0);
        for (LayerIndex li = 0; li < net.size(); ++li) {
            const std::int64_t bytes =
                stored_weights_per_node(net.layer(li), mapping.layers[static_cast<std::size_t>(li)]) *
                sys.data_bytes();
            if (bytes == 0) continue;
            const Region& region = layer_region(seg, mapping, li);
            for (std::int32_t y = 0; y < region.rows; ++y)
                for (std::int32_t x = 0; x < region.cols; ++x)
                    stored[static_cast<std::size_t>(sys.mesh.node(region.row + y, region.col + x))] += bytes;
        }
        for (NodeId n = 0; n < sys.mesh.node_count(); ++n) {
            const std::int64_t s = stored[static_cast<std::size_t>(n)];
            if (s <= sys.dram_capacity.value()) continue;
            const NodeCoord c = sys.mesh.coord(n);
            cost.status = EvalStatus::infeasible;
            cost.reason = "DRAM capacity: node (";
            cost.reason += std::to_string(c.row);
            cost.reason += ", ";
            cost.reason += std::to_string(c.col);
            cost.reason += ") stores ";
            cost.reason += std::to_string(s);
            cost.reason += " bytes of weights, more than its ";
            cost.reason += std::to_string(sys.dram_capacity.value());
            cost.reason += " bytes of DRAM";
            return;
        }
    }

    NetworkCost run() {
        if (const std::optional<MappingIssue> issue =
                check_mapping(net, seg, mapping, sys.mesh.rows(), sys.mesh.cols())) {
            std::string what = "evaluate_mapping: invalid mapping (";
            what += to_string(issue->rule);
            what += "): ";
            what += issue->message;
            throw ModelError(what);
        }
        loads.reset(sys.mesh);
        owners.resize(static_cast<std::size_t>(net.size()));
        for (LayerIndex li = 0; li < net.size(); ++li)
            owners[static_cast<std::size_t>(li)] = output_owners(mapping.layers[static_cast<std::size_t>(li)],
                                                                 layer_region(seg, mapping, li), sys.mesh);

        NetworkCost cost;
        cost.layers.resize(static_cast<std::size_t>(net.size()));
        capacity(cost);
        for (std::size_t si = 0; si < seg.segments.size(); ++si) {
            const workload::Segment& s = seg.segments[si];
            const SegmentMapping& sm = mapping.segments[si];
            // III-B: branches on one region run one after another, regions in parallel.
            std::vector<Cycles> region_time(sm.regions.size(), Cycles(0));
            for (std::size_t bi = 0; bi < s.branches.size(); ++bi) {
                Cycles& t = region_time[static_cast<std::size_t>(sm.branch_region[bi])];
                for (LayerIndex li : s.branches[bi].layers) {
                    LayerCost& lc = cost.layers[static_cast<std::size_t>(li)];
                    fill_parts(li);
                    redistribution(li, lc);
                    sharing(li, lc);
                    compute(li, lc);
                    lc.latency = lc.redistribution + lc.sharing + lc.compute;
                    t += lc.latency;
                    cost.energy += lc.energy;
                    if (lc.status != EvalStatus::ok && cost.status == EvalStatus::ok) {
                        cost.status = lc.status;
                        cost.reason = lc.reason;
                    }
                }
            }
            const Cycles seg_time = *std::max_element(region_time.begin(), region_time.end());
            cost.segments.push_back(seg_time);
            cost.latency += seg_time;
        }
        cost.seconds = cost.latency.value() / (sys.clock_mhz * 1e6);
        // Every bank draws background and refresh power for the whole run (DRAMPower-style).
        cost.energy.dram_background = Picojoules(sys.dram_background_pj_per_cycle * cost.latency.value());
        const double pes = static_cast<double>(sys.node.pe_rows) * sys.node.pe_cols * sys.mesh.node_count();
        if (cost.latency.value() > 0)
            cost.pe_utilisation = static_cast<double>(net.total_macs()) / (cost.latency.value() * pes);
        return cost;
    }
};

}  // namespace

PartLayer part_layer_of(const Layer& l, const std::array<Range, kPartDims>& r, const System& sys) {
    return part_layer(l, r, sys);
}

namespace {

/// The distinct part-layers of a layer's nodes, each with how many nodes have it.
struct PartShapes {
    std::vector<PartLayer> shapes;
    std::vector<std::int64_t> nodes;
    void add(const PartLayer& p, std::int64_t count) {
        const auto it = std::find(shapes.begin(), shapes.end(), p);
        if (it == shapes.end()) {
            shapes.push_back(p);
            nodes.push_back(count);
        } else {
            nodes[static_cast<std::size_t>(it - shapes.begin())] += count;
        }
    }
};

/// Per loop, the distinct part ranges with how many parts have each: distinct in size and,
/// for P and Q, in input extent (what a part-layer depends on).
using DistinctRanges = std::array<std::vector<std::pair<Range, std::int64_t>>, kPartDims>;

DistinctRanges distinct_ranges(const Layer& l, const LayerMapping& m) {
    DistinctRanges distinct;
    for (PartDim d : kAllPartDims) {
        const auto i = static_cast<std::size_t>(d);
        const std::int32_t count = m.parts[i].count();
        for (std::int32_t j = 0; j < count; ++j) {
            const Range r = split(loop_bound(l, d), count, j);
            const auto same = [&](const std::pair<Range, std::int64_t>& o) {
                if (o.first.size() != r.size()) return false;
                if (d == PartDim::p)
                    return input_extent(o.first, l.stride_h, l.pad_h, l.R, l.H).size() ==
                           input_extent(r, l.stride_h, l.pad_h, l.R, l.H).size();
                if (d == PartDim::q)
                    return input_extent(o.first, l.stride_w, l.pad_w, l.S, l.W).size() ==
                           input_extent(r, l.stride_w, l.pad_w, l.S, l.W).size();
                return true;
            };
            const auto it = std::find_if(distinct[i].begin(), distinct[i].end(), same);
            if (it == distinct[i].end())
                distinct[i].emplace_back(r, 1);
            else
                ++it->second;
        }
    }
    return distinct;
}

}  // namespace

void add_compute_cost(const Layer& l, const LayerMapping& m, std::int32_t rows, std::int32_t cols,
                      const System& sys, IntraNodeMapper& mapper, LayerCost& out) {
    if (!l.is_compute()) {
        for (std::int32_t y = 0; y < rows; ++y)
            for (std::int32_t x = 0; x < cols; ++x) {
                const StreamCost s = stream_cost(l, part_ranges(l, m, y, x), sys);
                out.compute = std::max(out.compute, s.cycles);
                out.energy.add(s.energy);
            }
        return;
    }
    // Nodes with the same part-layer cost the same: map each distinct shape once. The shapes
    // depend only on each loop's partition count, not on the order or the (Ph, Pw) split.
    PartShapes parts;
    const auto add_shape = [&](const PartLayer& p, std::int64_t nodes) { parts.add(p, nodes); };
    if (m.shape() == std::pair{rows, cols}) {
        // The partitions fill the region, so its nodes are exactly the tuples of part indices,
        // and a part-layer depends on each loop's range separately (its size, and for P and
        // Q its input extent): per loop, the distinct ranges with how many parts have them,
        // then their products.
        const DistinctRanges distinct = distinct_ranges(l, m);
        std::array<std::size_t, kPartDims> idx{};
        for (;;) {
            std::array<Range, kPartDims> ranges{};
            std::int64_t nodes = 1;
            for (std::size_t i = 0; i < kPartDims; ++i) {
                ranges[i] = distinct[i][idx[i]].first;
                nodes *= distinct[i][idx[i]].second;
            }
            add_shape(part_layer(l, ranges, sys), nodes);
            std::size_t i = 0;
            for (; i < kPartDims; ++i) {
                if (++idx[i] < distinct[i].size()) break;
                idx[i] = 0;
            }
            if (i == kPartDims) break;
        }
    } else {
        for (std::int32_t y = 0; y < rows; ++y)
            for (std::int32_t x = 0; x < cols; ++x) add_shape(part_layer(l, part_ranges(l, m, y, x), sys), 1);
    }
    const std::vector<PartLayer>& shapes = parts.shapes;
    const std::vector<std::int64_t>& shape_nodes = parts.nodes;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const IntraNodeCost c = mapper.map(shapes[i], sys.node, m.dl_in, m.dl_out);
        if (c.status != MapStatus::ok) {
            out.status = EvalStatus::infeasible;
            out.reason = "layer '";
            out.reason += l.name;
            out.reason += "': ";
            out.reason += c.reason;
            return;
        }
        out.compute = std::max(out.compute, c.total_cycles);
        const IntraNodeEnergy e = intra_node_energy_split(c, shapes[i].macs(), sys.energy);
        const auto n = static_cast<double>(shape_nodes[i]);
        out.energy.add(e, n);
    }
    const double pes = static_cast<double>(sys.node.pe_rows) * sys.node.pe_cols * rows * cols;
    if (out.compute.value() > 0)
        out.pe_utilisation = static_cast<double>(l.macs()) / (out.compute.value() * pes);
}

void add_sharing_cost(const Layer& l, const LayerMapping& m, const Region& region, const System& sys,
                      SharingScheduler& scheduler, ChannelLoads& loads, LayerCost& out) {
    // Events run one after another: inputs and weights before compute, partial sums after.
    for (const SharingEvent& e : sharing_events(l, m, region, sys.mesh, sys.data_bytes(), sys.psum_bytes())) {
        const ShareCost c = scheduler.share(sys.mesh, e.sets, sys.noc, loads);
        out.sharing += c.latency;
        out.energy.noc += c.energy;
    }
}

NetworkCost evaluate_mapping(const workload::Network& network, const workload::Segmentation& seg,
                             const NetworkMapping& mapping, const System& system, IntraNodeMapper& mapper,
                             SharingScheduler& scheduler) {
    Evaluator e{network, seg, mapping, system, mapper, scheduler, {}, {}, {}, {}, {}};
    return e.run();
}

double cost_eq1(std::span<const NetworkCost> costs, std::span<const double> gammas, double alpha,
                double beta) {
    if (costs.size() != gammas.size()) throw ModelError("cost_eq1: one gamma per network");
    if (!(alpha >= 0) || !(beta >= 0)) throw ModelError("cost_eq1: alpha and beta must be >= 0");
    double sum = 0;
    for (std::size_t i = 0; i < costs.size(); ++i) {
        if (!(gammas[i] > 0)) throw ModelError("cost_eq1: every gamma must be > 0");
        if (costs[i].status != EvalStatus::ok) return std::numeric_limits<double>::infinity();
        const double joules = costs[i].energy.total().value() * 1e-12;
        sum += std::pow(joules, alpha) * std::pow(costs[i].seconds, beta) * gammas[i];  // NicePIM Eq. 1
    }
    return sum;
}

}  // namespace pimdse::sim
