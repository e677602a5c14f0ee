#pragma once
// The DRAM-PIM design space (NicePIM Table I, with the clock and the data width): the generic
// DesignSpace of core with one axis per hw::Param, in Param order, and the conversions between
// a DesignPoint of that space and the typed HardwareParams the model works with. The default
// ranges follow Table II; the clock and the data width default to the constraints' one value.

#include <cstddef>

#include "pimdse/core/design_space.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"

namespace pimdse::hw {

/// The dram_pim family's id: the first family of the registry (family/registry.cpp).
inline constexpr FamilyId kDramPimFamily = 0;

/// The space of the given ranges, one per Table I parameter in Param order, and the one
/// clock and data width of `c`; every axis is named for its Param.
[[nodiscard]] DesignSpace make_space(const std::array<ParamRange, kTableIParamCount>& ranges,
                                     const Constraints& c = Constraints{});

/// The range of `p` in a space made by make_space or default_space.
[[nodiscard]] inline const ParamRange& range_of(const DesignSpace& s, Param p) {
    return s.range(static_cast<std::size_t>(p));
}

/// The point of the dram_pim family with p's values, in Param order.
[[nodiscard]] DesignPoint to_point(const HardwareParams& p);
/// The typed parameters of a dram_pim point; throws ModelError for a point of another
/// family or of another size.
[[nodiscard]] HardwareParams from_point(const DesignPoint& p);

/// The default space for `c`; for the default constraints it is NicePIM's Table II space of
/// about 10^10 points (docs/config.md gives the arithmetic):
/// - node rows/cols: the divisors of the bank array's extent within the node bounds
///   (only those are legal, III-A constraint 2): {2, 4, 8, 16};
/// - PE rows/cols: the powers of two within the PE bounds (1..256: 9 values), or every
///   integer if the bounds contain no power of two;
/// - buffers: the multiples of 8 KiB within the buffer bounds (8..2048: 256 values), or
///   every integer if there is none. 8 KiB is the largest grid holding all NicePIM buffer
///   sizes (8, 16, 32, 128, 144 KiB; VIII-C, VIII-D).
[[nodiscard]] DesignSpace default_space(const Constraints& c);

/// The default range of one parameter under `c` (see default_space); for the clock and the
/// data width, the constraints' one value (ModelError for a clock that is not a whole MHz).
[[nodiscard]] ParamRange default_range(Param p, const Constraints& c);

/// The constraint bounds of one Table I parameter (node_rows -> c.node_rows, ibuf_kib ->
/// c.buffer_kib, ...); InternalError for the clock and the data width, which have none.
[[nodiscard]] const Bounds& bounds_of(Param p, const Constraints& c);

}  // namespace pimdse::hw
