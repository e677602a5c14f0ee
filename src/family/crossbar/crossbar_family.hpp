#pragma once
// The crossbar family (private to src/family): a ReRAM crossbar accelerator as Gibbon
// searches it ("Gibbon: An Efficient Co-Exploration Framework of NN Model and
// Processing-In-Memory Architecture", Sun et al.), costed by the MNSIM 2.0 model of
// sim/crossbar_cost.hpp. Its parameters are Gibbon's six (crossbar_space.cpp): crossbar
// size, ADC, DAC and cell resolutions, weight and activation precision. The chip is sized to the network
// (every weighted layer on tiles of its own), so area is an output of the evaluation and the area budget
// (`crossbar.area_budget_mm2`) is judged after it; legality is membership of the space. Its energy splits
// into the six parts of sim::CrossbarEnergy.

#include <memory>
#include <vector>

#include "pimdse/family/family.hpp"
#include "pimdse/sim/crossbar.hpp"

namespace pimdse::family {

/// The crossbar family's id: the registry's second (src/family/registry.cpp).
inline constexpr FamilyId kCrossbarFamily = 1;

/// The crossbar parameters, in the order of a point's values.
enum class CrossbarParam : std::uint8_t {
    crossbar_size,
    adc_bits,
    dac_bits,
    cell_bits,
    weight_bits,
    activation_bits
};
inline constexpr std::size_t kCrossbarParamCount = 6;

/// The registry's factory of the crossbar family (id kCrossbarFamily). Throws ConfigError
/// naming the file and key for a `space:` key that is no crossbar parameter, a range outside
/// a parameter's bounds, or an unknown `crossbar.technology`.
[[nodiscard]] std::unique_ptr<Family> make_crossbar(const io::Config& config, FamilyId id);

/// The space of `config`: every parameter's range from `space:` by name, Gibbon's values for
/// those not given (crossbar_space.cpp).
[[nodiscard]] DesignSpace crossbar_space(const io::Config& config, FamilyId id);

/// The crossbar configuration of a point of the space with the section's polarity and
/// active word lines.
[[nodiscard]] sim::CrossbarConfig crossbar_config(const DesignPoint& p, const CrossbarOptions& options);

/// The crossbar energy parts, in column order.
[[nodiscard]] const std::vector<EnergyPart>& crossbar_energy_parts();

}  // namespace pimdse::family
