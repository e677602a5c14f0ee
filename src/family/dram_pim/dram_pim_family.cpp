// The dram_pim family (src/family/dram_pim/dram_pim_family.hpp).

#include "dram_pim_family.hpp"

#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/legality.hpp"
#include "synthetic.hpp"

namespace pimdse::family {

namespace {

class DramPimFamily final : public Family {
public:
    explicit DramPimFamily(const io::Config& c)
        : space_(c.space), constraints_(c.constraints), technology_(c.technology) {}

    [[nodiscard]] std::string_view name() const override { return "dram_pim"; }
    [[nodiscard]] const DesignSpace& space() const override { return space_; }
    [[nodiscard]] const std::vector<EnergyPart>& energy_parts() const override {
        return dram_pim_energy_parts();
    }

    [[nodiscard]] bool legal(const DesignPoint& p) const override {
        if (p.family != hw::kDramPimFamily || p.size != hw::kParamCount) return false;
        return hw::check(hw::from_point(p), constraints_, technology_).legal();
    }

    [[nodiscard]] std::string describe(const DesignPoint& p) const override {
        return hw::to_string(hw::from_point(p));
    }

    [[nodiscard]] eval::Evaluation evaluate(const eval::EvalContext& ctx, std::int64_t id,
                                            const DesignPoint& p, const Deadline& deadline) const override {
        return with_energy_parts(eval::evaluate(ctx, {id, hw::from_point(p)}, deadline));
    }

    [[nodiscard]] eval::Evaluation evaluate_synthetic(const eval::EvalContext& ctx, std::int64_t id,
                                                      const DesignPoint& p, std::uint64_t seed,
                                                      double median_seconds) const override {
        return with_energy_parts(synthetic_evaluate(ctx, {id, hw::from_point(p)}, seed, median_seconds));
    }

    // Fitted to the default sweep's (inputs/sweeps/default.yaml) first 96 evaluations on the
    // 2-core development machine, rounded. More nodes: more partitions, regions and sharing
    // events to search; larger PE arrays: fewer compute-bound tilings survive the pruning;
    // buffers matter little. The slopes cover Table I's seven; the clock and the data width
    // (the last two parameters) change no search, so the model leaves them out.
    [[nodiscard]] std::vector<double> eval_time_prior() const override {
        return {1.2, 0.4, 0.4, -0.15, -0.15, -0.05, -0.05, -0.05};
    }

private:
    static eval::Evaluation with_energy_parts(eval::Evaluation e) {
        for (eval::NetworkResult& n : e.networks) n.energy_parts_pj = dram_pim_energy_values(n.cost.energy);
        return e;
    }

    DesignSpace space_;
    hw::Constraints constraints_;
    hw::Technology technology_;
};

}  // namespace

std::unique_ptr<Family> make_dram_pim(const io::Config& config, FamilyId id) {
    if (id != hw::kDramPimFamily) {
        throw InternalError("the dram_pim family must be the registry's first (id 0), got id " +
                            std::to_string(id));
    }
    return std::make_unique<DramPimFamily>(config);
}

const std::vector<EnergyPart>& dram_pim_energy_parts() {
    static const std::vector<EnergyPart> parts{
        {"energy_pe_j", "of which PE arrays (MACs)"},
        {"energy_register_j", "of which the PEs' operand registers"},
        {"energy_sram_j", "of which SRAM buffers"},
        {"energy_dram_j", "of which DRAM: access + activation + background"},
        {"energy_dram_access_j", "DRAM: bits through the port"},
        {"energy_dram_activation_j", "DRAM: row activations and precharges"},
        {"energy_dram_background_j", "DRAM: background and refresh over the latency"},
        {"energy_noc_j", "of which NoC (sharing and redistribution)"},
    };
    return parts;
}

std::vector<double> dram_pim_energy_values(const sim::EnergyBreakdown& e) {
    return {e.pe.value(),
            e.registers.value(),
            e.sram.value(),
            e.dram().value(),
            e.dram_access.value(),
            e.dram_activation.value(),
            e.dram_background.value(),
            e.noc.value()};
}

}  // namespace pimdse::family
