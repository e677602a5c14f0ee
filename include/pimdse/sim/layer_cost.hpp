#pragma once
// One layer's cost under its mapping (NicePIM III-C, III-E, VII): its compute (the
// part-layers of its nodes through the node model, or an auxiliary layer's streams), the
// inter-layer redistribution that gathers its inputs from the producers' nodes, its data
// sharing, and the energy of all three. How the layers' costs compose into a segment's and
// a network's latency is the timeline's (timeline.hpp); nothing here orders layers.
// docs/model.md, "Network timeline", states the model and its simplifications.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/enum_names.hpp"
#include "pimdse/core/units.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::sim {

class RedistributionMemo;

struct EnergyBreakdown {
    Picojoules pe{0};               ///< MACs (and the operations of auxiliary layers)
    Picojoules registers{0};        ///< the PEs' operand registers
    Picojoules sram{0};             ///< input, weight and output buffer accesses
    Picojoules dram_access{0};      ///< bits through the DRAM port
    Picojoules dram_activation{0};  ///< row activations (with their precharge)
    /// Background and refresh power of every bank over the run (network totals only: a
    /// layer's row leaves it 0, since regions idle while others compute).
    Picojoules dram_background{0};
    Picojoules noc{0};  ///< data sharing and redistribution, bits x hops

    [[nodiscard]] Picojoules dram() const noexcept { return dram_access + dram_activation + dram_background; }
    [[nodiscard]] Picojoules total() const noexcept { return pe + registers + sram + dram() + noc; }
    EnergyBreakdown& operator+=(const EnergyBreakdown& o) noexcept {
        pe += o.pe;
        registers += o.registers;
        sram += o.sram;
        dram_access += o.dram_access;
        dram_activation += o.dram_activation;
        dram_background += o.dram_background;
        noc += o.noc;
        return *this;
    }
    /// Adds an intra-node energy, `times` over (the nodes that share one part-layer).
    void add(const IntraNodeEnergy& e, double times = 1) noexcept {
        pe += e.pe * times;
        registers += e.registers * times;
        sram += e.sram * times;
        dram_access += e.dram_access * times;
        dram_activation += e.dram_activation * times;
    }
    friend bool operator==(const EnergyBreakdown&, const EnergyBreakdown&) = default;
};

enum class EvalStatus : std::uint8_t {
    ok,
    infeasible,  ///< a part-layer fits no tiling, or the stored weights exceed a node's DRAM
};
inline constexpr EnumNames<EvalStatus, 2> kEvalStatusNames{
    {{EvalStatus::ok, "ok"}, {EvalStatus::infeasible, "infeasible"}}};
[[nodiscard]] std::string_view to_string(EvalStatus s) noexcept;  ///< "ok", "infeasible"

/// What one layer moves, summed over the nodes of its region: the counts its energy is made
/// of (docs/model.md, "Intra-node cost" and "Energy"), and its SRAM energy by buffer.
struct LayerCounts {
    std::int64_t dram_read_accesses = 0;        ///< port-wide DRAM reads, all tensors
    std::int64_t dram_write_accesses = 0;       ///< port-wide DRAM writes
    std::int64_t dram_activations = 0;          ///< DRAM row activations (with their precharge)
    SramCounts ibuf, wbuf, obuf;                ///< element accesses of each buffer
    std::int64_t register_bits = 0;             ///< bits read from and written into PE registers
    std::int64_t redistribution_flit_hops = 0;  ///< flits x hops gathering the inputs
    std::int64_t sharing_flit_hops = 0;         ///< flits x hops of the data-sharing events
    Picojoules ibuf_energy{0};                  ///< of EnergyBreakdown::sram: the input buffer
    Picojoules wbuf_energy{0};                  ///< the weight buffer
    Picojoules obuf_energy{0};                  ///< the output (partial-sum) buffer
    friend bool operator==(const LayerCounts&, const LayerCounts&) = default;
};

/// The intra-node mapping of a layer's slowest node: the part-layer whose cycles are the
/// layer's compute (the first such, in the order the distinct part-layers are met).
struct PartTiling {
    bool tiled = false;  ///< false for a layer computed as a stream (pool, add, ...): no tiling
    Tiling tiling;       ///< unrolling, loop order and tile sizes
    PeDataflow dataflow = PeDataflow::output_stationary;  ///< the PE registers' reuse
    std::int64_t nodes = 0;                               ///< nodes of the region that compute it
    friend bool operator==(const PartTiling&, const PartTiling&) = default;
};

struct LayerCost {
    Cycles start{0};           ///< from the network's start, as the timeline composes it
    Cycles latency{0};         ///< from its start to its end, as the timeline composes it
    Cycles redistribution{0};  ///< gathering the inputs from the producers' nodes
    Cycles sharing{0};         ///< all data-sharing events of the layer
    Cycles compute{0};         ///< the slowest node of the region
    EnergyBreakdown energy;
    double pe_utilisation = 0;  ///< MACs / (compute x PEs per node x nodes of the region)
    LayerCounts counts;         ///< accesses and flits behind `energy`
    PartTiling part;            ///< the slowest node's intra-node mapping
    EvalStatus status = EvalStatus::ok;
    std::string reason;  ///< why, when infeasible
    friend bool operator==(const LayerCost&, const LayerCost&) = default;
};

/// The compute part of one layer's cost in isolation (NicePIM III-C): the slowest node of a
/// rows x cols region running the part-layers of `m`, and their PE, SRAM and DRAM energy,
/// added to `out` (compute, energy, pe_utilisation, the counts of the region's nodes and the
/// slowest node's tiling; status infeasible when a part-layer fits no tiling). Depends on the partition
/// counts and layouts only, not on the order, the (Ph, Pw) split or the region's position.
void add_compute_cost(const workload::Layer& layer, const LayerMapping& m, std::int32_t rows,
                      std::int32_t cols, const System& system, IntraNodeMapper& mapper, LayerCost& out);

/// The part-layer (NicePIM III-C) a node computes for a conv or matmul layer whose parts
/// span `ranges` of B, P, Q, K, C.
[[nodiscard]] PartLayer part_layer_of(const workload::Layer& layer,
                                      const std::array<Range, kPartDims>& ranges, const System& system);

/// The data-sharing part of one layer's cost (NicePIM VII): every sharing event of `m` on
/// `region`, scheduled by `scheduler`, added to out.sharing and out.energy.noc. `loads` is
/// scratch space.
void add_sharing_cost(const workload::Layer& layer, const LayerMapping& m, const Region& region,
                      const System& system, SharingScheduler& scheduler, ChannelLoads& loads, LayerCost& out);

/// One layer's data sharing as its events' costs, in event order: what add_sharing_cost
/// adds, kept so that it can be added again the same way (one event at a time).
struct SharingCosts {
    std::vector<ShareCost> events;
};
/// The events of `m` on `region` scheduled by `scheduler`, as add_sharing_cost costs them.
[[nodiscard]] SharingCosts sharing_costs(const workload::Layer& layer, const LayerMapping& m,
                                         const Region& region, const System& system,
                                         SharingScheduler& scheduler, ChannelLoads& loads);
/// Adds `s` to out.sharing, out.energy.noc and the sharing flit-hops, event by event.
void add_sharing(const SharingCosts& s, LayerCost& out) noexcept;

/// The costs of the layers of one mapped network, one layer at a time: what the timeline
/// composes. Keeps who holds each layer's outputs (for the redistribution of its consumers)
/// and scratch space. The mapping must pass check_mapping; all referenced objects must
/// outlive the coster. With a memo (redistribution_memo.hpp; one per network and system),
/// a layer's redistribution gathered before under the same mapping (any layouts), region
/// and producers is taken from it, and so is its sharing scheduled before by the same
/// scheduler under the same mapping (any layouts) and region.
class LayerCoster {
public:
    LayerCoster(const workload::Network& network, const workload::Segmentation& seg,
                const NetworkMapping& mapping, const System& system, IntraNodeMapper& mapper,
                SharingScheduler& scheduler, RedistributionMemo* memo = nullptr);
    ~LayerCoster();
    LayerCoster(const LayerCoster&) = delete;
    LayerCoster& operator=(const LayerCoster&) = delete;

    /// Layer `li`'s redistribution, sharing and compute, their energy, its PE utilisation and
    /// status, added to `out`; its latency is left to the timeline.
    void cost(workload::LayerIndex li, LayerCost& out);
    /// Layer `li`'s mapping changed in the mapping the coster was given: who holds its
    /// outputs is found again, for its consumers' redistribution.
    void remapped(workload::LayerIndex li);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace pimdse::sim
