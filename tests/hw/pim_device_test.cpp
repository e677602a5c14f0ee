// HuNT's device types and tiles (hw/pim_device.hpp) and the NeuroSim read-cost preset
// (hw/neurosim_preset.hpp): every value typed from its source, the storage per tile and the
// derived read costs computed by hand.

#include <gtest/gtest.h>

#include <array>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/neurosim_preset.hpp"
#include "pimdse/hw/pim_device.hpp"

namespace pimdse::hw {
namespace {

constexpr std::int64_t kKiB = 1024;

TEST(PimDevice, NamesAndLettersRoundTrip) {
    EXPECT_TRUE(is_dense(kPimDeviceNames));
    for (const auto& n : kPimDeviceNames) {
        EXPECT_EQ(device_of_letter(device_letter(n.value)), n.value) << n.name;
    }
    EXPECT_EQ(device_letter(PimDevice::sram), 'S');
    EXPECT_EQ(device_letter(PimDevice::reram), 'R');
    EXPECT_EQ(device_letter(PimDevice::fefet), 'F');
    EXPECT_FALSE(device_of_letter('s').has_value());
    EXPECT_FALSE(device_of_letter('X').has_value());
}

TEST(PimDevice, PropertiesAreHuntTableI) {
    struct Row {
        PimDevice device;
        bool multibit;
        double cell_f2, write_pj, write_ns, endurance;
        LeakageClass leakage;
    };
    // HuNT Table I, typed from the seed: cell area, write energy, write latency, endurance, leakage.
    const Row rows[] = {
        {PimDevice::sram, false, 150, 3, 1, 1e17, LeakageClass::high},   // 150F², 3 pJ, ~1 ns, >1e17
        {PimDevice::reram, true, 4, 2000, 100, 1e8, LeakageClass::low},  // 4F², 2 nJ, ~100 ns, 1e8
        {PimDevice::fefet, true, 35, 5, 3, 1e5, LeakageClass::low},      // 35F², 5 pJ, ~3 ns, 1e5
    };
    for (const Row& r : rows) {
        const DeviceProperties& p = hunt_device_properties(r.device);
        SCOPED_TRACE(std::string(name_of(kPimDeviceNames, r.device)));
        EXPECT_EQ(p.device, r.device);
        EXPECT_EQ(p.multibit_cell, r.multibit);
        EXPECT_DOUBLE_EQ(p.cell_area_f2, r.cell_f2);
        EXPECT_DOUBLE_EQ(p.write_energy_pj, r.write_pj);
        EXPECT_DOUBLE_EQ(p.write_latency_ns, r.write_ns);
        EXPECT_DOUBLE_EQ(p.write_endurance_cycles, r.endurance);
        EXPECT_EQ(p.leakage, r.leakage);
    }
}

TEST(PimDevice, TilesAreHuntTableII) {
    // HuNT Table II: ReRAM 96 SAR ADCs of 8 bits, 128 x 96 1-bit DACs, 96 crossbars of 128 x 128,
    // 2-bit cells; FeFET 256 x 48 1-bit S/A, 48 crossbars of 256 x 256, 1-bit cells; SRAM 6T
    // 1-bit cells, 256 S/A, 8 KB arrays of 256 x 256, 9 arrays; every tile 0.40 mm².
    // {arrays, rows, columns, bits per cell, ADCs, ADC bits, DACs, DAC bits, sense amps}
    using Row = std::array<int, 9>;
    const auto row = [](const TileSpec& t) {
        return Row{t.arrays,   t.rows, t.columns,  t.bits_per_cell, t.adcs,
                   t.adc_bits, t.dacs, t.dac_bits, t.sense_amps};
    };
    EXPECT_EQ(row(hunt_tile(PimDevice::reram)), (Row{96, 128, 128, 2, 96, 8, 128 * 96, 1, 0}));
    EXPECT_EQ(row(hunt_tile(PimDevice::fefet)), (Row{48, 256, 256, 1, 0, 0, 0, 0, 256 * 48}));
    EXPECT_EQ(row(hunt_tile(PimDevice::sram)), (Row{9, 256, 256, 1, 0, 0, 0, 0, 256}));
    for (PimDevice d : {PimDevice::reram, PimDevice::fefet, PimDevice::sram})
        EXPECT_DOUBLE_EQ(hunt_tile(d).area.value(), 0.40);
}

TEST(PimDevice, StoragePerTileIsTheIssuesFigure) {
    // 96 x 128 x 128 x 2 bits = 3 145 728 bits = 384 KiB; 48 x 256 x 256 x 1 the same;
    // SRAM 9 arrays of 256 x 256 1-bit cells = 9 x 8 KiB = 72 KiB.
    EXPECT_EQ(hunt_tile(PimDevice::reram).storage(), Bytes(384 * kKiB));
    EXPECT_EQ(hunt_tile(PimDevice::fefet).storage(), Bytes(384 * kKiB));
    EXPECT_EQ(hunt_tile(PimDevice::sram).storage(), Bytes(72 * kKiB));
    EXPECT_EQ(hunt_tile(PimDevice::sram).storage_bits(), 9 * 8 * kKiB * 8);
}

TEST(PimDevice, CellArraysFitTheTileAtNeuroSimsFeatureSize) {
    // Cells x Table I's cell area at F = 40 nm (NeuroSim V2.1's featuresize), by hand:
    // SRAM 589 824 x 150 x 1600 nm² = 0.14156 mm², ReRAM 1 572 864 x 4 x 1600 nm² = 0.010066 mm²,
    // FeFET 3 145 728 x 35 x 1600 nm² = 0.17616 mm²; each inside the 0.40 mm² tile.
    const double f = neurosim_v2_1_preset().feature_nm;
    EXPECT_NEAR(hunt_tile(PimDevice::sram).cell_array_area(f).value(), 0.14155776, 1e-9);
    EXPECT_NEAR(hunt_tile(PimDevice::reram).cell_array_area(f).value(), 0.0100663296, 1e-10);
    EXPECT_NEAR(hunt_tile(PimDevice::fefet).cell_array_area(f).value(), 0.176160768, 1e-9);
    for (const auto& n : kPimDeviceNames) {
        const TileSpec& t = hunt_tile(n.value);
        EXPECT_LT(t.cell_array_area(f), t.area) << n.name;
    }
}

TEST(NeuroSimPreset, ValuesAreDnnNeuroSimV21Defaults) {
    // DNN+NeuroSim V2.1, Training_pytorch/NeuroSIM/Param.cpp (defaults) and SarADC.cpp
    // (GetColumnPower, LSTP roadmap, technode 32).
    const NeuroSimPreset& p = neurosim_preset("neurosim_v2_1");
    EXPECT_EQ(p.name, "neurosim_v2_1");
    EXPECT_EQ(p.technode_nm, 32);                              // technode = 32
    EXPECT_DOUBLE_EQ(p.feature_nm, 40);                        // featuresize = 40e-9
    EXPECT_DOUBLE_EQ(p.clock_ghz, 1);                          // clkFreq = 1e9
    EXPECT_DOUBLE_EQ(p.temperature_k, 300);                    // temp = 300
    EXPECT_DOUBLE_EQ(p.r_on_ohm, 240e3);                       // resistanceOn = 240e3
    EXPECT_DOUBLE_EQ(p.r_off_ohm, 24e6);                       // resistanceOff = 240e3*100
    EXPECT_DOUBLE_EQ(p.read_voltage_v, 0.5);                   // readVoltage = 0.5
    EXPECT_DOUBLE_EQ(p.read_pulse_ns, 10);                     // readPulseWidth = 10e-9
    EXPECT_DOUBLE_EQ(p.access_voltage_v, 1.1);                 // accessVoltage = 1.1
    EXPECT_DOUBLE_EQ(p.access_resistance_ohm, 15e3);           // resistanceAccess = 15e3
    EXPECT_DOUBLE_EQ(p.write_voltage_v, 4);                    // writeVoltage = 4
    EXPECT_DOUBLE_EQ(p.write_pulse_ns, 50);                    // writePulseWidth = 50e-9
    EXPECT_DOUBLE_EQ(p.fefet_gate_capacitance_f, 2.1717e-18);  // gateCapFeFET
    EXPECT_DOUBLE_EQ(p.fefet_polarization_uc_cm2, 20);         // polarization = 20
    EXPECT_EQ(p.one_t_one_r_height_f, 4);                      // heightInFeatureSize1T1R
    EXPECT_EQ(p.one_t_one_r_width_f, 4);                       // widthInFeatureSize1T1R
    EXPECT_EQ(p.sram_height_f, 8);                             // heightInFeatureSizeSRAM
    EXPECT_EQ(p.sram_width_f, 20);                             // widthInFeatureSizeSRAM
    EXPECT_EQ(p.array_rows, 128);                              // numRowSubArray
    EXPECT_EQ(p.array_columns, 128);                           // numColSubArray
    EXPECT_EQ(p.columns_per_adc, 8);                           // numColMuxed
    EXPECT_DOUBLE_EQ(p.sar_adc.per_bit_uw, 1.1294);            // (1.1294*log2(levelOutput)+8.8998)*1e-6
    EXPECT_DOUBLE_EQ(p.sar_adc.base_uw, 8.8998);
    EXPECT_DOUBLE_EQ(p.sar_adc.column_coefficient_w, 0.079449);  // 0.079449*exp(-2.297*log10(R))
    EXPECT_DOUBLE_EQ(p.sar_adc.column_exponent, -2.297);
    EXPECT_DOUBLE_EQ(p.sar_adc.fit_read_voltage_v, 0.5);                // columnRes *= 0.5/readVoltage
    EXPECT_DOUBLE_EQ(p.sar_adc.temperature_coefficient_per_k, 1.3e-3);  // (1+1.3e-3*(temp-300))
    // Technology.cpp, 32 nm LSTP: vdd, currentOffNmos[0], currentOffPmos[0]; Param.cpp widths.
    EXPECT_DOUBLE_EQ(p.vdd_v, 0.9);
    EXPECT_DOUBLE_EQ(p.nmos_off_current_a_per_m, 100.10e-6);
    EXPECT_DOUBLE_EQ(p.pmos_off_current_a_per_m, 100.10e-6);
    EXPECT_DOUBLE_EQ(p.sram_nmos_width_f, 2.08);  // widthSRAMCellNMOS
    EXPECT_DOUBLE_EQ(p.sram_pmos_width_f, 1.23);  // widthSRAMCellPMOS
}

TEST(NeuroSimPreset, SramCellLeakageByHand) {
    const NeuroSimPreset& p = neurosim_v2_1_preset();
    // Two inverters at 0.9 V, each the larger of NMOS 2.08 x 32 nm and PMOS 1.23 x 32 nm at
    // 100.10 pA/µm: 2 x 0.9 x 66.56 nm x 100.10e-6 A/m = 11.993 pW.
    EXPECT_NEAR(p.sram_cell_leakage_pw(), 2 * 0.9 * 2.08 * 32e-9 * 100.10e-6 * 1e12, 1e-12);
    EXPECT_NEAR(p.sram_cell_leakage_pw(), 11.9928, 1e-4);
    // The NMOS is the wider: a PMOS as wide as it would not change the cell's leakage.
    NeuroSimPreset wide = p;
    wide.sram_pmos_width_f = p.sram_nmos_width_f;
    EXPECT_DOUBLE_EQ(wide.sram_cell_leakage_pw(), p.sram_cell_leakage_pw());
}

TEST(NeuroSimPreset, ReadCostsByHand) {
    const NeuroSimPreset& p = neurosim_v2_1_preset();
    // 0.5² V² / 240 kΩ x 10 ns = 1.0417e-6 W x 1e-8 s = 0.0104167 pJ.
    EXPECT_NEAR(p.cell_read_energy_pj(p.r_on_ohm), 0.25 / 240e3 * 10e-9 * 1e12, 1e-12);
    EXPECT_NEAR(p.cell_read_energy_pj(p.r_on_ohm) / p.cell_read_energy_pj(p.r_off_ohm), 100.0, 1e-9);
    // 8 bits on a 10 kΩ column: 1.1294 x 8 + 8.8998 = 17.9350 µW, plus 0.079449 x
    // exp(-2.297 x 4) W = 8.1244 µW; 26.0594 µW for 9 ns = 0.234535 pJ.
    EXPECT_DOUBLE_EQ(p.sar_adc_latency_ns(8), 9.0);
    EXPECT_NEAR(p.sar_adc_power_uw(8, 1e4), 26.0594, 1e-4);
    EXPECT_NEAR(p.sar_adc_energy_pj(8, 1e4), 0.234535, 1e-6);
    // At 380 K the power is 1 + 1.3e-3 x 80 = 1.104 times that at 300 K.
    EXPECT_NEAR(p.sar_adc_power_uw(8, 1e4, 380.0), 26.0594 * 1.104, 1e-4);
    EXPECT_DOUBLE_EQ(p.sar_adc_power_uw(8, 1e4, 300.0), p.sar_adc_power_uw(8, 1e4));
    // A higher resolution costs more per conversion; a less conductive column less.
    EXPECT_GT(p.sar_adc_energy_pj(8, 1e4), p.sar_adc_energy_pj(6, 1e4));
    EXPECT_GT(p.sar_adc_energy_pj(8, 1e4), p.sar_adc_energy_pj(8, 1e6));
    EXPECT_THROW((void)p.sar_adc_power_uw(0, 1e4), ModelError);
    EXPECT_THROW((void)p.cell_read_energy_pj(0), ModelError);
}

TEST(NeuroSimPreset, UnknownNameNamesTheKnownOnes) {
    try {
        (void)neurosim_preset("neurosim_v9");
        FAIL() << "no error";
    } catch (const ConfigError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("neurosim_v9"), std::string::npos) << what;
        EXPECT_NE(what.find("neurosim_v2_1"), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace pimdse::hw
