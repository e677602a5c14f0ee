#pragma once
// What one PIM-node computes and how it is cut into tiles: the part-layer (the loop bounds
// a node gets after layer partitioning, NicePIM III-C), the node's compute and memory
// resources (III-A), and a tiling (spatial unrolling on the PE array, temporal tile sizes,
// loop order). Shared by the intra-node mapper (intra_node.hpp), the analytic DRAM model
// (dram.hpp) and the trace-driven DRAM reference (dram_reference.hpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pimdse/core/units.hpp"

namespace pimdse::sim {

/// The loop bounds one node computes (NicePIM Fig. 2(b)): output[b][k][p][q] +=
/// input[b][c][p*stride_h + r][q*stride_w + s] * weight[k][c][r][s].
struct PartLayer {
    std::int64_t B = 1, K = 1, C = 1, P = 1, Q = 1, R = 1, S = 1;
    std::int32_t stride_h = 1, stride_w = 1;
    /// Input height and width the part-layer needs (halo included, padding excluded);
    /// normally (P - 1) * stride + R.
    std::int64_t H = 1, W = 1;
    /// False for an activation x activation matmul (attention Q.K^T, P.V): the second
    /// operand is a B x K x C activation tensor stored with the input's data layout.
    bool has_weights = true;
    /// Depthwise convolution: output channel k reads input channel k only; C must be 1.
    bool depthwise = false;
    std::int32_t data_bits = 16;  ///< inputs, weights, outputs (NicePIM VIII-B)
    std::int32_t psum_bits = 32;  ///< partial sums (NicePIM VIII-B)

    /// A dense convolution with an R x R kernel and output P x Q, its input extent H x W
    /// from the stride (halo included, no padding).
    [[nodiscard]] static PartLayer convolution(std::int64_t K, std::int64_t C, std::int64_t P, std::int64_t Q,
                                               std::int64_t R, std::int32_t stride = 1,
                                               std::int64_t B = 1) noexcept;

    [[nodiscard]] std::int64_t macs() const noexcept { return B * K * C * P * Q * R * S; }
    /// Channels of the input tensor: K for depthwise, else C.
    [[nodiscard]] std::int64_t input_channels() const noexcept { return depthwise ? K : C; }

    friend bool operator==(const PartLayer&, const PartLayer&) = default;
};

/// One PIM-node's resources. Buffers, PE array and clock are design parameters; port width
/// and row buffer follow from the node's banks, which are bound into one wide port and
/// behave as one bank (NicePIM III-A).
struct NodeSpec {
    std::int32_t pe_rows = 32;  ///< PEA_row: parallel MAC units, rows
    std::int32_t pe_cols = 32;  ///< PEA_col
    Bytes ibuf{128 * kKiB};     ///< input buffer
    Bytes wbuf{128 * kKiB};     ///< weight buffer
    Bytes obuf{128 * kKiB};     ///< output (partial-sum) buffer
    /// banks x 128 bits (Table II bank width): bits moved by one DRAM access.
    std::int32_t dram_port_bits = 16 * 128;
    /// banks x per-bank row size; 1 KiB per bank by default (an HBM2 pseudo-channel row),
    /// until the technology table provides it.
    Bytes row_buffer{16 * kKiB};
    /// DRAM timing in node cycles (the technology table's HBM timing at 400 MHz; docs/model.md,
    /// "DRAM timing"): a column access every tCCD_L (6 ns), a row miss precharges (tRP, 14 ns)
    /// and activates (tRCD, 14 ns), and a row stays open at least tRAS (34 ns).
    double access_cycles = 2.4;
    double precharge_cycles = 5.6;
    double activate_cycles = 5.6;
    double ras_cycles = 13.6;
    /// Direction-dependent timing, command to command: a read to its row's precharge (tRTP,
    /// 14 ns), a write to its row's precharge (write latency, burst and recovery tWR, 28 ns),
    /// a write to the next read (tWTR_L with the write's latency and burst, 20 ns) and a read
    /// to the next write (14 ns).
    double read_precharge_cycles = 5.6;
    double write_precharge_cycles = 11.2;
    double write_read_cycles = 8.0;
    double read_write_cycles = 5.6;
    /// tREFI / (tREFI - tRFC): the banks are refreshing for tRFC of every tREFI.
    double refresh_factor = 3900.0 / 3640.0;
    /// tREFI in node cycles (3.9 us): how often a refresh interrupts an open row.
    double refresh_interval_cycles = 3900.0 * 0.4;
    double clock_mhz = 400.0;

    /// The node of a system with `banks` banks per node (port and row buffer scale).
    [[nodiscard]] static NodeSpec with_banks(std::int32_t pe_rows, std::int32_t pe_cols,
                                             std::int64_t buffer_kib, std::int32_t banks);

    friend bool operator==(const NodeSpec&, const NodeSpec&) = default;
};

/// Tile loops of the intra-node nest: the five of the output and the channels, then the
/// kernel's rows R and columns S. A tile holds tR x tS of the kernel; the fast search and the
/// node MIP keep R and S whole (one tile), the exact search and the references tile them.
enum class LoopDim : std::uint8_t { B, K, C, P, Q, R, S };
inline constexpr std::size_t kLoopDims = 7;
/// The loops B, K, C, P, Q (the first five LoopDims), which the fast search and the node MIP
/// tile; R and S stay whole there.
inline constexpr std::size_t kFastLoopDims = 5;

/// An order of the tile loops: a permutation of B, K, C, P, Q, R, S, outer to inner (5040 of
/// them). The four named ones are those the fast search and the node MIP try, R and S
/// innermost; their names say which tensor stays in its buffer while the innermost loop of
/// more than one tile runs.
struct LoopOrder {
    std::array<LoopDim, kLoopDims> loops{LoopDim::K, LoopDim::B, LoopDim::P, LoopDim::Q,
                                         LoopDim::C, LoopDim::R, LoopDim::S};

    static const LoopOrder kbpqc;  ///< output stationary, K outermost: psums accumulate over C on chip
    static const LoopOrder bpqkc;  ///< output stationary, pixels outermost
    static const LoopOrder kcbpq;  ///< weight stationary: a weight tile is fetched once
    static const LoopOrder bpqck;  ///< input stationary: an input tile is fetched once

    friend constexpr bool operator==(const LoopOrder&, const LoopOrder&) = default;
};
inline constexpr LoopOrder LoopOrder::kbpqc{
    {LoopDim::K, LoopDim::B, LoopDim::P, LoopDim::Q, LoopDim::C, LoopDim::R, LoopDim::S}};
inline constexpr LoopOrder LoopOrder::bpqkc{
    {LoopDim::B, LoopDim::P, LoopDim::Q, LoopDim::K, LoopDim::C, LoopDim::R, LoopDim::S}};
inline constexpr LoopOrder LoopOrder::kcbpq{
    {LoopDim::K, LoopDim::C, LoopDim::B, LoopDim::P, LoopDim::Q, LoopDim::R, LoopDim::S}};
inline constexpr LoopOrder LoopOrder::bpqck{
    {LoopDim::B, LoopDim::P, LoopDim::Q, LoopDim::C, LoopDim::K, LoopDim::R, LoopDim::S}};

/// The orders the fast search (AnalyticIntraNodeMapper) and the node MIP try; arrays of
/// per-order results "for the four orders" are indexed as this one.
inline constexpr std::size_t kFastOrderCount = 4;
inline constexpr std::array<LoopOrder, kFastOrderCount> kFastOrders{LoopOrder::kbpqc, LoopOrder::bpqkc,
                                                                    LoopOrder::kcbpq, LoopOrder::bpqck};
/// Every permutation of the seven tile loops (the exact search's and the references' space).
inline constexpr std::size_t kAllOrderCount = 5040;
/// The 5040 orders, lexicographic in LoopDim order (B K C P Q R S first, S R Q P C K B last).
[[nodiscard]] const std::array<LoopOrder, kAllOrderCount>& all_loop_orders() noexcept;

/// The seven loops of `order`, outer to inner.
[[nodiscard]] constexpr const std::array<LoopDim, kLoopDims>& loops_of(const LoopOrder& order) noexcept {
    return order.loops;
}
/// True if `order` holds each loop dim once.
[[nodiscard]] bool is_permutation(const LoopOrder& order) noexcept;
/// The seven letters outer to inner, lower case: "kbpqcrs".
[[nodiscard]] std::string to_string(const LoopOrder& order);
/// The order spelled by `text`: seven letters b, k, c, p, q, r, s in either case, each once,
/// outer to inner; or the five letters b, k, c, p, q (the text of the orders before R and S
/// were tile loops), which mean those five with R and S innermost. Throws ModelError saying
/// what is wrong otherwise.
[[nodiscard]] LoopOrder parse_loop_order(std::string_view text);
[[nodiscard]] std::string_view to_string(LoopDim dim) noexcept;

/// Which loop dims run in parallel on the PE array's rows and columns.
struct SpatialUnroll {
    LoopDim row = LoopDim::K;
    LoopDim col = LoopDim::C;
    friend constexpr bool operator==(SpatialUnroll, SpatialUnroll) = default;
};

struct Tiling {
    SpatialUnroll unroll;
    LoopOrder order = LoopOrder::kbpqc;
    /// Tile size per loop dim, indexed by LoopDim; the last tile of a dim may be smaller.
    /// The kernel's R and S tiles must be set like the others (whole: the layer's R and S).
    std::array<std::int64_t, kLoopDims> tile{1, 1, 1, 1, 1, 1, 1};

    [[nodiscard]] std::int64_t operator[](LoopDim d) const noexcept {
        return tile[static_cast<std::size_t>(d)];
    }
    friend bool operator==(const Tiling&, const Tiling&) = default;
};

/// "KxC kbpqcrs B1 K64 C64 P8 Q56 R3 S3" (unrolling rows x cols, order, tiles).
[[nodiscard]] std::string to_string(const Tiling& t);

/// Loop bound of `d` in `layer` (inline: the tiling search's inner loops call it).
[[nodiscard]] inline std::int64_t extent(const PartLayer& l, LoopDim d) noexcept {
    switch (d) {
        case LoopDim::B:
            return l.B;
        case LoopDim::K:
            return l.K;
        case LoopDim::C:
            return l.C;
        case LoopDim::P:
            return l.P;
        case LoopDim::Q:
            return l.Q;
        case LoopDim::R:
            return l.R;
        case LoopDim::S:
            break;
    }
    return l.S;
}

/// The three tensors a node moves; the output includes its partial sums.
enum class Tensor : std::uint8_t { input, weight, output };
inline constexpr std::size_t kTensors = 3;
[[nodiscard]] std::string_view to_string(Tensor t) noexcept;

/// Whether the tile of `t` changes when loop `d` advances (NicePIM Fig. 2 loop relevance;
/// depthwise input follows K; the second operand of an activation matmul follows B too; R and
/// S move the input and the weights, not the output).
/// Inline: the tiling search's inner loops call it.
[[nodiscard]] inline bool relevant(const PartLayer& l, Tensor t, LoopDim d) noexcept {
    switch (t) {
        case Tensor::input:
            return d == LoopDim::B || d == LoopDim::P || d == LoopDim::Q || d == LoopDim::R ||
                   d == LoopDim::S || (l.depthwise ? d == LoopDim::K : d == LoopDim::C);
        case Tensor::weight:
            return d == LoopDim::K || (d == LoopDim::C && !l.depthwise) || d == LoopDim::R ||
                   d == LoopDim::S || (d == LoopDim::B && !l.has_weights);
        case Tensor::output:
            break;
    }
    return d != LoopDim::C && d != LoopDim::R && d != LoopDim::S;
}

/// Elements of the largest tile of each tensor (input with its halo; output in psums) and
/// its bytes; the buffers hold two of each (double buffering).
struct TileFootprint {
    Bytes input;
    Bytes weight;
    Bytes output;
    friend bool operator==(const TileFootprint&, const TileFootprint&) = default;
};
[[nodiscard]] TileFootprint footprint(const PartLayer& layer, const Tiling& t) noexcept;

/// Input rows (or columns) a tile of `outputs` output rows needs: (outputs - 1) * stride + kernel,
/// clipped to the input extent.
[[nodiscard]] constexpr std::int64_t halo_extent(std::int64_t outputs, std::int32_t stride,
                                                 std::int64_t kernel, std::int64_t input_extent) noexcept {
    const std::int64_t e = (outputs - 1) * stride + kernel;
    return e < input_extent ? e : input_extent;
}

/// Throws ModelError naming the field if a part-layer or node is malformed
/// (bounds < 1, depthwise with C != 1, data or psum widths not dividing the port width
/// and the row buffer, ...).
void validate(const PartLayer& layer);
void validate(const NodeSpec& node);

[[nodiscard]] std::size_t hash_value(const PartLayer& layer) noexcept;
[[nodiscard]] std::size_t hash_value(const NodeSpec& node) noexcept;

}  // namespace pimdse::sim
