#pragma once
// The names of an enumeration, declared once: one table of {value, name} per enum, from which
// to_string, parsing and every list of choices (configuration keys, HDF5 enum types of the
// sweep file) are derived, so that the writer and every reader agree by construction
// (docs/architecture.md, "Where to add").

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pimdse {

template <class Enum>
struct EnumName {
    Enum value;
    std::string_view name;
};

/// One enum's names; by convention in value order.
template <class Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

/// The name of `value`, or `fallback` for a value the table lacks.
template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::string_view name_of(const EnumNames<Enum, N>& names, Enum value,
                                                 std::string_view fallback = "unknown") noexcept {
    for (const EnumName<Enum>& n : names) {
        if (n.value == value) return n.name;
    }
    return fallback;
}

/// The value named `name`, if any.
template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::optional<Enum> value_of(const EnumNames<Enum, N>& names,
                                                     std::string_view name) noexcept {
    for (const EnumName<Enum>& n : names) {
        if (n.name == name) return n.value;
    }
    return std::nullopt;
}

/// True if entry i holds the value i: the names then list the values 0, 1, ... in order,
/// as an HDF5 enum type and a configuration's list of choices need.
template <class Enum, std::size_t N>
[[nodiscard]] constexpr bool is_dense(const EnumNames<Enum, N>& names) noexcept {
    for (std::size_t i = 0; i < N; ++i) {
        if (static_cast<std::size_t>(names[i].value) != i) return false;
    }
    return true;
}

/// The names in table order (value order for a dense table).
template <class Enum, std::size_t N>
[[nodiscard]] std::vector<std::string_view> names_of(const EnumNames<Enum, N>& names) {
    std::vector<std::string_view> out;
    out.reserve(N);
    for (const EnumName<Enum>& n : names) out.push_back(n.name);
    return out;
}

}  // namespace pimdse
