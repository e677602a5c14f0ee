#include "pimdse/sim/data_layout.hpp"

#include <algorithm>
#include <charconv>

namespace pimdse::sim {

namespace {

constexpr bool power_of_two(std::int64_t n) noexcept {
    return n >= 1 && (n & (n - 1)) == 0;
}

// The digits of `text` as a positive int32, or 0.
std::int32_t number(std::string_view text) noexcept {
    std::int32_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    return ec == std::errc{} && end == text.data() + text.size() ? n : 0;
}

// "[16x64]" after "RA".
std::optional<DataLayout> parse_block(std::string_view rest) noexcept {
    if (rest.size() < 5 || rest.front() != '[' || rest.back() != ']') return std::nullopt;
    rest = rest.substr(1, rest.size() - 2);
    const std::size_t x = rest.find('x');
    if (x == std::string_view::npos) return std::nullopt;
    DataLayout l{LayoutOrder::row_aligned, 1, number(rest.substr(0, x)), number(rest.substr(x + 1))};
    if (!is_valid(l)) return std::nullopt;
    return l;
}

}  // namespace

bool is_valid(DataLayout layout) noexcept {
    const std::int32_t n = layout.group;
    if (n > (1 << 20) || !power_of_two(n)) return false;
    if (layout.order == LayoutOrder::row_aligned)
        return n == 1 && power_of_two(layout.block_h) && power_of_two(layout.block_w) &&
               std::int64_t{layout.block_h} * layout.block_w <= (1 << 20);
    if (layout.block_h != 1 || layout.block_w != 1) return false;
    return layout.order == LayoutOrder::bchw || n == 1;
}

std::string to_string(DataLayout layout) {
    std::string s(name_of(kLayoutOrderNames, layout.order));
    if (layout.order == LayoutOrder::row_aligned)
        return s + "[" + std::to_string(layout.block_h) + "x" + std::to_string(layout.block_w) + "]";
    if (layout.group != 1) s += "[C" + std::to_string(layout.group) + "]";
    return s;
}

std::optional<DataLayout> parse_data_layout(std::string_view text) noexcept {
    if (text.substr(0, 2) == "RA") return parse_block(text.substr(2));
    DataLayout l;
    const std::optional<LayoutOrder> order = value_of(kLayoutOrderNames, text.substr(0, 4));
    if (!order) return std::nullopt;
    l.order = *order;
    std::string_view rest = text.substr(4);
    if (!rest.empty()) {
        if (rest.size() < 4 || rest.substr(0, 2) != "[C" || rest.back() != ']') return std::nullopt;
        l.group = number(rest.substr(2, rest.size() - 3));
    }
    if (!is_valid(l)) return std::nullopt;
    return l;
}

DataLayout row_aligned_for(std::int64_t width, std::int64_t row_elements) noexcept {
    std::int64_t bw = 1;
    while (bw * bw < row_elements) bw *= 2;
    while (bw > 1 && bw / 2 >= width) bw /= 2;
    bw = std::min(bw, row_elements);
    return {LayoutOrder::row_aligned, 1, static_cast<std::int32_t>(row_elements / bw),
            static_cast<std::int32_t>(bw)};
}

std::size_t hash_value(DataLayout layout) noexcept {
    std::uint64_t x =
        (static_cast<std::uint64_t>(layout.order) << 32) ^ static_cast<std::uint32_t>(layout.group);
    if (layout.order == LayoutOrder::row_aligned)  // the other orders keep their old hashes
        x ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(layout.block_h)) << 40 ^
             static_cast<std::uint64_t>(static_cast<std::uint32_t>(layout.block_w)) << 20;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
}

}  // namespace pimdse::sim
