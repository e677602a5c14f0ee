#pragma once
// A family's design space: one named, ordered range of integer values per parameter
// (docs/config.md, `space:`). The tuner samples it and encodes points by per-parameter
// indices; the space knows nothing of legality or area, which are the family's.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pimdse/core/design_point.hpp"

namespace pimdse {

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
    /// The i-th value, ascending; throws ModelError if i >= size().
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

/// One parameter of a family: its configuration key, unit and meaning (the store's column
/// and its description), and the values the space gives it.
struct ParamAxis {
    std::string name;     ///< "pe_rows": the key in configuration files, the column in /candidates
    std::string unit;     ///< "KiB", or empty for a count
    std::string meaning;  ///< "PEA_row: rows of each node's PE array"
    ParamRange range = ParamRange::list({1});

    friend bool operator==(const ParamAxis&, const ParamAxis&) = default;
};

class DesignSpace {
public:
    /// Per-parameter indices of a point, in parameter order (the first dimensions() are used).
    using Index = std::array<std::size_t, kMaxDesignParams>;

    DesignSpace() = default;
    /// Throws ModelError for more than kMaxDesignParams axes or a repeated name.
    DesignSpace(FamilyId family, std::vector<ParamAxis> axes);

    [[nodiscard]] FamilyId family() const { return family_; }
    [[nodiscard]] std::size_t dimensions() const { return axes_.size(); }
    [[nodiscard]] const std::vector<ParamAxis>& axes() const { return axes_; }
    [[nodiscard]] const ParamAxis& axis(std::size_t i) const { return axes_.at(i); }
    [[nodiscard]] const ParamRange& range(std::size_t i) const { return axes_.at(i).range; }
    void set_range(std::size_t i, ParamRange r) { axes_.at(i).range = std::move(r); }
    /// The index of the parameter named `name`, or nothing.
    [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;

    /// The number of points; floating point because it overflows 64 bits easily.
    [[nodiscard]] long double size() const;
    /// The point's family is this space's, its size the dimensions, every value in its range.
    [[nodiscard]] bool contains(const DesignPoint& p) const;
    [[nodiscard]] std::optional<Index> index_of(const DesignPoint& p) const;
    /// Throws ModelError if an index is outside its range.
    [[nodiscard]] DesignPoint at(const Index& index) const;

    friend bool operator==(const DesignSpace&, const DesignSpace&) = default;

private:
    FamilyId family_ = 0;
    std::vector<ParamAxis> axes_;
};

}  // namespace pimdse
