#pragma once
// The dram_pim family (private to src/family): NicePIM's DRAM-PIM accelerator. Its
// parameters are Table I's seven (hw/params.hpp), its legality and area are hw's, its
// evaluation is eval::evaluate (the PIM-Mapper, the Data-Scheduler and the timeline over
// sim's node model), and its energy splits into the eight components of /metrics.
// Everything below (hw, sim, mapper, sched, eval) is this family's model library; this file
// is only the adapter that the engine sees through family::Family.

#include <memory>
#include <vector>

#include "pimdse/family/family.hpp"
#include "pimdse/sim/layer_cost.hpp"

namespace pimdse::family {

/// The registry's factory of the dram_pim family (id 0).
[[nodiscard]] std::unique_ptr<Family> make_dram_pim(const io::Config& config, FamilyId id);

/// The dram_pim energy parts, in column order.
[[nodiscard]] const std::vector<EnergyPart>& dram_pim_energy_parts();
/// The values of dram_pim_energy_parts() for one energy breakdown, pJ.
[[nodiscard]] std::vector<double> dram_pim_energy_values(const sim::EnergyBreakdown& e);

}  // namespace pimdse::family
