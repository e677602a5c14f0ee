// HuNT's device types and tiles (include/pimdse/hw/pim_device.hpp). The sources of every
// number are tabulated in docs/model.md ("HuNT: device types"); the comments name the table.

#include "pimdse/hw/pim_device.hpp"

#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::hw {

namespace {

// HuNT Table I: SRAM and FeFET after its reference [7], ReRAM after [33]. The SRAM
// endurance is the table's lower bound "> 10^17".
constexpr std::array<DeviceProperties, 3> kTableI{{
    {PimDevice::sram, false, 150.0, 3.0, 1.0, 1e17, LeakageClass::high},
    {PimDevice::reram, true, 4.0, 2000.0, 100.0, 1e8, LeakageClass::low},
    {PimDevice::fefet, true, 35.0, 5.0, 3.0, 1e5, LeakageClass::low},
}};

// HuNT Table II, iso-area tiles of 0.40 mm². SRAM: 9 arrays of 8 KB (256 × 256 6T cells, one
// bit each) read by 256 sense amplifiers; docs/model.md says why the array count is the
// table's and not a consequence of the area.
const std::array<TileSpec, 3> kTableII{{
    {PimDevice::sram, 9, 256, 256, 1, 0, 0, 0, 0, 256, SquareMillimetres(0.40)},
    {PimDevice::reram, 96, 128, 128, 2, 96, 8, 128 * 96, 1, 0, SquareMillimetres(0.40)},
    {PimDevice::fefet, 48, 256, 256, 1, 0, 0, 0, 0, 256 * 48, SquareMillimetres(0.40)},
}};

std::size_t index_of(PimDevice device) {
    const auto i = static_cast<std::size_t>(device);
    if (i >= kTableI.size()) {
        throw ModelError("PIM device value " + std::to_string(i) + " is not sram, reram or fefet");
    }
    return i;
}

}  // namespace

char device_letter(PimDevice device) noexcept {
    switch (device) {
        case PimDevice::sram:
            return 'S';
        case PimDevice::reram:
            return 'R';
        case PimDevice::fefet:
            return 'F';
    }
    return '?';
}

std::optional<PimDevice> device_of_letter(char letter) noexcept {
    for (const auto& n : kPimDeviceNames) {
        if (device_letter(n.value) == letter) return n.value;
    }
    return std::nullopt;
}

const DeviceProperties& hunt_device_properties(PimDevice device) {
    return kTableI[index_of(device)];
}

const TileSpec& hunt_tile(PimDevice device) {
    return kTableII[index_of(device)];
}

SquareMillimetres TileSpec::cell_array_area(double feature_nm) const {
    const double um2 =
        static_cast<double>(cells()) * hunt_device_properties(device).cell_area_um2(feature_nm);
    return SquareMillimetres(um2 * 1e-6);
}

}  // namespace pimdse::hw
