#pragma once
// A point of a design space, whatever the family (docs/architecture.md, "Design-point
// families"): the family's id and one integer per parameter, in the family's parameter order.
// A value type that is trivially copyable (it goes over MPI as bytes and into HDF5 rows),
// compared and hashed (the proposers' sets of seen points). What a value means, its name and
// unit, is the family's; the engine, the tuner and the store only carry it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace pimdse {

/// The most parameters a family may have: the width of a point and of the store's columns.
inline constexpr std::size_t kMaxDesignParams = 12;

/// A family's index in the registry (family/family.hpp); 0 is the built-in dram_pim family.
using FamilyId = std::uint16_t;

struct DesignPoint {
    std::array<std::int32_t, kMaxDesignParams> values{};  ///< the first `size` are the parameters
    FamilyId family = 0;
    std::uint16_t size = 0;  ///< parameters in use, <= kMaxDesignParams

    [[nodiscard]] std::int32_t operator[](std::size_t i) const { return values[i]; }
    [[nodiscard]] std::int32_t& operator[](std::size_t i) { return values[i]; }
    [[nodiscard]] std::span<const std::int32_t> params() const { return {values.data(), size}; }

    friend bool operator==(const DesignPoint&, const DesignPoint&) = default;
};

/// "(4, 4, 32, 32, 128, 128, 128)": the values in parameter order. A family's describe()
/// names them.
[[nodiscard]] std::string to_string(const DesignPoint& p);

/// A well-mixed 64-bit hash of the family and the parameters in use.
[[nodiscard]] std::size_t hash_value(const DesignPoint& p);

}  // namespace pimdse

template <>
struct std::hash<pimdse::DesignPoint> {
    std::size_t operator()(const pimdse::DesignPoint& p) const noexcept { return pimdse::hash_value(p); }
};
