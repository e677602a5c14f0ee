#include "pimdse/hw/design_space.hpp"

#include <algorithm>
#include <stdexcept>

#include "pimdse/core/error.hpp"

namespace pimdse::hw {

std::string_view spacing_name(Spacing s) {
    switch (s) {
        case Spacing::linear:
            return "linear";
        case Spacing::log2:
            return "log2";
        case Spacing::list:
            return "list";
    }
    throw InternalError("spacing_name: unknown hw::Spacing");
}

ParamRange::ParamRange(Spacing spacing, int min, int max, int step, std::vector<int> values)
    : spacing_(spacing), min_(min), max_(max), step_(step), values_(std::move(values)) {}

ParamRange ParamRange::linear(int min, int max, int step) {
    if (step < 1 || min > max) {
        throw ModelError("ParamRange::linear: need min <= max and step >= 1, got " + std::to_string(min) +
                         ".." + std::to_string(max) + " step " + std::to_string(step));
    }
    std::vector<int> values;
    // Count in 64 bits: min + k * step may pass INT_MAX just after the last value.
    for (long long v = min; v <= max; v += step) values.push_back(static_cast<int>(v));
    return ParamRange(Spacing::linear, min, max, step, std::move(values));
}

ParamRange ParamRange::log2(int min, int max) {
    std::vector<int> values;
    for (long long v = 1; v <= max; v *= 2) {
        if (v >= min) values.push_back(static_cast<int>(v));
    }
    if (min > max || values.empty()) {
        throw ModelError("ParamRange::log2: no power of two in [" + std::to_string(min) + ", " +
                         std::to_string(max) + "]");
    }
    return ParamRange(Spacing::log2, min, max, 0, std::move(values));
}

ParamRange ParamRange::list(std::vector<int> values) {
    std::sort(values.begin(), values.end());
    if (values.empty() || std::adjacent_find(values.begin(), values.end()) != values.end()) {
        throw ModelError("ParamRange::list: need at least one value and no duplicates");
    }
    const int lo = values.front();
    const int hi = values.back();
    return ParamRange(Spacing::list, lo, hi, 0, std::move(values));
}

std::optional<std::size_t> ParamRange::index_of(int v) const {
    switch (spacing_) {
        case Spacing::linear:
            if (v < min_ || v > max_ || (static_cast<long long>(v) - min_) % step_ != 0) return std::nullopt;
            return static_cast<std::size_t>((static_cast<long long>(v) - min_) / step_);
        case Spacing::log2:
        case Spacing::list: {
            // At most a few thousand ascending values: binary search.
            auto it = std::lower_bound(values_.begin(), values_.end(), v);
            if (it == values_.end() || *it != v) return std::nullopt;
            return static_cast<std::size_t>(it - values_.begin());
        }
    }
    return std::nullopt;
}

int ParamRange::value_at(std::size_t i) const {
    if (i >= values_.size()) {
        throw ModelError("ParamRange::value_at: index " + std::to_string(i) + " of a range of " +
                         std::to_string(values_.size()) + " values");
    }
    return values_[i];
}

std::string ParamRange::str() const {
    switch (spacing_) {
        case Spacing::linear:
            return "linear " + std::to_string(min_) + ".." + std::to_string(max_) + " step " +
                   std::to_string(step_);
        case Spacing::log2:
            return "log2 " + std::to_string(min_) + ".." + std::to_string(max_);
        case Spacing::list:
            break;
    }
    std::string out = "list ";
    for (std::size_t i = 0; i < values_.size(); ++i) out += (i ? ", " : "") + std::to_string(values_[i]);
    return out;
}

DesignSpace::DesignSpace() : DesignSpace(default_space(Constraints{})) {}

DesignSpace::DesignSpace(std::array<ParamRange, kParamCount> ranges) : ranges_(std::move(ranges)) {}

long double DesignSpace::size() const {
    long double n = 1;
    for (const ParamRange& r : ranges_) n *= static_cast<long double>(r.size());
    return n;
}

bool DesignSpace::contains(const HardwareParams& p) const {
    return index_of(p).has_value();
}

std::optional<DesignSpace::Index> DesignSpace::index_of(const HardwareParams& p) const {
    Index index{};
    for (std::size_t i = 0; i < kParamCount; ++i) {
        auto k = ranges_[i].index_of(p.get(kAllParams[i]));
        if (!k) return std::nullopt;
        index[i] = *k;
    }
    return index;
}

HardwareParams DesignSpace::at(const Index& index) const {
    HardwareParams p;
    for (std::size_t i = 0; i < kParamCount; ++i) p.set(kAllParams[i], ranges_[i].value_at(index[i]));
    return p;
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
    }
    throw InternalError("bounds_of: unknown hw::Param");
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
    }
    throw InternalError("default_range: unknown hw::Param");
}

DesignSpace default_space(const Constraints& c) {
    return DesignSpace({default_range(Param::node_rows, c), default_range(Param::node_cols, c),
                        default_range(Param::pe_rows, c), default_range(Param::pe_cols, c),
                        default_range(Param::ibuf_kib, c), default_range(Param::wbuf_kib, c),
                        default_range(Param::obuf_kib, c)});
}

}  // namespace pimdse::hw
