// The 3-D stack's thermal model (include/pimdse/sim/thermal.hpp; docs/model.md, "HuNT:
// thermal model").

#include "pimdse/sim/thermal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

namespace {

void check_powers(const ThermalStack& stack, std::span<const double> power, const char* what) {
    if (power.size() != stack.tier_resistance_k_per_w.size()) {
        throw ModelError(std::string(what) + ": " + std::to_string(power.size()) +
                         " tier powers for a stack of " +
                         std::to_string(stack.tier_resistance_k_per_w.size()) + " tiers");
    }
    for (std::size_t u = 0; u < power.size(); ++u) {
        if (!(power[u] >= 0) || !std::isfinite(power[u])) {
            throw ModelError(std::string(what) + ": tier t" + std::to_string(u + 1) +
                             " power must be finite and >= 0 W, got " + std::to_string(power[u]));
        }
    }
}

double sum(std::span<const double> v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}

// Σ_v R_v · (power of tiers v..Z): the top tier's rise above the base, before Φ_H.
double resistive_rise(const ThermalStack& stack, std::span<const double> power) {
    double above = sum(power);
    double rise = 0;
    for (std::size_t v = 0; v < power.size(); ++v) {
        rise += stack.tier_resistance_k_per_w[v] * above;
        above -= power[v];
    }
    return rise;
}

}  // namespace

double ThermalLayer::resistance(double area_m2) const {
    if (!(area_m2 > 0)) throw ModelError("thermal layer '" + name + "': area must be > 0 m²");
    return resistivity_m_k_per_w * thickness_m / area_m2;
}

LayerStack hotspot_layer_stack(double footprint_mm2, int stacks_per_sink) {
    if (!(footprint_mm2 > 0) || stacks_per_sink < 1) {
        throw ModelError("hotspot_layer_stack: the footprint must be > 0 mm² and the stacks >= 1");
    }
    LayerStack s;
    // HotSpot's 3-D layer file (3D_testcase/ev6_3D.lcf): silicon 150 µm at 0.01 m·K/W, a thermal
    // interface layer of 20 µm at 0.25 m·K/W between dies.
    s.silicon = {"silicon", 150e-6, 0.01};
    s.bond = {"bond (TIM)", 20e-6, 0.25};
    // HotSpot's configuration: t_interface 2.0e-05 m, k_interface 4.0 W/(m·K).
    s.interface = {"interface", 20e-6, 1.0 / 4.0};
    s.footprint_m2 = footprint_mm2 * 1e-6;
    // Spreader 30 mm side, 1 mm thick; sink 60 mm side, 6.9 mm thick; both 400 W/(m·K);
    // r_convec 0.1 K/W. Vertical conduction t / (k s²) of each.
    s.spreader_k_per_w = 0.001 / (400.0 * 0.03 * 0.03);
    s.sink_k_per_w = 0.0069 / (400.0 * 0.06 * 0.06);
    s.convection_k_per_w = 0.1;
    s.stacks_per_sink = stacks_per_sink;
    return s;
}

ThermalStack thermal_stack(const LayerStack& layers, int tiers) {
    if (tiers < 1) throw ModelError("thermal_stack: a stack needs >= 1 tier, got " + std::to_string(tiers));
    const double a = layers.footprint_m2;
    ThermalStack t;
    t.tier_resistance_k_per_w.assign(static_cast<std::size_t>(tiers),
                                     layers.silicon.resistance(a) + layers.bond.resistance(a));
    t.tier_resistance_k_per_w.front() = layers.silicon.resistance(a);
    const double shared = layers.spreader_k_per_w + layers.sink_k_per_w + layers.convection_k_per_w;
    t.base_resistance_k_per_w = layers.interface.resistance(a) + layers.stacks_per_sink * shared;
    return t;
}

std::vector<double> eq8_temperatures(const ThermalStack& stack, std::span<const double> power) {
    check_powers(stack, power, "eq8_temperatures");
    std::vector<double> q(power.size());
    double cumulative_r = 0;  // Σ_{v≤u} R_v
    double inner = 0;         // Σ_{u≤z} P_u Σ_{v≤u} R_v
    double below = 0;         // Σ_{u≤z} P_u
    for (std::size_t z = 0; z < power.size(); ++z) {
        cumulative_r += stack.tier_resistance_k_per_w[z];
        inner += power[z] * cumulative_r;
        below += power[z];
        q[z] = stack.ambient_k + stack.lateral_factor * (inner + stack.base_resistance_k_per_w * below);
    }
    return q;
}

std::vector<double> stack_temperatures(const ThermalStack& stack, std::span<const double> power) {
    check_powers(stack, power, "stack_temperatures");
    std::vector<double> t(power.size());
    double above = sum(power);  // Σ_{u≥v} P_u
    double rise = stack.base_resistance_k_per_w * above;
    for (std::size_t z = 0; z < power.size(); ++z) {
        rise += stack.tier_resistance_k_per_w[z] * above;
        above -= power[z];
        t[z] = stack.ambient_k + stack.lateral_factor * rise;
    }
    return t;
}

double peak_temperature(const ThermalStack& stack, std::span<const double> power) {
    const std::vector<double> t = stack_temperatures(stack, power);
    return *std::max_element(t.begin(), t.end());
}

double calibrate_base_resistance(const ThermalStack& stack, std::span<const std::vector<double>> stacks,
                                 double target_peak_k) {
    if (!(stack.lateral_factor > 0)) throw ModelError("calibrate_base_resistance: Φ_H must be > 0");
    // A stack's peak is T_amb + Φ_H (A_o + R_b S_o), increasing in R_b; the hottest stack's peak
    // first reaches the target at the smallest of the per-stack solutions.
    const double wanted_rise = (target_peak_k - stack.ambient_k) / stack.lateral_factor;
    double r_b = std::numeric_limits<double>::infinity();
    for (const std::vector<double>& power : stacks) {
        check_powers(stack, power, "calibrate_base_resistance");
        const double total = sum(power);
        if (total > 0) r_b = std::min(r_b, (wanted_rise - resistive_rise(stack, power)) / total);
    }
    if (std::isinf(r_b)) throw ModelError("calibrate_base_resistance: no stack dissipates any power");
    if (r_b < 0) {
        throw ModelError("calibrate_base_resistance: a peak of " + std::to_string(target_peak_k) +
                         " K is unreachable: the tiers' own resistances already heat a stack above it");
    }
    return r_b;
}

ThermalStack hunt_thermal_stack(double pe_mm2, int pes_per_tier, int tiers) {
    ThermalStack t = thermal_stack(hotspot_layer_stack(pe_mm2, pes_per_tier), tiers);
    t.base_resistance_k_per_w = kHuntBaseResistanceKPerW;
    return t;
}

}  // namespace pimdse::sim
