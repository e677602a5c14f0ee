#include "pimdse/sim/data_layout.hpp"

#include <charconv>

namespace pimdse::sim {

bool is_valid(DataLayout layout) noexcept {
    const std::int32_t n = layout.group;
    if (n < 1 || n > (1 << 20) || (n & (n - 1)) != 0) return false;
    return layout.order == LayoutOrder::bchw || n == 1;
}

std::string to_string(DataLayout layout) {
    std::string s(name_of(kLayoutOrderNames, layout.order));
    if (layout.group != 1) s += "[C" + std::to_string(layout.group) + "]";
    return s;
}

std::optional<DataLayout> parse_data_layout(std::string_view text) noexcept {
    DataLayout l;
    const std::optional<LayoutOrder> order = value_of(kLayoutOrderNames, text.substr(0, 4));
    if (!order) return std::nullopt;
    l.order = *order;
    std::string_view rest = text.substr(4);
    if (!rest.empty()) {
        if (rest.size() < 4 || rest.substr(0, 2) != "[C" || rest.back() != ']') return std::nullopt;
        const std::string_view digits = rest.substr(2, rest.size() - 3);
        std::int32_t n = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
        l.group = n;
    }
    if (!is_valid(l)) return std::nullopt;
    return l;
}

std::size_t hash_value(DataLayout layout) noexcept {
    std::uint64_t x =
        (static_cast<std::uint64_t>(layout.order) << 32) ^ static_cast<std::uint32_t>(layout.group);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
}

}  // namespace pimdse::sim
