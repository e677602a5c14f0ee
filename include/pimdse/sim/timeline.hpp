#pragma once
// The network timeline (NicePIM III-B): the cost of a whole DNN under a mapping on a system.
// Segments run one after another (timesteps); the branches of a segment run in parallel on
// their regions, branches that share a region one after another; the layers of a branch in
// sequence. A layer costs its inter-layer redistribution, its data sharing (NicePIM VII) and
// its compute (the slowest node of its region). docs/model.md, "Network timeline", states the
// model and its simplifications.

#include <cstdint>
#include <span>
#include <string>
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

struct LayerCost {
    Cycles latency{0};         ///< redistribution + sharing + compute (no overlap)
    Cycles redistribution{0};  ///< gathering the inputs from the producers' nodes
    Cycles sharing{0};         ///< all data-sharing events of the layer
    Cycles compute{0};         ///< the slowest node of the region
    EnergyBreakdown energy;
    double pe_utilisation = 0;  ///< MACs / (compute x PEs per node x nodes of the region)
    EvalStatus status = EvalStatus::ok;
    std::string reason;  ///< why, when infeasible
    friend bool operator==(const LayerCost&, const LayerCost&) = default;
};

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

/// The compute part of one layer's cost in isolation (NicePIM III-C): the slowest node of a
/// rows x cols region running the part-layers of `m`, and their PE, SRAM and DRAM energy,
/// added to `out` (compute, energy, pe_utilisation; status infeasible when a part-layer
/// fits no tiling). Depends on the partition counts and layouts only, not on the order,
/// the (Ph, Pw) split or the region's position.
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

/// Costs `mapping` of `network` on `system`; every data-sharing event is costed by
/// `scheduler` (snake ring, TSP, SHP, or the configured Data-Scheduler from
/// sched::make_scheduler). The mapping must pass check_mapping for the
/// system's node array (throws ModelError naming the broken rule otherwise).
/// An intra-node mapping that fits no tiling, or weights that do not fit a node's DRAM,
/// give status infeasible with a reason, not an exception.
[[nodiscard]] NetworkCost evaluate_mapping(const workload::Network& network,
                                           const workload::Segmentation& seg, const NetworkMapping& mapping,
                                           const System& system, IntraNodeMapper& mapper,
                                           SharingScheduler& scheduler);

/// NicePIM Eq. 1: sum over networks of energy^alpha x latency^beta x gamma, with energy in
/// joules and latency in seconds. Any infeasible network makes the cost +infinity. Throws
/// ModelError unless costs and gammas have the same size, alpha, beta >= 0 and
/// every gamma > 0.
[[nodiscard]] double cost_eq1(std::span<const NetworkCost> costs, std::span<const double> gammas,
                              double alpha, double beta);

}  // namespace pimdse::sim
