// Data spaces of a mapped layer: the boxes a consumer reads from its producers, and the
// temporal steps of a layer's nodes (include/pimdse/sim/data_space.hpp).

#include "pimdse/sim/data_space.hpp"

#include <algorithm>

#include "pimdse/core/units.hpp"

namespace pimdse::sim {

using workload::Layer;
using workload::LayerIndex;
using workload::LayerKind;

std::int32_t part_of(std::int64_t length, std::int32_t n, std::int64_t e) noexcept {
    const std::int64_t base = length / n;
    const std::int64_t extra = length % n;
    const std::int64_t long_span = extra * (base + 1);
    if (e < long_span) return static_cast<std::int32_t>(e / (base + 1));
    return static_cast<std::int32_t>(extra + (e - long_span) / base);
}

namespace {

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

}  // namespace

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

Box NodeSteps::step_box(std::int64_t s) const noexcept {
    Box b = out;
    for (std::size_t d = 0; d < kBoxDims; ++d) {
        const std::int64_t i = s / stride[d] % count[d];
        const std::int64_t lo = out[d].begin + i * tile[d];
        b[d] = {lo, std::min(lo + tile[d], out[d].end)};
    }
    return b;
}

std::int64_t NodeSteps::step_of(const std::array<std::int64_t, kBoxDims>& e) const noexcept {
    std::int64_t s = 0;
    for (std::size_t d = 0; d < kBoxDims; ++d) s += (e[d] - out[d].begin) / tile[d] * stride[d];
    return s;
}

std::int32_t LayerSpaces::owner_of(const std::array<std::int32_t, kBoxDims>& block) const noexcept {
    return owner[static_cast<std::size_t>(
        ((block[0] * parts[1] + block[1]) * parts[2] + block[2]) * parts[3] + block[3])];
}

std::optional<Box> LayerSpaces::step_input(std::size_t n, std::int64_t s, std::size_t j) const {
    const NodeSteps& ns = nodes[n];
    const Box o = ns.step_box(s);
    std::array<Range, kPartDims> r = ns.ranges;  // the node's whole C range, the step's outputs
    r[index_of(PartDim::b)] = o[0];
    r[index_of(PartDim::k)] = o[1];
    r[index_of(PartDim::p)] = o[2];
    r[index_of(PartDim::q)] = o[3];
    const std::optional<Need> need = needed_box(*net, net->layer(layer), *mapping, r, ns.idx, j);
    if (!need) return std::nullopt;
    return need->box();
}

namespace {

/// The output dims of the layer in the tile loop order of `t`, outside its C loop.
std::vector<std::size_t> step_dims(const Tiling& t) {
    std::vector<std::size_t> dims;
    for (LoopDim d : loops_of(t.order)) {
        if (d == LoopDim::C) break;
        switch (d) {
            case LoopDim::R:
            case LoopDim::S:
                continue;  // the kernel: whole in the tilings this composes (one tile)
            case LoopDim::B:
                dims.push_back(0);
                break;
            case LoopDim::K:
                dims.push_back(1);
                break;
            case LoopDim::P:
                dims.push_back(2);
                break;
            default:
                dims.push_back(3);
                break;
        }
    }
    return dims;
}

/// The step divisor whose blocks keep a tensor's tile resident across consecutive steps, 0
/// when every step fetches its tile anyway or the tensor is fetched once: the tile is
/// refetched when a loop it depends on advances (dram.cpp, visits), so with `inner` its
/// innermost such loop of more than one tile, blocks of steps that share it must stay
/// together unless `inner` lies inside the steps (C or a loop after it) or is their
/// innermost multi-tile loop.
std::int64_t keep_of(const NodeSteps& ns, const std::vector<std::size_t>& dims,
                     const std::array<bool, kBoxDims>& relevant, bool inside) {
    if (inside) return 0;
    std::int64_t innermost = -1;  // the innermost multi-tile step dim, then the tensor's
    for (std::size_t d : dims)
        if (ns.count[d] > 1) innermost = static_cast<std::int64_t>(d);
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
        if (ns.count[*it] <= 1 || !relevant[*it]) continue;
        return static_cast<std::int64_t>(*it) == innermost ? 0 : ns.stride[*it];
    }
    return 0;
}

/// NodeSteps::keep of a node: its input's and weights' blocks (docs/model.md, "The
/// overlap-friendly transformation").
void keep_blocks(NodeSteps& ns, const workload::Layer& l, const PartTiling& part,
                 const std::vector<std::size_t>& dims) {
    const auto loops = loops_of(part.tiling.order);
    const auto at_c = std::find(loops.begin(), loops.end(), LoopDim::C);
    static constexpr std::array<LoopDim, kBoxDims> kLoop{LoopDim::B, LoopDim::K, LoopDim::P, LoopDim::Q};
    // Grouped convolutions: the node model's part-layer holds one group, so C is not trusted
    // to be split and the input depends on K.
    const bool grouped = l.groups > 1;
    const Range c = ns.ranges[index_of(PartDim::c)];
    const bool c_split =
        !grouped && ceil_div(c.size(), std::clamp<std::int64_t>(part.tiling[LoopDim::C], 1,
                                                                std::max<std::int64_t>(1, c.size()))) > 1;
    bool in_inner = c_split, w_inner = c_split;  // a loop from C inwards of more than one tile
    for (auto it = at_c + 1; it != loops.end(); ++it) {
        const std::size_t d =
            static_cast<std::size_t>(std::find(kLoop.begin(), kLoop.end(), *it) - kLoop.begin());
        const std::int64_t n = ceil_div(
            std::max<std::int64_t>(1, ns.out[d].size()),
            std::clamp<std::int64_t>(part.tiling[*it], 1, std::max<std::int64_t>(1, ns.out[d].size())));
        if (n <= 1) continue;
        in_inner = in_inner || d != 1 || grouped;
        w_inner = w_inner || d == 1 || (d == 0 && l.weights_are_activations);
    }
    const std::array<bool, kBoxDims> in_rel{true, grouped, true, true};
    const std::array<bool, kBoxDims> w_rel{l.weights_are_activations, true, false, false};
    std::array<std::int64_t, 2> k{keep_of(ns, dims, in_rel, in_inner), keep_of(ns, dims, w_rel, w_inner)};
    if (k[0] < k[1]) std::swap(k[0], k[1]);  // coarsest (largest divisor) first
    if (k[1] == k[0]) k[1] = 0;
    ns.keep = k;
}

/// Cuts a node's output box into its steps: the step dims by the tile sizes, the others whole.
void cut_steps(NodeSteps& ns, const workload::Layer& l, const PartTiling& part) {
    for (std::size_t d = 0; d < kBoxDims; ++d) ns.tile[d] = std::max<std::int64_t>(1, ns.out[d].size());
    std::vector<std::size_t> dims;
    if (part.tiled) dims = step_dims(part.tiling);
    static constexpr std::array<LoopDim, kBoxDims> kLoop{LoopDim::B, LoopDim::K, LoopDim::P, LoopDim::Q};
    for (std::size_t d : dims) {
        ns.tile[d] = std::clamp<std::int64_t>(part.tiling[kLoop[d]], 1, ns.tile[d]);
        ns.count[d] = ceil_div(ns.out[d].size(), ns.tile[d]);
    }
    ns.steps = 1;
    for (std::size_t d = 0; d < kBoxDims; ++d) ns.stride[d] = 1;  // whole dims: index 0 always
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
        ns.stride[*it] = ns.steps;
        ns.steps *= ns.count[*it];
    }
    if (part.tiled) keep_blocks(ns, l, part, dims);
}

}  // namespace

LayerSpaces layer_spaces(const workload::Network& net, LayerIndex li, const LayerMapping& m,
                         const Region& region, const Mesh& mesh, const LayerCost& cost) {
    const Layer& l = net.layer(li);
    LayerSpaces sp;
    sp.net = &net;
    sp.mapping = &m;
    sp.layer = li;
    // A sharing event moves bytes, so it takes time whenever the layer has one.
    sp.barrier = m.part(PartDim::c).count() > 1 || cost.sharing.value() > 0;
    sp.parts = {m.part(PartDim::b).count(), m.part(PartDim::k).count(), m.part(PartDim::p).count(),
                m.part(PartDim::q).count()};
    sp.nodes.reserve(static_cast<std::size_t>(region.nodes()));
    if (sp.barrier) {  // one block: its nodes are all a timeline needs
        for (std::int32_t y = 0; y < region.rows; ++y)
            for (std::int32_t x = 0; x < region.cols; ++x)
                sp.nodes.emplace_back().node = mesh.node(region.row + y, region.col + x);
        return sp;
    }
    sp.owner.assign(static_cast<std::size_t>(sp.parts[0] * sp.parts[1] * sp.parts[2] * sp.parts[3]), 0);
    for (std::int32_t y = 0; y < region.rows; ++y)
        for (std::int32_t x = 0; x < region.cols; ++x) {
            NodeSteps& ns = sp.nodes.emplace_back();
            ns.node = mesh.node(region.row + y, region.col + x);
            ns.ranges = part_ranges(l, m, y, x);
            ns.idx = part_indices(m, y, x);
            ns.out = {ns.ranges[index_of(PartDim::b)], ns.ranges[index_of(PartDim::k)],
                      ns.ranges[index_of(PartDim::p)], ns.ranges[index_of(PartDim::q)]};
            cut_steps(ns, l, cost.part);
            if (ns.idx[index_of(PartDim::c)] != 0) continue;
            sp.owner[static_cast<std::size_t>(
                ((ns.idx[index_of(PartDim::b)] * sp.parts[1] + ns.idx[index_of(PartDim::k)]) * sp.parts[2] +
                 ns.idx[index_of(PartDim::p)]) *
                    sp.parts[3] +
                ns.idx[index_of(PartDim::q)])] = static_cast<std::int32_t>(sp.nodes.size() - 1);
        }
    return sp;
}

}  // namespace pimdse::sim
