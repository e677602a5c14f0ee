#include "layer_table.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "pimdse/io/output_file.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "report.hpp"
#include "table_cells.hpp"

namespace pimdse::cli {

namespace {

// What the layer moves, summed over its region's nodes (sim::LayerCounts).
void add_count_cells(Row& row, const sim::LayerCounts& c) {
    const auto d = [](std::int64_t v) { return Cell(static_cast<double>(v)); };
    row.insert(row.end(), {{"dram_reads", d(c.dram_read_accesses)},
                           {"dram_writes", d(c.dram_write_accesses)},
                           {"dram_activations", d(c.dram_activations)},
                           {"ibuf_reads", d(c.ibuf.reads)},
                           {"ibuf_writes", d(c.ibuf.writes)},
                           {"wbuf_reads", d(c.wbuf.reads)},
                           {"wbuf_writes", d(c.wbuf.writes)},
                           {"obuf_reads", d(c.obuf.reads)},
                           {"obuf_writes", d(c.obuf.writes)},
                           {"register_bits", d(c.register_bits)},
                           {"redistribution_flit_hops", d(c.redistribution_flit_hops)},
                           {"sharing_flit_hops", d(c.sharing_flit_hops)}});
}

// The slowest node's tiling (sim::PartTiling): "none" and 0 for a layer computed as a stream.
void add_tiling_cells(Row& row, const sim::PartTiling& p) {
    const auto d = [&](sim::LoopDim dim) { return Cell(p.tiled ? static_cast<double>(p.tiling[dim]) : 0.0); };
    const auto name = [&](std::string_view s) {
        return Cell(p.tiled ? std::string(s) : std::string("none"));
    };
    row.insert(row.end(), {{"tile_nodes", Cell(static_cast<double>(p.nodes))},
                           {"tile_b", d(sim::LoopDim::B)},
                           {"tile_k", d(sim::LoopDim::K)},
                           {"tile_c", d(sim::LoopDim::C)},
                           {"tile_p", d(sim::LoopDim::P)},
                           {"tile_q", d(sim::LoopDim::Q)},
                           {"tile_r", d(sim::LoopDim::R)},
                           {"tile_s", d(sim::LoopDim::S)},
                           {"unroll_row", name(sim::to_string(p.tiling.unroll.row))},
                           {"unroll_col", name(sim::to_string(p.tiling.unroll.col))},
                           {"loop_order", name(sim::to_string(p.tiling.order))},
                           {"dataflow", name(sim::to_string(p.dataflow))}});
}

Row layer_row(const workload::Network& network, const workload::Segmentation& seg,
              const sim::NetworkMapping& mapping, const sim::NetworkCost& cost, workload::LayerIndex i,
              bool timing) {
    const workload::Layer& l = network.layer(i);
    const sim::LayerMapping& m = mapping.layers[static_cast<std::size_t>(i)];
    const sim::LayerCost& c = cost.layers[static_cast<std::size_t>(i)];
    const sim::Region& r = sim::layer_region(seg, mapping, i);
    const auto d = [](auto v) { return Cell(static_cast<double>(v)); };
    const auto pj = [](Picojoules e) { return Cell(e.value()); };
    Row row{{"index", d(i)},
            {"layer", l.name},
            {"kind", std::string(workload::to_string(l.kind))},
            {"region_row", d(r.row)},
            {"region_col", d(r.col)},
            {"region_rows", d(r.rows)},
            {"region_cols", d(r.cols)},
            {"partitions", partitions_text(m)},
            {"wr", d(m.wr)},
            {"dl_in", sim::to_string(m.dl_in)},
            {"dl_out", sim::to_string(m.dl_out)},
            {"latency_cycles", Cell(c.latency.value())},
            {"redistribution_cycles", Cell(c.redistribution.value())},
            {"sharing_cycles", Cell(c.sharing.value())},
            {"compute_cycles", Cell(c.compute.value())},
            {"energy_pj", pj(c.energy.total())},
            {"energy_pe_pj", pj(c.energy.pe)},
            {"energy_register_pj", pj(c.energy.registers)},
            {"energy_sram_pj", pj(c.energy.sram)},
            {"energy_sram_ibuf_pj", pj(c.counts.ibuf_energy)},
            {"energy_sram_wbuf_pj", pj(c.counts.wbuf_energy)},
            {"energy_sram_obuf_pj", pj(c.counts.obuf_energy)},
            {"energy_dram_access_pj", pj(c.energy.dram_access)},
            {"energy_dram_activation_pj", pj(c.energy.dram_activation)},
            {"energy_noc_pj", pj(c.energy.noc)},
            {"pe_utilisation", Cell(c.pe_utilisation)},
            {"status", std::string(sim::to_string(c.status))},
            {"reason", c.reason}};
    if (timing) {
        const auto at = std::find_if(row.begin(), row.end(), [](const auto& cell) {
            return std::string_view(cell.first) == "latency_cycles";
        });
        row.insert(at + 1, {{"start_cycles", Cell(c.start.value())},
                            {"finish_cycles", Cell((c.start + c.latency).value())}});
    }
    add_count_cells(row, c.counts);
    add_tiling_cells(row, c.part);
    return row;
}

Row summary_row(const sim::NetworkCost& cost) {
    const sim::EnergyBreakdown& e = cost.energy;
    return {{"latency_cycles", Cell(cost.latency.value())},
            {"latency_seconds", Cell(cost.seconds)},
            {"segments", Cell(static_cast<double>(cost.segments.size()))},
            {"energy_pj", Cell(e.total().value())},
            {"energy_pe_pj", Cell(e.pe.value())},
            {"energy_register_pj", Cell(e.registers.value())},
            {"energy_sram_pj", Cell(e.sram.value())},
            {"energy_dram_access_pj", Cell(e.dram_access.value())},
            {"energy_dram_activation_pj", Cell(e.dram_activation.value())},
            {"energy_dram_background_pj", Cell(e.dram_background.value())},
            {"energy_noc_pj", Cell(e.noc.value())},
            {"pe_utilisation", Cell(cost.pe_utilisation)},
            {"status", std::string(sim::to_string(cost.status))},
            {"reason", cost.reason}};
}

}  // namespace

std::string layers_csv(const workload::Network& network, const workload::Segmentation& seg,
                       const sim::NetworkMapping& mapping, const sim::NetworkCost& cost, bool timing) {
    std::vector<Row> rows;
    for (workload::LayerIndex i = 0; i < network.size(); ++i)
        rows.push_back(layer_row(network, seg, mapping, cost, i, timing));
    return csv_table(rows);
}

std::string layers_json(const workload::Network& network, const workload::Segmentation& seg,
                        const sim::NetworkMapping& mapping, const sim::NetworkCost& cost,
                        const LayerTableContext& context) {
    std::string out = "{\"network\": " + json_string(network.name());
    out += ", \"batch\": " + number_text(static_cast<double>(network.batch()));
    out += ", \"hardware\": " + json_string(context.hardware);
    out += ", \"mapping\": " + json_string(context.mapping);
    out += ",\n \"summary\": " + json_object(summary_row(cost));
    out += ",\n \"layers\": [";
    for (workload::LayerIndex i = 0; i < network.size(); ++i) {
        out += i == 0 ? "\n  " : ",\n  ";
        out += json_object(layer_row(network, seg, mapping, cost, i, context.timing));
    }
    return out + "\n ]}\n";
}

void write_layer_table(const std::filesystem::path& path, const workload::Network& network,
                       const workload::Segmentation& seg, const sim::NetworkMapping& mapping,
                       const sim::NetworkCost& cost, const LayerTableContext& context,
                       std::span<const std::filesystem::path> inputs) {
    const bool json = path.extension() == ".json";
    io::write_output_file(path,
                          json ? layers_json(network, seg, mapping, cost, context)
                               : layers_csv(network, seg, mapping, cost, context.timing),
                          inputs);
}

}  // namespace pimdse::cli
