// HuNT's layer-to-PE mapping by AMOSA (include/pimdse/mapper/tier_mapping.hpp).

#include "pimdse/mapper/tier_mapping.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"

namespace pimdse::mapper {
namespace {

using workload::LayerIndex;

std::vector<LayerIndex> weighted_layers(const workload::Network& network) {
    std::vector<LayerIndex> out;
    for (LayerIndex i = 0; i < network.size(); ++i)
        if (network.layer(i).has_weights()) out.push_back(i);
    return out;
}

std::size_t pick(Rng& rng, std::size_t n) {
    return static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(n) - 1));
}

// Every PE's temperature by the full 1-D form, [tier][pe], from the cost's per-PE powers.
std::vector<std::vector<double>> pe_temperatures(const sim::Hetero3dNetworkCost& cost,
                                                 const sim::ThermalStack& thermal) {
    std::vector<std::vector<double>> out(cost.pe_power_w.size(),
                                         std::vector<double>(cost.pe_power_w.front().size(), 0.0));
    const std::vector<std::vector<double>> stacks = sim::vertical_stacks(cost);
    for (std::size_t p = 0; p < stacks.size(); ++p) {
        const std::vector<double> t = sim::stack_temperatures(thermal, stacks[p]);
        for (std::size_t z = 0; z < t.size(); ++z) out[z][p] = t[z];
    }
    return out;
}

// HuNT Eq. 6 over the weighted layers (the ones read through crossbars), each at the mean
// temperature of its forward PEs.
double network_err(const workload::Network& network, const hw::Hetero3dHardware& hw,
                   const sim::Hetero3dPlacement& placement, const std::vector<std::vector<double>>& temp,
                   const sim::Hetero3dCostParams& params) {
    double err = 0;
    for (LayerIndex i : weighted_layers(network)) {
        const sim::PeGroup& g = placement.forward[static_cast<std::size_t>(i)];
        double t = 0;
        for (int p : g.pes) t += temp[static_cast<std::size_t>(g.tier)][static_cast<std::size_t>(p)];
        t /= static_cast<double>(g.pes.size());
        err += sim::error_surrogate(network.layer(i), hw.stack[static_cast<std::size_t>(g.tier)], t, params);
    }
    return err;
}

// Moves a random weighted layer to free PEs of a random tier; false when they do not fit.
bool move_layer(const workload::Network& network, const hw::Hetero3dHardware& hw,
                const std::vector<LayerIndex>& w, sim::Hetero3dPlacement& p, Rng& rng) {
    const LayerIndex layer = w[pick(rng, w.size())];
    const int tier = static_cast<int>(pick(rng, static_cast<std::size_t>(hw.tiers)));
    const int need = sim::pes_for_weights(network.layer(layer), hw.stack[static_cast<std::size_t>(tier)], hw);
    std::set<int> taken;
    for (LayerIndex i : w) {
        const sim::PeGroup& g = p.forward[static_cast<std::size_t>(i)];
        if (i != layer && g.tier == tier) taken.insert(g.pes.begin(), g.pes.end());
    }
    std::vector<int> free;
    for (int pe = 0; pe < hw.pes_per_tier; ++pe)
        if (!taken.contains(pe)) free.push_back(pe);
    if (static_cast<int>(free.size()) < need) return false;
    const std::size_t start = pick(rng, free.size());
    sim::PeGroup g{tier, {}};
    for (int k = 0; k < need; ++k) g.pes.push_back(free[(start + static_cast<std::size_t>(k)) % free.size()]);
    std::sort(g.pes.begin(), g.pes.end());
    p.forward[static_cast<std::size_t>(layer)] = std::move(g);
    return true;
}

void swap_layers(const std::vector<LayerIndex>& w, sim::Hetero3dPlacement& p, Rng& rng) {
    const std::size_t a = pick(rng, w.size());
    std::size_t b = pick(rng, w.size() - 1);
    if (b >= a) ++b;
    std::swap(p.forward[static_cast<std::size_t>(w[a])], p.forward[static_cast<std::size_t>(w[b])]);
}

}  // namespace

std::optional<TierEvaluation> evaluate_placement(const workload::Network& network,
                                                 const hw::Hetero3dHardware& hw,
                                                 const sim::Hetero3dPlacement& placement,
                                                 const TierModel& model) {
    if (model.preset == nullptr) throw ModelError("evaluate_placement: no NeuroSim preset");
    if (!placement.ok) return std::nullopt;
    TierEvaluation e;
    e.cost = sim::cost_network_on_stack(network, hw, placement, *model.preset, model.params);
    if (!e.cost.ok) return std::nullopt;
    e.pe_temperature_k = pe_temperatures(e.cost, model.thermal);
    for (const std::vector<double>& tier : e.pe_temperature_k) {
        e.tier_peak_k.push_back(*std::max_element(tier.begin(), tier.end()));
        e.peak_k = std::max(e.peak_k, e.tier_peak_k.back());
    }
    e.err = network_err(network, hw, placement, e.pe_temperature_k, model.params);
    double power = 0;
    for (double w : e.cost.tier_power_w) power += w;
    const double heat = model.heat == HeatObjective::power ? power : e.peak_k;
    e.objectives = {e.cost.latency_ns, e.cost.area_mm2, heat, e.err};
    return e;
}

void attach_auxiliary(const workload::Network& network, sim::Hetero3dPlacement& placement) {
    for (LayerIndex i = 0; i < network.size(); ++i) {
        const workload::Layer& l = network.layer(i);
        if (l.has_weights() || l.inputs.empty() || l.inputs.front() == workload::kNetworkInput) continue;
        placement.forward[static_cast<std::size_t>(i)] =
            placement.forward[static_cast<std::size_t>(l.inputs.front())];
    }
}

sim::Hetero3dPlacement perturb_placement(const workload::Network& network, const hw::Hetero3dHardware& hw,
                                         const sim::Hetero3dPlacement& placement, Rng& rng) {
    sim::Hetero3dPlacement out = placement;
    const std::vector<LayerIndex> w = weighted_layers(network);
    if (w.empty()) return out;
    const bool move = w.size() < 2 || rng.uniform01() < 0.5;
    if (!(move && move_layer(network, hw, w, out, rng)) && w.size() >= 2) swap_layers(w, out, rng);
    attach_auxiliary(network, out);
    return out;
}

TierMappingResult map_tiers(const workload::Network& network, const hw::Hetero3dHardware& hw,
                            const TierModel& model, const TierMappingOptions& options) {
    const sim::Hetero3dPlacement start = sim::greedy_placement(network, hw);
    if (!start.ok) throw ModelError("map_tiers: " + start.reason);
    if (!evaluate_placement(network, hw, start, model))
        throw ModelError("map_tiers: the greedy start on " + hw::stack_string(hw.stack) + " cannot run '" +
                         network.name() + "'");
    TierMappingResult out;
    const auto evaluate = [&](const sim::Hetero3dPlacement& p) -> std::optional<std::vector<double>> {
        std::optional<TierEvaluation> e = evaluate_placement(network, hw, p, model);
        if (!e) {
            out.evaluated.emplace_back();
            return std::nullopt;
        }
        out.evaluated.emplace_back(e->objectives);
        return std::move(e->objectives);
    };
    const auto perturb = [&](const sim::Hetero3dPlacement& p, Rng& r) {
        return perturb_placement(network, hw, p, r);
    };
    // One cooling schedule spans the run: the told evaluations spread over its temperatures.
    tuner::amosa::Settings settings = options.amosa;
    tuner::amosa::validate(settings);
    const std::int64_t temps = std::max<std::int64_t>(1, tuner::amosa::temperatures(settings));
    settings.iterations = std::max<std::int64_t>(1, (options.iterations - 1 + temps - 1) / temps);
    Rng rng(options.seed);
    auto r = tuner::amosa::minimise(settings, 4, std::vector<sim::Hetero3dPlacement>{start}, evaluate,
                                    perturb, rng, options.iterations);
    out.front = std::move(r.solutions);
    out.front_objectives = std::move(r.objectives);
    return out;
}

Efficiency efficiency(const sim::Hetero3dNetworkCost& cost) {
    double power = 0;
    for (double w : cost.tier_power_w) power += w;
    const double tops = static_cast<double>(cost.ops) / (cost.latency_ns * 1e3);
    return {tops / power, tops / cost.area_mm2};
}

std::optional<std::size_t> pick_mapping(const std::vector<TierEvaluation>& front, PickBy by,
                                        std::optional<double> max_err) {
    std::optional<std::size_t> best;
    double best_score = 0;
    for (std::size_t i = 0; i < front.size(); ++i) {
        if (max_err && front[i].err > *max_err) continue;
        const Efficiency e = efficiency(front[i].cost);
        const double score = by == PickBy::tops_per_w ? e.tops_per_w : e.tops_per_mm2;
        if (!best || score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

}  // namespace pimdse::mapper
