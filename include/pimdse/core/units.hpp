#pragma once
// Strong unit types: a value says what it holds, and cycles never add to picojoules.

#include <compare>
#include <cstdint>

namespace pimdse {

/// A quantity of one unit, tagged so that different units do not mix by accident.
template <class Tag, class Rep>
class Quantity {
public:
    using rep = Rep;
    constexpr Quantity() = default;
    constexpr explicit Quantity(Rep v) : v_(v) {}
    [[nodiscard]] constexpr Rep value() const { return v_; }

    constexpr Quantity& operator+=(Quantity o) {
        v_ += o.v_;
        return *this;
    }
    constexpr Quantity& operator-=(Quantity o) {
        v_ -= o.v_;
        return *this;
    }
    constexpr Quantity& operator*=(Rep k) {
        v_ *= k;
        return *this;
    }
    friend constexpr Quantity operator+(Quantity a, Quantity b) { return Quantity(a.v_ + b.v_); }
    friend constexpr Quantity operator-(Quantity a, Quantity b) { return Quantity(a.v_ - b.v_); }
    friend constexpr Quantity operator*(Quantity a, Rep k) { return Quantity(a.v_ * k); }
    friend constexpr Quantity operator*(Rep k, Quantity a) { return Quantity(a.v_ * k); }
    /// The ratio of two quantities of one unit is a plain number.
    friend constexpr double operator/(Quantity a, Quantity b) {
        return static_cast<double>(a.v_) / static_cast<double>(b.v_);
    }
    friend constexpr auto operator<=>(Quantity, Quantity) = default;

private:
    Rep v_{};
};

struct CyclesTag {};
struct PicojoulesTag {};
struct BytesTag {};
struct SquareMillimetresTag {};

using Cycles = Quantity<CyclesTag, double>;                        ///< clock cycles of the node clock
using Picojoules = Quantity<PicojoulesTag, double>;                ///< energy, pJ
using Bytes = Quantity<BytesTag, std::int64_t>;                    ///< storage or traffic, bytes
using SquareMillimetres = Quantity<SquareMillimetresTag, double>;  ///< silicon area, mm²

inline constexpr std::int64_t kKiB = 1024;
inline constexpr std::int64_t kMiB = 1024 * kKiB;

[[nodiscard]] constexpr Bytes kibibytes(std::int64_t n) {
    return Bytes(n * kKiB);
}
[[nodiscard]] constexpr Bytes mebibytes(std::int64_t n) {
    return Bytes(n * kMiB);
}

/// ceil(a / b) for a >= 0 and b > 0: whole tiles of an extent, flits of a chunk, shards of a
/// group. The one spelling of the rounding; callers guard b == 0 where it can occur.
[[nodiscard]] constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept {
    return (a + b - 1) / b;
}

/// Bytes that `elements` values of `bits` bits each occupy, packed without padding:
/// ceil(elements x bits / 8), as the DRAM and the buffers hold them (docs/model.md, "Clock
/// and data width"). A 12-bit value alone takes 2 bytes, three of them 5.
[[nodiscard]] constexpr std::int64_t packed_bytes(std::int64_t elements, std::int64_t bits) noexcept {
    return ceil_div(elements * bits, 8);
}

}  // namespace pimdse
