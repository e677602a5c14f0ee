// `pimdse evaluate` of a hetero3d hardware file (hetero3d_evaluate.hpp).

#include "hetero3d_evaluate.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/hetero3d_file.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/output_file.hpp"
#include "pimdse/mapper/tier_mapping.hpp"
#include "report.hpp"

namespace pimdse::cli {
namespace {

struct Picked {
    sim::Hetero3dPlacement placement;
    mapper::TierEvaluation eval;
    double tops_per_w = 0, tops_per_mm2 = 0;
};

double total_power_w(const sim::Hetero3dNetworkCost& c) {
    double p = 0;
    for (double w : c.tier_power_w) p += w;
    return p;
}

std::string pe_list(const sim::PeGroup& g) {
    std::string s;
    for (int p : g.pes) {
        if (!s.empty()) s += ',';
        s += std::to_string(p);
    }
    return s;
}

void print_layers(const workload::Network& net, const hw::Hetero3dHardware& h, const Picked& p) {
    std::cout << format("%-16s %-8s %-4s %-6s %s\n", "layer", "kind", "tier", "device", "PEs");
    const auto device = [&](int tier) {
        return std::string(name_of(hw::kPimDeviceNames, h.stack[static_cast<std::size_t>(tier)]));
    };
    for (workload::LayerIndex i = 0; i < net.size(); ++i) {
        const sim::PeGroup& g = p.placement.forward[static_cast<std::size_t>(i)];
        std::cout << format("%-16s %-8s t%-3d %-6s %s\n", net.layer(i).name.c_str(),
                            std::string(name_of(workload::kLayerKindNames, net.layer(i).kind)).c_str(),
                            g.tier + 1, device(g.tier).c_str(), pe_list(g).c_str());
    }
    if (net.mode() == workload::NetworkMode::training)
        std::cout << format("backward (activation and weight gradients): t%d %s, %zu PEs\n",
                            p.placement.backward.tier + 1, device(p.placement.backward.tier).c_str(),
                            p.placement.backward.pes.size());
}

void print_tiers(const hw::Hetero3dHardware& h, const Picked& p, const sim::ThermalStack& thermal) {
    // Eq. 8 as HuNT writes it, beside the full form, per tier (the hottest PE of the tier).
    std::vector<double> eq8(static_cast<std::size_t>(h.tiers), 0.0);
    for (const std::vector<double>& column : sim::vertical_stacks(p.eval.cost)) {
        const std::vector<double> t = sim::eq8_temperatures(thermal, column);
        for (std::size_t z = 0; z < t.size(); ++z) eq8[z] = std::max(eq8[z], t[z]);
    }
    std::cout << format("%-4s %-6s %10s %10s %10s %12s\n", "tier", "device", "power W", "peak K", "mean K",
                        "Eq. 8 peak K");
    for (int z = 0; z < h.tiers; ++z) {
        const auto& temps = p.eval.pe_temperature_k[static_cast<std::size_t>(z)];
        double mean = 0;
        for (double t : temps) mean += t;
        mean /= static_cast<double>(temps.size());
        std::cout << format(
            "t%-3d %-6s %10.4f %10.2f %10.2f %12.2f\n", z + 1,
            std::string(name_of(hw::kPimDeviceNames, h.stack[static_cast<std::size_t>(z)])).c_str(),
            p.eval.cost.tier_power_w[static_cast<std::size_t>(z)],
            p.eval.tier_peak_k[static_cast<std::size_t>(z)], mean, eq8[static_cast<std::size_t>(z)]);
    }
}

void print_summary(const Picked& p) {
    const sim::Hetero3dNetworkCost& c = p.eval.cost;
    std::cout << format("latency %.6g ms, energy %.6g mJ, ops %.6g, area %.4g mm², power %.4g W\n",
                        c.latency_ns * 1e-6, c.energy_pj * 1e-9, static_cast<double>(c.ops), c.area_mm2,
                        total_power_w(c))
              << format("TOPS/W %.6g, TOPS/mm² %.6g, peak %.2f K, Err %.6g, lifetime %.4g iterations\n",
                        p.tops_per_w, p.tops_per_mm2, p.eval.peak_k, p.eval.err, c.lifetime_iterations);
}

// Per-tier values as one field, space separated, t1 first.
std::string tier_field(const std::vector<double>& v) {
    std::string s;
    for (double x : v) {
        if (!s.empty()) s += ' ';
        s += format("%.17g", x);
    }
    return s;
}

// One --csv row (docs/cli.md, "Hetero3d stacks"); the header is written when the file is new.
void append_csv_row(const Hetero3dEvaluateOptions& o, const hw::Hetero3dHardware& h,
                    const workload::Network& net, std::size_t front, const Picked& p) {
    const sim::Hetero3dNetworkCost& c = p.eval.cost;
    const std::string row = format(
        "%s,%s,%s,%s,%s,%lld,%llu,%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s,%s\n",
        hw::stack_string(h.stack).c_str(), net.name().c_str(),
        net.mode() == workload::NetworkMode::training ? "training" : "inference", o.adc_reading.c_str(),
        o.greedy ? "greedy" : "amosa", static_cast<long long>(o.greedy ? 1 : o.iterations),
        static_cast<unsigned long long>(o.seed), front, c.latency_ns * 1e-9, c.energy_pj * 1e-12,
        static_cast<double>(c.ops), c.area_mm2, total_power_w(c), p.tops_per_w, p.tops_per_mm2, p.eval.peak_k,
        p.eval.err, c.lifetime_iterations, tier_field(c.tier_power_w).c_str(),
        tier_field(p.eval.tier_peak_k).c_str(), o.gradients.c_str());
    const std::vector<std::filesystem::path> inputs{o.hardware, o.network};
    io::append_output_file(
        o.csv,
        "stack,network,mode,adc_reading,tier_mapping,iterations,seed,front_size,latency_s,"
        "energy_j,ops,area_mm2,power_w,tops_per_w,tops_per_mm2,peak_k,err,lifetime_iterations,"
        "tier_power_w,tier_peak_k,gradients\n",
        row, inputs);
}

}  // namespace

int run_evaluate_hetero3d(const Hetero3dEvaluateOptions& o) {
    if (!o.csv.empty())
        io::check_output_path(o.csv, std::vector<std::filesystem::path>{o.hardware, o.network});
    const io::Hetero3dFile f = io::read_hetero3d_file(o.hardware);
    const hw::Hetero3dHardware& h = f.hardware;
    const workload::Network net = io::read_network_file(o.network);
    mapper::TierModel model;
    model.preset = &hw::neurosim_v2_1_preset();
    model.params.adc_reading = sim::adc_reading_from_name(o.adc_reading, "--adc-reading");
    model.params.gradients = sim::gradient_model_from_name(o.gradients, "--gradients");
    model.thermal = sim::hunt_thermal_stack(h.tiles_per_pe * h.tile_area.value(), h.pes_per_tier, h.tiers);
    model.heat = o.peak_objective ? mapper::HeatObjective::peak_temperature : mapper::HeatObjective::power;
    const sim::Hetero3dPlacement greedy = sim::greedy_placement(net, h);
    if (!greedy.ok || !mapper::evaluate_placement(net, h, greedy, model))
        throw InputError({o.network, 0, 0}, "",
                         "expected a network that stack " + hw::stack_string(h.stack) + " of " + o.hardware +
                             " can run: " + (greedy.ok ? "a layer cannot run on its tier" : greedy.reason));
    std::vector<sim::Hetero3dPlacement> placements{greedy};
    if (!o.greedy) {
        mapper::TierMappingOptions opt;
        opt.iterations = o.iterations;
        opt.seed = o.seed;
        placements = mapper::map_tiers(net, h, model, opt).front;
    }
    std::vector<mapper::TierEvaluation> front;
    for (const sim::Hetero3dPlacement& p : placements)
        front.push_back(*mapper::evaluate_placement(net, h, p, model));
    const std::optional<std::size_t> at = mapper::pick_mapping(
        front, o.pick_area ? mapper::PickBy::tops_per_mm2 : mapper::PickBy::tops_per_w, o.max_err);
    std::optional<Picked> best;
    if (at) {
        const mapper::Efficiency e = mapper::efficiency(front[*at].cost);
        best = Picked{placements[*at], front[*at], e.tops_per_w, e.tops_per_mm2};
    }
    std::cout << format(
        "hetero3d %s: %d tiers x %d PEs; network %s (%s, batch %lld); ADC reading %s; "
        "gradients %s\n",
        hw::stack_string(h.stack).c_str(), h.tiers, h.pes_per_tier, net.name().c_str(),
        net.mode() == workload::NetworkMode::training ? "training" : "inference",
        static_cast<long long>(net.batch()), o.adc_reading.c_str(), o.gradients.c_str());
    std::cout << (o.greedy ? std::string("tier mapping: greedy\n")
                           : format("tier mapping: AMOSA, %lld evaluations, seed %llu, %zu on the front\n",
                                    static_cast<long long>(o.iterations),
                                    static_cast<unsigned long long>(o.seed), front.size()));
    if (!best) {
        std::cout << format("no mapping on the front has Err <= %g\n", *o.max_err);
        return static_cast<int>(ExitCode::ok);
    }
    std::cout << format("picked by %s%s\n", o.pick_area ? "TOPS/mm²" : "TOPS/W",
                        o.max_err ? format(" among Err <= %g", *o.max_err).c_str() : "");
    print_layers(net, h, *best);
    print_tiers(h, *best, model.thermal);
    print_summary(*best);
    if (!o.csv.empty()) append_csv_row(o, h, net, front.size(), *best);
    return static_cast<int>(ExitCode::ok);
}

}  // namespace pimdse::cli
