#pragma once
// Data layout patterns of activation tensors in DRAM (NicePIM III-E, Fig. 6): the layout
// order BCHW or BHWC, and for BCHW an optional channel grouping [Cn] that stores n
// channels of one pixel next to each other (layout B, C/n, H, W, n). Weights are not
// covered: they are read-only and stored in the order the mapper fetches them (III-E).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pimdse/core/enum_names.hpp"

namespace pimdse::sim {

enum class LayoutOrder : std::uint8_t {
    bchw,  ///< W fastest, then H, then C, then B ("W-H-C-B", NicePIM Fig. 6)
    bhwc,  ///< C fastest, then W, then H, then B
};
/// The orders' names (mapping files, the sweep file's `dl_in_order`), declared once.
inline constexpr EnumNames<LayoutOrder, 2> kLayoutOrderNames{
    {{LayoutOrder::bchw, "BCHW"}, {LayoutOrder::bhwc, "BHWC"}}};

/// A data layout pattern (DL_i or DL_o of NicePIM III-E).
struct DataLayout {
    LayoutOrder order = LayoutOrder::bchw;
    /// Channel grouping n of BCHW[Cn]: a power of two >= 1; 1 means no grouping. Always 1
    /// for BHWC, where the channels of a pixel are adjacent already.
    std::int32_t group = 1;

    friend constexpr bool operator==(DataLayout, DataLayout) = default;
};

/// True if `group` is a power of two >= 1 (at most 2^20) and BHWC has group 1.
[[nodiscard]] bool is_valid(DataLayout layout) noexcept;

/// "BCHW", "BHWC", "BCHW[C8]" (the spelling of mapping files and tables).
[[nodiscard]] std::string to_string(DataLayout layout);

/// Parses what to_string writes ("BCHW[C1]" is accepted as "BCHW"); nullopt for anything
/// else, including a group that is not a power of two and "BHWC[Cn]".
[[nodiscard]] std::optional<DataLayout> parse_data_layout(std::string_view text) noexcept;

/// A 4-D activation tensor: batch, channels, height, width (a matmul operand uses
/// C = contraction, H = rows, W = 1).
struct TensorDims {
    std::int64_t B = 1;
    std::int64_t C = 1;
    std::int64_t H = 1;
    std::int64_t W = 1;

    friend constexpr bool operator==(const TensorDims&, const TensorDims&) = default;
};

/// Channels as stored: C rounded up to a multiple of the group (the last group is padded).
[[nodiscard]] constexpr std::int64_t stored_channels(const TensorDims& d, DataLayout l) noexcept {
    return (d.C + l.group - 1) / l.group * l.group;
}

/// Elements the tensor occupies in DRAM, padding included.
[[nodiscard]] constexpr std::int64_t stored_elements(const TensorDims& d, DataLayout l) noexcept {
    return d.B * stored_channels(d, l) * d.H * d.W;
}

/// Element offset of (b, c, h, w) from the tensor's base (PIM Optimizer Eq. 50-51,
/// extended with the grouping):
///   BCHW[Cn]: (((b * C/n + c/n) * H + h) * W + w) * n + c mod n   (BCHW: n = 1)
///   BHWC:     ((b * H + h) * W + w) * C + c
/// Preconditions: is_valid(l), indices in range.
[[nodiscard]] constexpr std::int64_t element_offset(const TensorDims& d, DataLayout l, std::int64_t b,
                                                    std::int64_t c, std::int64_t h, std::int64_t w) noexcept {
    if (l.order == LayoutOrder::bhwc) return ((b * d.H + h) * d.W + w) * d.C + c;
    const std::int64_t n = l.group;
    const std::int64_t groups = stored_channels(d, l) / n;
    return (((b * groups + c / n) * d.H + h) * d.W + w) * n + c % n;
}

/// A well-mixed hash (layouts are part of memo keys).
[[nodiscard]] std::size_t hash_value(DataLayout layout) noexcept;

}  // namespace pimdse::sim
