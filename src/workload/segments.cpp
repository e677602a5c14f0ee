#include "pimdse/workload/segments.hpp"

#include <algorithm>
#include <limits>

namespace pimdse::workload {

std::int64_t Segment::layer_count() const noexcept {
    std::int64_t n = 0;
    for (const Branch& b : branches) n += static_cast<std::int64_t>(b.layers.size());
    return n;
}

std::int32_t Segmentation::multi_branch_segments() const noexcept {
    return static_cast<std::int32_t>(
        std::count_if(segments.begin(), segments.end(), [](const Segment& s) { return s.multi_branch(); }));
}

std::int32_t Segmentation::max_branches() const noexcept {
    std::size_t m = 0;
    for (const Segment& s : segments) m = std::max(m, s.branches.size());
    return static_cast<std::int32_t>(m);
}

std::vector<bool> cut_layers(const Network& network) {
    // Layers are in topological order, so index = position. Layer x at position p is
    // ordered with respect to all others iff
    //   (a) every layer before p reaches x, i.e. every u < p has a consumer at <= p, and
    //   (b) x reaches every layer after p, i.e. every v > p has a producer at >= p
    // (by induction over positions: a consumer at <= p is x itself or, by (a) for the
    // layers in between, an ancestor of x; symmetrically for (b)). The network input is
    // position -1 and every sink feeds a pseudo-sink at position n.
    const LayerIndex n = network.size();
    std::vector<bool> cut(static_cast<std::size_t>(n), false);
    std::vector<LayerIndex> suffix_min_max_producer(static_cast<std::size_t>(n) + 1,
                                                    std::numeric_limits<LayerIndex>::max());
    for (LayerIndex v = n - 1; v >= 0; --v) {
        const auto& in = network.layer(v).inputs;
        const LayerIndex max_producer = *std::max_element(in.begin(), in.end());
        suffix_min_max_producer[static_cast<std::size_t>(v)] =
            std::min(suffix_min_max_producer[static_cast<std::size_t>(v) + 1], max_producer);
    }
    LayerIndex prefix_max_min_consumer = std::numeric_limits<LayerIndex>::min();
    for (LayerIndex p = 0; p < n; ++p) {
        const bool reached_by_all_before = prefix_max_min_consumer <= p;
        const bool reaches_all_after = suffix_min_max_producer[static_cast<std::size_t>(p) + 1] >= p;
        cut[static_cast<std::size_t>(p)] = reached_by_all_before && reaches_all_after;
        const auto consumers = network.consumers(p);
        const LayerIndex min_consumer = consumers.empty() ? n : consumers.front();
        prefix_max_min_consumer = std::max(prefix_max_min_consumer, min_consumer);
    }
    return cut;
}

Segmentation decompose(const Network& network) {
    const LayerIndex n = network.size();
    const std::vector<bool> cut = cut_layers(network);
    Segmentation out;
    out.segment_of.assign(static_cast<std::size_t>(n), -1);
    out.branch_of.assign(static_cast<std::size_t>(n), -1);

    std::vector<LayerIndex> stack;
    LayerIndex p = 0;
    while (p < n) {
        const auto seg = static_cast<std::int32_t>(out.segments.size());
        Segment& segment = out.segments.emplace_back();
        if (cut[static_cast<std::size_t>(p)]) {
            segment.branches.push_back(Branch{{p}});
            out.segment_of[static_cast<std::size_t>(p)] = seg;
            out.branch_of[static_cast<std::size_t>(p)] = 0;
            ++p;
            continue;
        }
        // The run [begin, end) of non-cut layers; its weakly connected components are the
        // branches. Edges leaving the run go to cuts, so a search restricted to the run
        // finds each component; components are numbered by their first layer.
        const LayerIndex begin = p;
        LayerIndex end = p;
        while (end < n && !cut[static_cast<std::size_t>(end)])
            out.segment_of[static_cast<std::size_t>(end++)] = seg;
        std::int32_t branches = 0;
        for (LayerIndex start = begin; start < end; ++start) {
            if (out.branch_of[static_cast<std::size_t>(start)] >= 0) continue;
            const std::int32_t b = branches++;
            out.branch_of[static_cast<std::size_t>(start)] = b;
            stack.assign(1, start);
            while (!stack.empty()) {
                const LayerIndex x = stack.back();
                stack.pop_back();
                const auto visit = [&](LayerIndex y) {
                    if (y < begin || y >= end || out.branch_of[static_cast<std::size_t>(y)] >= 0) return;
                    out.branch_of[static_cast<std::size_t>(y)] = b;
                    stack.push_back(y);
                };
                for (LayerIndex y : network.layer(x).inputs) visit(y);
                for (LayerIndex y : network.consumers(x)) visit(y);
            }
        }
        segment.branches.resize(static_cast<std::size_t>(branches));
        for (LayerIndex x = begin; x < end; ++x)
            segment.branches[static_cast<std::size_t>(out.branch_of[static_cast<std::size_t>(x)])]
                .layers.push_back(x);
        p = end;
    }
    return out;
}

std::vector<Segment> segments(const Network& network) {
    return decompose(network).segments;
}

}  // namespace pimdse::workload
