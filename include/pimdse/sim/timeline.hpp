#pragma once
// The network timeline (NicePIM III-B): how the costs of a segment's layers compose into
// the segment's latency, and the cost of a whole DNN under a mapping on a system. It owns
// the composition only: one layer's cost (compute, redistribution, sharing, energy) is
// layer_cost.hpp's. A Timeline is given a segment's layers in an order they may run in,
// each with its phases' cycles, the region that runs it and the layers whose outputs it
// reads, and says when each layer runs and how long the segment takes. SequentialTimeline
// is the model of docs/model.md, "Composition": the layers of a region one after another,
// each its redistribution, sharing and compute in sequence, regions in parallel, segments
// (timesteps) one after another. A timeline in which layers start on partially complete
// inputs (overlap_timeline.hpp) composes the whole network at once (Timeline::network) from
// the layers' data spaces (data_space.hpp). The PIM-Mapper's selection asks the same
// timeline for a segment's latency.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::sim {

struct LayerSpaces;

/// One layer of a segment as a timeline composes it.
struct TimelineLayer {
    Cycles redistribution{0};  ///< gathering its inputs from the producers' nodes
    Cycles sharing{0};         ///< its data-sharing events
    Cycles compute{0};         ///< the slowest node of its region
    std::int32_t region = 0;   ///< which of the segment's regions runs it
    /// Positions in the segment's list of the earlier layers whose outputs it reads; the
    /// outputs of earlier segments are complete when the segment starts and are not listed.
    std::vector<std::int32_t> producers;
    /// The layer's data spaces, for a timeline that wants_spaces(); null otherwise. Owned by
    /// the caller and alive for the call.
    const LayerSpaces* spaces = nullptr;
};

/// The layers of one segment and how many regions they run on.
struct TimelineSegment {
    std::span<const TimelineLayer> layers;
    std::size_t regions = 0;
};

/// When one layer of a segment runs, from the segment's start; it ends at start + latency.
struct LayerTiming {
    Cycles start{0};
    Cycles latency{0};
};

/// Composes the layers of one segment. Implementations hold no state between calls.
class Timeline {
public:
    virtual ~Timeline() = default;
    /// The latency of a segment whose `layers` (an order they may run in: each after its
    /// producers) run on `regions` regions; timing[i] receives when layers[i] runs (`timing`
    /// has one entry per layer).
    [[nodiscard]] virtual Cycles segment(std::span<const TimelineLayer> layers, std::size_t regions,
                                         std::span<LayerTiming> timing) const = 0;
    /// Whether network() reads TimelineLayer::spaces (evaluate_mapping builds them only then).
    [[nodiscard]] virtual bool wants_spaces() const noexcept { return false; }
    /// The latency of a network whose `segments` run in the order given: timing[k][i]
    /// receives when layer i of segment k runs, from the network's start, and
    /// segment_latency[k] the segment's share of the latency (they add up to it). By default
    /// each segment by segment(), one after another.
    [[nodiscard]] virtual Cycles network(std::span<const TimelineSegment> segments,
                                         std::span<std::vector<LayerTiming>> timing,
                                         std::span<Cycles> segment_latency) const;
};

/// NicePIM III-B without overlap: a layer's latency is redistribution + sharing + compute;
/// the layers of a region run one after another in the order given; regions run in
/// parallel, so the segment takes its slowest region. Producers are not consulted: each
/// layer runs after every earlier layer of its region, and a branch runs on one region.
class SequentialTimeline final : public Timeline {
public:
    [[nodiscard]] Cycles segment(std::span<const TimelineLayer> layers, std::size_t regions,
                                 std::span<LayerTiming> timing) const override;
};

/// TimelineLayer::producers of `layer`: the positions in `earlier` (the segment's layers
/// listed before it) of the layers whose outputs it reads.
[[nodiscard]] std::vector<std::int32_t> producers_in(const workload::Network& network,
                                                     workload::LayerIndex layer,
                                                     std::span<const workload::LayerIndex> earlier);

/// The sequential timeline: what evaluate_mapping and the PIM-Mapper use unless given another.
[[nodiscard]] const Timeline& sequential_timeline() noexcept;

struct NetworkCost {
    std::vector<LayerCost> layers;  ///< per layer, in network order
    std::vector<Cycles> segments;   ///< latency of each segment (timestep)
    Cycles latency{0};
    double seconds = 0;  ///< latency at the node clock
    EnergyBreakdown energy;
    /// Network MACs / (latency x PEs per node x all nodes of the array).
    double pe_utilisation = 0;
    EvalStatus status = EvalStatus::ok;
    std::string reason;  ///< the first infeasibility found
    friend bool operator==(const NetworkCost&, const NetworkCost&) = default;
};

/// Costs `mapping` of `network` on `system`: every layer by LayerCoster (the node model
/// `mapper` for compute; every data-sharing event by `scheduler`: snake ring, TSP, SHP, or
/// the configured Data-Scheduler from sched::make_scheduler), each segment composed by
/// `timeline`, segments one after another. The mapping must pass check_mapping for the
/// system's node array (throws ModelError naming the broken rule otherwise).
/// An intra-node mapping that fits no tiling, or weights that do not fit a node's DRAM,
/// give status infeasible with a reason, not an exception. With `memo` (one per network,
/// system), the redistribution of layers gathered before is taken from it.
[[nodiscard]] NetworkCost evaluate_mapping(const workload::Network& network,
                                           const workload::Segmentation& seg, const NetworkMapping& mapping,
                                           const System& system, IntraNodeMapper& mapper,
                                           SharingScheduler& scheduler,
                                           const Timeline& timeline = sequential_timeline(),
                                           RedistributionMemo* memo = nullptr);

/// The latency evaluate_mapping would give `mapping` under `timeline`, from the layer costs in
/// `cost`: an evaluate_mapping result for the same mapping, system, node model and
/// scheduler under any timeline (a layer's redistribution, sharing and compute do not depend
/// on the timeline). Composes without costing the layers again.
[[nodiscard]] Cycles recomposed_latency(const workload::Network& network, const workload::Segmentation& seg,
                                        const NetworkMapping& mapping, const System& system,
                                        const NetworkCost& cost,
                                        const Timeline& timeline = sequential_timeline());

}  // namespace pimdse::sim
