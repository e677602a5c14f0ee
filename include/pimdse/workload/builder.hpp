#pragma once
// Builds a Network layer by layer, inferring every shape (C, H, W, P, Q, ...) from the
// producers so that a caller states only what defines a layer: out channels, kernel,
// stride, and so on. Each call checks the new layer at once and throws
// pimdse::InputError keyed like the network file (`layers[3].kernel`); the network file
// reader attaches the file and line.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "pimdse/workload/layer.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::workload {

/// The bits of a layer quantised on its own (Layer::weight_bits, activation_bits): 0 keeps
/// the design point's, else 1 to 32.
struct LayerBits {
    std::int32_t weight = 0, activation = 0;
};

struct ConvSpec {
    std::int64_t out_channels = 0;
    std::int64_t kernel_h = 1, kernel_w = 1;
    std::int64_t stride_h = 1, stride_w = 1;
    std::int64_t pad_h = 0, pad_w = 0;  ///< before the first row and column
    /// After the last row and column; empty: the same as before (symmetric).
    std::optional<std::int64_t> pad_h_end, pad_w_end;
    /// SEP (Layer::sep_padding): the padding follows from the window span; pad_* must be unset.
    bool sep = false;
    std::int64_t groups = 1;  ///< the input channel count makes a depthwise conv
    std::int64_t dilation_h = 1, dilation_w = 1;
    bool bias = false;
    Normalization norm = Normalization::none;  ///< folded into the conv (inference)
    Activation activation = Activation::none;  ///< folded into the conv
    LayerBits bits;
};

/// A transposed convolution as ONNX ConvTranspose / PyTorch ConvTranspose2d write it: the
/// output is (in - 1) stride - 2 pad + kernel + output_padding (no dilation).
struct DeconvSpec {
    std::int64_t out_channels = 0;
    std::int64_t kernel_h = 1, kernel_w = 1;
    std::int64_t stride_h = 1, stride_w = 1;
    std::int64_t pad_h = 0, pad_w = 0;
    std::int64_t output_pad_h = 0, output_pad_w = 0;  ///< extra rows at the end, < stride
    std::int64_t groups = 1;
    bool bias = false;
    Normalization norm = Normalization::none;
    Activation activation = Activation::none;
    LayerBits bits;
};

/// A fully connected layer applied at every position of its input (tokens of a sequence,
/// pixels of a feature map), or once to the flattened input.
struct LinearSpec {
    std::int64_t out_features = 0;
    bool flatten = false;
    bool bias = false;
    Normalization norm = Normalization::none;
    Activation activation = Activation::none;
    LayerBits bits;
};

struct PoolSpec {
    Pooling mode = Pooling::max;
    std::int64_t kernel_h = 1, kernel_w = 1;
    std::int64_t stride_h = 1, stride_w = 1;
    std::int64_t pad_h = 0, pad_w = 0;
    std::optional<std::int64_t> pad_h_end, pad_w_end;  ///< empty: the same as pad_h, pad_w
    bool global = false;     ///< the whole input plane: kernel = H x W, stride 1, no padding
    bool ceil_mode = false;  ///< round the output extent up (Layer::ceil_mode)
    /// Adaptive pooling to output_h x output_w when both are > 0 (no kernel/stride/padding).
    std::int64_t output_h = 0, output_w = 0;
};

class NetworkBuilder {
public:
    NetworkBuilder(NetworkInfo info, std::int64_t batch, TensorShape input);

    LayerIndex conv(std::string name, LayerIndex input, const ConvSpec& spec);
    /// matmul with a weight matrix of out_features x C. Without `flatten` it applies at every
    /// position; over a 2-D plane (width > 1) that is a 1x1 conv or a forgotten `flatten`,
    /// so it is refused (docs/workloads.md, "The format's traps").
    LayerIndex linear(std::string name, LayerIndex input, const LinearSpec& spec);
    /// matmul of two activations, A.B or A.B^T (attention scores Q.K^T, context P.V).
    LayerIndex matmul(std::string name, LayerIndex a, LayerIndex b, bool transpose_b,
                      Activation activation = Activation::none);
    LayerIndex pool(std::string name, LayerIndex input, const PoolSpec& spec);
    /// `learned`: a trained tensor of the output's shape is added too (a position embedding).
    LayerIndex add(std::string name, std::vector<LayerIndex> inputs, Activation activation = Activation::none,
                   bool learned = false);
    LayerIndex concat(std::string name, std::vector<LayerIndex> inputs);
    /// Elementwise product of `a` and `b`; b is a's shape or C x 1 x 1 (broadcast).
    LayerIndex mul(std::string name, LayerIndex a, LayerIndex b, Activation activation = Activation::none);
    LayerIndex deconv(std::string name, LayerIndex input, const DeconvSpec& spec);
    LayerIndex upsample(std::string name, LayerIndex input, std::int64_t scale_h, std::int64_t scale_w,
                        Interpolation mode);
    LayerIndex norm(std::string name, LayerIndex input, Normalization norm);
    LayerIndex softmax(std::string name, LayerIndex input);
    LayerIndex activation(std::string name, LayerIndex input, Activation function);

    /// Per-sample output shape of a producer already added (or of kNetworkInput).
    [[nodiscard]] TensorShape shape(LayerIndex producer) const;
    /// Number of layers added so far; the next layer gets this index.
    [[nodiscard]] LayerIndex size() const noexcept { return static_cast<LayerIndex>(layers_.size()); }

    /// The network's mode (inference unless set).
    void set_mode(NetworkMode mode) noexcept { mode_ = mode; }

    [[nodiscard]] Network build() &&;

private:
    Layer start(std::string name, LayerKind kind, std::vector<LayerIndex> inputs) const;
    void set_bits(Layer& l, const LayerBits& bits) const;
    LayerIndex finish(Layer layer);
    [[noreturn]] void fail(std::string_view field, const std::string& layer_name,
                           const std::string& problem) const;
    void require(bool ok, std::string_view field, const std::string& layer_name,
                 const std::string& problem) const {
        if (!ok) fail(field, layer_name, problem);
    }

    NetworkInfo info_;
    std::int64_t batch_;
    TensorShape input_;
    std::vector<Layer> layers_;
    std::unordered_map<std::string, LayerIndex> names_;
    NetworkMode mode_ = NetworkMode::inference;
};

}  // namespace pimdse::workload
