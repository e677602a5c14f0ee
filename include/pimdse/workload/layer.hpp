#pragma once
// One DNN layer as the mapper sees it: the seven loop bounds of NicePIM Fig. 2(b)
// (B K C P Q R S) plus the few facts needed to check shapes and count work. Matrix
// multiplications reuse the convolution loops with R = S = 1 (NicePIM II-B); auxiliary
// layers (pool, add, mul, concat, norm, softmax, activation, upsample) use the same fields
// for their tensor shapes so that every layer can be partitioned on B, P, Q, K, C (NicePIM
// III-C). A transposed convolution (deconv) is the convolution over its zero-stuffed input.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pimdse/core/enum_names.hpp"

namespace pimdse::workload {

/// The most bits a layer's own weights or activations may have (Layer::weight_bits).
inline constexpr std::int32_t kMaxLayerBits = 32;

/// Position of a layer in its network (topological order); producers always come first.
using LayerIndex = std::int32_t;
/// The pseudo-layer that stands for the network's input tensor in a producer list.
inline constexpr LayerIndex kNetworkInput = -1;

enum class LayerKind : std::uint8_t {
    conv,        ///< convolution, grouped and depthwise included
    matmul,      ///< fully connected, or activation x activation (attention Q.K^T, P.V)
    pool,        ///< max or average pooling, global pooling included
    add,         ///< elementwise sum of equally shaped tensors (residual merge)
    concat,      ///< concatenation along channels (inception merge, multi-head merge)
    norm,        ///< batch, layer or local-response normalisation as its own layer
    softmax,     ///< softmax along channels
    activation,  ///< an elementwise non-linearity as its own layer
    mul,         ///< elementwise product; the second operand may be C x 1 x 1 (broadcast)
    deconv,      ///< transposed convolution: a conv over the zero-stuffed input (docs/model.md)
    upsample,    ///< nearest or bilinear upsampling by an integer factor
};
/// The kinds' names (network files, the sweep file's `kind`), declared once.
inline constexpr EnumNames<LayerKind, 11> kLayerKindNames{{{LayerKind::conv, "conv"},
                                                           {LayerKind::matmul, "matmul"},
                                                           {LayerKind::pool, "pool"},
                                                           {LayerKind::add, "add"},
                                                           {LayerKind::concat, "concat"},
                                                           {LayerKind::norm, "norm"},
                                                           {LayerKind::softmax, "softmax"},
                                                           {LayerKind::activation, "activation"},
                                                           {LayerKind::mul, "mul"},
                                                           {LayerKind::deconv, "deconv"},
                                                           {LayerKind::upsample, "upsample"}}};

enum class Pooling : std::uint8_t { max, avg };

/// The normalisation of a norm layer, or one folded into a conv/matmul (Layer::norm).
enum class Normalization : std::uint8_t { none, batch, layer, local_response };

/// The function of an activation layer, or one folded into a producing layer.
enum class Activation : std::uint8_t {
    none,
    relu,
    relu6,
    leaky_relu,
    gelu,
    sigmoid,
    tanh,
    swish,
    hard_sigmoid,
    hard_swish
};

/// How an upsample layer fills the new positions.
enum class Interpolation : std::uint8_t { nearest, bilinear };

/// A per-sample activation tensor: channels x height x width (sequences: hidden x tokens x 1).
struct TensorShape {
    std::int64_t channels = 1;
    std::int64_t height = 1;
    std::int64_t width = 1;

    [[nodiscard]] constexpr std::int64_t elements() const { return channels * height * width; }
    friend constexpr bool operator==(const TensorShape&, const TensorShape&) = default;
};

/// "64x56x56".
[[nodiscard]] std::string to_string(const TensorShape& shape);

struct Layer {
    std::string name;
    LayerKind kind = LayerKind::conv;
    Pooling pooling = Pooling::max;                        ///< pool layers only
    Normalization norm = Normalization::none;              ///< a norm layer's kind, else a folded norm
    Activation activation = Activation::none;              ///< an activation layer's function, else folded
    Interpolation interpolation = Interpolation::nearest;  ///< upsample layers only
    /// conv/deconv/matmul: a bias vector of K elements; add: a learned tensor of the output's
    /// shape K x P x Q added to the producers (ViT's position embedding; one producer suffices).
    bool bias = false;
    bool flatten = false;  ///< matmul: input C x H x W flattened into C
    /// matmul whose second operand is another layer's output (attention): no weights.
    bool weights_are_activations = false;
    /// activation matmul: second operand used transposed (A.B^T, as in Q.K^T).
    bool transpose_b = false;
    /// pool: the output extent rounds up (a last, partial window), as PyTorch/ONNX ceil_mode.
    bool ceil_mode = false;
    /// pool: adaptive pooling to a given P x Q; windows [floor(i H / P), ceil((i+1) H / P)),
    /// R x S the largest of them, the stride floor(H / P).
    bool adaptive = false;
    /// mul: the second operand is C x 1 x 1, one factor per channel (squeeze-excite).
    bool broadcast = false;

    // Loop bounds, NicePIM Fig. 2(b): batch, output channels, input channels (the
    // contraction of a matmul), output height and width, kernel height and width.
    std::int64_t B = 1, K = 1, C = 1, P = 1, Q = 1, R = 1, S = 1;
    // Input feature-map height and width (1 after a flatten).
    std::int64_t H = 1, W = 1;
    std::int64_t stride_h = 1, stride_w = 1;
    /// Zero padding before the first row (column) and after the last: top, left, bottom,
    /// right. Symmetric layers have pad_h_end == pad_h and pad_w_end == pad_w.
    std::int64_t pad_h = 0, pad_w = 0;
    std::int64_t pad_h_end = 0, pad_w_end = 0;
    /// conv: statistical equilibrium padding (Gibbon IV-A, Eq. 3): span - 1 padding rows
    /// (columns), the odd one on a random side per input map; the geometry is the expected
    /// halo, pad = floor((span - 1) / 2) before and ceil((span - 1) / 2) after.
    bool sep_padding = false;
    std::int64_t groups = 1;  ///< conv: groups == C is depthwise
    /// conv: kernel taps dilation apart; the window spans (R - 1) dilation + 1 rows. The
    /// counts use R x S taps; the simulator's halo estimates use R (an approximation).
    std::int64_t dilation_h = 1, dilation_w = 1;
    /// deconv: the transposed convolution's stride, the zero-stuffing factor (H x W is the
    /// zero-stuffed input (H_in - 1) up + 1 + output padding; stride 1; pad kernel - 1 - pad);
    /// upsample: the scale (P = H up). 1 elsewhere.
    std::int64_t up_h = 1, up_w = 1;

    /// conv, deconv and weighted matmul: the bits of a weight and of an input activation
    /// when the layer is quantised on its own (1 to 32); 0: the design point's. The crossbar
    /// family reads them (sim::layer_config); dram_pim's data width is a hardware parameter.
    std::int32_t weight_bits = 0, activation_bits = 0;

    /// Producers in operand order; kNetworkInput for the network input.
    std::vector<LayerIndex> inputs;

    /// conv and weighted matmul: the layers whose weights the mapper places (NicePIM III-D).
    [[nodiscard]] bool has_weights() const noexcept {
        return is_convolution() || (kind == LayerKind::matmul && !weights_are_activations);
    }
    /// conv, deconv and matmul: the layers that run on the PE array's multipliers.
    [[nodiscard]] bool is_compute() const noexcept { return is_convolution() || kind == LayerKind::matmul; }
    /// conv and deconv: the layers with a kernel, groups and dilation.
    [[nodiscard]] bool is_convolution() const noexcept {
        return kind == LayerKind::conv || kind == LayerKind::deconv;
    }
    /// The rows [first, last) of the (first) producer's output that output rows [begin, end)
    /// read (`columns`: the same for columns), clipped to the producer: the window of a
    /// conv or pool (kernel R, dilation ignored as in the halo estimates), the real rows
    /// among a deconv's zero-stuffed ones, an upsample's source rows, else the rows themselves.
    [[nodiscard]] std::pair<std::int64_t, std::int64_t> input_rows(std::int64_t begin, std::int64_t end,
                                                                   bool columns) const noexcept;

    /// Multiply-accumulates: conv and deconv B*K*(C/groups)*P*Q*R*S, matmul B*K*C*P*Q, 0 otherwise.
    [[nodiscard]] std::int64_t macs() const noexcept;
    /// Elements of the weight tensor that must sit in DRAM (no bias, no norm parameters):
    /// conv K*(C/groups)*R*S, weighted matmul K*C, 0 otherwise.
    [[nodiscard]] std::int64_t weights() const noexcept;
    /// Trained parameters as papers count them: weights + bias (K) + the scale and shift
    /// of a folded batch/layer norm (2K) or of a batch/layer norm layer (2C); an add's
    /// learned tensor (K*P*Q).
    [[nodiscard]] std::int64_t parameters() const noexcept;
    /// Arithmetic operations: MACs for conv/matmul; for auxiliary layers a per-element
    /// count (docs/workloads.md) so that they are not free. Folded post-ops are not counted.
    [[nodiscard]] std::int64_t ops() const noexcept;
    /// Activation elements read: all operands, batch included (weights excluded).
    [[nodiscard]] std::int64_t input_elements() const noexcept;
    /// Activation elements written: B*K*P*Q.
    [[nodiscard]] std::int64_t output_elements() const noexcept { return B * K * P * Q; }
    /// Per-sample output tensor K x P x Q.
    [[nodiscard]] TensorShape output_shape() const noexcept { return {K, P, Q}; }
};

/// Output extent of a sliding window, 0 when it does not fit the padded input:
/// floor((in + pad_begin + pad_end - window) / stride) + 1, or with `ceil_mode` rounded up,
/// a last window that would start in the end padding dropped (PyTorch's and ONNX Runtime's
/// rule).
[[nodiscard]] std::int64_t window_extent(std::int64_t in, std::int64_t window, std::int64_t stride,
                                         std::int64_t pad_begin, std::int64_t pad_end,
                                         bool ceil_mode = false) noexcept;
/// SEP's geometry for a window spanning `span` rows: {floor((span - 1) / 2), ceil((span - 1) / 2)}.
[[nodiscard]] std::pair<std::int64_t, std::int64_t> sep_padding(std::int64_t span) noexcept;
/// Largest window of adaptive pooling from `in` to `out` positions (1 <= out <= in):
/// window i covers [floor(i in / out), ceil((i + 1) in / out)).
[[nodiscard]] std::int64_t adaptive_window(std::int64_t in, std::int64_t out) noexcept;

// Names as they appear in network files and tables; parse_* return nullopt for unknown text.
[[nodiscard]] std::string_view to_string(LayerKind kind) noexcept;
[[nodiscard]] std::string_view to_string(Pooling pooling) noexcept;
[[nodiscard]] std::string_view to_string(Normalization norm) noexcept;
[[nodiscard]] std::string_view to_string(Activation activation) noexcept;
[[nodiscard]] std::string_view to_string(Interpolation interpolation) noexcept;
[[nodiscard]] std::optional<LayerKind> parse_layer_kind(std::string_view text) noexcept;
[[nodiscard]] std::optional<Pooling> parse_pooling(std::string_view text) noexcept;
[[nodiscard]] std::optional<Normalization> parse_normalization(std::string_view text) noexcept;
[[nodiscard]] std::optional<Activation> parse_activation(std::string_view text) noexcept;
[[nodiscard]] std::optional<Interpolation> parse_interpolation(std::string_view text) noexcept;
/// "conv, matmul, pool, ..." for error messages that list the accepted values.
[[nodiscard]] std::string layer_kind_names();
[[nodiscard]] std::string pooling_names();
/// Without "none", which is the absence of the key in a file.
[[nodiscard]] std::string normalization_names();
[[nodiscard]] std::string activation_names();
[[nodiscard]] std::string interpolation_names();

}  // namespace pimdse::workload
