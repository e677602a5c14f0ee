#pragma once
// The constants that cost a layer on ReRAM crossbars, grouped in named technology presets:
// converters (ADC and DAC tables by resolution), the memristor device, the digital
// shift-and-add periphery, the SRAM buffers, how crossbars are organised in PEs and
// tiles, and the inter-tile network. `mnsim2` holds MNSIM 2.0's published defaults (the simulator Gibbon
// costs its designs with); a preset is selected by name, so another simulator's set (NeuroSim) can sit beside
// it. Every constant's source is in docs/model.md ("ReRAM crossbars: latency, energy and area"), which also
// marks the values derived here rather than taken from MNSIM.
//
// Converter rule (MNSIM 2.0, ADC.py and DAC.py): one conversion takes (bits + 2) / rate
// and costs that time times the converter's power. A resolution missing from a preset's
// table is derived from the nearest entry (ties: the higher), its area and power scaled by
// 2^(bits - entry bits) at the entry's rate; the returned spec says it is derived.

#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/noc.hpp"

namespace pimdse::sim {

/// One ADC or DAC design point of a preset's table.
struct ConverterSpec {
    int bits = 0;                 ///< resolution, bits
    double area_um2 = 0;          ///< area of one converter, µm²
    double power_mw = 0;          ///< power while converting, mW
    double sample_rate_gsps = 0;  ///< sample rate, GS/s (one step per 1/rate ns)
    bool derived = false;         ///< scaled from another resolution (ours, not the source's)

    /// Time of one conversion, ns: (bits + 2) / rate.
    [[nodiscard]] double latency_ns() const { return (bits + 2) / sample_rate_gsps; }
    /// Energy of one conversion: latency x power (ns x mW = pJ).
    [[nodiscard]] Picojoules energy() const { return Picojoules(latency_ns() * power_mw); }
};

/// An SRAM buffer of one capacity and word width; an access moves one word.
struct SramBufferSpec {
    double capacity_kib = 0;     ///< capacity, KiB
    int word_bits = 0;           ///< bits per access
    double area_mm2 = 0;         ///< area, mm²
    double read_energy_pj = 0;   ///< dynamic energy of one word read, pJ
    double write_energy_pj = 0;  ///< dynamic energy of one word write, pJ
    double leakage_mw = 0;       ///< leakage power, mW
    double cycle_ns = 0;         ///< one access, ns; an access is charged this long a leakage

    /// Energy of one word read or written: dynamic + cycle x leakage (ns x mW = pJ).
    [[nodiscard]] Picojoules access_energy(bool write) const {
        return Picojoules((write ? write_energy_pj : read_energy_pj) + cycle_ns * leakage_mw);
    }
};

struct CrossbarTechnology {
    std::string name;

    // ---- Converters -------------------------------------------------------------------------
    std::vector<ConverterSpec> adcs;  ///< one entry per resolution, ascending bits
    std::vector<ConverterSpec> dacs;  ///< one entry per resolution, ascending bits
    int columns_per_adc = 1;          ///< output columns (after the polarities' subtraction) per ADC
    int rows_per_dac = 1;             ///< word lines that share one DAC (of a polarity group)

    // ---- Memristor device and crossbar -------------------------------------------------------
    double cell_area_um2 = 0;       ///< one cell (1T1R), µm²
    double read_voltage_v = 0;      ///< word-line read voltage of an active input, V
    double hrs_ohm = 0;             ///< high-resistance state, Ω
    double lrs_ohm = 0;             ///< low-resistance state, Ω
    double read_latency_ns = 0;     ///< one crossbar read, ns
    double active_input_share = 0;  ///< share of word lines at the read voltage (the rest at 0 V)
    double lrs_share = 0;           ///< share of cells in the low-resistance state

    // ---- Digital periphery (one shift register and one adder per ADC) ------------------------
    double shift_register_power_mw = 0;  ///< mW while shifting
    double shift_register_area_um2 = 0;  ///< µm²
    double adder_power_mw = 0;           ///< mW while adding
    double adder_area_um2 = 0;           ///< µm²
    double digital_clock_mhz = 0;        ///< clock of the digital modules, MHz

    // ---- Organisation and buffers -------------------------------------------------------------
    int crossbars_per_pe = 1;           ///< crossbars of one PE
    int pes_per_tile = 1;               ///< PEs of one tile
    SramBufferSpec pe_input_buffer;     ///< one per PE
    SramBufferSpec tile_output_buffer;  ///< one per tile

    // ---- Inter-tile network (crossbar_noc.hpp) --------------------------------------------------
    /// Flit width, router pipeline and link cycles per hop, energy per bit and hop (noc.hpp's
    /// parameters; a NoC cycle moves one flit over one link).
    NocParams noc;
    double noc_link_gbps = 0;    ///< bandwidth of one link and one port, Gb/s
    double router_area_mm2 = 0;  ///< one tile's router and its links, mm²

    /// One NoC cycle: a flit at the link rate, ns.
    [[nodiscard]] double noc_cycle_ns() const { return noc.flit_bits / noc_link_gbps; }
    /// Crossbars of one tile: crossbars per PE x PEs per tile.
    [[nodiscard]] int crossbars_per_tile() const { return crossbars_per_pe * pes_per_tile; }
    /// Power of one cell while read, mW: V² G with the average V² = share x V_read² and the
    /// average G = lrs_share / R_LRS + (1 - lrs_share) / R_HRS.
    [[nodiscard]] double cell_read_power_mw() const;
    /// Energy of reading one cell once: its power for one crossbar read.
    [[nodiscard]] Picojoules cell_read_energy() const {
        return Picojoules(cell_read_power_mw() * read_latency_ns);
    }
    /// Energy of one shift-and-add of a conversion's result: shift register and adder
    /// powers for one digital clock period.
    [[nodiscard]] Picojoules shift_add_energy() const;
};

/// MNSIM 2.0's defaults (docs/model.md gives each constant's source file).
[[nodiscard]] const CrossbarTechnology& mnsim2_technology();

/// The preset of that name; throws ConfigError (key `crossbar.technology`) naming the
/// unknown preset and the known ones.
[[nodiscard]] const CrossbarTechnology& crossbar_technology(std::string_view name);

/// "mnsim2" (comma-separated when there are more), for messages and documentation.
[[nodiscard]] std::string crossbar_technology_names();

/// Throws ConfigError naming the preset and the field when a constant is out of range
/// (non-positive, a share outside [0, 1], an empty or unordered converter table).
void check_technology(const CrossbarTechnology& tech);

/// The ADC (DAC) of `bits` resolution: the table's entry, or one derived from the nearest
/// entry (header comment). Throws ModelError for bits < 1 or an empty table.
[[nodiscard]] ConverterSpec adc_spec(const CrossbarTechnology& tech, int bits);
[[nodiscard]] ConverterSpec dac_spec(const CrossbarTechnology& tech, int bits);

}  // namespace pimdse::sim
