#pragma once
// The read costs of PIM arrays that HuNT takes from NeuroSim and does not state: DNN+NeuroSim
// V2.1's published default parameters (its Param.cpp) and its SAR ADC model (SarADC.cpp), kept
// as one named preset, `neurosim_v2_1`. It holds the numbers, not NeuroSim's circuit model:
// a cell read is V_read² / R for one read pulse, and one SAR conversion of `b` bits takes
// (b + 1) ns at NeuroSim's fitted column power; an SRAM cell leaks as NeuroSim's two inverters
// of the roadmap's off current. docs/model.md ("HuNT: device types") cites every constant.

#include <string>
#include <string_view>

namespace pimdse::hw {

/// NeuroSim's fit of a SAR ADC's power per column at one technology node and roadmap:
/// [(per_bit_uw · b + base_uw) µW + column_coefficient_w · exp(column_exponent · log10 R) W]
/// × (1 + temperature_coefficient_per_k · (T − 300 K)), R the column's resistance in Ω scaled
/// by fit_read_voltage_v / V_read (the fit was made at that read voltage).
struct SarAdcFit {
    double per_bit_uw = 0;                     ///< µW per bit of resolution
    double base_uw = 0;                        ///< µW independent of resolution
    double column_coefficient_w = 0;           ///< W, of the column-current term
    double column_exponent = 0;                ///< per decade of the column's resistance
    double fit_read_voltage_v = 0;             ///< read voltage of the fit, V
    double temperature_coefficient_per_k = 0;  ///< relative power change per K above 300 K
};

struct NeuroSimPreset {
    std::string name;

    // ---- Technology and clock -------------------------------------------------------------
    int technode_nm = 0;       ///< technology node, nm (LSTP roadmap)
    double feature_nm = 0;     ///< feature size F of the array layout, nm
    double clock_ghz = 0;      ///< clock of the peripheral logic, GHz
    double temperature_k = 0;  ///< temperature the device parameters hold at, K

    // ---- Synaptic device (ReRAM, FeFET) ---------------------------------------------------
    double r_on_ohm = 0;                   ///< on-state resistance at the read voltage, Ω
    double r_off_ohm = 0;                  ///< off-state resistance at the read voltage, Ω
    double read_voltage_v = 0;             ///< on-chip read voltage, V
    double read_pulse_ns = 0;              ///< read pulse width, ns
    double access_voltage_v = 0;           ///< gate voltage of the 1T1R access transistor, V
    double access_resistance_ohm = 0;      ///< on resistance of the access transistor, Ω
    double write_voltage_v = 0;            ///< write voltage, V
    double write_pulse_ns = 0;             ///< write pulse width, ns
    double fefet_gate_capacitance_f = 0;   ///< FeFET gate capacitance, F
    double fefet_polarization_uc_cm2 = 0;  ///< FeFET polarization, µC/cm²

    // ---- Cell layouts, in F ---------------------------------------------------------------
    int one_t_one_r_height_f = 0;  ///< 1T1R cell height
    int one_t_one_r_width_f = 0;   ///< 1T1R cell width
    int sram_height_f = 0;         ///< SRAM cell height
    int sram_width_f = 0;          ///< SRAM cell width

    // ---- SRAM cell leakage (the roadmap's transistors at temperature_k) -------------------
    double vdd_v = 0;                     ///< supply voltage of the technology node, V
    double nmos_off_current_a_per_m = 0;  ///< NMOS off current per width, A/m (µA/µm)
    double pmos_off_current_a_per_m = 0;  ///< PMOS off current per width, A/m (µA/µm)
    double sram_nmos_width_f = 0;         ///< an SRAM cell's NMOS width, in technode_nm units
    double sram_pmos_width_f = 0;         ///< an SRAM cell's PMOS width, in technode_nm units

    // ---- Array periphery ------------------------------------------------------------------
    int array_rows = 0;       ///< rows of a subarray
    int array_columns = 0;    ///< columns of a subarray
    int columns_per_adc = 0;  ///< columns that share one ADC (multiplexed)
    SarAdcFit sar_adc;

    /// Energy of reading one cell of resistance `r_ohm` for one read pulse, pJ: V² / R · t.
    [[nodiscard]] double cell_read_energy_pj(double r_ohm) const;
    /// One SAR conversion of `bits`, ns: bits + 1 steps of 1 ns (NeuroSim's rule).
    [[nodiscard]] double sar_adc_latency_ns(int bits) const;
    /// A SAR ADC's power while converting a column of resistance `column_ohm` at temperature
    /// `temperature_k`, µW; without a temperature, at the preset's.
    [[nodiscard]] double sar_adc_power_uw(int bits, double column_ohm, double temperature_k) const;
    [[nodiscard]] double sar_adc_power_uw(int bits, double column_ohm) const {
        return sar_adc_power_uw(bits, column_ohm, temperature_k);
    }
    /// One conversion's energy at the preset's temperature, pJ: power × latency.
    [[nodiscard]] double sar_adc_energy_pj(int bits, double column_ohm) const;
    /// One 6T SRAM cell's leakage, pW: two inverters, each leaking the larger of its NMOS and
    /// PMOS off currents (width × technode × off current), at vdd (NeuroSim's SubArray rule).
    [[nodiscard]] double sram_cell_leakage_pw() const;
};

/// DNN+NeuroSim V2.1's defaults (32 nm LSTP, 1 GHz).
[[nodiscard]] const NeuroSimPreset& neurosim_v2_1_preset();

/// The preset of that name; throws ConfigError (key `device_preset`) naming the unknown preset
/// and the known ones.
[[nodiscard]] const NeuroSimPreset& neurosim_preset(std::string_view name);

/// "neurosim_v2_1" (comma-separated when there are more).
[[nodiscard]] std::string neurosim_preset_names();

}  // namespace pimdse::hw
