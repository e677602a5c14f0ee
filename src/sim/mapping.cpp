#include "pimdse/sim/mapping.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

#include "pimdse/core/units.hpp"

namespace pimdse::sim {

using workload::Layer;
using workload::LayerIndex;
using workload::LayerKind;

std::string_view to_string(PartDim d) noexcept {
    switch (d) {
        case PartDim::b:
            return "B";
        case PartDim::p:
            return "P";
        case PartDim::q:
            return "Q";
        case PartDim::k:
            return "K";
        case PartDim::c:
            return "C";
    }
    return "?";
}

std::optional<PartDim> parse_part_dim(char c) noexcept {
    switch (c) {
        case 'B':
            return PartDim::b;
        case 'P':
            return PartDim::p;
        case 'Q':
            return PartDim::q;
        case 'K':
            return PartDim::k;
        case 'C':
            return PartDim::c;
        default:
            return std::nullopt;
    }
}

std::string to_string(const Region& r) {
    // Appended piece by piece: '"literal" + std::string' trips GCC 12's -Wrestrict false positive.
    std::string out = std::to_string(r.rows);
    out += 'x';
    out += std::to_string(r.cols);
    out += '@';
    out += std::to_string(r.row);
    out += ',';
    out += std::to_string(r.col);
    return out;
}

std::string_view to_string(MappingRule rule) noexcept {
    switch (rule) {
        case MappingRule::segment_count:
            return "segment count";
        case MappingRule::layer_count:
            return "layer count";
        case MappingRule::region_outside:
            return "region outside the node array";
        case MappingRule::region_overlap:
            return "overlapping regions";
        case MappingRule::branch_assignment:
            return "branch assignment";
        case MappingRule::partition_product:
            return "partition product";
        case MappingRule::partition_bound:
            return "partition bound";
        case MappingRule::grouped_c_split:
            return "C split of a grouped convolution";
        case MappingRule::spatial_order:
            return "spatial order";
        case MappingRule::weight_replication:
            return "weight replication";
        case MappingRule::data_layout:
            return "data layout";
        case MappingRule::layout_rows:
            return "layout block not whole DRAM rows";
        case MappingRule::layout_mismatch:
            return "layout mismatch";
    }
    return "?";
}

std::string_view to_string(SharingKind kind) noexcept {
    return name_of(kSharingKindNames, kind, "?");
}

const Region& layer_region(const workload::Segmentation& seg, const NetworkMapping& mapping,
                           LayerIndex layer) {
    const auto i = static_cast<std::size_t>(layer);
    const SegmentMapping& sm = mapping.segments.at(static_cast<std::size_t>(seg.segment_of.at(i)));
    return sm.regions.at(
        static_cast<std::size_t>(sm.branch_region.at(static_cast<std::size_t>(seg.branch_of[i]))));
}

std::int64_t loop_bound(const Layer& layer, PartDim d) noexcept {
    switch (d) {
        case PartDim::b:
            return layer.B;
        case PartDim::p:
            return layer.P;
        case PartDim::q:
            return layer.Q;
        case PartDim::k:
            return layer.K;
        case PartDim::c:
            return layer.C;
    }
    return 1;
}

std::array<std::int32_t, kPartDims> part_indices(const LayerMapping& m, std::int32_t y,
                                                 std::int32_t x) noexcept {
    // Mixed-radix decomposition of the node's row and column, most significant digit first
    // in P_order (NicePIM Fig. 5: the first loop splits the region into the largest blocks).
    auto [rows, cols] = m.shape();
    std::array<std::int32_t, kPartDims> out{};
    // A loop not split along a side has digit 0 there: no division.
    for (PartDim d : m.order) {
        const Partition p = m.part(d);
        std::int32_t i = 0;
        if (p.h > 1) {
            rows /= p.h;
            i = (y / rows) % p.h * p.w;
        }
        if (p.w > 1) {
            cols /= p.w;
            i += (x / cols) % p.w;
        }
        out[static_cast<std::size_t>(d)] = i;
    }
    return out;
}

std::array<Range, kPartDims> part_ranges(const Layer& layer, const LayerMapping& m, std::int32_t y,
                                         std::int32_t x) noexcept {
    const auto idx = part_indices(m, y, x);
    std::array<Range, kPartDims> out{};
    for (PartDim d : kAllPartDims) {
        const auto i = static_cast<std::size_t>(d);
        out[i] = split(loop_bound(layer, d), m.parts[i].count(), idx[i]);
    }
    return out;
}

std::int32_t nodes_sharing_weights(const LayerMapping& m) noexcept {
    return m.part(PartDim::b).count() * m.part(PartDim::p).count() * m.part(PartDim::q).count();
}

std::int64_t stored_weights_per_node(const Layer& layer, const LayerMapping& m) noexcept {
    if (!layer.has_weights()) return 0;
    // The largest part (balanced split: the first parts are one longer) bounds every node.
    const std::int64_t k_part = split(layer.K, m.part(PartDim::k).count(), 0).size();
    const std::int64_t c_part = split(layer.C, m.part(PartDim::c).count(), 0).size();
    const std::int64_t per_group_c = layer.groups > 1 ? layer.C / layer.groups : c_part;
    const std::int64_t part = k_part * per_group_c * layer.R * layer.S;
    const std::int64_t n_node = nodes_sharing_weights(m);
    const std::int64_t shards = ceil_div(n_node, m.wr);  // NicePIM III-D: 1/ceil(N_node/WR)
    return ceil_div(part, shards);
}

namespace {

std::string layer_text(const workload::Network& net, LayerIndex l) {
    return "layer " + std::to_string(l) + " '" + net.layer(l).name + "'";
}

MappingIssue issue(MappingRule rule, std::int32_t segment, LayerIndex layer, std::string message) {
    return MappingIssue{rule, segment, layer, std::move(message)};
}

std::optional<MappingIssue> check_segment(const workload::Segment& s, const SegmentMapping& sm,
                                          std::int32_t si, std::int32_t node_rows, std::int32_t node_cols) {
    const std::string what = "segment " + std::to_string(si);
    if (sm.regions.empty() || sm.regions.size() > s.branches.size())
        return issue(MappingRule::branch_assignment, si, -1,
                     what + ": expected 1 to " + std::to_string(s.branches.size()) +
                         " regions (one per branch at most), got " + std::to_string(sm.regions.size()));
    for (std::size_t i = 0; i < sm.regions.size(); ++i) {
        const Region& r = sm.regions[i];
        if (r.rows < 1 || r.cols < 1 || r.row < 0 || r.col < 0 || r.row + r.rows > node_rows ||
            r.col + r.cols > node_cols)
            return issue(MappingRule::region_outside, si, -1,
                         what + ": region " + std::to_string(i) + " " + to_string(r) + " is not inside the " +
                             std::to_string(node_rows) + "x" + std::to_string(node_cols) + " node array");
        for (std::size_t j = 0; j < i; ++j)
            if (r.overlaps(sm.regions[j]))
                return issue(MappingRule::region_overlap, si, -1,
                             what + ": regions " + std::to_string(j) + " " + to_string(sm.regions[j]) +
                                 " and " + std::to_string(i) + " " + to_string(r) + " overlap");
    }
    if (sm.branch_region.size() != s.branches.size())
        return issue(MappingRule::branch_assignment, si, -1,
                     what + ": expected a region for each of its " + std::to_string(s.branches.size()) +
                         " branches, got " + std::to_string(sm.branch_region.size()));
    std::vector<bool> used(sm.regions.size(), false);
    for (std::size_t b = 0; b < sm.branch_region.size(); ++b) {
        const std::int32_t r = sm.branch_region[b];
        if (r < 0 || static_cast<std::size_t>(r) >= sm.regions.size())
            return issue(MappingRule::branch_assignment, si, -1,
                         what + ": branch " + std::to_string(b) + " is assigned to region " +
                             std::to_string(r) + ", which does not exist");
        used[static_cast<std::size_t>(r)] = true;
    }
    for (std::size_t r = 0; r < used.size(); ++r)
        if (!used[r])
            return issue(MappingRule::branch_assignment, si, -1,
                         what + ": region " + std::to_string(r) + " runs no branch");
    return std::nullopt;
}

std::optional<MappingIssue> check_layer(const workload::Network& net, LayerIndex l, const LayerMapping& m,
                                        const Region& region, std::int32_t si) {
    const Layer& layer = net.layer(l);
    const std::string what = layer_text(net, l);
    std::array<bool, kPartDims> seen{};
    for (PartDim d : m.order) {
        if (static_cast<std::size_t>(d) >= kPartDims || seen[static_cast<std::size_t>(d)])
            return issue(MappingRule::spatial_order, si, l,
                         what + ": the spatial order must list B, P, Q, K and C once each");
        seen[static_cast<std::size_t>(d)] = true;
    }
    std::int64_t rows = 1;
    std::int64_t cols = 1;
    for (PartDim d : kAllPartDims) {
        const Partition p = m.part(d);
        if (p.h < 1 || p.w < 1)
            return issue(MappingRule::partition_product, si, l,
                         what + ": partitions of " + std::string(to_string(d)) + " must be >= 1");
        rows *= p.h;
        cols *= p.w;
        if (p.count() > loop_bound(layer, d))
            return issue(MappingRule::partition_bound, si, l,
                         what + ": " + std::to_string(p.count()) + " partitions of " +
                             std::string(to_string(d)) + " exceed its loop bound " +
                             std::to_string(loop_bound(layer, d)));
    }
    if (rows != region.rows || cols != region.cols)
        return issue(MappingRule::partition_product, si, l,
                     what + ": partitions multiply to " + std::to_string(rows) + "x" + std::to_string(cols) +
                         " but the layer's region is " + std::to_string(region.rows) + "x" +
                         std::to_string(region.cols));
    if (layer.groups > 1 && m.part(PartDim::c).count() > 1)
        return issue(MappingRule::grouped_c_split, si, l,
                     what + ": a grouped convolution is split on K (its groups), not on C");
    const std::int32_t n_node = nodes_sharing_weights(m);
    if (m.wr < 1 || (layer.has_weights() && m.wr > n_node))
        return issue(MappingRule::weight_replication, si, l,
                     what + ": WR must be between 1 and " + std::to_string(layer.has_weights() ? n_node : 1) +
                         " (the nodes that need the same weights), got " + std::to_string(m.wr));
    if (!is_valid(m.dl_in) || !is_valid(m.dl_out))
        return issue(MappingRule::data_layout, si, l, what + ": invalid data layout");
    return std::nullopt;
}

// An RA block of whole DRAM rows at the data width (then also at the wider partial sums').
std::optional<MappingIssue> check_layout_rows(const workload::Network& network,
                                              const workload::Segmentation& seg,
                                              const NetworkMapping& mapping, std::int64_t row_elements) {
    if (row_elements <= 0) return std::nullopt;
    for (LayerIndex l = 0; l < network.size(); ++l) {
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(l)];
        for (const DataLayout dl : {m.dl_in, m.dl_out}) {
            if (dl.order != LayoutOrder::row_aligned ||
                (std::int64_t{dl.block_h} * dl.block_w) % row_elements == 0)
                continue;
            return issue(MappingRule::layout_rows, seg.segment_of[static_cast<std::size_t>(l)], l,
                         layer_text(network, l) + ": layout " + to_string(dl) + " has blocks of " +
                             std::to_string(std::int64_t{dl.block_h} * dl.block_w) +
                             " elements; expected a multiple of a DRAM row's " +
                             std::to_string(row_elements) + " (e.g. " +
                             to_string(row_aligned_for(network.layer(l).W, row_elements)) + ")");
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<MappingIssue> check_mapping(const workload::Network& network, const workload::Segmentation& seg,
                                          const NetworkMapping& mapping, std::int32_t node_rows,
                                          std::int32_t node_cols, std::int64_t row_elements) {
    if (mapping.segments.size() != seg.segments.size())
        return issue(MappingRule::segment_count, -1, -1,
                     "expected " + std::to_string(seg.segments.size()) + " segment mappings, got " +
                         std::to_string(mapping.segments.size()));
    if (mapping.layers.size() != static_cast<std::size_t>(network.size()))
        return issue(MappingRule::layer_count, -1, -1,
                     "expected " + std::to_string(network.size()) + " layer mappings, got " +
                         std::to_string(mapping.layers.size()));
    for (std::size_t s = 0; s < seg.segments.size(); ++s)
        if (auto bad = check_segment(seg.segments[s], mapping.segments[s], static_cast<std::int32_t>(s),
                                     node_rows, node_cols))
            return bad;
    for (LayerIndex l = 0; l < network.size(); ++l) {
        const std::int32_t si = seg.segment_of[static_cast<std::size_t>(l)];
        if (auto bad = check_layer(network, l, mapping.layers[static_cast<std::size_t>(l)],
                                   layer_region(seg, mapping, l), si))
            return bad;
    }
    if (auto bad = check_layout_rows(network, seg, mapping, row_elements)) return bad;
    // NicePIM III-E: a producer's DL_o is its consumers' DL_i (they are the same tensor).
    for (LayerIndex l = 0; l < network.size(); ++l) {
        const DataLayout in = mapping.layers[static_cast<std::size_t>(l)].dl_in;
        for (LayerIndex producer : network.layer(l).inputs) {
            if (producer == workload::kNetworkInput) continue;
            const DataLayout out = mapping.layers[static_cast<std::size_t>(producer)].dl_out;
            if (out != in)
                return issue(MappingRule::layout_mismatch, seg.segment_of[static_cast<std::size_t>(l)], l,
                             layer_text(network, l) + ": its input layout " + to_string(in) +
                                 " differs from the output layout " + to_string(out) + " of its producer " +
                                 layer_text(network, producer));
        }
    }
    return std::nullopt;
}

namespace {

/// Input channels [begin, end) that the output channels `k` need (grouped convolutions
/// read only their groups' channels; everything else reads all of C).
Range needed_input_channels(const Layer& layer, Range k, Range c) {
    if (layer.is_convolution() && layer.groups > 1) {
        const std::int64_t k_per_group = layer.K / layer.groups;
        const std::int64_t c_per_group = layer.C / layer.groups;
        return {k.begin / k_per_group * c_per_group, ((k.end - 1) / k_per_group + 1) * c_per_group};
    }
    if (layer.is_compute()) return c;
    return k;  // elementwise and pooling layers: output channel i reads input channel i
}

struct NodePart {
    NodeId node;
    std::array<std::int32_t, kPartDims> idx;
    std::array<Range, kPartDims> ranges;
};

/// Groups nodes by a key; each group with more than one member becomes a sharing set.
template <class Key>
void add_sets(std::map<Key, std::pair<std::vector<NodeId>, std::int64_t>>& groups, SharingEvent& event) {
    for (auto& [key, group] : groups) {
        auto& [members, bytes] = group;
        if (members.size() < 2) continue;
        std::sort(members.begin(), members.end());
        const auto n = static_cast<std::int64_t>(members.size());
        event.sets.push_back(SharingSet{std::move(members), Bytes(ceil_div(bytes, n))});
    }
}

}  // namespace

namespace {

std::int32_t at(const NodePart& n, PartDim d) {
    return n.idx[static_cast<std::size_t>(d)];
}

Range range(const NodePart& n, PartDim d) {
    return n.ranges[static_cast<std::size_t>(d)];
}

/// Inputs (VII): nodes that differ only in their K part read the same input slice when
/// the slice does not depend on K, which holds unless the layer is grouped or elementwise.
SharingEvent input_event(const Layer& layer, const std::vector<NodePart>& nodes, std::int32_t data_bits) {
    using Key = std::array<std::int64_t, 6>;  // B, P, Q, C parts and the channel range
    std::map<Key, std::pair<std::vector<NodeId>, std::int64_t>> groups;
    for (const NodePart& n : nodes) {
        const Range ch = needed_input_channels(layer, range(n, PartDim::k), range(n, PartDim::c));
        const Key key{at(n, PartDim::b), at(n, PartDim::p), at(n, PartDim::q),
                      at(n, PartDim::c), ch.begin,          ch.end};
        const auto [r0, r1] = layer.input_rows(range(n, PartDim::p).begin, range(n, PartDim::p).end, false);
        const auto [c0, c1] = layer.input_rows(range(n, PartDim::q).begin, range(n, PartDim::q).end, true);
        auto& g = groups[key];
        g.first.push_back(n.node);
        g.second = packed_bytes(range(n, PartDim::b).size() * ch.size() * (r1 - r0) * (c1 - c0), data_bits);
    }
    SharingEvent e{SharingKind::inputs, {}};
    add_sets(groups, e);
    return e;
}

/// Weights (III-D, VII): the N_node nodes with equal K and C parts need the same weights;
/// WR copies exist, so they form WR groups of `shard` = ceil(N_node / WR) nodes that gather
/// the parts each member stores. Activation x activation matmuls store no weights: their
/// second operand is spread over the same nodes and gathered the same way (WR = 1).
SharingEvent weight_event(const Layer& layer, const std::vector<NodePart>& nodes, std::int32_t shard,
                          std::int32_t data_bits) {
    const bool weighted = layer.has_weights();
    using Key = std::array<std::int64_t, 3>;  // K part, C part, replica
    std::map<Key, std::pair<std::vector<NodeId>, std::int64_t>> groups;
    // Rank of a node among those with its (K, C) parts, in node order.
    std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> rank;
    for (const NodePart& n : nodes) {
        const std::pair<std::int32_t, std::int32_t> kc{at(n, PartDim::k), at(n, PartDim::c)};
        const std::int32_t r = rank[kc]++;
        const Key key{kc.first, kc.second, r / shard};
        const std::int64_t k = range(n, PartDim::k).size();
        const std::int64_t c = layer.groups > 1 ? layer.C / layer.groups : range(n, PartDim::c).size();
        auto& g = groups[key];
        g.first.push_back(n.node);
        // The second operand of an activation matmul is C x (its rows): K here.
        g.second = packed_bytes(weighted ? k * c * layer.R * layer.S : k * c * range(n, PartDim::b).size(),
                                data_bits);
    }
    SharingEvent e{SharingKind::weights, {}};
    add_sets(groups, e);
    return e;
}

/// Partial sums (VII): nodes that differ only in their C part hold partial sums of the
/// same outputs, reduced around the cycle (a reduce-scatter: N-1 steps of 1/N each).
SharingEvent psum_event(const std::vector<NodePart>& nodes, std::int32_t psum_bits) {
    using Key = std::array<std::int64_t, 4>;  // B, P, Q, K parts
    std::map<Key, std::pair<std::vector<NodeId>, std::int64_t>> groups;
    for (const NodePart& n : nodes) {
        const Key key{at(n, PartDim::b), at(n, PartDim::p), at(n, PartDim::q), at(n, PartDim::k)};
        auto& g = groups[key];
        g.first.push_back(n.node);
        g.second = packed_bytes(range(n, PartDim::b).size() * range(n, PartDim::k).size() *
                                    range(n, PartDim::p).size() * range(n, PartDim::q).size(),
                                psum_bits);
    }
    SharingEvent e{SharingKind::partial_sums, {}};
    add_sets(groups, e);
    return e;
}

}  // namespace

std::vector<SharingEvent> sharing_events(const Layer& layer, const LayerMapping& m, const Region& region,
                                         const Mesh& mesh, std::int32_t data_bits, std::int32_t psum_bits) {
    std::vector<NodePart> nodes;
    nodes.reserve(static_cast<std::size_t>(region.nodes()));
    for (std::int32_t y = 0; y < region.rows; ++y)
        for (std::int32_t x = 0; x < region.cols; ++x)
            nodes.push_back(NodePart{mesh.node(region.row + y, region.col + x), part_indices(m, y, x),
                                     part_ranges(layer, m, y, x)});
    std::vector<SharingEvent> events;
    const auto keep = [&](SharingEvent e) {
        if (!e.sets.empty()) events.push_back(std::move(e));
    };
    if (m.part(PartDim::k).count() > 1) keep(input_event(layer, nodes, data_bits));
    const std::int32_t n_node = nodes_sharing_weights(m);
    const bool activation_operand = layer.kind == LayerKind::matmul && layer.weights_are_activations;
    const std::int32_t wr = layer.has_weights() ? m.wr : 1;
    if ((layer.has_weights() || activation_operand) && n_node > 1 && wr < n_node)
        keep(weight_event(layer, nodes, static_cast<std::int32_t>(ceil_div(n_node, wr)), data_bits));
    if (layer.is_compute() && m.part(PartDim::c).count() > 1) keep(psum_event(nodes, psum_bits));
    return events;
}

}  // namespace pimdse::sim
