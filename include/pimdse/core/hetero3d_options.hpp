#pragma once
// The hetero3d family's settings beside its design space: the `hetero3d:` section of a sweep
// configuration (docs/config.md). Plain values with no behaviour, like the crossbar family's
// (crossbar_options.hpp): the configuration reader (io) fills them in without depending on
// sim or mapper; the hetero3d family (src/family/hetero3d/) checks the ADC reading's and the
// gradient model's names against the cost model's (sim/hetero3d_cost.hpp) and runs the tier mapping.

#include <cstdint>
#include <string>

#include "pimdse/core/enum_names.hpp"

namespace pimdse {

/// How a candidate stack's layers are placed on its PEs.
enum class TierMapping : std::uint8_t {
    greedy,  ///< the greedy placement of sim/hetero3d_network.hpp, once
    amosa    ///< AMOSA over the placement from the greedy start (mapper/tier_mapping.hpp)
};
/// `hetero3d.tier_mapping`'s choices, declared once.
inline constexpr EnumNames<TierMapping, 2> kTierMappingNames{
    {{TierMapping::greedy, "greedy"}, {TierMapping::amosa, "amosa"}}};

/// The `hetero3d:` configuration section: the geometry every candidate stack shares (HuNT
/// Table II by default) and how each is evaluated.
struct Hetero3dOptions {
    int tiers = 4;               ///< planar tiers; one `space:` parameter each (t1, t2, ...)
    int pes_per_tier = 16;       ///< HuNT Table II: 64 PEs on 4 tiers
    int tiles_per_pe = 4;        ///< HuNT Table II
    double tile_area_mm2 = 0.4;  ///< HuNT Table II
    /// How ReRAM crossbars share SAR ADCs (sim::adc_reading_name): "table_ii_tile" or
    /// "neurosim_column_mux"; checked by the family.
    std::string adc_reading = "table_ii_tile";
    /// How the SRAM tier costs ΔAG and ΔWG (sim::gradient_model_name): "digital_float32" or
    /// "in_memory"; checked by the family.
    std::string gradients = "digital_float32";
    TierMapping tier_mapping = TierMapping::greedy;
    std::int64_t amosa_iterations = 100;  ///< evaluations of the AMOSA search (HuNT IV-A)
    std::uint64_t amosa_seed = 1;         ///< the AMOSA search's seed, the same for every stack

    friend bool operator==(const Hetero3dOptions&, const Hetero3dOptions&) = default;
};

}  // namespace pimdse
