// The crossbar family's design space (src/family/crossbar/crossbar_family.hpp): Gibbon's
// hardware and quantization search space (Sun et al., Table II) as the defaults, each parameter's range
// replaceable by `space:` within the bounds the cost model accepts.

#include <array>
#include <string>

#include "crossbar_family.hpp"
#include "pimdse/core/error.hpp"

namespace pimdse::family {

namespace {

// The parameters' names and bounds, in CrossbarParam order (core/crossbar_options.hpp).
constexpr const std::array<CrossbarParamRule, kCrossbarParamCount>& kAxes = kCrossbarParamRules;

// Gibbon's values, in CrossbarParam order.
std::array<ParamRange, kCrossbarParamCount> default_ranges() {
    return {ParamRange::log2(32, 256), ParamRange::linear(4, 10, 2), ParamRange::list({1, 2}),
            ParamRange::list({1, 2}),  ParamRange::linear(5, 9, 2),  ParamRange::linear(5, 9, 2)};
}

std::string names() {
    std::string out;
    for (const CrossbarParamRule& a : kAxes) out += (out.empty() ? "" : ", ") + std::string(a.name);
    return out;
}

}  // namespace

DesignSpace crossbar_space(const io::Config& config, FamilyId id) {
    const std::array<ParamRange, kCrossbarParamCount> defaults = default_ranges();
    std::vector<ParamAxis> axes;
    for (std::size_t i = 0; i < kCrossbarParamCount; ++i) {
        axes.push_back({kAxes[i].name, kAxes[i].unit, kAxes[i].meaning, defaults[i]});
    }
    const SourceLocation file{config.source_file.string(), 0, 0};
    for (const ParamAxis& given : config.space.axes()) {
        std::size_t i = 0;
        while (i < kCrossbarParamCount && given.name != kAxes[i].name) ++i;
        if (i == kCrossbarParamCount) {
            throw ConfigError(
                file, "space." + given.name,
                "expected a parameter of the crossbar family (" + names() + "), got '" + given.name + "'");
        }
        const ParamRange& r = given.range;
        if (r.values().front() < kAxes[i].lo || r.values().back() > kAxes[i].hi) {
            throw ConfigError(file, "space." + given.name,
                              "expected values in [" + std::to_string(kAxes[i].lo) + ", " +
                                  std::to_string(kAxes[i].hi) + "], got " + r.str());
        }
        axes[i].range = r;
    }
    return {id, std::move(axes)};
}

sim::CrossbarConfig crossbar_config(const DesignPoint& p, const CrossbarOptions& options) {
    const auto at = [&p](CrossbarParam q) { return p[static_cast<std::size_t>(q)]; };
    sim::CrossbarConfig c;
    c.size = at(CrossbarParam::crossbar_size);
    c.adc_bits = at(CrossbarParam::adc_bits);
    c.dac_bits = at(CrossbarParam::dac_bits);
    c.cell_bits = at(CrossbarParam::cell_bits);
    c.weight_bits = at(CrossbarParam::weight_bits);
    c.activation_bits = at(CrossbarParam::activation_bits);
    c.polarity = options.polarity;
    c.active_wordlines = options.active_wordlines;
    return c;
}

}  // namespace pimdse::family
