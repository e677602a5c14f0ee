#pragma once
// A heterogeneous 3-D manycore's hardware point (HuNT III-A and Table II): `tiers` planar
// tiers of `pes_per_tier` PEs each, `tiles_per_pe` tiles of `tile_area` per PE, every tier
// of one device type, the tier stack α named from the heat sink up ("RRFS": t1 and t2 ReRAM,
// t3 FeFET, t4 SRAM). A tile's content is its device's Table II tile (hw/pim_device.hpp), so
// its storage follows from the device; the silicon is every tier's tiles at the tile area.
// Which stacks a workload allows (an SRAM tier when it trains) is for the evaluation.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/hw/pim_device.hpp"

namespace pimdse::hw {

struct Hetero3dHardware {
    int tiers = 0;                     ///< planar tiers, t1 nearest the heat sink
    int pes_per_tier = 0;              ///< PEs of one tier
    int tiles_per_pe = 0;              ///< tiles of one PE
    SquareMillimetres tile_area{0.0};  ///< silicon of one tile
    std::vector<PimDevice> stack;      ///< α: the device of t1, t2, ...; `tiers` entries

    /// Tiles of one tier: PEs per tier × tiles per PE.
    [[nodiscard]] int tiles_per_tier() const { return pes_per_tier * tiles_per_pe; }
    /// Storage of one tile of tier `tier` (0 is t1): its device's Table II tile.
    [[nodiscard]] Bytes tile_storage(int tier) const;
    /// Storage of tier `tier`: its tiles × one tile's storage.
    [[nodiscard]] Bytes tier_storage(int tier) const;
    /// Storage of every tier.
    [[nodiscard]] Bytes total_storage() const;
    /// Silicon of every tier: tiers × tiles per tier × tile area.
    [[nodiscard]] SquareMillimetres silicon_area() const;
};

/// The stack string of `stack`: one letter per tier, t1 first ("RRFS").
[[nodiscard]] std::string stack_string(const std::vector<PimDevice>& stack);
/// The devices of a stack string of upper-case S, R and F, t1 first; empty when a character is
/// not one of them or the string is empty.
[[nodiscard]] std::optional<std::vector<PimDevice>> parse_stack(std::string_view text);

/// Throws ModelError when the point is inconsistent: a count below 1, a non-positive tile area,
/// or a stack whose length is not `tiers`.
void check(const Hetero3dHardware& h);

}  // namespace pimdse::hw
