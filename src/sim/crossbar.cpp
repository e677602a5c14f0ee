// Layers on ReRAM crossbars (include/pimdse/sim/crossbar.hpp).

#include "pimdse/sim/crossbar.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/core/units.hpp"

namespace pimdse::sim {

namespace {

void check_config(const CrossbarConfig& c) {
    const auto positive = [](const char* name, int v) {
        if (v < 1)
            throw ModelError(std::string("CrossbarConfig: ") + name + " must be >= 1, got " +
                             std::to_string(v));
    };
    positive("size", c.size);
    positive("cell_bits", c.cell_bits);
    positive("dac_bits", c.dac_bits);
    positive("adc_bits", c.adc_bits);
    positive("weight_bits", c.weight_bits);
    positive("activation_bits", c.activation_bits);
    // A column sum of 2^c - 1 levels times 2^d - 1 must stay a plain integer product.
    if (c.cell_bits > 16 || c.dac_bits > 16) {
        throw ModelError("CrossbarConfig: cell_bits and dac_bits must be at most 16, got " +
                         std::to_string(c.cell_bits) + " and " + std::to_string(c.dac_bits));
    }
    if (c.polarity != 1 && c.polarity != 2)
        throw ModelError("CrossbarConfig: polarity must be 1 or 2, got " + std::to_string(c.polarity));
    if (c.active_wordlines < 0)
        throw ModelError("CrossbarConfig: active_wordlines must be >= 0, got " +
                         std::to_string(c.active_wordlines));
}

}  // namespace

CrossbarConfig layer_config(const CrossbarConfig& config, const workload::Layer& layer) noexcept {
    CrossbarConfig c = config;
    if (layer.weight_bits > 0) c.weight_bits = layer.weight_bits;
    if (layer.activation_bits > 0) c.activation_bits = layer.activation_bits;
    return c;
}

CrossbarMapping map_to_crossbars(const workload::Layer& layer, const CrossbarConfig& config) {
    check_config(config);
    if (layer.weights() <= 0) {
        throw ModelError("map_to_crossbars: layer '" + layer.name + "' has no weights to store in crossbars");
    }
    CrossbarMapping m;
    m.groups = std::max<std::int64_t>(layer.groups, 1);
    const std::int64_t channels = layer.C / m.groups;  // per group
    const std::int64_t filters = layer.K / m.groups;
    m.rows = channels * layer.R * layer.S;
    m.columns = filters * ceil_div(config.weight_bits, config.cell_bits) * config.polarity;
    m.row_blocks = ceil_div(m.rows, config.size);
    m.column_blocks = ceil_div(m.columns, config.size);
    m.crossbars = m.groups * m.row_blocks * m.column_blocks;
    m.input_cycles = ceil_div(config.activation_bits, config.dac_bits);
    const std::int64_t used_rows = std::min<std::int64_t>(m.rows, config.size);
    const std::int64_t at_once =
        config.active_wordlines > 0 ? std::min<std::int64_t>(used_rows, config.active_wordlines) : used_rows;
    m.subvectors = ceil_div(used_rows, at_once);
    // The largest sum a column can hold: every activated cell at its top level times the
    // top DAC level, plus zero.
    const double levels = static_cast<double>(at_once) * (std::ldexp(1.0, config.cell_bits) - 1) *
                              (std::ldexp(1.0, config.dac_bits) - 1) +
                          1;
    m.adc_bits_needed = static_cast<int>(std::ceil(std::log2(levels)));
    return m;
}

int adc_deficit(const CrossbarMapping& mapping, const CrossbarConfig& config) {
    return std::max(0, mapping.adc_bits_needed - config.adc_bits);
}

}  // namespace pimdse::sim
