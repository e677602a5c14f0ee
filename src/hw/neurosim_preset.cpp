// NeuroSim read-cost presets (include/pimdse/hw/neurosim_preset.hpp). The sources of the
// constants are tabulated in docs/model.md; the comments name NeuroSim's file only.

#include "pimdse/hw/neurosim_preset.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/core/named_presets.hpp"

namespace pimdse::hw {

namespace {

NeuroSimPreset make_neurosim_v2_1() {
    NeuroSimPreset p;
    p.name = "neurosim_v2_1";
    // The V2.1 release's Param.cpp (commit 2954388557c5, with the FeFET `polarization`); an
    // earlier stored version (114400ab99cd) has R_on 100e3 and R_off 1e6 (docs/model.md).
    // Param.cpp: technode 32 with deviceroadmap 2 (LSTP), featuresize 40e-9, clkFreq 1e9, temp 300.
    p.technode_nm = 32;
    p.feature_nm = 40;
    p.clock_ghz = 1;
    p.temperature_k = 300;
    // Param.cpp: resistanceOn 240e3, resistanceOff 240e3 * 100, readVoltage 0.5,
    // readPulseWidth 10e-9, accessVoltage 1.1, resistanceAccess 15e3, writeVoltage 4,
    // writePulseWidth 50e-9, gateCapFeFET 2.1717e-18, polarization 20.
    p.r_on_ohm = 240e3;
    p.r_off_ohm = 240e3 * 100;
    p.read_voltage_v = 0.5;
    p.read_pulse_ns = 10;
    p.access_voltage_v = 1.1;
    p.access_resistance_ohm = 15e3;
    p.write_voltage_v = 4;
    p.write_pulse_ns = 50;
    p.fefet_gate_capacitance_f = 2.1717e-18;
    p.fefet_polarization_uc_cm2 = 20;
    // Param.cpp: heightInFeatureSize1T1R 4, widthInFeatureSize1T1R 4, heightInFeatureSizeSRAM 8,
    // widthInFeatureSizeSRAM 20; numRowSubArray 128, numColSubArray 128, numColMuxed 8.
    p.one_t_one_r_height_f = 4;
    p.one_t_one_r_width_f = 4;
    p.sram_height_f = 8;
    p.sram_width_f = 20;
    p.array_rows = 128;
    p.array_columns = 128;
    p.columns_per_adc = 8;
    // Technology.cpp, 32 nm LSTP (PTM 32nm_LP): vdd 0.9, currentOffNmos[0] = currentOffPmos[0]
    // = 100.10e-6 (300 K); Param.cpp: widthSRAMCellNMOS 2.08, widthSRAMCellPMOS 1.23.
    p.vdd_v = 0.9;
    p.nmos_off_current_a_per_m = 100.10e-6;
    p.pmos_off_current_a_per_m = 100.10e-6;
    p.sram_nmos_width_f = 2.08;
    p.sram_pmos_width_f = 1.23;
    // SarADC.cpp, GetColumnPower: the LSTP fit at technode 32, made at a 0.5 V read
    // (columnRes *= 0.5/readVoltage), scaled by (1 + 1.3e-3 * (temp - 300)).
    p.sar_adc = {1.1294, 8.8998, 0.079449, -2.297, 0.5, 1.3e-3};
    return p;
}

}  // namespace

double NeuroSimPreset::cell_read_energy_pj(double r_ohm) const {
    if (!(r_ohm > 0)) throw ModelError("cell_read_energy_pj: resistance must be > 0 Ω");
    return read_voltage_v * read_voltage_v / r_ohm * read_pulse_ns * 1e3;  // W x ns = nJ -> pJ
}

double NeuroSimPreset::sar_adc_latency_ns(int bits) const {
    if (bits < 1) throw ModelError("sar_adc_latency_ns: resolution must be >= 1 bit");
    return bits + 1.0;
}

double NeuroSimPreset::sar_adc_power_uw(int bits, double column_ohm, double t_k) const {
    if (bits < 1) throw ModelError("sar_adc_power_uw: resolution must be >= 1 bit");
    if (!(column_ohm > 0)) throw ModelError("sar_adc_power_uw: column resistance must be > 0 Ω");
    const double r = column_ohm * sar_adc.fit_read_voltage_v / read_voltage_v;
    const double column_w = sar_adc.column_coefficient_w * std::exp(sar_adc.column_exponent * std::log10(r));
    const double at_300k = sar_adc.per_bit_uw * bits + sar_adc.base_uw + column_w * 1e6;
    return at_300k * (1 + sar_adc.temperature_coefficient_per_k * (t_k - 300.0));
}

double NeuroSimPreset::sar_adc_energy_pj(int bits, double column_ohm) const {
    return sar_adc_power_uw(bits, column_ohm) * sar_adc_latency_ns(bits) * 1e-3;  // µW x ns = fJ
}

double NeuroSimPreset::sram_cell_leakage_pw() const {
    const double f_m = technode_nm * 1e-9;  // NeuroSim sizes transistors in the node, not the wire F
    const double inverter_a = std::max(sram_nmos_width_f * f_m * nmos_off_current_a_per_m,
                                       sram_pmos_width_f * f_m * pmos_off_current_a_per_m);
    return 2 * inverter_a * vdd_v * 1e12;  // two inverters a cell; W -> pW
}

const NeuroSimPreset& neurosim_v2_1_preset() {
    static const NeuroSimPreset p = make_neurosim_v2_1();
    return p;
}

namespace {
const std::array<NamedPreset<NeuroSimPreset>, 1> presets{{{"neurosim_v2_1", neurosim_v2_1_preset}}};
}  // namespace

const NeuroSimPreset& neurosim_preset(std::string_view name) {
    return find_preset(presets, name, "device_preset", "device read-cost preset");
}

std::string neurosim_preset_names() {
    return preset_names(presets);
}

}  // namespace pimdse::hw
