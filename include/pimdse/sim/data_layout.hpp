#pragma once
// Data layout patterns of activation tensors in DRAM (NicePIM III-E, Fig. 6): the layout
// order BCHW or BHWC, and for BCHW an optional channel grouping [Cn] that stores n
// channels of one pixel next to each other (layout B, C/n, H, W, n); and the row-aligned
// layout RA[bh x bw] of PIM Optimizer 8.1.1 (Eq. 52-56), which cuts each channel's H x W
// plane into bh x bw blocks stored one after another in row-major block order. Weights are
// not covered: they are read-only and stored in the order the mapper fetches them (III-E).

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
    /// Per (b, c) the plane in bh x bw blocks, blocks row-major, each block row-major
    /// (PIM Optimizer Eq. 52-56); a block is a whole number of DRAM rows (check_mapping),
    /// so every block and every channel's plane starts on a row boundary (Eq. 53).
    row_aligned,
};
/// The orders' names (mapping files, the store's `dl_in_order`), declared once.
inline constexpr EnumNames<LayoutOrder, 3> kLayoutOrderNames{
    {{LayoutOrder::bchw, "BCHW"}, {LayoutOrder::bhwc, "BHWC"}, {LayoutOrder::row_aligned, "RA"}}};

/// A data layout pattern (DL_i or DL_o of NicePIM III-E).
struct DataLayout {
    LayoutOrder order = LayoutOrder::bchw;
    /// Channel grouping n of BCHW[Cn]: a power of two >= 1; 1 means no grouping. Always 1
    /// for BHWC, where the channels of a pixel are adjacent already.
    std::int32_t group = 1;
    /// Block height and width of RA (powers of two); 1 for the other orders.
    std::int32_t block_h = 1;
    std::int32_t block_w = 1;

    friend constexpr bool operator==(DataLayout, DataLayout) = default;
};

/// True if `group` is a power of two >= 1 (at most 2^20) and BHWC has group 1; RA has group
/// 1 and a block of powers of two with at most 2^20 elements; the others a 1 x 1 block.
[[nodiscard]] bool is_valid(DataLayout layout) noexcept;

/// "BCHW", "BHWC", "BCHW[C8]", "RA[16x64]" (block height x width; the spelling of mapping
/// files and tables).
[[nodiscard]] std::string to_string(DataLayout layout);

/// Parses what to_string writes ("BCHW[C1]" is accepted as "BCHW"); nullopt for anything
/// else, including a group that is not a power of two, "BHWC[Cn]" and "RA" without a block.
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

/// RA: blocks per channel along H and W (the last ones padded) and the channel stride in
/// elements (Eq. 53: whole blocks, so row-aligned when a block is whole rows).
[[nodiscard]] constexpr std::int64_t blocks_h(const TensorDims& d, DataLayout l) noexcept {
    return (d.H + l.block_h - 1) / l.block_h;
}
[[nodiscard]] constexpr std::int64_t blocks_w(const TensorDims& d, DataLayout l) noexcept {
    return (d.W + l.block_w - 1) / l.block_w;
}
[[nodiscard]] constexpr std::int64_t channel_stride(const TensorDims& d, DataLayout l) noexcept {
    return blocks_h(d, l) * blocks_w(d, l) * l.block_h * l.block_w;
}

/// Elements the tensor occupies in DRAM, padding included (RA pads H and W to whole blocks).
[[nodiscard]] constexpr std::int64_t stored_elements(const TensorDims& d, DataLayout l) noexcept {
    if (l.order == LayoutOrder::row_aligned) return d.B * d.C * channel_stride(d, l);
    return d.B * stored_channels(d, l) * d.H * d.W;
}

/// Element offset of (b, c, h, w) from the tensor's base (PIM Optimizer Eq. 50-51,
/// extended with the grouping):
///   BCHW[Cn]: (((b * C/n + c/n) * H + h) * W + w) * n + c mod n   (BCHW: n = 1)
///   BHWC:     ((b * H + h) * W + w) * C + c
///   RA:       (b * C + c) * stride_c + (h / bh * blocks_w + w / bw) * bh bw
///             + (h mod bh) * bw + w mod bw                      (Eq. 52-56, in elements)
/// Preconditions: is_valid(l), indices in range.
[[nodiscard]] constexpr std::int64_t element_offset(const TensorDims& d, DataLayout l, std::int64_t b,
                                                    std::int64_t c, std::int64_t h, std::int64_t w) noexcept {
    if (l.order == LayoutOrder::bhwc) return ((b * d.H + h) * d.W + w) * d.C + c;
    if (l.order == LayoutOrder::row_aligned) {
        const std::int64_t bh = l.block_h, bw = l.block_w;
        return (b * d.C + c) * channel_stride(d, l) + (h / bh * blocks_w(d, l) + w / bw) * bh * bw +
               h % bh * bw + w % bw;
    }
    const std::int64_t n = l.group;
    const std::int64_t groups = stored_channels(d, l) / n;
    return (((b * groups + c / n) * d.H + h) * d.W + w) * n + c % n;
}

/// The RA block the mapper offers for a tensor of width `width` on a DRAM row of
/// `row_elements` elements (a power of two): one row per block, as square as the row allows
/// (width 2^ceil(log2(row) / 2)), narrowed to the tensor's width rounded up to a power of two
/// so that a narrow map does not pad every block row; the height takes the rest of the row.
/// A block of one row needs no padding to keep channels row-aligned (Eq. 53), and a tile
/// no wider than the block crosses at most one block boundary per axis.
[[nodiscard]] DataLayout row_aligned_for(std::int64_t width, std::int64_t row_elements) noexcept;

/// A well-mixed hash (layouts are part of memo keys).
[[nodiscard]] std::size_t hash_value(DataLayout layout) noexcept;

}  // namespace pimdse::sim
