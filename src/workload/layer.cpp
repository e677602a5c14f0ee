#include "pimdse/workload/layer.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace pimdse::workload {

namespace {

// Operations per output element of the auxiliary layers (docs/workloads.md, "Counts").
// NicePIM II-B calls these layers cheap; they are counted so that a region-split by
// operations (NicePIM VI-A) never treats them as free.
constexpr std::int64_t kOpsPerElementBatchNorm = 2;      // scale and shift, statistics folded
constexpr std::int64_t kOpsPerElementLayerNorm = 5;      // mean, variance, subtract, scale, shift
constexpr std::int64_t kOpsPerElementLocalResponse = 8;  // 5-channel sum of squares, power, divide
constexpr std::int64_t kOpsPerElementSoftmax = 4;        // max, exponent, sum, divide
constexpr std::int64_t kOpsPerElementActivation = 1;
constexpr std::int64_t kOpsPerElementConcat = 1;  // one copy
constexpr std::int64_t kOpsPerElementMul = 1;
constexpr std::int64_t kOpsPerElementNearest = 1;   // one copy
constexpr std::int64_t kOpsPerElementBilinear = 7;  // 4 products, 3 sums of the neighbours

constexpr const EnumNames<LayerKind, 11>& kKindNames = kLayerKindNames;
constexpr EnumNames<Pooling, 2> kPoolingNames{{{Pooling::max, "max"}, {Pooling::avg, "avg"}}};
constexpr EnumNames<Normalization, 4> kNormNames{{{Normalization::none, "none"},
                                                  {Normalization::batch, "batch"},
                                                  {Normalization::layer, "layer"},
                                                  {Normalization::local_response, "local_response"}}};
constexpr EnumNames<Activation, 10> kActivationNames{{{Activation::none, "none"},
                                                      {Activation::relu, "relu"},
                                                      {Activation::relu6, "relu6"},
                                                      {Activation::leaky_relu, "leaky_relu"},
                                                      {Activation::gelu, "gelu"},
                                                      {Activation::sigmoid, "sigmoid"},
                                                      {Activation::tanh, "tanh"},
                                                      {Activation::swish, "swish"},
                                                      {Activation::hard_sigmoid, "hard_sigmoid"},
                                                      {Activation::hard_swish, "hard_swish"}}};
constexpr EnumNames<Interpolation, 2> kInterpolationNames{
    {{Interpolation::nearest, "nearest"}, {Interpolation::bilinear, "bilinear"}}};

// "none" is the absence of a key in a network file, never written as a value.
template <class Enum, std::size_t N>
std::optional<Enum> parse(const EnumNames<Enum, N>& table, std::string_view text) noexcept {
    if (text == "none") return std::nullopt;
    return value_of(table, text);
}

template <class Enum, std::size_t N>
std::string list_names(const EnumNames<Enum, N>& table) {
    std::string out;
    for (const auto& [e, name] : table) {
        if (name == "none") continue;
        if (!out.empty()) out += ", ";
        out += name;
    }
    return out;
}

}  // namespace

std::string to_string(const TensorShape& shape) {
    return std::to_string(shape.channels) + 'x' + std::to_string(shape.height) + 'x' +
           std::to_string(shape.width);
}

std::int64_t window_extent(std::int64_t in, std::int64_t window, std::int64_t stride, std::int64_t pad_begin,
                           std::int64_t pad_end, bool ceil_mode) noexcept {
    const std::int64_t padded = in + pad_begin + pad_end;
    if (padded < window || stride < 1) return 0;
    if (!ceil_mode) return (padded - window) / stride + 1;
    std::int64_t out = (padded - window + stride - 1) / stride + 1;
    // A window must start inside the input or its left padding (PyTorch's pooling rule).
    if ((out - 1) * stride >= in + pad_begin) --out;
    return out;
}

std::pair<std::int64_t, std::int64_t> sep_padding(std::int64_t span) noexcept {
    const std::int64_t total = std::max<std::int64_t>(0, span - 1);
    return {total / 2, total - total / 2};
}

std::int64_t adaptive_window(std::int64_t in, std::int64_t out) noexcept {
    if (out < 1 || in < out) return 0;
    std::int64_t widest = 0;
    for (std::int64_t i = 0; i < out; ++i) {
        const std::int64_t begin = i * in / out;
        const std::int64_t end = ((i + 1) * in + out - 1) / out;
        widest = std::max(widest, end - begin);
    }
    return widest;
}

std::pair<std::int64_t, std::int64_t> Layer::input_rows(std::int64_t begin, std::int64_t end,
                                                        bool columns) const noexcept {
    const std::int64_t up = columns ? up_w : up_h;
    const std::int64_t size = columns ? W : H;
    if (kind == LayerKind::upsample) {
        // Output row v copies (nearest) or blends (bilinear, one more row each side) row v / up.
        const std::int64_t reach = interpolation == Interpolation::bilinear ? 1 : 0;
        begin = std::clamp<std::int64_t>(begin / up - reach, 0, size);
        return {begin, std::clamp<std::int64_t>((end + up - 1) / up + reach, begin, size)};
    }
    const std::int64_t stride = columns ? stride_w : stride_h;
    // The begin padding places the window; the end padding only adds rows past `size`,
    // which the clip drops.
    const std::int64_t pad = columns ? pad_w : pad_h;
    const std::int64_t kernel = columns ? S : R;
    std::int64_t lo = std::max<std::int64_t>(0, begin * stride - pad);
    std::int64_t hi = std::max(lo, std::min<std::int64_t>(size, (end - 1) * stride - pad + kernel));
    if (kind == LayerKind::deconv) {
        // Row v of the zero-stuffed input is the producer's row v / up when up divides v.
        lo = (lo + up - 1) / up;
        hi = std::max(lo, (hi + up - 1) / up);
    }
    return {lo, hi};
}

std::int64_t Layer::macs() const noexcept {
    switch (kind) {
        case LayerKind::conv:
        case LayerKind::deconv:
            return B * K * (C / groups) * P * Q * R * S;
        case LayerKind::matmul:
            return B * K * C * P * Q;
        default:
            return 0;
    }
}

std::int64_t Layer::weights() const noexcept {
    if (is_convolution()) return K * (C / groups) * R * S;
    if (kind == LayerKind::matmul && !weights_are_activations) return K * C;
    return 0;
}

std::int64_t Layer::parameters() const noexcept {
    std::int64_t n = weights();
    if (has_weights()) {
        if (bias) n += K;
        if (norm == Normalization::batch || norm == Normalization::layer) n += 2 * K;
    } else if (kind == LayerKind::norm && (norm == Normalization::batch || norm == Normalization::layer)) {
        n += 2 * C;
    } else if (kind == LayerKind::add && bias) {
        n += K * P * Q;
    }
    return n;
}

std::int64_t Layer::ops() const noexcept {
    const std::int64_t out = output_elements();
    switch (kind) {
        case LayerKind::conv:
        case LayerKind::deconv:
        case LayerKind::matmul:
            return macs();
        case LayerKind::mul:
            return out * kOpsPerElementMul;
        case LayerKind::upsample:
            return out * (interpolation == Interpolation::bilinear ? kOpsPerElementBilinear
                                                                   : kOpsPerElementNearest);
        case LayerKind::pool:
            return out * R * S;
        case LayerKind::add:
            return out * static_cast<std::int64_t>(inputs.size() + (bias ? 1 : 0) - 1);
        case LayerKind::concat:
            return out * kOpsPerElementConcat;
        case LayerKind::norm:
            switch (norm) {
                case Normalization::batch:
                    return out * kOpsPerElementBatchNorm;
                case Normalization::layer:
                    return out * kOpsPerElementLayerNorm;
                case Normalization::local_response:
                    return out * kOpsPerElementLocalResponse;
                case Normalization::none:
                    return 0;
            }
            return 0;
        case LayerKind::softmax:
            return out * kOpsPerElementSoftmax;
        case LayerKind::activation:
            return out * kOpsPerElementActivation;
    }
    return 0;
}

std::int64_t Layer::input_elements() const noexcept {
    switch (kind) {
        case LayerKind::matmul:
            // Attention reads both operands: A is P*Q x C, B is C x K (or K x C).
            return weights_are_activations ? B * C * P * Q + B * K * C : B * C * H * W;
        case LayerKind::add:
            return static_cast<std::int64_t>(inputs.size()) * B * C * H * W;  // a learned tensor is a weight
        case LayerKind::concat:
            return B * K * P * Q;
        case LayerKind::mul:
            // The second operand is as large as the first, or C x 1 x 1 (broadcast).
            return B * C * H * W + (broadcast ? B * C : B * C * H * W);
        case LayerKind::deconv:
            // The producer's rows only: the stuffed zeros are made, not read.
            return B * C * ((H - 1) / up_h + 1) * ((W - 1) / up_w + 1);
        default:
            return B * C * H * W;
    }
}

std::string_view to_string(LayerKind kind) noexcept {
    return name_of(kKindNames, kind, "?");
}
std::string_view to_string(Pooling pooling) noexcept {
    return name_of(kPoolingNames, pooling, "?");
}
std::string_view to_string(Normalization norm) noexcept {
    return name_of(kNormNames, norm, "?");
}
std::string_view to_string(Activation activation) noexcept {
    return name_of(kActivationNames, activation, "?");
}
std::string_view to_string(Interpolation interpolation) noexcept {
    return name_of(kInterpolationNames, interpolation, "?");
}

std::optional<LayerKind> parse_layer_kind(std::string_view text) noexcept {
    return parse(kKindNames, text);
}
std::optional<Pooling> parse_pooling(std::string_view text) noexcept {
    return parse(kPoolingNames, text);
}
std::optional<Normalization> parse_normalization(std::string_view text) noexcept {
    return parse(kNormNames, text);
}
std::optional<Activation> parse_activation(std::string_view text) noexcept {
    return parse(kActivationNames, text);
}
std::optional<Interpolation> parse_interpolation(std::string_view text) noexcept {
    return value_of(kInterpolationNames, text);
}

std::string layer_kind_names() {
    return list_names(kKindNames);
}
std::string pooling_names() {
    return list_names(kPoolingNames);
}
std::string normalization_names() {
    return list_names(kNormNames);
}
std::string activation_names() {
    return list_names(kActivationNames);
}
std::string interpolation_names() {
    return list_names(kInterpolationNames);
}

}  // namespace pimdse::workload
