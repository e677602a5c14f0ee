// The `hetero3d:` section of a sweep configuration (docs/config.md): the hetero3d family's
// geometry and evaluation settings beside its space. The ADC reading's and the gradient model's
// names are checked where they are defined (the hetero3d family's factory); everything else here, with file,
// line and key.

#include <string>

#include "config_sections.hpp"

namespace pimdse::io::detail {

namespace {

// Far above HuNT's 4 tiers of 16 PEs of 4 tiles; low enough that a chip's tile count fits an
// int. Tiers are bounded by the design point's parameters, one per tier.
constexpr std::int64_t kMaxPesPerTier = 1 << 12;
constexpr std::int64_t kMaxTilesPerPe = 1 << 8;
constexpr double kMaxTileAreaMm2 = 1e3;
constexpr std::int64_t kMaxAmosaIterations = 1 << 20;

}  // namespace

Hetero3dOptions read_hetero3d(const yaml::Reader& r, const std::optional<yaml::Field>& f,
                              const std::string& family) {
    Hetero3dOptions o;
    if (!f) return o;
    if (family != "hetero3d") {
        r.value_error(*f, "no hetero3d section unless family is hetero3d", "family " + family);
    }
    const yaml::Map m(r, *f,
                      {"tiers", "pes_per_tier", "tiles_per_pe", "tile_area_mm2", "adc_reading", "gradients",
                       "tier_mapping", "amosa_iterations", "amosa_seed"});
    if (auto v = m.get("tiers"))
        o.tiers = to_int(r.integer(*v, 1, static_cast<std::int64_t>(kMaxDesignParams)));
    if (auto v = m.get("pes_per_tier")) o.pes_per_tier = to_int(r.integer(*v, 1, kMaxPesPerTier));
    if (auto v = m.get("tiles_per_pe")) o.tiles_per_pe = to_int(r.integer(*v, 1, kMaxTilesPerPe));
    if (auto v = m.get("tile_area_mm2")) o.tile_area_mm2 = r.number(*v, 0, true, kMaxTileAreaMm2);
    if (auto v = m.get("adc_reading")) o.adc_reading = r.string(*v);
    if (auto v = m.get("gradients")) o.gradients = r.string(*v);
    if (auto v = m.get("tier_mapping")) {
        o.tier_mapping = static_cast<TierMapping>(r.choice(*v, names_of(kTierMappingNames)));
    }
    if (auto v = m.get("amosa_iterations")) o.amosa_iterations = r.integer(*v, 1, kMaxAmosaIterations);
    if (auto v = m.get("amosa_seed")) o.amosa_seed = r.unsigned64(*v);
    return o;
}

}  // namespace pimdse::io::detail
