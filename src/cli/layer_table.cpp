#include "layer_table.hpp"

#include <cstdio>
#include <utility>
#include <variant>
#include <vector>

#include "pimdse/io/output_file.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "report.hpp"

namespace pimdse::cli {

namespace {

// One cell: a number or a text.
using Cell = std::variant<double, std::string>;
using Row = std::vector<std::pair<const char*, Cell>>;

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

Row layer_row(const workload::Network& network, const workload::Segmentation& seg,
              const sim::NetworkMapping& mapping, const sim::NetworkCost& cost, workload::LayerIndex i) {
    const workload::Layer& l = network.layer(i);
    const sim::LayerMapping& m = mapping.layers[static_cast<std::size_t>(i)];
    const sim::LayerCost& c = cost.layers[static_cast<std::size_t>(i)];
    const sim::Region& r = sim::layer_region(seg, mapping, i);
    const auto d = [](auto v) { return Cell(static_cast<double>(v)); };
    const auto pj = [](Picojoules e) { return Cell(e.value()); };
    return {{"index", d(i)},
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
            {"energy_dram_access_pj", pj(c.energy.dram_access)},
            {"energy_dram_activation_pj", pj(c.energy.dram_activation)},
            {"energy_noc_pj", pj(c.energy.noc)},
            {"pe_utilisation", Cell(c.pe_utilisation)},
            {"status", std::string(sim::to_string(c.status))},
            {"reason", c.reason}};
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csv_field(const Cell& cell) {
    if (const double* v = std::get_if<double>(&cell)) return number(*v);
    const std::string& s = std::get<std::string>(cell);
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (const char ch : s) {
        if (ch == '"') out += '"';
        out += ch;
    }
    return out + '"';
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (u < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", u);
            out += buffer;
        } else {
            out += ch;
        }
    }
    return out + '"';
}

std::string json_value(const Cell& cell) {
    if (const double* v = std::get_if<double>(&cell)) return number(*v);
    return json_string(std::get<std::string>(cell));
}

std::string json_object(const Row& row) {
    std::string out = "{";
    for (std::size_t k = 0; k < row.size(); ++k) {
        if (k > 0) out += ", ";
        out += json_string(row[k].first);
        out += ": ";
        out += json_value(row[k].second);
    }
    return out + '}';
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
                       const sim::NetworkMapping& mapping, const sim::NetworkCost& cost) {
    std::string out;
    for (workload::LayerIndex i = 0; i < network.size(); ++i) {
        const Row row = layer_row(network, seg, mapping, cost, i);
        if (i == 0) {
            for (std::size_t k = 0; k < row.size(); ++k) {
                if (k > 0) out += ',';
                out += row[k].first;
            }
            out += '\n';
        }
        for (std::size_t k = 0; k < row.size(); ++k) {
            if (k > 0) out += ',';
            out += csv_field(row[k].second);
        }
        out += '\n';
    }
    return out;
}

std::string layers_json(const workload::Network& network, const workload::Segmentation& seg,
                        const sim::NetworkMapping& mapping, const sim::NetworkCost& cost,
                        const LayerTableContext& context) {
    std::string out = "{\"network\": " + json_string(network.name());
    out += ", \"batch\": " + number(static_cast<double>(network.batch()));
    out += ", \"hardware\": " + json_string(context.hardware);
    out += ", \"mapping\": " + json_string(context.mapping);
    out += ",\n \"summary\": " + json_object(summary_row(cost));
    out += ",\n \"layers\": [";
    for (workload::LayerIndex i = 0; i < network.size(); ++i) {
        out += i == 0 ? "\n  " : ",\n  ";
        out += json_object(layer_row(network, seg, mapping, cost, i));
    }
    return out + "\n ]}\n";
}

void write_layer_table(const std::filesystem::path& path, const workload::Network& network,
                       const workload::Segmentation& seg, const sim::NetworkMapping& mapping,
                       const sim::NetworkCost& cost, const LayerTableContext& context,
                       std::span<const std::filesystem::path> inputs) {
    const bool json = path.extension() == ".json";
    io::write_output_file(
        path,
        json ? layers_json(network, seg, mapping, cost, context) : layers_csv(network, seg, mapping, cost),
        inputs);
}

}  // namespace pimdse::cli
