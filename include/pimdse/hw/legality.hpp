#pragma once
// Is a hardware point buildable under the constraints? The answer is a value with reasons,
// not an exception: the tuner asks this for millions of sampled points.
//
// The structural rules come first (with the clock's and the data width's when the point sets
// them); NicePIM III-A's first constraint (the area within the
// budget, hw/area.hpp) is checked only for a point that passes them, since the area of a node
// array that does not tile the banks means nothing.

#include <optional>
#include <string>
#include <vector>

#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"

namespace pimdse::hw {

enum class Rule {
    positive,            ///< every parameter is at least 1
    within_bounds,       ///< within the Table II bounds of the constraints
    divides_bank_array,  ///< NA_row | BA_row and NA_col | BA_col: homogeneous nodes (III-A constraint 2)
    area,                ///< NN-engine area of all nodes <= Cstr_area (III-A constraint 1, VIII-B)
    clock,               ///< min_clock_mhz <= clock_mhz <= kMaxClockMhz, when the point sets it
    data_width,          ///< an integer in [1, psum_width_bits], when the point sets it
};

/// The fastest clock a point may set, MHz: the configuration's bound on clock_mhz.
inline constexpr int kMaxClockMhz = 100000;

/// The slowest clock a point may set, MHz: a DRAM column access (tCCD_L) must last at least
/// one node cycle, since a node takes at most one port-wide word per cycle (docs/model.md,
/// "Clock and data width"): ceil(1000 / tCCD_L in ns); 1 when tCCD_L is 0.
[[nodiscard]] int min_clock_mhz(const Technology& t);

/// One broken rule, phrased for messages: "<param>: expected <expected>, got <got>".
struct Violation {
    Rule rule = Rule::positive;
    std::optional<Param> param;  ///< the offending parameter; empty for whole-design rules
    std::string expected;
    std::string got;

    [[nodiscard]] std::string str() const;
};

struct Legality {
    std::vector<Violation> violations;  ///< at most one per parameter, in Param order; then area

    [[nodiscard]] bool legal() const { return violations.empty(); }
    /// "legal" or the violations joined by "; ".
    [[nodiscard]] std::string str() const;
};

/// Every rule, the area budget included, with the technology table `t`.
[[nodiscard]] Legality check(const HardwareParams& p, const Constraints& c, const Technology& t);
/// As above with the default technology table (NicePIM's 28 nm setting).
[[nodiscard]] Legality check(const HardwareParams& p, const Constraints& c);

}  // namespace pimdse::hw
