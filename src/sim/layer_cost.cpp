// One layer's compute and data-sharing cost (include/pimdse/sim/layer_cost.hpp).

#include "pimdse/sim/layer_cost.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "pimdse/core/units.hpp"

namespace pimdse::sim {

using workload::Layer;
using workload::LayerKind;

std::string_view to_string(EvalStatus s) noexcept {
    return name_of(kEvalStatusNames, s);
}

namespace {

/// Input rows (or columns) that output rows r read, clipped to the input (padding excluded).
/// `pad` is the padding before the first row: the end padding lies past `size` and is clipped.
Range input_extent(Range r, std::int64_t stride, std::int64_t pad, std::int64_t kernel, std::int64_t size) {
    const std::int64_t lo = std::max<std::int64_t>(0, r.begin * stride - pad);
    const std::int64_t hi = std::min<std::int64_t>(size, (r.end - 1) * stride - pad + kernel);
    return {lo, std::max(lo, hi)};
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
    LayerCounts counts;
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
    const std::int64_t in_bytes = sys.data_bytes(in);
    const std::int64_t out_bytes = sys.data_bytes(out);
    const std::int64_t accesses = ceil_div(in_bytes, port_bytes) + ceil_div(out_bytes, port_bytes);
    const std::int64_t activations =
        ceil_div(in_bytes, n.row_buffer.value()) + ceil_div(out_bytes, n.row_buffer.value());
    const double dram = sim::dram_cycles(n, static_cast<double>(accesses), static_cast<double>(activations),
                                         static_cast<double>(ceil_div(out_bytes, n.row_buffer.value())))
                            .value();
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
    LayerCounts& c = s.counts;
    c.dram_read_accesses = ceil_div(in_bytes, port_bytes);
    c.dram_write_accesses = ceil_div(out_bytes, port_bytes);
    c.dram_activations = activations;
    c.ibuf = {in, in};
    c.obuf = {out, out};
    c.register_bits = (in + out) * sys.data_bits;
    c.ibuf_energy = Picojoules(2.0 * static_cast<double>(in) * k.pj_per_ibuf_access);
    c.obuf_energy = Picojoules(2.0 * static_cast<double>(out) * k.pj_per_obuf_access);
    return s;
}

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

/// `c` added to `sum`, `times` over.
void add_counts(LayerCounts& sum, const LayerCounts& c, std::int64_t times) noexcept {
    sum.dram_read_accesses += c.dram_read_accesses * times;
    sum.dram_write_accesses += c.dram_write_accesses * times;
    sum.dram_activations += c.dram_activations * times;
    for (auto [to, from] : {std::pair{&sum.ibuf, &c.ibuf}, {&sum.wbuf, &c.wbuf}, {&sum.obuf, &c.obuf}}) {
        to->reads += from->reads * times;
        to->writes += from->writes * times;
    }
    sum.register_bits += c.register_bits * times;
    const auto t = static_cast<double>(times);
    sum.ibuf_energy += c.ibuf_energy * t;
    sum.wbuf_energy += c.wbuf_energy * t;
    sum.obuf_energy += c.obuf_energy * t;
}

/// The counts of one node's intra-node mapping (intra_node_energy_split's, by buffer).
LayerCounts counts_of(const IntraNodeCost& c, const IntraNodeEnergyCoefficients& k) noexcept {
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    LayerCounts out;
    for (const TensorTraffic& t : c.dram.tensor) {
        out.dram_read_accesses += t.read_accesses;
        out.dram_write_accesses += t.write_accesses;
    }
    out.dram_activations = c.dram.activations();
    out.ibuf = c.ibuf;
    out.wbuf = c.wbuf;
    out.obuf = c.obuf;
    out.register_bits = c.register_bits;
    out.ibuf_energy = Picojoules(d(c.ibuf.reads + c.ibuf.writes) * k.pj_per_ibuf_access);
    out.wbuf_energy = Picojoules(d(c.wbuf.reads + c.wbuf.writes) * k.pj_per_wbuf_access);
    out.obuf_energy = Picojoules(d(c.obuf.reads + c.obuf.writes) * k.pj_per_obuf_access);
    return out;
}

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
                add_counts(out.counts, s.counts, 1);
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
    Cycles slowest{0};
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
        if (!out.part.tiled || c.total_cycles > slowest) {
            out.part = {true, c.tiling, c.dataflow, shape_nodes[i]};
            slowest = c.total_cycles;
        }
        out.compute = std::max(out.compute, c.total_cycles);
        const IntraNodeEnergy e = intra_node_energy_split(c, shapes[i].macs(), sys.energy);
        const auto n = static_cast<double>(shape_nodes[i]);
        out.energy.add(e, n);
        add_counts(out.counts, counts_of(c, sys.energy), shape_nodes[i]);
    }
    const double pes = static_cast<double>(sys.node.pe_rows) * sys.node.pe_cols * rows * cols;
    if (out.compute.value() > 0)
        out.pe_utilisation = static_cast<double>(l.macs()) / (out.compute.value() * pes);
}

namespace {

void add_event(const ShareCost& c, LayerCost& out) noexcept {
    out.sharing += c.latency;
    out.energy.noc += c.energy;
    out.counts.sharing_flit_hops += c.flit_hops;
}

}  // namespace

void add_sharing_cost(const Layer& l, const LayerMapping& m, const Region& region, const System& sys,
                      SharingScheduler& scheduler, ChannelLoads& loads, LayerCost& out) {
    // Events run one after another: inputs and weights before compute, partial sums after.
    for (const SharingEvent& e : sharing_events(l, m, region, sys.mesh, sys.data_bits, sys.psum_bits))
        add_event(scheduler.share(sys.mesh, e.sets, sys.noc, loads), out);
}

SharingCosts sharing_costs(const Layer& l, const LayerMapping& m, const Region& region, const System& sys,
                           SharingScheduler& scheduler, ChannelLoads& loads) {
    SharingCosts s;
    for (const SharingEvent& e : sharing_events(l, m, region, sys.mesh, sys.data_bits, sys.psum_bits))
        s.events.push_back(scheduler.share(sys.mesh, e.sets, sys.noc, loads));
    return s;
}

void add_sharing(const SharingCosts& s, LayerCost& out) noexcept {
    for (const ShareCost& c : s.events) add_event(c, out);
}

}  // namespace pimdse::sim
