#pragma once
// The PIM device types of a heterogeneous 3-D manycore (HuNT, after Table I and Table II):
// SRAM, ReRAM and FeFET, each with its device properties (cell area in F², write energy and
// latency, write endurance, leakage class) and its tile (how many arrays of what size and
// cell resolution, its converters or sense amplifiers, its silicon area). A tier of the stack
// holds tiles of one device type; the stack string names the tiers from the heat sink up,
// one letter per tier ("RRFS": t1 and t2 ReRAM, t3 FeFET, t4 SRAM).
//
// Storage per tile follows from the tile: arrays × rows × columns × bits per cell. The read
// costs of a tile's arrays (NeuroSim's, which HuNT uses but does not state) are the named
// preset of hw/neurosim_preset.hpp. docs/model.md ("HuNT: device types") gives every number's
// source.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "pimdse/core/enum_names.hpp"
#include "pimdse/core/units.hpp"

namespace pimdse::hw {

/// The device of a tier's PEs. Values are append only.
enum class PimDevice : std::uint8_t { sram = 0, reram = 1, fefet = 2 };

inline constexpr EnumNames<PimDevice, 3> kPimDeviceNames{{
    {PimDevice::sram, "sram"},
    {PimDevice::reram, "reram"},
    {PimDevice::fefet, "fefet"},
}};

/// The one-letter name of a device in a stack string: S, R or F (HuNT IV-B's α notation).
[[nodiscard]] char device_letter(PimDevice device) noexcept;
/// The device of a stack letter (upper case only), if any.
[[nodiscard]] std::optional<PimDevice> device_of_letter(char letter) noexcept;

/// Table I's qualitative leakage column: the seed gives "High" for SRAM, "Low" otherwise.
enum class LeakageClass : std::uint8_t { low = 0, high = 1 };

/// One column of HuNT's Table I.
struct DeviceProperties {
    PimDevice device = PimDevice::sram;
    bool multibit_cell = false;         ///< "Multi-bit Cell"
    double cell_area_f2 = 0;            ///< cell area in F² (F the minimum feature size)
    double write_energy_pj = 0;         ///< energy of one cell write, pJ
    double write_latency_ns = 0;        ///< one cell write, ns
    double write_endurance_cycles = 0;  ///< program cycles before failure (SRAM: "> 1e17", the bound)
    LeakageClass leakage = LeakageClass::low;

    /// Area of one cell at feature size `feature_nm`, µm².
    [[nodiscard]] double cell_area_um2(double feature_nm) const {
        return cell_area_f2 * feature_nm * feature_nm * 1e-6;
    }
};

/// HuNT Table I's column for `device`.
[[nodiscard]] const DeviceProperties& hunt_device_properties(PimDevice device);

/// One tile of HuNT's Table II: `arrays` arrays of `rows` × `columns` cells of
/// `bits_per_cell` bits, read through `adcs` ADCs of `adc_bits` (ReRAM) or `sense_amps`
/// 1-bit sense amplifiers (FeFET, SRAM), driven by `dacs` DACs of `dac_bits` (ReRAM).
struct TileSpec {
    PimDevice device = PimDevice::sram;
    int arrays = 0;               ///< crossbars (ReRAM, FeFET) or SRAM arrays
    int rows = 0;                 ///< rows of one array
    int columns = 0;              ///< columns of one array
    int bits_per_cell = 0;        ///< bits stored per cell
    int adcs = 0;                 ///< SAR ADCs per tile (0 when read by sense amplifiers)
    int adc_bits = 0;             ///< resolution of one ADC
    int dacs = 0;                 ///< 1-bit DACs per tile (0 when none)
    int dac_bits = 0;             ///< resolution of one DAC
    int sense_amps = 0;           ///< 1-bit sense amplifiers per tile (0 when read by ADCs)
    SquareMillimetres area{0.0};  ///< silicon area of one tile (iso-area: 0.40 mm² for every device)

    /// Cells of one tile: arrays × rows × columns.
    [[nodiscard]] std::int64_t cells() const { return static_cast<std::int64_t>(arrays) * rows * columns; }
    /// Bits stored in one tile: cells × bits per cell.
    [[nodiscard]] std::int64_t storage_bits() const { return cells() * bits_per_cell; }
    /// Bytes stored in one tile.
    [[nodiscard]] Bytes storage() const { return Bytes(storage_bits() / 8); }
    /// Silicon of the tile's cells alone at feature size `feature_nm` (cells × cell area),
    /// with the device's Table I cell area; the rest of the tile is its periphery.
    [[nodiscard]] SquareMillimetres cell_array_area(double feature_nm) const;
};

/// HuNT Table II's tile of `device`.
[[nodiscard]] const TileSpec& hunt_tile(PimDevice device);

}  // namespace pimdse::hw
