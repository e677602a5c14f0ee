// Layers and networks on ReRAM crossbars (include/pimdse/sim/crossbar_cost.hpp).

#include "pimdse/sim/crossbar_cost.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

namespace {

constexpr double kUm2PerMm2 = 1e6;

/// Words of `bits` bits moved through a buffer of `word_bits`-bit accesses.
std::int64_t words(std::int64_t bits, int word_bits) {
    return ceil_div(bits, word_bits);
}

// The PEs across one row block: each holds `crossbars_per_pe` crossbars side by side and
// reads its inputs from its own input buffer (MNSIM PE.py: one buffer per PE).
std::int64_t pes_across(const CrossbarMapping& m, const CrossbarTechnology& tech) {
    return ceil_div(m.column_blocks, tech.crossbars_per_pe);
}

Picojoules buffer_energy(const workload::Layer& layer, const CrossbarMapping& m, std::int64_t positions,
                         const CrossbarConfig& config, const CrossbarTechnology& tech) {
    const SramBufferSpec& in = tech.pe_input_buffer;
    const SramBufferSpec& out = tech.tile_output_buffer;
    const std::int64_t a = config.activation_bits;
    const std::int64_t pes = pes_across(m, tech);
    // Every PE across the row block holds the input in its own buffer: written once, and
    // each position reads its window once; the output is written once and read once on its
    // way to the consumer.
    const std::int64_t in_written = pes * words(layer.input_elements() * a, in.word_bits);
    const std::int64_t in_read = pes * words(positions * m.groups * m.rows * a, in.word_bits);
    const std::int64_t out_moved = words(layer.output_elements() * a, out.word_bits);
    return in.access_energy(true) * static_cast<double>(in_written) +
           in.access_energy(false) * static_cast<double>(in_read) +
           out.access_energy(true) * static_cast<double>(out_moved) +
           out.access_energy(false) * static_cast<double>(out_moved);
}

CrossbarArea scaled(const CrossbarArea& a, double k) {
    return {a.crossbars * k, a.adcs * k, a.dacs * k, a.shift_add * k, a.buffers * k, a.routers * k};
}

/// Places the layers (replicas included) on the mesh, charges each its NoC energy and lets
/// its NoC time bound its stage.
void add_noc(const workload::Network& network, const CrossbarConfig& config, const CrossbarTechnology& tech,
             CrossbarNetworkCost& n) {
    std::vector<std::int64_t> row_blocks;
    std::vector<std::int64_t> tiles;
    for (std::size_t k = 0; k < n.layers.size(); ++k) {
        row_blocks.push_back(n.layer_costs[k].mapping.row_blocks);
        tiles.push_back(n.layer_costs[k].tiles * n.replicas[k]);
    }
    n.noc = cost_crossbar_noc(network, {n.layers, row_blocks, tiles}, config.activation_bits, tech);
    for (std::size_t k = 0; k < n.layers.size(); ++k) {
        n.layer_costs[k].energy.noc = n.noc.layers[k].energy;
        n.stage_ns[k] = std::max(n.stage_ns[k], n.noc.layers[k].ns);
    }
    n.energy.noc = n.noc.energy;
}

/// The stage's time until its consumers can start: the output rows their windows need.
double fill_ns(const workload::Network& network, workload::LayerIndex i, double stage_ns) {
    const workload::Layer& layer = network.layer(i);
    std::int64_t window = 1;
    for (const workload::LayerIndex c : network.consumers(i)) window = std::max(window, network.layer(c).R);
    const double share =
        std::min(1.0, static_cast<double>(window) / static_cast<double>(std::max<std::int64_t>(layer.P, 1)));
    return stage_ns * share;
}

/// Pipelined: while the slowest stage's layer fits the budget once more, copy it.
void replicate_slowest(CrossbarNetworkCost& n, std::int64_t budget) {
    while (true) {
        const auto slowest = static_cast<std::size_t>(std::max_element(n.stage_ns.begin(), n.stage_ns.end()) -
                                                      n.stage_ns.begin());
        const CrossbarLayerCost& c = n.layer_costs[slowest];
        if (n.tiles + c.tiles > budget || n.replicas[slowest] >= c.positions) return;
        ++n.replicas[slowest];
        n.tiles += c.tiles;
        n.stage_ns[slowest] = static_cast<double>(ceil_div(c.positions, n.replicas[slowest])) * c.position_ns;
    }
}

}  // namespace

CrossbarEnergy& CrossbarEnergy::operator+=(const CrossbarEnergy& o) {
    crossbar += o.crossbar;
    adc += o.adc;
    dac += o.dac;
    shift_add += o.shift_add;
    buffer += o.buffer;
    noc += o.noc;
    return *this;
}

CrossbarLayerCost cost_layer_on_crossbars(const workload::Layer& layer, const CrossbarConfig& design,
                                          const CrossbarTechnology& tech) {
    const CrossbarConfig config = layer_config(design, layer);  // the layer's own bits, if any
    check_technology(tech);
    CrossbarLayerCost c;
    c.mapping = map_to_crossbars(layer, config);
    const CrossbarMapping& m = c.mapping;
    const ConverterSpec adc = adc_spec(tech, config.adc_bits);
    const ConverterSpec dac = dac_spec(tech, config.dac_bits);
    c.positions = layer.P * layer.Q * layer.B;

    // One read: the active rows' DAC steps, the crossbar, then the conversions of the used
    // columns of the fullest crossbar, `adc_shared_columns` per ADC one after another. The
    // `polarity` crossbars of a group share X / columns_per_adc ADCs and convert `used_columns`
    // subtracted outputs between them, so the count per ADC is as for one crossbar.
    const std::int64_t used_columns = std::min<std::int64_t>(m.columns, config.size);
    const std::int64_t used_rows = std::min<std::int64_t>(m.rows, config.size);
    const std::int64_t active_rows = ceil_div(used_rows, m.subvectors);
    const std::int64_t adcs = ceil_div(config.size, tech.columns_per_adc);
    const std::int64_t dacs = ceil_div(config.size, tech.rows_per_dac);
    c.adc_shared_columns = static_cast<int>(ceil_div(used_columns, adcs));
    const auto dac_steps = static_cast<double>(ceil_div(active_rows, dacs));
    c.read_ns = dac_steps * dac.latency_ns() + tech.read_latency_ns + c.adc_shared_columns * adc.latency_ns();
    c.position_ns = static_cast<double>(m.input_cycles * m.subvectors) * c.read_ns;
    c.latency_ns = static_cast<double>(c.positions) * c.position_ns;

    // The `polarity` crossbars (columns) of a weight share one set of converters: their
    // currents are subtracted before the ADC, which converts each output column once, and
    // one DAC drives a row of all of them (MNSIM's Sub_Position 0, PE.py).
    const std::int64_t steps = c.positions * m.input_cycles;
    c.adc_conversions = steps * m.subvectors * m.groups * m.row_blocks * (m.columns / config.polarity);
    c.dac_conversions = steps * m.groups * m.rows * ceil_div(m.column_blocks, config.polarity);
    const std::int64_t cells = m.groups * m.rows * m.columns;  // each read once per input cycle

    c.energy.crossbar = tech.cell_read_energy() * static_cast<double>(steps * cells);
    c.energy.adc = adc.energy() * static_cast<double>(c.adc_conversions);
    c.energy.dac = dac.energy() * static_cast<double>(c.dac_conversions);
    c.energy.shift_add = tech.shift_add_energy() * static_cast<double>(c.adc_conversions);
    c.energy.buffer = buffer_energy(layer, m, c.positions, config, tech);
    c.tiles = ceil_div(m.crossbars, tech.crossbars_per_tile());
    return c;
}

CrossbarArea crossbar_tile_area(const CrossbarConfig& config, const CrossbarTechnology& tech) {
    check_technology(tech);
    if (config.size < 1)
        throw ModelError("crossbar_tile_area: size must be >= 1, got " + std::to_string(config.size));
    const ConverterSpec adc = adc_spec(tech, config.adc_bits);
    const ConverterSpec dac = dac_spec(tech, config.dac_bits);
    const auto xbars = static_cast<double>(tech.crossbars_per_tile());
    // One set of converters per polarity group of crossbars (PE.py: ADC_Num and DAC_Num per group).
    const double polarity_groups = xbars / config.polarity;
    const double adcs = polarity_groups * static_cast<double>(ceil_div(config.size, tech.columns_per_adc));
    const double dacs = polarity_groups * static_cast<double>(ceil_div(config.size, tech.rows_per_dac));
    const double cells = xbars * config.size * config.size;
    CrossbarArea a;
    a.crossbars = SquareMillimetres(cells * tech.cell_area_um2 / kUm2PerMm2);
    a.adcs = SquareMillimetres(adcs * adc.area_um2 / kUm2PerMm2);
    a.dacs = SquareMillimetres(dacs * dac.area_um2 / kUm2PerMm2);
    a.shift_add = SquareMillimetres(adcs * (tech.shift_register_area_um2 + tech.adder_area_um2) / kUm2PerMm2);
    a.buffers = SquareMillimetres(tech.pes_per_tile * tech.pe_input_buffer.area_mm2 +
                                  tech.tile_output_buffer.area_mm2);
    a.routers = SquareMillimetres(tech.router_area_mm2);
    return a;
}

CrossbarNetworkCost cost_network_on_crossbars(const workload::Network& network, const CrossbarConfig& config,
                                              const CrossbarTechnology& tech,
                                              const CrossbarNetworkOptions& options) {
    CrossbarNetworkCost n;
    for (workload::LayerIndex i = 0; i < network.size(); ++i) {
        if (!network.layer(i).has_weights()) continue;
        n.layers.push_back(i);
        n.layer_costs.push_back(cost_layer_on_crossbars(network.layer(i), config, tech));
        const CrossbarLayerCost& c = n.layer_costs.back();
        n.replicas.push_back(1);
        n.stage_ns.push_back(c.latency_ns);
        n.tiles += c.tiles;
        n.energy += c.energy;
    }
    if (n.layers.empty()) {
        throw ModelError("cost_network_on_crossbars: network '" + network.name() +
                         "' has no layer with weights to place on crossbars");
    }
    const bool pipelined = options.schedule == CrossbarSchedule::pipelined;
    if (pipelined && options.tile_budget > 0) replicate_slowest(n, options.tile_budget);
    n.area = scaled(crossbar_tile_area(config, tech), static_cast<double>(n.tiles));
    add_noc(network, config, tech, n);

    if (!pipelined) {
        for (const double s : n.stage_ns) n.latency_ns += s;
        return n;
    }
    const auto slowest =
        static_cast<std::size_t>(std::max_element(n.stage_ns.begin(), n.stage_ns.end()) - n.stage_ns.begin());
    n.latency_ns = n.stage_ns[slowest];
    for (std::size_t k = 0; k < n.layers.size(); ++k) {
        if (k != slowest) n.latency_ns += fill_ns(network, n.layers[k], n.stage_ns[k]);
    }
    return n;
}

int worst_adc_deficit(const CrossbarNetworkCost& cost, const CrossbarConfig& config) {
    int worst = 0;
    for (const CrossbarLayerCost& l : cost.layer_costs)
        worst = std::max(worst, adc_deficit(l.mapping, config));
    return worst;
}

}  // namespace pimdse::sim
