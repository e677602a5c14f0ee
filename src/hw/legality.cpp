#include "pimdse/hw/legality.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

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

int min_clock_mhz(const Technology& t) {
    if (!(t.dram_tccd_ns > 0)) return 1;
    // The smallest whole MHz with tCCD_L x clock >= 1000 (ns x MHz = 1e-3 cycles), rounding
    // guarded: 1000 / 6 is 166.67 -> 167.
    auto mhz = static_cast<long long>(std::ceil(1000.0 / t.dram_tccd_ns));
    while (mhz > 1 && t.dram_tccd_ns * static_cast<double>(mhz - 1) >= 1000.0) --mhz;
    while (t.dram_tccd_ns * static_cast<double>(mhz) < 1000.0) ++mhz;
    return static_cast<int>(std::min<long long>(std::max<long long>(mhz, 1), kMaxClockMhz + 1LL));
}

Legality check(const HardwareParams& p, const Constraints& c) {
    return check(p, c, Technology{});
}

namespace {

// The clock's and the data width's rules, for a point that sets them (0 keeps the constraints').
void check_clock_and_width(const HardwareParams& p, const Constraints& c, const Technology& t,
                           std::vector<Violation>& out) {
    if (p.clock_mhz != 0) {
        const Bounds b{min_clock_mhz(t), kMaxClockMhz};
        if (!b.contains(p.clock_mhz)) {
            out.push_back({Rule::clock, Param::clock_mhz,
                           interval(b) + " MHz (a DRAM column access, tCCD_L, lasts at least one node cycle)",
                           std::to_string(p.clock_mhz)});
        }
    }
    const int w = p.data_width_bits;
    if (w != 0 && (w < 1 || w > c.psum_width_bits)) {
        out.push_back({Rule::data_width, Param::data_width_bits,
                       "an integer in [1, " + std::to_string(c.psum_width_bits) + "] (psum_width_bits)",
                       std::to_string(w)});
    }
}

}  // namespace

Legality check(const HardwareParams& p, const Constraints& c, const Technology& t) {
    Legality result;
    for (Param q : kTableIParams) {
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
    check_clock_and_width(p, c, t, result.violations);
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
