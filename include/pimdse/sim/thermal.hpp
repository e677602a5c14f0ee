#pragma once
// The steady-state temperature of a 3-D stack of tiers (HuNT III-B, Eq. 8, after Cong et al.,
// "A thermal-driven floorplanning algorithm for 3D ICs"). A vertical stack o is one column of
// PEs, one per tier, t1 nearest the heat sink; heat leaves only downwards, through the tiers'
// vertical resistances R_v and the base resistance R_b of the path to the ambient.
//
// Two forms of a tier's temperature, both scaled by the lateral factor Φ_H:
//  - Eq. 8 as HuNT writes it: Q_z = T_amb + Φ_H [Σ_{u≤z} P_u Σ_{v≤u} R_v + R_b Σ_{u≤z} P_u],
//    which counts only the heat of tiers at or below z;
//  - the full 1-D solution: every tier's heat crosses R_v for every v up to its own tier, so
//    T_z = T_amb + Φ_H [Σ_{v≤z} R_v Σ_{u≥v} P_u + R_b Σ_u P_u].
// They agree at the top tier and Eq. 8 is lower beneath it whenever a tier above carries heat.
// Both grow with z, so a stack's peak is its top tier, the same in both forms.
//
// The resistances follow from a documented layer stack (silicon per tier, a bonding layer
// between tiers, the path through interface, spreader, sink and convection), with HotSpot's
// published defaults (docs/model.md, "HuNT: thermal model"); the base resistance is then
// calibrated to one absolute point (HuNT: the FFFS stack peaks at 380 K from 300 K).

#include <span>
#include <string>
#include <vector>

namespace pimdse::sim {

/// One material layer of the heat path: thickness and thermal resistivity (HotSpot's layer
/// description, which gives resistivity rather than conductivity).
struct ThermalLayer {
    std::string name;
    double thickness_m = 0;            ///< m
    double resistivity_m_k_per_w = 0;  ///< m·K/W (1 / conductivity)

    /// Vertical resistance of this layer over `area_m2`, K/W: ρ t / A.
    [[nodiscard]] double resistance(double area_m2) const;
};

/// The materials of a stack of tiers and its package, for one vertical stack of PEs. A tier is
/// its silicon; tiers above t1 sit on the tier below through a bonding layer; t1 sits on the
/// heat spreader through the interface material; the spreader, the sink and the sink's
/// convection to the ambient are shared by `stacks_per_sink` stacks in parallel.
struct LayerStack {
    ThermalLayer silicon;           ///< one tier's die
    ThermalLayer bond;              ///< between two tiers
    ThermalLayer interface;         ///< between t1 and the spreader
    double footprint_m2 = 0;        ///< area of one stack (one PE), m²
    double spreader_k_per_w = 0;    ///< the whole spreader's vertical conduction, K/W
    double sink_k_per_w = 0;        ///< the whole sink's vertical conduction, K/W
    double convection_k_per_w = 0;  ///< the sink to the ambient, K/W
    int stacks_per_sink = 1;        ///< stacks sharing spreader, sink and convection
};

/// HotSpot's defaults (its 3-D layer file and its configuration) for stacks of `footprint_mm2`,
/// `stacks_per_sink` of them on one sink.
[[nodiscard]] LayerStack hotspot_layer_stack(double footprint_mm2, int stacks_per_sink);

/// The thermal model of one kind of stack: R_v per tier (index 0 is t1), R_b, Φ_H, T_amb.
struct ThermalStack {
    std::vector<double> tier_resistance_k_per_w;  ///< R_v, v = 1..Z
    double base_resistance_k_per_w = 0;           ///< R_b
    double lateral_factor = 1;                    ///< Φ_H (the seed gives no value; 1: none)
    double ambient_k = 300;                       ///< T_amb (HuNT IV-A: 300 K)
};

/// The model of `tiers` tiers from `layers`: R_1 = silicon; R_v = silicon + bond for v > 1;
/// R_b = interface + stacks_per_sink × (spreader + sink + convection).
[[nodiscard]] ThermalStack thermal_stack(const LayerStack& layers, int tiers);

/// HuNT Eq. 8 as written: each tier's temperature, K, from the powers (W) of its tier and the
/// tiers below. `tier_power_w[0]` is t1. Throws ModelError on a size mismatch or a negative power.
[[nodiscard]] std::vector<double> eq8_temperatures(const ThermalStack& stack,
                                                   std::span<const double> tier_power_w);

/// The full 1-D solution: each tier's temperature, K, from the powers of every tier.
[[nodiscard]] std::vector<double> stack_temperatures(const ThermalStack& stack,
                                                     std::span<const double> tier_power_w);

/// The hottest tier of one stack, K (its top tier; both forms agree there).
[[nodiscard]] double peak_temperature(const ThermalStack& stack, std::span<const double> tier_power_w);

/// The base resistance R_b at which the hottest of `stacks` (each a vector of tier powers)
/// peaks at `target_peak_k`; every other field of `stack` is kept. Throws ModelError when no
/// stack dissipates power, or when the target is below what the tiers' own resistances give
/// with R_b = 0 (no non-negative R_b reaches it).
[[nodiscard]] double calibrate_base_resistance(const ThermalStack& stack,
                                               std::span<const std::vector<double>> stacks,
                                               double target_peak_k);

/// R_b at which ResNet-34 (`resnet34_quarter_cifar10`, batch 128) under the greedy placement
/// on FFFS peaks at 380 K from 300 K on HuNT's geometry (16 PEs of 1.6 mm² a tier): HuNT's one
/// absolute point (docs/model.md, "The calibration with real powers"), re-derived by
/// tests/sim/hetero3d_network_test.cpp.
inline constexpr double kHuntBaseResistanceKPerW = 3470.6834;

/// The thermal model of `tiers` tiers of `pes_per_tier` PEs of `pe_mm2` each: HotSpot's layer
/// stack (hotspot_layer_stack) with R_b = kHuntBaseResistanceKPerW.
[[nodiscard]] ThermalStack hunt_thermal_stack(double pe_mm2, int pes_per_tier, int tiers);

}  // namespace pimdse::sim
