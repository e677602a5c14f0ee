// The hetero3d family's design space (src/family/hetero3d/hetero3d_family.hpp): the tier
// stack α, one parameter per tier from the heat sink up, each a device code; every stack by
// default, each tier's devices replaceable by `space:`.

#include <string>

#include "hetero3d_family.hpp"
#include "pimdse/core/error.hpp"

namespace pimdse::family {

namespace {

constexpr int kDeviceCodes = 3;  // SRAM, ReRAM, FeFET (hw::PimDevice)

std::string tier_name(int tier) {
    // Appended, not "t" + to_string(...): GCC 12's -Wrestrict misfires on that operator+
    // at -O2 (a false positive the -Werror build stops on).
    std::string name = "t";
    name += std::to_string(tier + 1);
    return name;
}

}  // namespace

int device_code(hw::PimDevice device) noexcept {
    return static_cast<int>(device) + 1;
}

DesignSpace hetero3d_space(const io::Config& config, FamilyId id) {
    const int tiers = config.hetero3d.tiers;
    std::vector<ParamAxis> axes;
    for (int t = 0; t < tiers; ++t) {
        const std::string where = t == 0 ? " (nearest the heat sink)" : t == tiers - 1 ? " (the top)" : "";
        axes.push_back({tier_name(t), "",
                        "device of tier " + tier_name(t) + where + ": 1 SRAM, 2 ReRAM, 3 FeFET",
                        ParamRange::linear(1, kDeviceCodes, 1)});
    }
    const SourceLocation file{config.source_file.string(), 0, 0};
    for (const ParamAxis& given : config.space.axes()) {
        int t = 0;
        while (t < tiers && given.name != tier_name(t)) ++t;
        if (t == tiers) {
            throw ConfigError(file, "space." + given.name,
                              "expected a tier of the hetero3d stack, t1 to " + tier_name(tiers - 1) +
                                  " (hetero3d.tiers: " + std::to_string(tiers) + "), got '" + given.name +
                                  "'");
        }
        if (given.range.values().back() > kDeviceCodes) {
            throw ConfigError(
                file, "space." + given.name,
                "expected device codes in [1, 3] (1 SRAM, 2 ReRAM, 3 FeFET), got " + given.range.str());
        }
        axes[static_cast<std::size_t>(t)].range = given.range;
    }
    return {id, std::move(axes)};
}

hw::Hetero3dHardware hetero3d_hardware(const DesignPoint& p, const Hetero3dOptions& options) {
    hw::Hetero3dHardware h;
    h.tiers = options.tiers;
    h.pes_per_tier = options.pes_per_tier;
    h.tiles_per_pe = options.tiles_per_pe;
    h.tile_area = SquareMillimetres(options.tile_area_mm2);
    if (p.size != static_cast<std::size_t>(options.tiers))
        throw ModelError("hetero3d_hardware: a point of " + std::to_string(p.size) + " parameters for " +
                         std::to_string(options.tiers) + " tiers");
    for (std::size_t t = 0; t < p.size; ++t) {
        if (p[t] < 1 || p[t] > kDeviceCodes)
            throw ModelError("hetero3d_hardware: device code " + std::to_string(p[t]) + " of tier " +
                             tier_name(static_cast<int>(t)) + ", expected 1, 2 or 3");
        h.stack.push_back(static_cast<hw::PimDevice>(p[t] - 1));
    }
    hw::check(h);
    return h;
}

DesignPoint hetero3d_point(const std::vector<hw::PimDevice>& stack, FamilyId id) {
    if (stack.size() > kMaxDesignParams)
        throw ModelError("hetero3d_point: " + std::to_string(stack.size()) + " tiers, at most " +
                         std::to_string(kMaxDesignParams));
    DesignPoint p;
    p.family = id;
    p.size = static_cast<std::uint16_t>(stack.size());
    for (std::size_t t = 0; t < stack.size(); ++t) p[t] = device_code(stack[t]);
    return p;
}

}  // namespace pimdse::family
