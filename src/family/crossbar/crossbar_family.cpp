// The crossbar family (src/family/crossbar/crossbar_family.hpp).

#include "crossbar_family.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/eval/cost.hpp"
#include "pimdse/io/accuracy_table.hpp"
#include "pimdse/sim/crossbar_cost.hpp"
#include "pimdse/sim/crossbar_technology.hpp"

namespace pimdse::family {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool has_weighted_layer(const workload::Network& n) {
    for (workload::LayerIndex i = 0; i < n.size(); ++i) {
        if (n.layer(i).has_weights()) return true;
    }
    return false;
}

// Share of the allocated crossbars' cells that hold a weight bit (replicas hold copies, so
// they do not change it).
double cell_utilisation(const sim::CrossbarNetworkCost& nc, int size) {
    double used = 0;
    double cells = 0;
    for (const sim::CrossbarLayerCost& l : nc.layer_costs) {
        used += static_cast<double>(l.mapping.groups * l.mapping.rows * l.mapping.columns);
        cells += static_cast<double>(l.mapping.crossbars) * size * size;
    }
    return cells > 0 ? used / cells : 0;
}

// One workload's result in the shape the store writes (eval::NetworkResult): latency in
// seconds and in cycles of the tiles' digital clock, energy split so that its total is the
// crossbar energy's (the converters, cells and shift-and-add as compute, the buffers as
// SRAM, the inter-tile network as NoC), the six crossbar parts as the family's energy columns.
eval::NetworkResult network_result(const sim::CrossbarNetworkCost& nc, const sim::CrossbarTechnology& tech,
                                   int size) {
    eval::NetworkResult r;
    const sim::CrossbarEnergy& e = nc.energy;
    r.cost.seconds = nc.latency_ns * 1e-9;
    r.cost.latency =
        Cycles(static_cast<std::int64_t>(std::ceil(nc.latency_ns * tech.digital_clock_mhz * 1e-3)));
    r.cost.energy.pe = e.crossbar + e.adc + e.dac + e.shift_add;
    r.cost.energy.sram = e.buffer;
    r.cost.energy.noc = e.noc;
    r.cost.pe_utilisation = cell_utilisation(nc, size);
    r.energy_parts_pj = {e.crossbar.value(),  e.adc.value(),    e.dac.value(),
                         e.shift_add.value(), e.buffer.value(), e.noc.value()};
    return r;
}

// The metrics of a crossbar sweep: the proxy always, the table's loss when there is a table.
std::vector<Metric> metrics_of(const CrossbarOptions& o) {
    std::vector<Metric> m{
        {"adc_deficit_bits", "bit",
         "accuracy proxy: ADC resolution short of a column's full sum, max over the layers of "
         "all workloads"}};
    if (!o.accuracy_table.empty()) {
        m.push_back({"accuracy_loss", "percentage points",
                     "accuracy lost, the workloads' weighted mean from the accuracy table; NaN when a "
                     "workload has no row"});
    }
    return m;
}

std::vector<std::string> param_names(const DesignSpace& space) {
    std::vector<std::string> names;
    for (const ParamAxis& a : space.axes()) names.push_back(a.name);
    return names;
}

class CrossbarFamily final : public Family {
public:
    CrossbarFamily(const io::Config& c, FamilyId id)
        : space_(crossbar_space(c, id)),
          options_(c.crossbar),
          tech_(&technology(c)),
          metrics_(metrics_of(c.crossbar)) {
        network_options_.schedule = options_.schedule;
        network_options_.tile_budget = options_.tile_budget;
        if (!options_.accuracy_table.empty()) {
            const std::vector<std::string> names = param_names(space_);
            accuracy_ = io::AccuracyTable::read(options_.accuracy_table, names);
        }
    }

    [[nodiscard]] std::string_view name() const override { return "crossbar"; }
    [[nodiscard]] const DesignSpace& space() const override { return space_; }
    [[nodiscard]] const std::vector<EnergyPart>& energy_parts() const override {
        return crossbar_energy_parts();
    }

    [[nodiscard]] const std::vector<Metric>& metrics() const override { return metrics_; }

    [[nodiscard]] bool legal(const DesignPoint& p) const override { return space_.contains(p); }

    [[nodiscard]] std::string describe(const DesignPoint& p) const override {
        if (p.size != kCrossbarParamCount) return to_string(p);
        const sim::CrossbarConfig x = crossbar_config(p, options_);
        std::ostringstream out;
        out << x.size << 'x' << x.size << " xbar, ADC " << x.adc_bits << "b, DAC " << x.dac_bits << "b, cell "
            << x.cell_bits << "b, W" << x.weight_bits << "/A" << x.activation_bits;
        return out.str();
    }

    [[nodiscard]] eval::Evaluation evaluate(const eval::EvalContext& ctx, std::int64_t id,
                                            const DesignPoint& p, const Deadline& deadline) const override {
        const auto start = std::chrono::steady_clock::now();
        eval::Evaluation e = evaluate_point(ctx, id, p, deadline);
        e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return e;
    }

    // Measured: a candidate on both CIFAR-10 networks of inputs/sweeps/gibbon_cifar10.yaml
    // takes about 20 µs on the 2-core development machine, whatever the point; costing the
    // inter-tile network makes it about 1.8 times that (38-41 against 67-80 µs side by side
    // on a loaded machine): about 36 µs, e^-10.2.
    [[nodiscard]] std::vector<double> eval_time_prior() const override {
        std::vector<double> prior(1 + space_.dimensions(), 0.0);
        prior[0] = -10.2;
        return prior;
    }

private:
    eval::Evaluation evaluate_point(const eval::EvalContext& ctx, std::int64_t id, const DesignPoint& p,
                                    const Deadline& deadline) const {
        eval::Evaluation e;
        e.candidate = id;
        e.point = p;
        e.cost = kInf;
        try {
            if (!space_.contains(p))
                return ended(std::move(e), eval::Status::failed, "not a point of the space");
            cost_workloads(ctx, p, deadline, e);
        } catch (const std::exception& ex) {
            return ended(std::move(e), eval::Status::failed, message_of(ex));
        }
        if (e.status != eval::Status::ok) return e;
        if (options_.area_budget_mm2 && e.area_mm2 > *options_.area_budget_mm2) {
            std::ostringstream msg;
            msg << "area " << e.area_mm2 << " mm² over the budget of " << *options_.area_budget_mm2
                << " mm² (crossbar.area_budget_mm2)";
            return ended(std::move(e), eval::Status::infeasible, msg.str());
        }
        return e;
    }

    // The preset `crossbar.technology` names, checked; errors name the configuration file.
    static const sim::CrossbarTechnology& technology(const io::Config& c) {
        const SourceLocation file{c.source_file.string(), 0, 0};
        const sim::CrossbarTechnology* t = nullptr;
        try {
            t = &sim::crossbar_technology(c.crossbar.technology);
        } catch (const ConfigError&) {
            throw ConfigError(file, "crossbar.technology",
                              "expected a technology preset (" + sim::crossbar_technology_names() +
                                  "), got '" + c.crossbar.technology + "'");
        }
        try {
            sim::check_technology(*t);
        } catch (const ConfigError& ex) {
            throw ConfigError(file, ex.key(), ex.problem());
        }
        return *t;
    }

    static eval::Evaluation ended(eval::Evaluation e, eval::Status status, std::string message) {
        e.status = status;
        e.message = std::move(message);
        e.cost = kInf;
        return e;
    }

    // Every workload on the point's crossbars; the candidate's area is the largest
    // network's (the chip holds one network at a time), its cost NicePIM Eq. 1.
    void cost_workloads(const eval::EvalContext& ctx, const DesignPoint& p, const Deadline& deadline,
                        eval::Evaluation& e) const {
        const sim::CrossbarConfig config = crossbar_config(p, options_);
        std::vector<sim::NetworkCost> costs;
        std::vector<double> gammas;
        int deficit = 0;
        double loss = 0, weights = 0;
        for (const eval::Workload& w : ctx.workloads) {
            if (deadline.expired()) {
                e = ended(std::move(e), eval::Status::timeout, "the per-candidate time limit expired");
                return;
            }
            if (!has_weighted_layer(w.network)) {
                e = ended(std::move(e), eval::Status::failed,
                          "workload '" + w.network.name() +
                              "' has no weighted layer (conv, deconv or matmul with weights) to place on "
                              "crossbars");
                return;
            }
            const sim::CrossbarNetworkCost nc =
                sim::cost_network_on_crossbars(w.network, config, *tech_, network_options_);
            eval::NetworkResult r = network_result(nc, *tech_, config.size);
            r.cost_term = eval::cost_eq1({&r.cost, 1}, {&w.weight, 1}, ctx.alpha, ctx.beta);
            e.area_mm2 = std::max(e.area_mm2, nc.area.total().value());
            deficit = std::max(deficit, sim::worst_adc_deficit(nc, config));
            if (accuracy_) {
                const std::optional<double> l = accuracy_->find(w.network.name(), p.params());
                loss += l ? w.weight * *l : std::numeric_limits<double>::quiet_NaN();
                weights += w.weight;
            }
            e.latency_seconds += r.cost.seconds;
            e.energy_joules += r.cost.energy.total().value() * 1e-12;
            costs.push_back(r.cost);
            gammas.push_back(w.weight);
            e.networks.push_back(std::move(r));
        }
        e.area_total_mm2 = e.area_mm2;
        e.cost = eval::cost_eq1(costs, gammas, ctx.alpha, ctx.beta);
        e.metrics.push_back(deficit);
        if (accuracy_)
            e.metrics.push_back(weights > 0 ? loss / weights : std::numeric_limits<double>::quiet_NaN());
    }

    DesignSpace space_;
    CrossbarOptions options_;
    const sim::CrossbarTechnology* tech_;
    std::vector<Metric> metrics_;
    std::optional<io::AccuracyTable> accuracy_;  ///< crossbar.accuracy_table, when given
    sim::CrossbarNetworkOptions network_options_;
};

}  // namespace

std::unique_ptr<Family> make_crossbar(const io::Config& config, FamilyId id) {
    if (id != kCrossbarFamily) {
        throw InternalError("the crossbar family must be the registry's second (id 1), got id " +
                            std::to_string(id));
    }
    return std::make_unique<CrossbarFamily>(config, id);
}

const std::vector<EnergyPart>& crossbar_energy_parts() {
    static const std::vector<EnergyPart> parts{
        {"energy_crossbar_j", "of which memristor cells read"},
        {"energy_adc_j", "of which analog-to-digital conversions"},
        {"energy_dac_j", "of which digital-to-analog input steps"},
        {"energy_shift_add_j", "of which shift registers and adders merging conversions"},
        {"energy_buffer_j", "of which PE input and tile output SRAM buffers"},
        {"energy_noc_j", "of which the inter-tile network (routers and links)"},
    };
    return parts;
}

}  // namespace pimdse::family
