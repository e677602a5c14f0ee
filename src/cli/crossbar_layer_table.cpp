// The --layers table of a crossbar design (crossbar_layer_table.hpp).

#include "crossbar_layer_table.hpp"

#include <vector>

#include "pimdse/io/output_file.hpp"
#include "table_cells.hpp"

namespace pimdse::cli {

namespace {

Row layer_row(const CrossbarEvaluation& e, std::size_t k) {
    const sim::CrossbarNetworkCost& n = e.cost;
    const workload::Layer& l = e.network->layer(n.layers[k]);
    const sim::CrossbarLayerCost& c = n.layer_costs[k];
    const sim::CrossbarMapping& m = c.mapping;
    const sim::CrossbarEnergy& en = c.energy;
    const sim::CrossbarConfig own = sim::layer_config(e.config, l);  // the layer's own bits, if any
    const double tile_mm2 = sim::crossbar_tile_area(e.config, *e.tech).total().value();
    const auto d = [](auto v) { return Cell(static_cast<double>(v)); };
    return {{"index", d(n.layers[k])},
            {"layer", l.name},
            {"kind", std::string(workload::to_string(l.kind))},
            {"weight_bits", d(own.weight_bits)},
            {"activation_bits", d(own.activation_bits)},
            {"groups", d(m.groups)},
            {"rows", d(m.rows)},
            {"columns", d(m.columns)},
            {"row_blocks", d(m.row_blocks)},
            {"column_blocks", d(m.column_blocks)},
            {"crossbars", d(m.crossbars)},
            {"tiles", d(c.tiles)},
            {"replicas", d(n.replicas[k])},
            {"positions", d(c.positions)},
            {"input_cycles", d(m.input_cycles)},
            {"subvectors", d(m.subvectors)},
            {"adc_conversions", d(c.adc_conversions)},
            {"dac_conversions", d(c.dac_conversions)},
            {"adc_bits_needed", d(m.adc_bits_needed)},
            {"adc_bits", d(e.config.adc_bits)},
            {"adc_deficit", d(sim::adc_deficit(m, own))},
            {"read_ns", Cell(c.read_ns)},
            {"latency_ns", Cell(c.latency_ns)},
            {"noc_ns", Cell(n.noc.layers[k].ns)},
            {"stage_ns", Cell(n.stage_ns[k])},
            {"energy_pj", Cell(en.total().value())},
            {"energy_crossbar_pj", Cell(en.crossbar.value())},
            {"energy_adc_pj", Cell(en.adc.value())},
            {"energy_dac_pj", Cell(en.dac.value())},
            {"energy_shift_add_pj", Cell(en.shift_add.value())},
            {"energy_buffer_pj", Cell(en.buffer.value())},
            {"energy_noc_pj", Cell(en.noc.value())},
            {"area_mm2", Cell(static_cast<double>(c.tiles * n.replicas[k]) * tile_mm2)}};
}

Row summary_row(const CrossbarEvaluation& e) {
    const sim::CrossbarNetworkCost& n = e.cost;
    const sim::CrossbarEnergy& en = n.energy;
    const sim::CrossbarArea& a = n.area;
    return {{"schedule", std::string(name_of(kCrossbarScheduleNames, e.options.schedule))},
            {"tile_budget", Cell(static_cast<double>(e.options.tile_budget))},
            {"latency_ns", Cell(n.latency_ns)},
            {"latency_seconds", Cell(n.latency_ns * 1e-9)},
            {"tiles", Cell(static_cast<double>(n.tiles))},
            {"energy_pj", Cell(en.total().value())},
            {"energy_crossbar_pj", Cell(en.crossbar.value())},
            {"energy_adc_pj", Cell(en.adc.value())},
            {"energy_dac_pj", Cell(en.dac.value())},
            {"energy_shift_add_pj", Cell(en.shift_add.value())},
            {"energy_buffer_pj", Cell(en.buffer.value())},
            {"energy_noc_pj", Cell(en.noc.value())},
            {"area_mm2", Cell(a.total().value())},
            {"area_crossbars_mm2", Cell(a.crossbars.value())},
            {"area_adcs_mm2", Cell(a.adcs.value())},
            {"area_dacs_mm2", Cell(a.dacs.value())},
            {"area_shift_add_mm2", Cell(a.shift_add.value())},
            {"area_buffers_mm2", Cell(a.buffers.value())},
            {"area_routers_mm2", Cell(a.routers.value())},
            {"mesh_rows", Cell(static_cast<double>(n.noc.mesh.rows))},
            {"mesh_cols", Cell(static_cast<double>(n.noc.mesh.cols))},
            {"status", e.status()},
            {"reason", e.reason()}};
}

}  // namespace

std::string crossbar_layers_csv(const CrossbarEvaluation& e) {
    std::vector<Row> rows;
    for (std::size_t k = 0; k < e.cost.layers.size(); ++k) rows.push_back(layer_row(e, k));
    return csv_table(rows);
}

std::string crossbar_layers_json(const CrossbarEvaluation& e) {
    const sim::CrossbarConfig& c = e.config;
    const Row design{{"crossbar_size", Cell(static_cast<double>(c.size))},
                     {"adc_bits", Cell(static_cast<double>(c.adc_bits))},
                     {"dac_bits", Cell(static_cast<double>(c.dac_bits))},
                     {"cell_bits", Cell(static_cast<double>(c.cell_bits))},
                     {"weight_bits", Cell(static_cast<double>(c.weight_bits))},
                     {"activation_bits", Cell(static_cast<double>(c.activation_bits))},
                     {"polarity", Cell(static_cast<double>(c.polarity))},
                     {"active_wordlines", Cell(static_cast<double>(c.active_wordlines))},
                     {"technology", e.tech->name}};
    std::string out = "{\"network\": " + json_string(e.network->name());
    out += ", \"batch\": " + number_text(static_cast<double>(e.network->batch()));
    out += ",\n \"design\": " + json_object(design);
    out += ",\n \"summary\": " + json_object(summary_row(e));
    out += ",\n \"layers\": [";
    for (std::size_t k = 0; k < e.cost.layers.size(); ++k) {
        out += k == 0 ? "\n  " : ",\n  ";
        out += json_object(layer_row(e, k));
    }
    return out + "\n ]}\n";
}

void write_crossbar_layer_table(const std::filesystem::path& path, const CrossbarEvaluation& e,
                                std::span<const std::filesystem::path> inputs) {
    const bool json = path.extension() == ".json";
    io::write_output_file(path, json ? crossbar_layers_json(e) : crossbar_layers_csv(e), inputs);
}

}  // namespace pimdse::cli
