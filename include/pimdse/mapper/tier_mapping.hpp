#pragma once
// HuNT's layer-to-PE mapping π for a given tier stack α (HuNT III-C, Algorithm 1): the four
// objectives of a placement (latency, area, power or peak temperature, and the error
// surrogate Err; all minimised), the perturbations of π (move a layer to free PEs of any
// tier, swap two layers' PEs) and the search by AMOSA (tuner/amosa.hpp's serial `minimise`,
// the same core the hardware-level "amosa" proposer uses) from the greedy start of
// sim/hetero3d_network.hpp. The parameters HuNT leaves out (schedule, archive limits) are
// ours and documented in docs/model.md ("HuNT: tier mapping by AMOSA").

#include <cstdint>
#include <optional>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/hw/hetero3d.hpp"
#include "pimdse/hw/neurosim_preset.hpp"
#include "pimdse/sim/hetero3d_cost.hpp"
#include "pimdse/sim/hetero3d_network.hpp"
#include "pimdse/sim/thermal.hpp"
#include "pimdse/tuner/amosa.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::mapper {

/// The third objective: HuNT's power (Eq. 9-10) or the chip's peak temperature (Eq. 8).
enum class HeatObjective : std::uint8_t { power = 0, peak_temperature = 1 };

/// What the objectives are computed with: the cost model and the thermal stack (R_b already
/// calibrated by the caller).
struct TierModel {
    const hw::NeuroSimPreset* preset = nullptr;
    sim::Hetero3dCostParams params;
    sim::ThermalStack thermal;
    HeatObjective heat = HeatObjective::power;
};

/// One evaluated placement: its cost, every PE's temperature and the four objectives
/// [latency ns, area mm², power W or peak K, Err].
struct TierEvaluation {
    sim::Hetero3dNetworkCost cost;
    std::vector<std::vector<double>> pe_temperature_k;  ///< [tier][pe], the full 1-D form
    std::vector<double> tier_peak_k;                    ///< the hottest PE of each tier
    double peak_k = 0;
    double err = 0;  ///< HuNT Eq. 6 over the weighted layers at their PEs' mean temperature
    std::vector<double> objectives;
};

/// The objectives of `placement`; nullopt when the network cannot run so placed (a layer on
/// too few PEs, a float phase on a crossbar, no placement).
[[nodiscard]] std::optional<TierEvaluation> evaluate_placement(const workload::Network& network,
                                                               const hw::Hetero3dHardware& hw,
                                                               const sim::Hetero3dPlacement& placement,
                                                               const TierModel& model);

/// Sets every auxiliary layer's PEs to those of its first producer (the greedy rule).
void attach_auxiliary(const workload::Network& network, sim::Hetero3dPlacement& placement);

/// One perturbation of π (HuNT III-C: "allocating a randomly chosen neural layer to a
/// different PE"): with probability 1/2 a random weighted layer moves to `pes_for_weights`
/// free PEs of a random tier (free: held by no other forward layer; the backward tier's PEs
/// count as free, its gradients run layer by layer), else two random weighted layers swap
/// their PEs. A move with no room falls back to a swap; with one weighted layer there is no
/// swap. Auxiliary layers follow.
[[nodiscard]] sim::Hetero3dPlacement perturb_placement(const workload::Network& network,
                                                       const hw::Hetero3dHardware& hw,
                                                       const sim::Hetero3dPlacement& placement, Rng& rng);

/// The search's settings: AMOSA's (ours, docs/model.md) and HuNT's 100 iterations. The
/// schedule's iterations per temperature are not used: `map_tiers` spreads `iterations` over
/// the temperatures from T_max down to T_min, so one cooling spans any run length.
struct TierMappingOptions {
    tuner::amosa::Settings amosa{1.0, 0.1, 0.8, 1, 100, 110};
    std::int64_t iterations = 100;  ///< evaluations, the greedy start included (HuNT IV-A)
    std::uint64_t seed = 1;
};

/// The search's result: the archive (non-dominated placements, in the order evaluated) and
/// every evaluation's objectives (nullopt when infeasible), in order.
struct TierMappingResult {
    std::vector<sim::Hetero3dPlacement> front;
    std::vector<std::vector<double>> front_objectives;
    std::vector<std::optional<std::vector<double>>> evaluated;
};

/// AMOSA over π from the greedy start. Throws ModelError when the greedy start has no
/// placement or cannot run (the stack cannot train this network).
[[nodiscard]] TierMappingResult map_tiers(const workload::Network& network, const hw::Hetero3dHardware& hw,
                                          const TierModel& model, const TierMappingOptions& options);

/// Operations per second per watt and per mm², in TOPS/W and TOPS/mm² (HuNT IV-B): the
/// step's 2 × MACs over its latency, over the total power (dynamic and leakage) or the area.
struct Efficiency {
    double tops_per_w = 0;
    double tops_per_mm2 = 0;
};
[[nodiscard]] Efficiency efficiency(const sim::Hetero3dNetworkCost& cost);

/// What picks one mapping from the front (HuNT III-C: TOPS/W or TOPS/mm²).
enum class PickBy : std::uint8_t { tops_per_w = 0, tops_per_mm2 = 1 };

/// HuNT III-C's choice from the front: among the evaluations with Err at most `max_err` (all
/// when unset), the index of the highest TOPS/W or TOPS/mm², the first on a tie; nullopt when
/// none passes the filter.
[[nodiscard]] std::optional<std::size_t> pick_mapping(const std::vector<TierEvaluation>& front, PickBy by,
                                                      std::optional<double> max_err);

}  // namespace pimdse::mapper
