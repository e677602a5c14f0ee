// The resolved configuration as YAML text (`pimdse config check`, the /config group of the
// output file). Written by hand rather than through YAML::Emitter to control number
// formatting (shortest round-trip form, so 1.1 stays 1.1) and to keep one line per key.

#include <sstream>

#include "config_sections.hpp"
#include "pimdse/io/config.hpp"

namespace pimdse::io {

namespace {

std::string num(double v) {
    return detail::number_text(v);
}

// A YAML double-quoted scalar: paths may hold ':', '#', spaces or quotes.
std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (u < 0x20) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

std::string bounds(const hw::Bounds& b) {
    return "{min: " + std::to_string(b.min) + ", max: " + std::to_string(b.max) + "}";
}

std::string range(const ParamRange& r) {
    switch (r.spacing()) {
        case Spacing::linear:
            return "{min: " + std::to_string(r.min()) + ", max: " + std::to_string(r.max()) +
                   ", spacing: linear, step: " + std::to_string(r.step()) + "}";
        case Spacing::log2:
            return "{min: " + std::to_string(r.min()) + ", max: " + std::to_string(r.max()) +
                   ", spacing: log2}";
        case Spacing::list:
            break;
    }
    std::string out = "{values: [";
    for (std::size_t i = 0; i < r.size(); ++i) out += (i ? ", " : "") + std::to_string(r.value_at(i));
    return out + "]}";
}

void write_constraints(std::ostream& out, const hw::Constraints& c) {
    out << "constraints:  # NicePIM Table II and VIII-B unless overridden\n"
        << "  technology_nm: " << c.technology_nm << '\n'
        << "  bank_array: [" << c.bank_rows << ", " << c.bank_cols << "]\n"
        << "  bank_width_bits: " << c.bank_width_bits << '\n'
        << "  bank_capacity_mib: " << c.bank_capacity.value() / kMiB << '\n'
        << "  area_budget_mm2: " << num(c.area_budget.value()) << '\n'
        << "  clock_mhz: " << num(c.clock_mhz) << '\n'
        << "  data_width_bits: " << c.data_width_bits << '\n'
        << "  psum_width_bits: " << c.psum_width_bits << '\n'
        << "  node_rows: " << bounds(c.node_rows) << '\n'
        << "  node_cols: " << bounds(c.node_cols) << '\n'
        << "  pe_rows: " << bounds(c.pe_rows) << '\n'
        << "  pe_cols: " << bounds(c.pe_cols) << '\n'
        << "  buffer_kib: " << bounds(c.buffer_kib) << '\n'
        << "  dram_energy_pj_per_bit: " << num(c.dram_energy_per_bit.value()) << '\n'
        << "  noc_energy_pj_per_bit_hop: " << num(c.noc_energy_per_bit_hop.value()) << '\n'
        << "  noc_virtual_channels: " << c.noc_virtual_channels << '\n';
}

void write_technology(std::ostream& out, const hw::Technology& t) {
    out << "technology:  # 28 nm defaults with their sources: include/pimdse/hw/technology.hpp\n"
        << "  pe_area_um2: " << num(t.pe_area_um2) << '\n'
        << "  sram_area_mm2_per_kib: " << num(t.sram_area_per_kib.value()) << '\n'
        << "  sram_area_mm2_per_buffer: " << num(t.sram_area_per_buffer.value()) << '\n'
        << "  router_area_mm2_base: " << num(t.router_area_base.value()) << '\n'
        << "  router_buffer_area_um2_per_bit: " << num(t.router_buffer_area_um2_per_bit) << '\n'
        << "  router_buffer_depth_flits: " << t.router_buffer_depth_flits << '\n'
        << "  dram_controller_area_mm2_per_bank: " << num(t.dram_controller_area_per_bank.value()) << '\n'
        << "  mac_energy_pj: " << num(t.mac_energy.value()) << '\n'
        << "  register_energy_pj_per_bit: " << num(t.register_energy_per_bit.value()) << '\n'
        << "  sram_read_energy_pj_per_bit_1kib: " << num(t.sram_read_energy_per_bit_1kib.value()) << '\n'
        << "  sram_write_energy_pj_per_bit_1kib: " << num(t.sram_write_energy_per_bit_1kib.value()) << '\n'
        << "  dram_activation_energy_pj: " << num(t.dram_activation_energy.value()) << '\n'
        << "  dram_trcd_ns: " << num(t.dram_trcd_ns) << '\n'
        << "  dram_trp_ns: " << num(t.dram_trp_ns) << '\n'
        << "  dram_tras_ns: " << num(t.dram_tras_ns) << '\n'
        << "  dram_tccd_ns: " << num(t.dram_tccd_ns) << '\n'
        << "  dram_trtp_ns: " << num(t.dram_trtp_ns) << '\n'
        << "  dram_write_to_precharge_ns: " << num(t.dram_write_to_precharge_ns) << '\n'
        << "  dram_write_to_read_ns: " << num(t.dram_write_to_read_ns) << '\n'
        << "  dram_read_to_write_ns: " << num(t.dram_read_to_write_ns) << '\n'
        << "  dram_trfc_ns: " << num(t.dram_trfc_ns) << '\n'
        << "  dram_trefi_ns: " << num(t.dram_trefi_ns) << '\n'
        << "  dram_background_mw_per_bank: " << num(t.dram_background_mw_per_bank) << '\n'
        << "  dram_refresh_mw_per_bank: " << num(t.dram_refresh_mw_per_bank) << '\n'
        << "  dram_row_buffer_bytes: " << t.dram_row_buffer.value() << '\n'
        << "  noc_hop_cycles: " << t.noc_hop_cycles << '\n';
}

void write_model(std::ostream& out, const pimdse::ModelOptions& o) {
    out << "model:\n"
        << "  intra_node: " << pimdse::to_string(o.intra_node) << "  # the node model of a part-layer\n";
    // Written when it is used or set, so a file written before the key existed still matches.
    if (o.intra_node == pimdse::IntraNodeModel::exact || o.exact != pimdse::ExactNodeOptions{}) {
        out << "  exact:  # the exact node model's objective and work limit\n"
            << "    objective: " << pimdse::to_string(o.exact.objective) << '\n'
            << "    work_limit: " << o.exact.work_limit
            << "  # tilings costed (enumerate) or MIP solves (mip) per part-layer (deterministic)\n";
        // Written when set, so a file written before the key existed still matches.
        if (o.exact.solver != pimdse::ExactSolver::enumerate)
            out << "    solver: " << pimdse::to_string(o.exact.solver) << "  # how the optimum is found\n";
    }
    out << "  overlap: " << (o.overlap ? "true" : "false")
        << "  # OverlaPIM: layers start on their inputs' finished tiles\n";
    // Written when set, so a file written before the key existed still matches.
    if (o.overlap_transform)
        out << "  overlap_transform: true  # OverlaPIM III-D: steps by input ready time\n";
}

void write_schedule(std::ostream& out, const pimdse::ScheduleOptions& o) {
    out << "schedule:  # NicePIM VII: how data-sharing events are scheduled\n"
        << "  scheduler: " << pimdse::to_string(o.scheduler) << '\n'
        << "  work_limit: " << o.work_limit << "  # simplex iterations per event (ilp; deterministic)\n"
        << "  time_limit: " << num(o.time_limit_seconds) << "  # seconds per event (ilp; safety net)\n"
        << "  relative_gap: " << num(o.relative_gap) << "  # ilp: stop at this gap; 0 proves optimality\n";
}

void write_engine(std::ostream& out, const EngineConfig& e) {
    out << "engine:\n";
    if (e.work_limit) {
        out << "  work_limit: " << *e.work_limit << "  # mapper steps per candidate (deterministic)\n";
    } else {
        out << "  # work_limit: none (no work limit per candidate)\n";
    }
    if (e.time_limit) {
        out << "  time_limit: " << e.time_limit->count() << "  # seconds per candidate (safety net)\n";
    } else {
        out << "  # time_limit: none (no limit per candidate)\n";
    }
    out << "  objectives: [";
    for (std::size_t i = 0; i < e.objectives.size(); ++i)
        out << (i ? ", " : "") << to_string(e.objectives[i]);
    out << "]\n";
    if (e.reference.empty()) {
        out << "  # reference: automatic (1.1 x the worst objectives of the first batch with an ok "
               "candidate)\n";
    } else {
        out << "  reference: [";
        for (std::size_t i = 0; i < e.reference.size(); ++i) out << (i ? ", " : "") << num(e.reference[i]);
        out << "]\n";
    }
    if (!e.fault_throw.empty() || !e.fault_stall.empty()) {
        const auto ids = [&](const std::vector<std::int64_t>& v) {
            out << '[';
            for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
            out << ']';
        };
        out << "  fault_injection: {throw: ";
        ids(e.fault_throw);
        out << ", stall: ";
        ids(e.fault_stall);
        out << "}  # testing only\n";
    }
}

// `crossbar:` (docs/config.md), every key.
void write_crossbar(std::ostream& out, const CrossbarOptions& o) {
    out << "crossbar:\n"
        << "  technology: " << quoted(o.technology) << '\n'
        << "  schedule: " << name_of(kCrossbarScheduleNames, o.schedule) << '\n'
        << "  tile_budget: " << o.tile_budget << "  # tiles; 0: none\n"
        << "  polarity: " << o.polarity << '\n'
        << "  active_wordlines: " << o.active_wordlines << "  # 0: the whole crossbar\n";
    if (o.area_budget_mm2) {
        out << "  area_budget_mm2: " << num(*o.area_budget_mm2) << '\n';
    } else {
        out << "  # area_budget_mm2: none\n";
    }
    if (!o.accuracy_table.empty()) {
        out << "  accuracy_table: " << quoted(o.accuracy_table.string()) << '\n';
    } else {
        out << "  # accuracy_table: none\n";
    }
}

// `hetero3d:` (docs/config.md), every key.
void write_hetero3d(std::ostream& out, const Hetero3dOptions& o) {
    out << "hetero3d:\n"
        << "  tiers: " << o.tiers << '\n'
        << "  pes_per_tier: " << o.pes_per_tier << '\n'
        << "  tiles_per_pe: " << o.tiles_per_pe << '\n'
        << "  tile_area_mm2: " << num(o.tile_area_mm2) << '\n'
        << "  adc_reading: " << quoted(o.adc_reading) << '\n'
        << "  gradients: " << quoted(o.gradients) << '\n'
        << "  tier_mapping: " << name_of(kTierMappingNames, o.tier_mapping) << '\n'
        << "  amosa_iterations: " << o.amosa_iterations << "  # read with tier_mapping: amosa\n"
        << "  amosa_seed: " << o.amosa_seed << '\n';
}

}  // namespace

std::string to_yaml(const Config& c) {
    std::ostringstream out;
    out << "# pimdse sweep configuration, resolved: every default filled in, paths absolute\n";
    if (c.family != "dram_pim") out << "family: " << quoted(c.family) << '\n';
    write_constraints(out, c.constraints);
    write_technology(out, c.technology);
    if (c.space.dimensions() == 0) out << "space: {}  # the family's defaults\n";
    if (c.space.dimensions() > 0) out << "space:\n";
    for (const ParamAxis& a : c.space.axes()) out << "  " << a.name << ": " << range(a.range) << '\n';
    out << "workloads:\n";
    for (const Workload& w : c.workloads) {
        out << "  - network: " << quoted(w.network.string()) << '\n'
            << "    weight: " << num(w.weight) << '\n';
        if (w.batch) {
            out << "    batch: " << *w.batch << '\n';
        } else {
            out << "    # batch: the network file's own\n";
        }
    }
    out << "cost:  # NicePIM Eq. 1: sum of Energy^alpha * Latency^beta * weight\n"
        << "  alpha: " << num(c.cost.alpha) << '\n'
        << "  beta: " << num(c.cost.beta) << '\n';
    write_model(out, c.model);
    write_schedule(out, c.schedule);
    if (c.family == "crossbar") write_crossbar(out, c.crossbar);
    if (c.family == "hetero3d") write_hetero3d(out, c.hetero3d);
    out << "sweep:\n"
        << "  seed: " << c.sweep.seed << '\n'
        << "  batch_size: " << c.sweep.batch_size << '\n'
        << "  budget: " << c.sweep.budget << '\n';
    if (c.sweep.wall_time) {
        out << "  wall_time: " << c.sweep.wall_time->count() << "  # seconds\n";
    } else {
        out << "  # wall_time: none (no limit)\n";
    }
    out << "  proposer: " << to_string(c.sweep.proposer) << '\n'
        << "  samples_per_round: " << c.sweep.samples_per_round << '\n'
        << "  lag: " << c.sweep.lag << '\n'
        << "  evaluator: " << to_string(c.sweep.evaluator) << '\n';
    if (c.sweep.evaluator == Evaluator::synthetic)
        out << "  synthetic_median_seconds: " << num(c.sweep.synthetic_median_seconds) << '\n';
    if (const std::string options = detail::proposer_options_yaml(c.sweep.proposer_options, "    ");
        !options.empty())
        out << "  proposer_options:  # those that differ from the defaults\n" << options;
    out << "output:\n"
        << "  path: " << quoted(c.output.path.string()) << '\n'
        << "  compression: " << c.output.compression << '\n'
        << "  mappings: " << to_string(c.output.mappings) << '\n'
        << "  best: " << c.output.best << '\n';
    write_engine(out, c.engine);
    return out.str();
}

std::string to_yaml(const HardwareFile& h) {
    std::ostringstream out;
    out << "# pimdse hardware point, resolved: every default filled in\n";
    write_constraints(out, h.constraints);
    write_technology(out, h.technology);
    const hw::HardwareParams& p = h.params;
    out << "hardware:  # NicePIM Table I\n"
        << "  node_array: [" << p.node_rows << ", " << p.node_cols << "]\n"
        << "  pe_array: [" << p.pe_rows << ", " << p.pe_cols << "]\n"
        << "  buffers_kib: {input: " << p.ibuf_kib << ", weight: " << p.wbuf_kib << ", output: " << p.obuf_kib
        << "}\n";
    write_model(out, h.model);
    write_schedule(out, h.schedule);
    return out.str();
}

}  // namespace pimdse::io
