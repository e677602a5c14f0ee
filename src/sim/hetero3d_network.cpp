// A training step on a heterogeneous 3-D stack (include/pimdse/sim/hetero3d_network.hpp).

#include "pimdse/sim/hetero3d_network.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/crossbar.hpp"
#include "pimdse/workload/training.hpp"

namespace pimdse::sim {

namespace {

using hw::PimDevice;
using workload::LayerIndex;
using workload::TrainingPhase;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

PimDevice device_of(const hw::Hetero3dHardware& hw, int tier) {
    return hw.stack[static_cast<std::size_t>(tier)];
}

// The tier of the backward phases: the SRAM tier farthest from the sink, or -1.
int backward_tier(const hw::Hetero3dHardware& hw) {
    for (int t = hw.tiers - 1; t >= 0; --t)
        if (device_of(hw, t) == PimDevice::sram) return t;
    return -1;
}

PeGroup whole_tier(const hw::Hetero3dHardware& hw, int tier) {
    PeGroup g{tier, std::vector<int>(static_cast<std::size_t>(hw.pes_per_tier))};
    std::iota(g.pes.begin(), g.pes.end(), 0);
    return g;
}

// Spreads `pj` evenly over a group's PEs.
void charge(std::vector<std::vector<double>>& pe_pj, const PeGroup& g, double pj) {
    for (int p : g.pes)
        pe_pj[static_cast<std::size_t>(g.tier)][static_cast<std::size_t>(p)] += pj / g.pes.size();
}

struct Accumulator {
    Hetero3dNetworkCost& cost;
    std::vector<std::vector<double>>& pe_pj;

    void phase(const PhaseCost& c, const PeGroup& g) {
        cost.latency_ns += c.latency_ns();
        cost.energy_pj += c.energy_pj();
        cost.lifetime_iterations = std::min(cost.lifetime_iterations, c.lifetime_iterations);
        charge(pe_pj, g, c.energy_pj());
    }
    void transfer(const CommCost& c, const PeGroup& from) {
        cost.latency_ns += c.latency_ns;
        cost.energy_pj += c.energy_pj;
        cost.comm_latency_ns += c.latency_ns;
        cost.comm_energy_pj += c.energy_pj;
        charge(pe_pj, from, c.energy_pj);
    }
};

// The data a phase receives (forward: its producers' outputs; ΔWG: its input activations on
// the backward tier) or sends (ΔAG: the input's gradient within the backward tier; the update:
// the new weights from the backward tier to the forward PEs).
void add_transfers(Accumulator& acc, const workload::Network& network, const workload::PhaseStep& s,
                   const hw::Hetero3dHardware& hw, const Hetero3dPlacement& placement,
                   const Hetero3dCostParams& params) {
    const int fwd_bits = workload::kForwardPrecision.bits, grad_bits = workload::kGradientPrecision.bits;
    const workload::Layer& l = network.layer(s.layer);
    const PeGroup& fwd = placement.forward[static_cast<std::size_t>(s.layer)];
    const PeGroup& back = placement.backward;
    switch (s.phase) {
        case TrainingPhase::forward:
            for (LayerIndex p : l.inputs) {
                if (p == workload::kNetworkInput) continue;
                const PeGroup& from = placement.forward[static_cast<std::size_t>(p)];
                const std::int64_t e = network.output_shape(p).elements() * network.batch();
                acc.transfer(communication_cost(hw, from, fwd, e, fwd_bits, params), from);
            }
            break;
        case TrainingPhase::weight_gradient:
            acc.transfer(communication_cost(hw, fwd, back, l.input_elements(), fwd_bits, params), fwd);
            break;
        case TrainingPhase::activation_gradient:
            acc.transfer(communication_cost(hw, back, back, s.result_elements, grad_bits, params), back);
            break;
        case TrainingPhase::weight_update:
            acc.transfer(communication_cost(hw, back, fwd, s.weight_writes, fwd_bits, params), back);
            break;
    }
}

// Area from the PEs used; each PE's power from its energy over the step's latency plus its
// leakage: every PE of an SRAM tier leaks, used or not; the others do not (hetero3d_cost.hpp).
void finish(Hetero3dNetworkCost& cost, const std::vector<std::vector<double>>& pe_pj,
            const workload::Network& network, const hw::Hetero3dHardware& hw,
            const Hetero3dPlacement& placement, const hw::NeuroSimPreset& preset) {
    std::set<std::pair<int, int>> used;
    for (const PeGroup& g : placement.forward)
        for (int p : g.pes) used.insert({g.tier, p});
    if (network.mode() == workload::NetworkMode::training)
        for (int p : placement.backward.pes) used.insert({placement.backward.tier, p});
    cost.area_mm2 = static_cast<double>(used.size()) * hw.tiles_per_pe * hw.tile_area.value();
    const double sram_pe_leak_mw = static_cast<double>(hw.tiles_per_pe) * sram_tile_leakage_mw(preset);
    cost.pe_power_w = pe_pj;
    cost.tier_power_w.assign(static_cast<std::size_t>(hw.tiers), 0.0);
    for (int t = 0; t < hw.tiers; ++t) {
        const double leak = device_of(hw, t) == PimDevice::sram ? sram_pe_leak_mw : 0.0;
        for (int p = 0; p < hw.pes_per_tier; ++p) {
            double& w = cost.pe_power_w[static_cast<std::size_t>(t)][static_cast<std::size_t>(p)];
            w = (w / cost.latency_ns + leak) * 1e-3;  // pJ / ns = mW
            cost.tier_power_w[static_cast<std::size_t>(t)] += w;
        }
    }
    cost.ok = true;
}

}  // namespace

int pes_for_weights(const workload::Layer& layer, PimDevice device, const hw::Hetero3dHardware& hw) {
    if (!layer.has_weights()) return 1;
    const hw::TileSpec& tile = hw::hunt_tile(device);
    const int bits = workload::kForwardPrecision.bits;
    if (device == PimDevice::sram) {
        const std::int64_t pe_bits = tile.storage_bits() * hw.tiles_per_pe;
        return static_cast<int>(ceil_div(layer.weights() * bits, pe_bits));
    }
    CrossbarConfig cfg;
    cfg.size = tile.rows;
    cfg.cell_bits = tile.bits_per_cell;
    cfg.weight_bits = cfg.activation_bits = bits;
    cfg.polarity = 1;
    const CrossbarMapping m = map_to_crossbars(layer, cfg);
    return static_cast<int>(ceil_div(m.crossbars, static_cast<std::int64_t>(tile.arrays) * hw.tiles_per_pe));
}

Hetero3dPlacement greedy_placement(const workload::Network& network, const hw::Hetero3dHardware& hw) {
    hw::check(hw);
    Hetero3dPlacement out;
    const bool training = network.mode() == workload::NetworkMode::training;
    const int back = training ? backward_tier(hw) : -1;  // inference has no backward phases
    if (training && back < 0) {
        out.reason = "stack " + hw::stack_string(hw.stack) + " has no SRAM tier for the gradients";
        return out;
    }
    if (training) out.backward = whole_tier(hw, back);
    std::vector<int> tiers;
    for (int t = 0; t < hw.tiers; ++t)
        if (t != back) tiers.push_back(t);
    if (tiers.empty()) tiers.push_back(back);  // one tier: forward and backward share it
    std::size_t current = 0;
    int next_pe = 0;
    for (LayerIndex i = 0; i < network.size(); ++i) {
        const workload::Layer& l = network.layer(i);
        if (!l.has_weights()) {
            const LayerIndex p = l.inputs.empty() ? workload::kNetworkInput : l.inputs.front();
            out.forward.push_back(p == workload::kNetworkInput
                                      ? PeGroup{tiers[current], {std::min(next_pe, hw.pes_per_tier - 1)}}
                                      : out.forward[static_cast<std::size_t>(p)]);
            continue;
        }
        int need = 0;
        while (current < tiers.size()) {
            need = pes_for_weights(l, device_of(hw, tiers[current]), hw);
            if (next_pe + need <= hw.pes_per_tier) break;
            ++current;
            next_pe = 0;
        }
        if (current == tiers.size()) {
            out.reason = "layer '" + l.name + "' finds no tier of " + hw::stack_string(hw.stack) +
                         " with enough free PEs";
            return out;
        }
        PeGroup g{tiers[current], std::vector<int>(static_cast<std::size_t>(need))};
        std::iota(g.pes.begin(), g.pes.end(), next_pe);
        next_pe += need;
        out.forward.push_back(std::move(g));
    }
    out.ok = true;
    return out;
}

Hetero3dNetworkCost cost_network_on_stack(const workload::Network& network, const hw::Hetero3dHardware& hw,
                                          const Hetero3dPlacement& placement,
                                          const hw::NeuroSimPreset& preset,
                                          const Hetero3dCostParams& params) {
    Hetero3dNetworkCost cost;
    if (!placement.ok) {
        cost.reason = placement.reason;
        return cost;
    }
    cost.lifetime_iterations = std::numeric_limits<double>::infinity();
    std::vector<std::vector<double>> pe_pj(
        static_cast<std::size_t>(hw.tiers),
        std::vector<double>(static_cast<std::size_t>(hw.pes_per_tier), 0.0));
    Accumulator acc{cost, pe_pj};
    for (const workload::PhaseStep& s : workload::phase_steps(network)) {
        const workload::Layer& l = network.layer(s.layer);
        const bool backward =
            s.phase == TrainingPhase::activation_gradient || s.phase == TrainingPhase::weight_gradient;
        const PeGroup& where =
            backward ? placement.backward : placement.forward[static_cast<std::size_t>(s.layer)];
        const PhaseCost c = cost_phase(l, s, device_of(hw, where.tier), static_cast<int>(where.pes.size()),
                                       hw, preset, params);
        if (!c.ok()) {
            cost.reason = c.reason;
            return cost;
        }
        acc.phase(c, where);
        cost.ops += 2 * s.macs;
        add_transfers(acc, network, s, hw, placement, params);
    }
    finish(cost, pe_pj, network, hw, placement, preset);
    return cost;
}

std::vector<std::vector<double>> vertical_stacks(const Hetero3dNetworkCost& cost) {
    std::vector<std::vector<double>> out;
    if (cost.pe_power_w.empty()) return out;
    for (std::size_t p = 0; p < cost.pe_power_w.front().size(); ++p) {
        std::vector<double> column;
        for (const auto& tier : cost.pe_power_w) column.push_back(tier[p]);
        out.push_back(std::move(column));
    }
    return out;
}

}  // namespace pimdse::sim
