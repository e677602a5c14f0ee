#include "pimdse/hw/legality.hpp"

#include <charconv>

#include "pimdse/hw/area.hpp"
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

// "47.83 mm²": two decimals, enough to see how far a point is from the budget.
std::string mm2(SquareMillimetres a) {
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, a.value(), std::chars_format::fixed, 2);
    return std::string(buf, res.ptr) + " mm²";
}

}  // namespace

Legality check(const HardwareParams& p, const Constraints& c) {
    return check(p, c, Technology{});
}

Legality check(const HardwareParams& p, const Constraints& c, const Technology& t) {
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
    if (!result.legal()) return result;
    // III-A constraint 1 with VIII-B's budget for the NN engines (hw/area.hpp says why).
    const AreaBreakdown a = area(p, c, t);
    if (a.nn_engines > c.area_budget) {
        result.violations.push_back(
            {Rule::area, std::nullopt,
             "an NN-engine area (PE arrays + buffers of all nodes) within the budget of " +
                 mm2(c.area_budget),
             mm2(a.nn_engines)});
    }
    return result;
}

}  // namespace pimdse::hw
