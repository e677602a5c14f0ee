#include "pimdse/hw/legality.hpp"

#include "pimdse/hw/design_space.hpp"

namespace pimdse::hw {

std::string Violation::str() const {
    std::string out = param ? std::string(param_name(*param)) + ": " : std::string();
    return out + "expected " + expected + ", got " + got;
}

std::string Legality::str() const {
    if (legal()) return "legal";
    std::string out;
    for (const Violation& v : violations) {
        if (!out.empty()) out += "; ";
        out += v.str();
    }
    return out;
}

namespace {

std::string interval(const Bounds& b) {
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict, PR 105651) on "[" + string.
    std::string out = "an integer in [";
    out += std::to_string(b.min);
    out += ", ";
    out += std::to_string(b.max);
    out += ']';
    return out;
}

}  // namespace

Legality check(const HardwareParams& p, const Constraints& c) {
    Legality result;
    for (Param q : kAllParams) {
        const int v = p.get(q);
        const auto got = [v] { return std::to_string(v); };  // built only for a violation
        if (v <= 0) {
            result.violations.push_back({Rule::positive, q, "a positive integer", got()});
            continue;
        }
        const Bounds& b = bounds_of(q, c);
        if (!b.contains(v)) {
            result.violations.push_back({Rule::within_bounds, q, interval(b), got()});
            continue;
        }
        // III-A constraint 2: the node array tiles the bank array exactly.
        if (q == Param::node_rows && c.bank_rows % v != 0) {
            result.violations.push_back(
                {Rule::divides_bank_array, q,
                 "a divisor of the bank array's " + std::to_string(c.bank_rows) + " rows", got()});
        } else if (q == Param::node_cols && c.bank_cols % v != 0) {
            result.violations.push_back(
                {Rule::divides_bank_array, q,
                 "a divisor of the bank array's " + std::to_string(c.bank_cols) + " columns", got()});
        }
    }
    return result;
}

}  // namespace pimdse::hw
