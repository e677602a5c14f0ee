// The DRAM-PIM design space (include/pimdse/hw/design_space.hpp).

#include "pimdse/hw/design_space.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"

namespace pimdse::hw {

namespace {

// Each parameter's unit and meaning: the columns of a sweep file's /candidates.
struct AxisText {
    const char* unit;
    const char* meaning;
};
constexpr std::array<AxisText, kParamCount> kAxisText{{
    {"", "NA_row: rows of the PIM-node array"},
    {"", "NA_col: columns of the PIM-node array"},
    {"", "PEA_row: rows of each node's PE array"},
    {"", "PEA_col: columns of each node's PE array"},
    {"KiB", "input buffer of each node"},
    {"KiB", "weight buffer of each node"},
    {"KiB", "output buffer of each node"},
    {"MHz", "clock of the PIM-nodes"},
    {"bit", "width of inputs, weights and outputs"},
}};

}  // namespace

DesignSpace make_space(const std::array<ParamRange, kTableIParamCount>& ranges, const Constraints& c) {
    std::vector<ParamAxis> axes;
    for (Param p : kAllParams) {
        const auto i = static_cast<std::size_t>(p);
        const ParamRange r = i < kTableIParamCount ? ranges[i] : default_range(p, c);
        axes.push_back({std::string(param_name(p)), kAxisText[i].unit, kAxisText[i].meaning, r});
    }
    return {kDramPimFamily, std::move(axes)};
}

DesignPoint to_point(const HardwareParams& p) {
    DesignPoint out;
    out.family = kDramPimFamily;
    out.size = static_cast<std::uint16_t>(kParamCount);
    for (Param q : kAllParams) out.values[static_cast<std::size_t>(q)] = p.get(q);
    return out;
}

HardwareParams from_point(const DesignPoint& p) {
    if (p.family != kDramPimFamily || p.size != kParamCount) {
        throw ModelError("hw::from_point: " + to_string(p) +
                         " is not a point of the dram_pim family (family " + std::to_string(p.family) + ", " +
                         std::to_string(p.size) + " parameters)");
    }
    HardwareParams out;
    for (Param q : kAllParams) out.set(q, p.values[static_cast<std::size_t>(q)]);
    return out;
}

const Bounds& bounds_of(Param p, const Constraints& c) {
    switch (p) {
        case Param::node_rows:
            return c.node_rows;
        case Param::node_cols:
            return c.node_cols;
        case Param::pe_rows:
            return c.pe_rows;
        case Param::pe_cols:
            return c.pe_cols;
        case Param::ibuf_kib:
        case Param::wbuf_kib:
        case Param::obuf_kib:
            return c.buffer_kib;
        case Param::clock_mhz:
        case Param::data_width_bits:
            break;
    }
    throw InternalError("bounds_of: no bounds for hw::Param " + std::string(param_name(p)));
}

namespace {

// The node extents that tile `extent` banks exactly (III-A constraint 2), within `b`.
ParamRange divisors_within(int extent, const Bounds& b) {
    std::vector<int> values;
    for (int d = std::max(b.min, 1); d <= std::min(b.max, extent); ++d) {
        if (extent % d == 0) values.push_back(d);
    }
    return ParamRange::list(std::move(values));
}

bool has_power_of_two(const Bounds& b) {
    for (long long v = 1; v <= b.max; v *= 2) {
        if (v >= b.min) return true;
    }
    return false;
}

}  // namespace

ParamRange default_range(Param p, const Constraints& c) {
    if (p == Param::clock_mhz) {
        const double mhz = std::round(c.clock_mhz);
        if (mhz != c.clock_mhz || mhz < 1 || mhz > std::numeric_limits<int>::max())
            throw ModelError("hw::default_range: the clock axis holds whole MHz, the constraints' clock is " +
                             std::to_string(c.clock_mhz) + " MHz");
        return ParamRange::list({static_cast<int>(mhz)});
    }
    if (p == Param::data_width_bits) return ParamRange::list({c.data_width_bits});
    const Bounds& b = bounds_of(p, c);
    switch (p) {
        case Param::node_rows:
            return divisors_within(c.bank_rows, b);
        case Param::node_cols:
            return divisors_within(c.bank_cols, b);
        case Param::pe_rows:
        case Param::pe_cols:
            return has_power_of_two(b) ? ParamRange::log2(b.min, b.max) : ParamRange::linear(b.min, b.max, 1);
        case Param::ibuf_kib:
        case Param::wbuf_kib:
        case Param::obuf_kib: {
            constexpr int kGridKib = 8;  // see default_space: the gcd of NicePIM's buffer sizes
            const int first = (std::max(b.min, kGridKib) + kGridKib - 1) / kGridKib * kGridKib;
            return first <= b.max ? ParamRange::linear(first, b.max, kGridKib)
                                  : ParamRange::linear(b.min, b.max, 1);
        }
        case Param::clock_mhz:
        case Param::data_width_bits:
            break;
    }
    throw InternalError("default_range: unknown hw::Param");
}

DesignSpace default_space(const Constraints& c) {
    return make_space({default_range(Param::node_rows, c), default_range(Param::node_cols, c),
                       default_range(Param::pe_rows, c), default_range(Param::pe_cols, c),
                       default_range(Param::ibuf_kib, c), default_range(Param::wbuf_kib, c),
                       default_range(Param::obuf_kib, c)},
                      c);
}

}  // namespace pimdse::hw
