#pragma once
// A whole network's training step on a heterogeneous 3-D stack under a simple greedy
// layer-to-PE placement (the start point of a later tier mapper), costed phase by phase with
// sim/hetero3d_cost.hpp: latency, energy, power per PE and per tier, area as the PEs used, and
// the endurance lifetime. The per-PE powers feed the thermal model (sim/thermal.hpp).
//
// Greedy placement (ours; docs/model.md, "HuNT: a network on a stack"): the backward phases
// (ΔAG, ΔWG; 32-bit float, HuNT IV-A) run on every PE of the SRAM tier farthest from the
// sink, layer by layer (HuNT IV-B); every other tier, in stack order from the sink up, takes
// the weighted layers' forward passes in network order, each on the fewest PEs that hold its
// weights at 16 bits, on the current tier while it has them, else the next. An auxiliary layer
// runs where its first producer runs. A weighted layer's update runs on its forward PEs.

#include <string>
#include <vector>

#include "pimdse/hw/hetero3d.hpp"
#include "pimdse/hw/neurosim_preset.hpp"
#include "pimdse/sim/hetero3d_cost.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::sim {

/// Where each layer's forward pass runs, and the backward tier's PEs.
struct Hetero3dPlacement {
    bool ok = false;
    std::string reason;            ///< why no placement exists (empty when ok)
    std::vector<PeGroup> forward;  ///< per layer, in network order
    PeGroup backward;              ///< ΔAG and ΔWG of every weighted layer
};

/// PEs that hold `layer`'s weights at the forward precision on `device`: its crossbars over
/// a PE's, or (SRAM) its bits over a PE's storage. At least 1.
[[nodiscard]] int pes_for_weights(const workload::Layer& layer, hw::PimDevice device,
                                  const hw::Hetero3dHardware& hw);

/// The greedy placement (header comment); in inference mode every tier takes forward passes
/// and `backward` is empty. Not ok when a training network meets a stack without an SRAM tier
/// (HuNT's legality) or a layer finds no tier with enough free PEs.
[[nodiscard]] Hetero3dPlacement greedy_placement(const workload::Network& network,
                                                 const hw::Hetero3dHardware& hw);

struct Hetero3dNetworkCost {
    bool ok = false;
    std::string reason;
    double latency_ns = 0;           ///< every phase and transfer one after another
    double energy_pj = 0;            ///< dynamic: compute, writes and communication
    double comm_energy_pj = 0;       ///< of which communication
    double comm_latency_ns = 0;      ///< of which communication
    std::int64_t ops = 0;            ///< 2 × MACs of every phase
    double area_mm2 = 0;             ///< PEs used × PE area
    double lifetime_iterations = 0;  ///< the least of every update's
    /// Power of each PE, W: [tier][pe], its share of the energy over the latency + leakage.
    std::vector<std::vector<double>> pe_power_w;
    std::vector<double> tier_power_w;  ///< the sum over a tier's PEs, W
};

/// The cost of one training step (or the forward pass, in inference mode) under `placement`.
[[nodiscard]] Hetero3dNetworkCost cost_network_on_stack(const workload::Network& network,
                                                        const hw::Hetero3dHardware& hw,
                                                        const Hetero3dPlacement& placement,
                                                        const hw::NeuroSimPreset& preset,
                                                        const Hetero3dCostParams& params);

/// The vertical stacks of a cost for the thermal model: one vector of tier powers (W, t1
/// first) per PE position.
[[nodiscard]] std::vector<std::vector<double>> vertical_stacks(const Hetero3dNetworkCost& cost);

}  // namespace pimdse::sim
