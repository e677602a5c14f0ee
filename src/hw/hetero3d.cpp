// A heterogeneous 3-D manycore's hardware point (include/pimdse/hw/hetero3d.hpp).

#include "pimdse/hw/hetero3d.hpp"

#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::hw {

namespace {

PimDevice device_at(const Hetero3dHardware& h, int tier) {
    if (tier < 0 || tier >= static_cast<int>(h.stack.size())) {
        throw ModelError("hetero3d: tier index " + std::to_string(tier) + " outside a stack of " +
                         std::to_string(h.stack.size()) + " tiers");
    }
    return h.stack[static_cast<std::size_t>(tier)];
}

}  // namespace

Bytes Hetero3dHardware::tile_storage(int tier) const {
    return hunt_tile(device_at(*this, tier)).storage();
}

Bytes Hetero3dHardware::tier_storage(int tier) const {
    return tile_storage(tier) * tiles_per_tier();
}

Bytes Hetero3dHardware::total_storage() const {
    Bytes total(0);
    for (int z = 0; z < static_cast<int>(stack.size()); ++z) total += tier_storage(z);
    return total;
}

SquareMillimetres Hetero3dHardware::silicon_area() const {
    return tile_area * (static_cast<double>(tiers) * tiles_per_tier());
}

std::string stack_string(const std::vector<PimDevice>& stack) {
    std::string s;
    for (PimDevice d : stack) s += device_letter(d);
    return s;
}

std::optional<std::vector<PimDevice>> parse_stack(std::string_view text) {
    if (text.empty()) return std::nullopt;
    std::vector<PimDevice> stack;
    for (char c : text) {
        const std::optional<PimDevice> d = device_of_letter(c);
        if (!d) return std::nullopt;
        stack.push_back(*d);
    }
    return stack;
}

void check(const Hetero3dHardware& h) {
    if (h.tiers < 1 || h.pes_per_tier < 1 || h.tiles_per_pe < 1) {
        throw ModelError("hetero3d: tiers, PEs per tier and tiles per PE must be >= 1");
    }
    if (!(h.tile_area.value() > 0)) throw ModelError("hetero3d: the tile area must be > 0 mm²");
    if (static_cast<int>(h.stack.size()) != h.tiers) {
        throw ModelError("hetero3d: a stack of " + std::to_string(h.stack.size()) + " tiers for " +
                         std::to_string(h.tiers) + " tiers");
    }
}

}  // namespace pimdse::hw
