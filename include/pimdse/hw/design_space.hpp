#pragma once
// The hardware design space: one range of values per Table I parameter. The tuner samples
// it and encodes points by per-parameter indices; the space itself knows nothing of
// legality (hw::check) or area.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"

namespace pimdse::hw {

enum class Spacing {
    linear,  ///< min, min + step, ... up to max
    log2,    ///< the powers of two in [min, max]
    list,    ///< an explicit list of values
};

[[nodiscard]] std::string_view spacing_name(Spacing s);  // "linear", "log2", "list"

/// The values one parameter may take, ascending and distinct.
class ParamRange {
public:
    /// Throw ModelError on an empty or malformed range; io validates config
    /// files first and reports their errors with file, line and key.
    [[nodiscard]] static ParamRange linear(int min, int max, int step);
    [[nodiscard]] static ParamRange log2(int min, int max);
    [[nodiscard]] static ParamRange list(std::vector<int> values);

    [[nodiscard]] Spacing spacing() const { return spacing_; }
    /// As given: for log2 they need not be powers of two; for a list, the extremes.
    [[nodiscard]] int min() const { return min_; }
    [[nodiscard]] int max() const { return max_; }
    [[nodiscard]] int step() const { return step_; }  ///< linear only; 0 otherwise

    [[nodiscard]] const std::vector<int>& values() const { return values_; }
    [[nodiscard]] std::size_t size() const { return values_.size(); }
    [[nodiscard]] bool contains(int v) const { return index_of(v).has_value(); }
    [[nodiscard]] std::optional<std::size_t> index_of(int v) const;
    /// The i-th value, ascending; throws std::out_of_range if i >= size().
    [[nodiscard]] int value_at(std::size_t i) const;

    /// "linear 8..2048 step 8", "log2 1..256", "list 2, 4, 8, 16".
    [[nodiscard]] std::string str() const;

    friend bool operator==(const ParamRange&, const ParamRange&) = default;

private:
    ParamRange(Spacing spacing, int min, int max, int step, std::vector<int> values);

    Spacing spacing_ = Spacing::list;
    int min_ = 0;
    int max_ = 0;
    int step_ = 0;
    std::vector<int> values_;
};

class DesignSpace {
public:
    /// Per-parameter indices of a point, in Param order.
    using Index = std::array<std::size_t, kParamCount>;

    /// The default space of the default constraints (NicePIM Table II).
    DesignSpace();
    explicit DesignSpace(std::array<ParamRange, kParamCount> ranges);

    [[nodiscard]] const ParamRange& range(Param p) const { return ranges_[static_cast<std::size_t>(p)]; }
    void set_range(Param p, ParamRange r) { ranges_[static_cast<std::size_t>(p)] = std::move(r); }

    /// The number of points; floating point because it overflows 64 bits easily.
    [[nodiscard]] long double size() const;
    [[nodiscard]] bool contains(const HardwareParams& p) const;
    [[nodiscard]] std::optional<Index> index_of(const HardwareParams& p) const;
    /// Throws std::out_of_range if an index is outside its range.
    [[nodiscard]] HardwareParams at(const Index& index) const;

    friend bool operator==(const DesignSpace&, const DesignSpace&) = default;

private:
    std::array<ParamRange, kParamCount> ranges_;
};

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

/// The default range of one parameter under `c` (see default_space).
[[nodiscard]] ParamRange default_range(Param p, const Constraints& c);

/// The constraint bounds of one parameter (node_rows -> c.node_rows, ibuf_kib -> c.buffer_kib, ...).
[[nodiscard]] const Bounds& bounds_of(Param p, const Constraints& c);

}  // namespace pimdse::hw
