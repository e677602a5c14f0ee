#pragma once
// Is a hardware point buildable under the constraints? The answer is a value with reasons,
// not an exception: the tuner asks this for millions of sampled points.
//
// Today's rules need no area model. NicePIM III-A's first constraint (total area within the
// budget) joins as Rule::area when the area model exists; check() then also takes the model.

#include <optional>
#include <string>
#include <vector>

#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"

namespace pimdse::hw {

enum class Rule {
    positive,            ///< every parameter is at least 1
    within_bounds,       ///< within the Table II bounds of the constraints
    divides_bank_array,  ///< NA_row | BA_row and NA_col | BA_col: homogeneous nodes (III-A constraint 2)
};

/// One broken rule, phrased for messages: "<param>: expected <expected>, got <got>".
struct Violation {
    Rule rule = Rule::positive;
    std::optional<Param> param;  ///< the offending parameter; empty for whole-design rules
    std::string expected;
    std::string got;

    [[nodiscard]] std::string str() const;
};

struct Legality {
    std::vector<Violation> violations;  ///< at most one per parameter, in Param order

    [[nodiscard]] bool legal() const { return violations.empty(); }
    /// "legal" or the violations joined by "; ".
    [[nodiscard]] std::string str() const;
};

[[nodiscard]] Legality check(const HardwareParams& p, const Constraints& c);

}  // namespace pimdse::hw
