// Crossbar technology presets (include/pimdse/sim/crossbar_technology.hpp). The sources of
// the mnsim2 constants are tabulated in docs/model.md; the comments name the file only.

#include "pimdse/sim/crossbar_technology.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/core/named_presets.hpp"

namespace pimdse::sim {

namespace {

CrossbarTechnology make_mnsim2() {
    CrossbarTechnology t;
    t.name = "mnsim2";
    // ADC.py: choices 7 (4 bits), 4 (6), 2 (8, ISAAC; SimConfig.ini's default) and 1 (10).
    t.adcs = {{4, 500.0, 0.7, 1.0}, {6, 580.0, 1.26, 1.0}, {8, 1200.0, 2.0, 1.28}, {10, 1600.0, 6.92, 1.5}};
    // DAC.py (ISAAC's scaling); the 8-bit power is 0.4992 mW (the source omits its 1e-3).
    t.dacs = {{1, 0.166, 0.0039, 1.0}, {2, 0.332, 0.0078, 1.0}, {3, 0.664, 0.0156, 1.0},
              {4, 1.328, 0.0312, 1.0}, {6, 5.312, 0.1248, 1.0}, {8, 21.248, 0.4992, 1.0}};
    // SimConfig.ini: ADC_Num 128 and DAC_Num 256 per polarity group of 256 x 256 crossbars.
    t.columns_per_adc = 2;
    t.rows_per_dac = 1;
    // SimConfig.ini [Device level]; Device.py's averages for the read power.
    t.cell_area_um2 = 1.44;
    t.read_voltage_v = 0.15;
    t.hrs_ohm = 1e6;
    t.lrs_ohm = 1e4;
    t.read_latency_ns = 3.16;
    t.active_input_share = 0.1;
    t.lrs_share = 0.33;
    // ShiftReg.py (65 nm, SimConfig's ShiftReg_Tech) and Adder.py (45 nm, 8 bits).
    t.shift_register_power_mw = 8.1e-4;
    t.shift_register_area_um2 = 1.42;
    t.adder_power_mw = 8 * 2.5e-6;
    t.adder_area_um2 = 8 * (10.0 * 14 * 45 * 45 / 1e6);
    t.digital_clock_mhz = 500;
    // SimConfig.ini: Group_Num 1 x Xbar_Polarity 2 crossbars per PE, PE_Num 2 x 2.
    t.crossbars_per_pe = 2;
    t.pes_per_tile = 4;
    // Buffer.py at Buffer_Technology 90 nm and Buffer_Bitwidth 64 (SimConfig.ini); sizes
    // from PE.py (16 KB input buffer) and Tile.py (4 KB output buffer); Buffer.py's 20 ns cycle.
    t.pe_input_buffer = {16, 64, 0.616313686, 44.837, 43.7094, 8.86342, 20};
    t.tile_output_buffer = {4, 64, 0.0686947, 8.54257, 19.9484, 1.95684, 20};
    // NoC/mesh_config and interconnect_estimation.py: 32-bit flits, four router stages and
    // one link cycle per hop; SimConfig.ini Inter_Tile_Bandwidth 20 Gb/s. Energy per bit and
    // hop and router area: BookSim's power model on NoC/mesh_config and techfile.txt
    // (tools/booksim_noc_constants.py derives them).
    t.noc = {32, 5, 0.9698};
    t.noc_link_gbps = 20;
    t.router_area_mm2 = 0.001403;
    return t;
}

std::string field_error(const CrossbarTechnology& t, const std::string& field, const std::string& rule) {
    return "crossbar technology preset '" + t.name + "': " + field + " " + rule;
}

void check_table(const CrossbarTechnology& t, const std::vector<ConverterSpec>& table, const char* name) {
    if (table.empty()) throw ConfigError({}, "crossbar.technology", field_error(t, name, "is empty"));
    int previous = 0;
    for (const ConverterSpec& c : table) {
        if (c.bits <= previous || c.area_um2 <= 0 || c.power_mw <= 0 || c.sample_rate_gsps <= 0) {
            throw ConfigError(
                {}, "crossbar.technology",
                field_error(t, std::string(name) + " entry of " + std::to_string(c.bits) + " bits",
                            "must have ascending bits and positive area, power and rate"));
        }
        previous = c.bits;
    }
}

ConverterSpec converter(const std::vector<ConverterSpec>& table, int bits, const char* what) {
    if (bits < 1)
        throw ModelError(std::string(what) + ": resolution must be >= 1 bit, got " + std::to_string(bits));
    if (table.empty()) throw ModelError(std::string(what) + ": the technology's table is empty");
    const ConverterSpec* nearest = &table.front();
    for (const ConverterSpec& c : table) {
        if (c.bits == bits) return c;
        // Ties go to the higher resolution: the table ascends, so `<=` keeps the later one.
        if (std::abs(c.bits - bits) <= std::abs(nearest->bits - bits)) nearest = &c;
    }
    ConverterSpec d = *nearest;
    const double scale = std::ldexp(1.0, bits - nearest->bits);
    d.bits = bits;
    d.area_um2 *= scale;
    d.power_mw *= scale;
    d.derived = true;
    return d;
}

}  // namespace

double CrossbarTechnology::cell_read_power_mw() const {
    const double v2 = active_input_share * read_voltage_v * read_voltage_v;
    const double g = lrs_share / lrs_ohm + (1 - lrs_share) / hrs_ohm;
    return v2 * g * 1e3;  // W -> mW
}

Picojoules CrossbarTechnology::shift_add_energy() const {
    const double period_ns = 1e3 / digital_clock_mhz;
    return Picojoules((shift_register_power_mw + adder_power_mw) * period_ns);
}

const CrossbarTechnology& mnsim2_technology() {
    static const CrossbarTechnology t = make_mnsim2();
    return t;
}

namespace {
const std::array<NamedPreset<CrossbarTechnology>, 1> technologies{{{"mnsim2", mnsim2_technology}}};
}  // namespace

const CrossbarTechnology& crossbar_technology(std::string_view name) {
    return find_preset(technologies, name, "crossbar.technology", "crossbar technology preset");
}

std::string crossbar_technology_names() {
    return preset_names(technologies);
}

void check_technology(const CrossbarTechnology& t) {
    check_table(t, t.adcs, "adcs");
    check_table(t, t.dacs, "dacs");
    const std::array<std::pair<const char*, double>, 16> positive{{
        {"columns_per_adc", t.columns_per_adc},
        {"rows_per_dac", t.rows_per_dac},
        {"cell_area_um2", t.cell_area_um2},
        {"read_voltage_v", t.read_voltage_v},
        {"hrs_ohm", t.hrs_ohm},
        {"lrs_ohm", t.lrs_ohm},
        {"read_latency_ns", t.read_latency_ns},
        {"digital_clock_mhz", t.digital_clock_mhz},
        {"crossbars_per_pe", t.crossbars_per_pe},
        {"pes_per_tile", t.pes_per_tile},
        {"pe_input_buffer.word_bits", t.pe_input_buffer.word_bits},
        {"tile_output_buffer.word_bits", t.tile_output_buffer.word_bits},
        {"pe_input_buffer.cycle_ns", t.pe_input_buffer.cycle_ns},
        {"noc.flit_bits", t.noc.flit_bits},
        {"noc.hop_cycles", t.noc.hop_cycles},
        {"noc_link_gbps", t.noc_link_gbps},
    }};
    for (const auto& [field, value] : positive) {
        if (!(value > 0)) throw ConfigError({}, "crossbar.technology", field_error(t, field, "must be > 0"));
    }
    for (const auto& [field, value] :
         {std::pair{"active_input_share", t.active_input_share}, std::pair{"lrs_share", t.lrs_share}}) {
        if (!(value >= 0 && value <= 1))
            throw ConfigError({}, "crossbar.technology", field_error(t, field, "must be in [0, 1]"));
    }
    const std::array<std::pair<const char*, double>, 6> non_negative{{
        {"shift_register_power_mw", t.shift_register_power_mw},
        {"adder_power_mw", t.adder_power_mw},
        {"pe_input_buffer.leakage_mw", t.pe_input_buffer.leakage_mw},
        {"tile_output_buffer.leakage_mw", t.tile_output_buffer.leakage_mw},
        {"noc.pj_per_bit_hop", t.noc.pj_per_bit_hop},
        {"router_area_mm2", t.router_area_mm2},
    }};
    for (const auto& [field, value] : non_negative) {
        if (!(value >= 0))
            throw ConfigError({}, "crossbar.technology", field_error(t, field, "must be >= 0"));
    }
}

ConverterSpec adc_spec(const CrossbarTechnology& tech, int bits) {
    return converter(tech.adcs, bits, "adc_spec");
}

ConverterSpec dac_spec(const CrossbarTechnology& tech, int bits) {
    return converter(tech.dacs, bits, "dac_spec");
}

}  // namespace pimdse::sim
