// The network timeline: the sequential composition of a segment's layers, and the cost of a
// mapped network (include/pimdse/sim/timeline.hpp).

#include "pimdse/sim/timeline.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/data_space.hpp"

namespace pimdse::sim {

using workload::LayerIndex;

Cycles SequentialTimeline::segment(std::span<const TimelineLayer> layers, std::size_t regions,
                                   std::span<LayerTiming> timing) const {
    if (timing.size() != layers.size()) throw ModelError("SequentialTimeline: one timing per layer");
    // III-B: the layers of one region one after another, regions in parallel.
    std::vector<Cycles> region_time(regions, Cycles(0));
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const TimelineLayer& l = layers[i];
        if (l.region < 0 || static_cast<std::size_t>(l.region) >= regions)
            throw ModelError("SequentialTimeline: a layer's region is not one of the segment's");
        Cycles& t = region_time[static_cast<std::size_t>(l.region)];
        timing[i].start = t;
        timing[i].latency = l.redistribution + l.sharing + l.compute;
        t += timing[i].latency;
    }
    if (region_time.empty()) return Cycles(0);
    return *std::max_element(region_time.begin(), region_time.end());
}

Cycles Timeline::network(std::span<const TimelineSegment> segments,
                         std::span<std::vector<LayerTiming>> timing,
                         std::span<Cycles> segment_latency) const {
    if (timing.size() != segments.size() || segment_latency.size() != segments.size())
        throw ModelError("Timeline::network: one timing list and one latency per segment");
    Cycles offset(0);
    for (std::size_t k = 0; k < segments.size(); ++k) {
        const Cycles t = segment(segments[k].layers, segments[k].regions, timing[k]);
        for (LayerTiming& lt : timing[k]) lt.start += offset;
        segment_latency[k] = t;
        offset += t;
    }
    return offset;
}

std::vector<std::int32_t> producers_in(const workload::Network& network, LayerIndex layer,
                                       std::span<const LayerIndex> earlier) {
    std::vector<std::int32_t> out;
    for (LayerIndex p : network.layer(layer).inputs) {
        const auto it = std::find(earlier.begin(), earlier.end(), p);
        if (it != earlier.end()) out.push_back(static_cast<std::int32_t>(it - earlier.begin()));
    }
    return out;
}

const Timeline& sequential_timeline() noexcept {
    static const SequentialTimeline timeline;
    return timeline;
}

namespace {

/// Weights stored per node (NicePIM III-D) against the node's DRAM: the first node over it
/// makes `cost` infeasible.
void check_capacity(const workload::Network& net, const workload::Segmentation& seg,
                    const NetworkMapping& mapping, const System& sys, NetworkCost& cost) {
    std::vector<std::int64_t> stored(static_cast<std::size_t>(sys.mesh.node_count()), 0);
    for (LayerIndex li = 0; li < net.size(); ++li) {
        const std::int64_t bytes = sys.data_bytes(
            stored_weights_per_node(net.layer(li), mapping.layers[static_cast<std::size_t>(li)]));
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

/// One segment's layers in branch order, listed in `order` and `layers` as the timeline
/// composes them. With a coster, each is costed first into `cost` (its energy and the first
/// infeasibility added); without one, `cost` holds their costs already.
void list_segment(const workload::Network& net, const workload::Segment& s, const SegmentMapping& sm,
                  LayerCoster* coster, NetworkCost& cost, std::vector<LayerIndex>& order,
                  std::vector<TimelineLayer>& layers) {
    for (std::size_t bi = 0; bi < s.branches.size(); ++bi) {
        for (LayerIndex li : s.branches[bi].layers) {
            LayerCost& lc = cost.layers[static_cast<std::size_t>(li)];
            if (coster != nullptr) {
                coster->cost(li, lc);
                cost.energy += lc.energy;
                if (lc.status != EvalStatus::ok && cost.status == EvalStatus::ok) {
                    cost.status = lc.status;
                    cost.reason = lc.reason;
                }
            }
            TimelineLayer& t = layers.emplace_back();
            t.redistribution = lc.redistribution;
            t.sharing = lc.sharing;
            t.compute = lc.compute;
            t.region = sm.branch_region[bi];
            t.producers = producers_in(net, li, order);
            order.push_back(li);
        }
    }
}

/// Every layer costed by `coster` (or taken from `cost` when it is null), segment by segment,
/// then the whole network composed by `timeline` (with the layers' data spaces if it wants
/// them): latency, segments, layer timings.
void compose(const workload::Network& net, const workload::Segmentation& seg, const NetworkMapping& mapping,
             const System& sys, LayerCoster* coster, const Timeline& timeline, NetworkCost& cost) {
    const std::size_t n = seg.segments.size();
    std::vector<std::vector<LayerIndex>> order(n);
    std::vector<std::vector<TimelineLayer>> layers(n);
    for (std::size_t si = 0; si < n; ++si)
        list_segment(net, seg.segments[si], mapping.segments[si], coster, cost, order[si], layers[si]);
    std::vector<LayerSpaces> spaces;
    if (timeline.wants_spaces()) {
        spaces.reserve(static_cast<std::size_t>(net.size()));
        for (std::size_t si = 0; si < n; ++si)
            for (std::size_t i = 0; i < order[si].size(); ++i) {
                const LayerIndex li = order[si][i];
                const std::size_t l = static_cast<std::size_t>(li);
                spaces.push_back(layer_spaces(net, li, mapping.layers[l], layer_region(seg, mapping, li),
                                              sys.mesh, cost.layers[l]));
                layers[si][i].spaces = &spaces.back();
            }
    }
    std::vector<TimelineSegment> segments(n);
    std::vector<std::vector<LayerTiming>> timing(n);
    for (std::size_t si = 0; si < n; ++si) {
        segments[si] = {layers[si], mapping.segments[si].regions.size()};
        timing[si].resize(layers[si].size());
    }
    cost.segments.assign(n, Cycles(0));
    cost.latency = timeline.network(segments, timing, cost.segments);
    for (std::size_t si = 0; si < n; ++si)
        for (std::size_t i = 0; i < order[si].size(); ++i) {
            LayerCost& lc = cost.layers[static_cast<std::size_t>(order[si][i])];
            lc.start = timing[si][i].start;
            lc.latency = timing[si][i].latency;
        }
}

}  // namespace

NetworkCost evaluate_mapping(const workload::Network& network, const workload::Segmentation& seg,
                             const NetworkMapping& mapping, const System& system, IntraNodeMapper& mapper,
                             SharingScheduler& scheduler, const Timeline& timeline,
                             RedistributionMemo* memo) {
    if (const std::optional<MappingIssue> issue =
            check_mapping(network, seg, mapping, system.mesh.rows(), system.mesh.cols(),
                          system.node.row_buffer.value() * 8 / system.data_bits)) {
        std::string what = "evaluate_mapping: invalid mapping (";
        what += to_string(issue->rule);
        what += "): ";
        what += issue->message;
        throw ModelError(what);
    }
    LayerCoster coster(network, seg, mapping, system, mapper, scheduler, memo);
    NetworkCost cost;
    cost.layers.resize(static_cast<std::size_t>(network.size()));
    check_capacity(network, seg, mapping, system, cost);
    compose(network, seg, mapping, system, &coster, timeline, cost);
    cost.seconds = cost.latency.value() / (system.clock_mhz * 1e6);
    // Every bank draws background and refresh power for the whole run (DRAMPower-style).
    cost.energy.dram_background = Picojoules(system.dram_background_pj_per_cycle * cost.latency.value());
    const double pes =
        static_cast<double>(system.node.pe_rows) * system.node.pe_cols * system.mesh.node_count();
    if (cost.latency.value() > 0)
        cost.pe_utilisation = static_cast<double>(network.total_macs()) / (cost.latency.value() * pes);
    return cost;
}

Cycles recomposed_latency(const workload::Network& network, const workload::Segmentation& seg,
                          const NetworkMapping& mapping, const System& system, const NetworkCost& cost,
                          const Timeline& timeline) {
    if (cost.layers.size() != static_cast<std::size_t>(network.size()))
        throw ModelError("recomposed_latency: the cost does not hold one entry per layer");
    NetworkCost copy = cost;
    compose(network, seg, mapping, system, nullptr, timeline, copy);
    return copy.latency;
}

}  // namespace pimdse::sim
