#pragma once
// The tuner's tests run on the dram_pim family's space (NicePIM Table I): its points from
// typed parameters and its legality test, as the family gives them to the tuner.

#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/tuner/encoding.hpp"

namespace pimdse::tuner {

[[nodiscard]] inline DesignPoint pt(const hw::HardwareParams& p) {
    return hw::to_point(p);
}

/// hw::check under `c` and `t`, area budget included: the dram_pim family's legal().
[[nodiscard]] inline LegalityTest dram_pim_legality(const hw::Constraints& c, const hw::Technology& t = {}) {
    return [c, t](const DesignPoint& p) { return hw::check(hw::from_point(p), c, t).legal(); };
}

}  // namespace pimdse::tuner
