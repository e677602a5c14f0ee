#pragma once
// The hetero3d family (private to src/family): HuNT's heterogeneous 3-D manycore for DNN
// training (Ogbogu et al., "HuNT: Exploiting Heterogeneous PIM Devices to Design a 3-D
// Manycore Architecture for DNN Training"), its design space the tier stacks α: one parameter
// per tier (t1 nearest the heat sink, hetero3d_space.cpp), each SRAM, ReRAM or FeFET, 81
// stacks on HuNT's 4 tiers. The geometry every stack shares (PEs per tier, tiles per PE, tile
// area) and how a stack is evaluated come from `hetero3d:` (core/hetero3d_options.hpp).
//
// A candidate is evaluated by training each workload one step on the stack: its layers placed
// greedily (sim/hetero3d_network.hpp), or by AMOSA from there (mapper/tier_mapping.hpp, the
// front's best by TOPS/W picked), costed per phase, heated by the thermal model
// (sim/thermal.hpp with HuNT's calibrated base resistance). A stack that cannot run a
// workload (a training network and no SRAM tier) ends `infeasible` with the reason. Its
// energy splits into compute (with the weight writes), communication and the SRAM tiers'
// leakage; its metrics are the peak temperature, Err, power, lifetime, TOPS/W and TOPS/mm².

#include <memory>
#include <vector>

#include "pimdse/core/hetero3d_options.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/hw/hetero3d.hpp"
#include "pimdse/hw/pim_device.hpp"

namespace pimdse::family {

/// The hetero3d family's id: the registry's third (src/family/registry.cpp).
inline constexpr FamilyId kHetero3dFamily = 2;

/// The registry's factory of the hetero3d family (id kHetero3dFamily). Throws ConfigError
/// naming the file and key for a `space:` key that is no tier of the stack, a value that is no
/// device code, or an unknown `hetero3d.adc_reading` or `hetero3d.gradients`.
[[nodiscard]] std::unique_ptr<Family> make_hetero3d(const io::Config& config, FamilyId id);

/// The space of `config`: one parameter per tier of `hetero3d.tiers`, "t1" first, each of
/// the device codes 1 (SRAM), 2 (ReRAM), 3 (FeFET), or the values `space:` gives it.
[[nodiscard]] DesignSpace hetero3d_space(const io::Config& config, FamilyId id);

/// The device code of a stack parameter: the device's index plus 1 (1 SRAM, 2 ReRAM, 3 FeFET;
/// a space's values are positive).
[[nodiscard]] int device_code(hw::PimDevice device) noexcept;

/// The hardware of a point of the space: the geometry of `options` and the stack of its
/// codes. Throws ModelError for a value that is no device code.
[[nodiscard]] hw::Hetero3dHardware hetero3d_hardware(const DesignPoint& p, const Hetero3dOptions& options);

/// The point of family `id` whose stack is `stack` (t1 first).
[[nodiscard]] DesignPoint hetero3d_point(const std::vector<hw::PimDevice>& stack, FamilyId id);

/// The hetero3d energy parts, in column order.
[[nodiscard]] const std::vector<EnergyPart>& hetero3d_energy_parts();
/// The hetero3d metrics, in column order.
[[nodiscard]] const std::vector<Metric>& hetero3d_metrics();

}  // namespace pimdse::family
