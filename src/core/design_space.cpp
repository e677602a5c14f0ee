// Design spaces of any family (include/pimdse/core/design_space.hpp).

#include "pimdse/core/design_space.hpp"

#include <algorithm>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/core/rng.hpp"

namespace pimdse {

std::string_view spacing_name(Spacing s) {
    switch (s) {
        case Spacing::linear:
            return "linear";
        case Spacing::log2:
            return "log2";
        case Spacing::list:
            return "list";
    }
    throw InternalError("spacing_name: unknown Spacing");
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

DesignSpace::DesignSpace(FamilyId family, std::vector<ParamAxis> axes)
    : family_(family), axes_(std::move(axes)) {
    if (axes_.size() > kMaxDesignParams) {
        throw ModelError("DesignSpace: " + std::to_string(axes_.size()) + " parameters, at most " +
                         std::to_string(kMaxDesignParams) + " are supported");
    }
    for (std::size_t i = 0; i < axes_.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (axes_[i].name == axes_[j].name)
                throw ModelError("DesignSpace: parameter '" + axes_[i].name + "' twice");
        }
    }
}

std::optional<std::size_t> DesignSpace::find(std::string_view name) const {
    for (std::size_t i = 0; i < axes_.size(); ++i) {
        if (axes_[i].name == name) return i;
    }
    return std::nullopt;
}

long double DesignSpace::size() const {
    long double n = 1;
    for (const ParamAxis& a : axes_) n *= static_cast<long double>(a.range.size());
    return n;
}

bool DesignSpace::contains(const DesignPoint& p) const {
    return index_of(p).has_value();
}

std::optional<DesignSpace::Index> DesignSpace::index_of(const DesignPoint& p) const {
    if (p.family != family_ || p.size != axes_.size()) return std::nullopt;
    Index index{};
    for (std::size_t i = 0; i < axes_.size(); ++i) {
        auto k = axes_[i].range.index_of(p.values[i]);
        if (!k) return std::nullopt;
        index[i] = *k;
    }
    return index;
}

DesignPoint DesignSpace::at(const Index& index) const {
    DesignPoint p;
    p.family = family_;
    p.size = static_cast<std::uint16_t>(axes_.size());
    for (std::size_t i = 0; i < axes_.size(); ++i) p.values[i] = axes_[i].range.value_at(index[i]);
    return p;
}

std::string to_string(const DesignPoint& p) {
    std::string out = "(";
    for (std::size_t i = 0; i < p.size; ++i) out += (i ? ", " : "") + std::to_string(p.values[i]);
    return out + ")";
}

std::size_t hash_value(const DesignPoint& p) {
    // Feed each parameter through SplitMix64 so that neighbouring points spread over all bits.
    std::uint64_t h = p.family;
    for (std::size_t i = 0; i < p.size; ++i) {
        std::uint64_t state = h ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.values[i]));
        h = splitmix64(state);
    }
    return static_cast<std::size_t>(h);
}

}  // namespace pimdse
