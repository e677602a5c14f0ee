// The hetero3d family (src/family/hetero3d/hetero3d_family.hpp).

#include "hetero3d_family.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/eval/cost.hpp"
#include "pimdse/hw/neurosim_preset.hpp"
#include "pimdse/mapper/tier_mapping.hpp"
#include "pimdse/sim/hetero3d_cost.hpp"
#include "pimdse/sim/hetero3d_network.hpp"
#include "pimdse/sim/thermal.hpp"

namespace pimdse::family {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double total_power_w(const sim::Hetero3dNetworkCost& c) {
    double p = 0;
    for (double w : c.tier_power_w) p += w;
    return p;
}

// One workload's result in the shape the store writes (eval::NetworkResult): latency in
// seconds and in cycles of the digital clock; energy as compute (with the weight writes), the
// SRAM tiers' leakage over the step and communication, which are also the family's energy
// columns; PE utilisation as the share of the chip's PEs the placement uses.
eval::NetworkResult network_result(const sim::Hetero3dNetworkCost& c, const hw::Hetero3dHardware& h,
                                   const sim::Hetero3dCostParams& params) {
    eval::NetworkResult r;
    const double compute_pj = c.energy_pj - c.comm_energy_pj;
    // Every PE's power is its dynamic energy over the latency plus its leakage (W = 1e3 pJ/ns).
    const double leakage_pj = std::max(0.0, total_power_w(c) * c.latency_ns * 1e3 - c.energy_pj);
    r.cost.seconds = c.latency_ns * 1e-9;
    r.cost.latency = Cycles(static_cast<std::int64_t>(std::ceil(c.latency_ns * params.clock_ghz)));
    r.cost.energy.pe = Picojoules(compute_pj);
    r.cost.energy.sram = Picojoules(leakage_pj);
    r.cost.energy.noc = Picojoules(c.comm_energy_pj);
    r.cost.pe_utilisation = c.area_mm2 / h.silicon_area().value();
    r.energy_parts_pj = {compute_pj, c.comm_energy_pj, leakage_pj};
    return r;
}

// What a workload's step reports beside its NetworkResult (the metrics' inputs).
struct StepMetrics {
    double peak_k = 0, err = 0, power_w = 0, lifetime = kInf;
    double ops = 0, area_mm2 = 0;
};

// The placement of a workload: the greedy one, or the AMOSA front's best by TOPS/W.
struct Mapped {
    std::optional<mapper::TierEvaluation> eval;
    std::string reason;  ///< why there is none
};

class Hetero3dFamily final : public Family {
public:
    Hetero3dFamily(const io::Config& c, FamilyId id) : space_(hetero3d_space(c, id)), options_(c.hetero3d) {
        const SourceLocation file{c.source_file.string(), 0, 0};
        try {
            model_.params.adc_reading =
                sim::adc_reading_from_name(options_.adc_reading, "hetero3d.adc_reading");
            model_.params.gradients = sim::gradient_model_from_name(options_.gradients, "hetero3d.gradients");
        } catch (const ConfigError& ex) {
            throw ConfigError(file, ex.key(), ex.problem());
        }
        model_.preset = &hw::neurosim_v2_1_preset();
        model_.thermal = sim::hunt_thermal_stack(options_.tiles_per_pe * options_.tile_area_mm2,
                                                 options_.pes_per_tier, options_.tiers);
        model_.heat = mapper::HeatObjective::power;
    }

    [[nodiscard]] std::string_view name() const override { return "hetero3d"; }
    [[nodiscard]] const DesignSpace& space() const override { return space_; }
    [[nodiscard]] const std::vector<EnergyPart>& energy_parts() const override {
        return hetero3d_energy_parts();
    }
    [[nodiscard]] const std::vector<Metric>& metrics() const override { return hetero3d_metrics(); }
    [[nodiscard]] bool legal(const DesignPoint& p) const override { return space_.contains(p); }

    [[nodiscard]] std::string describe(const DesignPoint& p) const override {
        if (!space_.contains(p)) return to_string(p);
        const hw::Hetero3dHardware h = hetero3d_hardware(p, options_);
        return hw::stack_string(h.stack) + " (t1 at the sink), " + std::to_string(h.tiers) + " x " +
               std::to_string(h.pes_per_tier) + " PEs";
    }

    [[nodiscard]] eval::Evaluation evaluate(const eval::EvalContext& ctx, std::int64_t id,
                                            const DesignPoint& p, const Deadline& deadline) const override {
        const auto start = std::chrono::steady_clock::now();
        eval::Evaluation e;
        e.candidate = id;
        e.point = p;
        e.cost = kInf;
        try {
            if (!space_.contains(p)) {
                ended(e, eval::Status::failed, "not a point of the space");
            } else {
                cost_workloads(ctx, hetero3d_hardware(p, options_), deadline, e);
            }
        } catch (const std::exception& ex) {
            ended(e, eval::Status::failed, message_of(ex));
        }
        e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return e;
    }

    [[nodiscard]] std::vector<double> eval_time_prior() const override {
        std::vector<double> prior(1 + space_.dimensions(), 0.0);
        prior[0] = options_.tier_mapping == TierMapping::greedy ? kGreedyLogSeconds : kAmosaLogSeconds;
        return prior;
    }

private:
    // Measured on the 2-core development machine, the median stack of inputs/sweeps/hunt_81.yaml
    // (HuNT's three CIFAR-10 networks, training): the greedy placement 0.34 ms, e^-8.0; AMOSA's
    // 100 evaluations 0.25 s, e^-1.4.
    static constexpr double kGreedyLogSeconds = -8.0;
    static constexpr double kAmosaLogSeconds = -1.4;

    static void ended(eval::Evaluation& e, eval::Status status, std::string message) {
        e.status = status;
        e.message = std::move(message);
        e.cost = kInf;
        e.metrics.clear();
    }

    Mapped map_workload(const workload::Network& net, const hw::Hetero3dHardware& h) const {
        const sim::Hetero3dPlacement greedy = sim::greedy_placement(net, h);
        if (!greedy.ok) return {std::nullopt, greedy.reason};
        std::optional<mapper::TierEvaluation> start = mapper::evaluate_placement(net, h, greedy, model_);
        if (!start) return {std::nullopt, "a layer cannot run on its tier under the greedy placement"};
        if (options_.tier_mapping == TierMapping::greedy) return {std::move(start), {}};
        mapper::TierMappingOptions opt;
        opt.iterations = options_.amosa_iterations;
        opt.seed = options_.amosa_seed;
        const mapper::TierMappingResult found = mapper::map_tiers(net, h, model_, opt);
        std::vector<mapper::TierEvaluation> front;
        for (const sim::Hetero3dPlacement& pl : found.front)
            front.push_back(*mapper::evaluate_placement(net, h, pl, model_));
        const std::optional<std::size_t> at =
            mapper::pick_mapping(front, mapper::PickBy::tops_per_w, std::nullopt);
        return {std::move(front.at(*at)), {}};
    }

    // Every workload's training step on the stack; the candidate's area is the most PEs any
    // workload uses, its total area the chip's silicon, its cost NicePIM Eq. 1.
    void cost_workloads(const eval::EvalContext& ctx, const hw::Hetero3dHardware& h, const Deadline& deadline,
                        eval::Evaluation& e) const {
        std::vector<sim::NetworkCost> costs;
        std::vector<double> gammas;
        StepMetrics sum;
        double err = 0, weights = 0, energy_total_j = 0;
        for (const eval::Workload& w : ctx.workloads) {
            if (deadline.expired())
                return ended(e, eval::Status::timeout, "the per-candidate time limit expired");
            Mapped m = map_workload(w.network, h);
            if (!m.eval)
                return ended(e, eval::Status::infeasible,
                             "cannot run workload '" + w.network.name() + "': " + m.reason);
            const sim::Hetero3dNetworkCost& c = m.eval->cost;
            eval::NetworkResult r = network_result(c, h, model_.params);
            r.cost_term = eval::cost_eq1({&r.cost, 1}, {&w.weight, 1}, ctx.alpha, ctx.beta);
            e.area_mm2 = std::max(e.area_mm2, c.area_mm2);
            sum.peak_k = std::max(sum.peak_k, m.eval->peak_k);
            sum.power_w = std::max(sum.power_w, total_power_w(c));
            sum.lifetime = std::min(sum.lifetime, c.lifetime_iterations);
            sum.ops += static_cast<double>(c.ops);
            err += w.weight * m.eval->err;
            weights += w.weight;
            e.latency_seconds += r.cost.seconds;
            e.energy_joules += r.cost.energy.total().value() * 1e-12;
            energy_total_j += r.cost.energy.total().value() * 1e-12;
            costs.push_back(r.cost);
            gammas.push_back(w.weight);
            e.networks.push_back(std::move(r));
        }
        e.area_total_mm2 = h.silicon_area().value();
        e.cost = eval::cost_eq1(costs, gammas, ctx.alpha, ctx.beta);
        const double tops = sum.ops * 1e-12;
        e.metrics = {sum.peak_k,
                     weights > 0 ? err / weights : 0.0,
                     sum.power_w,
                     sum.lifetime,
                     energy_total_j > 0 ? tops / energy_total_j : 0.0,
                     e.latency_seconds > 0 && e.area_mm2 > 0 ? tops / e.latency_seconds / e.area_mm2 : 0.0};
    }

    DesignSpace space_;
    Hetero3dOptions options_;
    mapper::TierModel model_;
};

}  // namespace

std::unique_ptr<Family> make_hetero3d(const io::Config& config, FamilyId id) {
    if (id != kHetero3dFamily) {
        throw InternalError("the hetero3d family must be the registry's third (id 2), got id " +
                            std::to_string(id));
    }
    return std::make_unique<Hetero3dFamily>(config, id);
}

const std::vector<EnergyPart>& hetero3d_energy_parts() {
    static const std::vector<EnergyPart> parts{
        {"energy_compute_j", "of which the phases' compute and the update's weight writes"},
        {"energy_comm_j", "of which the 3-D mesh NoC's transfers (flits x hops)"},
        {"energy_leakage_j", "of which the SRAM tiers' leakage over the step"},
    };
    return parts;
}

const std::vector<Metric>& hetero3d_metrics() {
    static const std::vector<Metric> metrics{
        {"peak_temperature_k", "K",
         "hottest PE of the stack (the full 1-D thermal form), max over the workloads"},
        {"err", "", "HuNT's error surrogate (Eq. 6), the workloads' weighted mean"},
        {"power_w", "W", "the chip's power (dynamic and leakage) during a step, max over the workloads"},
        {"lifetime_iterations", "", "training steps until the first cell wears out, min over the workloads"},
        {"tops_per_w", "TOPS/W", "operations over energy, the workloads back to back"},
        {"tops_per_mm2", "TOPS/mm2", "operations per second over the PEs' area, the workloads back to back"},
    };
    return metrics;
}

}  // namespace pimdse::family
