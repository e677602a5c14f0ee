#pragma once
// io-internal: the ONNX importer's state (onnx_import.cpp dispatches, onnx_ops.cpp maps the
// operators). ONNX nodes onto the layers of the workload model (docs/workloads.md).
// Each ONNX tensor becomes a Value: the layer that produces it, seen as is, flattened
// ([batch, C*H*W]) or transposed (the K^T of attention). Batch norm, activations and a
// MatMul's bias Add are folded into the layer before them when that layer is their only
// reader, exactly as the network files fold them.

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "onnx_model.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::io::onnx_detail {

using onnx::NodeProto;
using workload::Activation;
using workload::LayerIndex;
using workload::TensorShape;

inline const char* const kSupported =
    "Conv, ConvTranspose, Gemm, MatMul, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool, Pad (before "
    "a "
    "Conv or pool), Resize, Upsample, Add, Mul (two activations, or one factor per channel), Concat, "
    "Flatten, "
    "Reshape, Transpose (attention), Mul/Div/Add of attention's scale and mask, Relu, Clip, LeakyRelu, "
    "Sigmoid, HardSigmoid, HardSwish, Tanh, Gelu (or its Div/Erf/Add/Mul export), x * Sigmoid(x), Softmax, "
    "BatchNormalization, LayerNormalization, LRN, ReduceMean (over tokens or a plane), Gather (q, k or v of "
    "a "
    "fused projection), QuantizeLinear and DequantizeLinear (QDQ), Dropout, Identity";

/// A Conv's or pool's padding before the first row and column, and after the last.
struct Pads {
    std::int64_t h = 0, w = 0, h_end = 0, w_end = 0;

    /// Into a ConvSpec or PoolSpec.
    template <class Spec>
    void set(Spec& s) const {
        s.pad_h = h;
        s.pad_w = w;
        s.pad_h_end = h_end;
        s.pad_w_end = w_end;
    }
};

struct Value {
    Value() = default;
    Value(LayerIndex p, int r, bool f = false, bool t = false, std::vector<LayerIndex> h = {})
        : producer(p), rank(r), flat(f), transposed(t), heads(std::move(h)) {}

    LayerIndex producer = workload::kNetworkInput;
    int rank = 4;             ///< the ONNX tensor's rank
    bool flat = false;        ///< [batch, C*H*W] view of the producer's C x H x W
    bool transposed = false;  ///< [batch, hidden, tokens] view of a [batch, tokens, hidden] sequence
    /// Multi-head attention, [batch, heads, tokens, width] (transposed: [.., width, tokens]):
    /// one layer per head, as the network files write attention (onnx_attention.cpp).
    std::vector<LayerIndex> heads;
    /// A fused q/k/v projection split by a 5-D Reshape, [3, batch, heads, tokens, width]:
    /// `heads` holds the parts one after another; a Gather on axis 0 picks one.
    int parts = 1;
};

/// A tensor held as one layer per time step (and direction) of an unrolled recurrent node
/// (onnx_recurrent.cpp): its ONNX dimensions and the layers (features x 1 x 1 each)
/// row-major over every axis but the batch and the last.
struct Steps {
    std::vector<std::int64_t> dims;
    int batch_axis = -1;  ///< -1 once a reshape lost track of a batch of 1
    std::vector<LayerIndex> cells;
    std::string origin;  ///< the recurrent node, for messages
};

/// Tokens of a sequence: a 1-D sequence is hidden x tokens x 1; after a patch embedding the
/// tokens stay the conv's h x w plane (row-major, as Reshape + Transpose order them).
inline std::int64_t tokens(const TensorShape& s) {
    return s.height * s.width;
}

inline TensorShape input_shape(const std::vector<std::int64_t>& d) {
    if (d.size() == 4) return {d[1], d[2], d[3]};
    if (d.size() == 3) return {d[2], d[1], 1};  // [batch, tokens, hidden] is hidden x tokens x 1
    return {d[1], 1, 1};
}

inline std::string sanitized(const std::string& text) {
    std::string out;
    for (char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '_' || c == '-' || c == '.';
        out += ok ? c : '_';
    }
    while (!out.empty() && (out.front() == '_' || out.front() == '.')) out.erase(out.begin());
    return out;
}

inline std::string dims_text(const std::vector<std::int64_t>& d) {
    std::string out = "[";
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(d[i]);
    }
    return out + "]";
}

class Importer {
public:
    Importer(const std::filesystem::path& path, const OnnxImportOptions& options)
        : m_(path, options),
          options_(options),
          builder_(info(path), m_.input_dims()[0],
                   m_.step_input() ? TensorShape{m_.input_dims()[2], 1, 1} : input_shape(m_.input_dims())) {
        if (m_.step_input())
            step_input();
        else
            values_[m_.input().name()] =
                Value{workload::kNetworkInput, static_cast<int>(m_.input_dims().size())};
        const auto& nodes = m_.graph().node();
        for (int i = 0; i < nodes.size(); ++i)
            for (const std::string& in : nodes[i].input())
                if (!in.empty()) consumers_[in].push_back(i);
        for (int i = 0; i < nodes.size(); ++i)
            for (const std::string& out : nodes[i].output())
                if (!out.empty()) producers_.emplace(out, i);
        for (const auto& out : m_.graph().output()) outputs_.insert(out.name());
        done_.assign(static_cast<std::size_t>(nodes.size()), false);
    }

    workload::Network run() &&;

private:
    workload::NetworkInfo info(const std::filesystem::path& path) const;

    // ---- values and names -------------------------------------------------------------

    const Value& value(const NodeProto& n, int k) const {
        const std::string& name = n.input(k);
        const auto it = values_.find(name);
        if (it != values_.end()) return it->second;
        if (m_.constant(name))
            m_.fail(n, "operand " + std::to_string(k) + " ('" + name +
                           "') is a constant where the layer model expects an activation");
        m_.fail(
            n, "operand " + std::to_string(k) + " ('" + name + "') is produced by no node that was imported");
    }

    const Value& plain(const NodeProto& n, int k) const {
        const Value& v = value(n, k);
        if (!v.heads.empty())
            m_.fail(
                n, "reads the per-head attention tensor '" + n.input(k) +
                       "', which only MatMul, Softmax, a constant scale or mask, and the Transpose + Reshape "
                       "that merge the heads consume in the layer model");
        if (v.flat || v.transposed)
            m_.fail(n, std::string("reads the ") + (v.flat ? "flattened" : "transposed") + " tensor '" +
                           n.input(k) + "', which only a Gemm/MatMul can consume in the layer model");
        return v;
    }

    TensorShape shape(const Value& v) const { return builder_.shape(v.producer); }

    /// A plain value's ONNX dimensions: [B, C, H, W], [B, tokens, hidden] or [B, features].
    std::vector<std::int64_t> onnx_dims(const Value& v) const {
        const TensorShape s = shape(v);
        const std::int64_t b = m_.input_dims()[0];
        if (v.rank == 4) return {b, s.channels, s.height, s.width};
        if (v.rank == 3) return {b, tokens(s), s.channels};
        return {b, s.elements()};
    }

    /// A Reshape's output dimensions: ONNX's inferred ones, else its constant shape operand
    /// with 0 (copy) and -1 (the rest) resolved against `in` (shape inference stops at an
    /// operator it has no schema for, such as com.microsoft's Gelu).
    std::optional<std::vector<std::int64_t>> reshape_target(const NodeProto& r,
                                                            const std::vector<std::int64_t>& in) const;

    std::string layer_name(const NodeProto& n) {
        std::string base = sanitized(n.name());
        if (base.empty()) base = sanitized(n.output_size() ? n.output(0) : "");
        if (base.empty() || base == "input") base = n.op_type() + "_" + std::to_string(builder_.size());
        return unique_name(base);
    }
    std::string unique_name(const std::string& base) {
        std::string name = base;
        for (int k = 2; !names_.insert(name).second; ++k) name = base + "_" + std::to_string(k);
        return name;
    }

    void set(const std::string& tensor, Value v) { values_[tensor] = v; }

    // Runs a builder call; its InputError (keyed by layer index) is restated for the node.
    template <class F>
    LayerIndex build(const NodeProto& n, F&& f) {
        try {
            return f();
        } catch (const InputError& e) {
            m_.fail(n, e.problem());
        }
    }

    // ---- folding ------------------------------------------------------------------------

    /// The only node reading `tensor` when it is `op` (any op when empty) and the tensor is
    /// no graph output; consume() then marks it as folded (followed_ is its index).
    const NodeProto* follow(const std::string& tensor, const std::string& op);
    /// Marks the node that follow() returned last as folded.
    void consume(const NodeProto&) { done_[static_cast<std::size_t>(followed_)] = true; }

    std::optional<Activation> activation_of(const NodeProto& n) const;

    /// Folds an activation node that alone reads `*tensor`, or an activation pattern over it
    /// (pattern()); moves `*tensor` to its output.
    Activation fold_activation(std::string* tensor);

    /// An activation written as several nodes over `x` (onnx_patterns.cpp): PyTorch's GELU
    /// export x * 0.5 * (1 + erf(x / sqrt 2)) and x * Sigmoid(x) / x * HardSigmoid(x).
    struct Pattern {
        Activation activation = Activation::none;
        std::string out;         ///< the tensor that holds the activation's result
        std::vector<int> nodes;  ///< the pattern's nodes, to mark as done
    };
    std::optional<Pattern> pattern(const std::string& x) const;
    /// The only node reading `tensor` (not a graph output), else nullptr; no side effect.
    const NodeProto* sole_reader(const std::string& tensor, int* index = nullptr) const;
    /// Whether `name` is a one-element constant within 1e-3 of `want`.
    bool scalar_near(const std::string& name, double want) const;

    workload::Normalization fold_batch_norm(std::string* tensor);

    /// A MatMul's bias: an Add of a constant of `features` elements that alone reads it.
    bool fold_bias(std::string* tensor, std::int64_t features);

    // ---- operators ----------------------------------------------------------------------

    void map_node(const NodeProto& n);

    void conv(const NodeProto& n);
    void gemm(const NodeProto& n);
    void matmul(const NodeProto& n);
    void pool(const NodeProto& n);
    void add(const NodeProto& n);
    void concat(const NodeProto& n);
    void reshape(const NodeProto& n);
    void transpose(const NodeProto& n);
    void softmax(const NodeProto& n);
    void normalization(const NodeProto& n);
    void skip(const NodeProto& n);
    void reduce_mean(const NodeProto& n);
    void gather(const NodeProto& n);
    /// A weighted matmul at every token: a matmul layer, or a 1x1 conv when the tokens are a
    /// plane (a ViT's patches), which has the same MACs and parameters.
    LayerIndex per_token(const NodeProto& n, const std::string& name, LayerIndex producer,
                         const workload::LinearSpec& s);
    // Padding, transposed convolution, resizing and products (onnx_patterns.cpp, onnx_resample.cpp).
    void pad(const NodeProto& n);
    void conv_transpose(const NodeProto& n);
    void resize(const NodeProto& n);
    void mul(const NodeProto& n);
    bool mapped_pattern(const NodeProto& n);
    // Batched multi-head attention (onnx_attention.cpp).
    bool split_heads(const NodeProto& n, const Value& x, const workload::LinearSpec& s,
                     const std::string& out);
    bool split_qkv(const NodeProto& n, const Value& x, const workload::LinearSpec& s, const std::string& out);
    void head_matmul(const NodeProto& n, const Value& a, const Value& b);
    void head_softmax(const NodeProto& n, const Value& x);
    bool merge_heads(const NodeProto& n, const Value& x);
    bool scale_or_mask(const NodeProto& n);

    // Recurrent cells unrolled over time steps (onnx_recurrent.cpp, onnx_steps.cpp).
    struct Cell;
    struct Direction;
    void step_input();
    void recurrent(const NodeProto& n);
    Cell cell(const NodeProto& n) const;
    std::vector<LayerIndex> sequence(const NodeProto& n, const Cell& c) const;
    std::optional<LayerIndex> initial(const NodeProto& n, int k, const Cell& c, int d) const;
    void unroll(const NodeProto& n, const Cell& c, const std::vector<LayerIndex>& x, int d, Direction& out);
    LayerIndex step(const Cell& c, const std::string& p, LayerIndex x, Direction& s, int d);
    LayerIndex gate(const Cell& c, const std::string& name, int index, LayerIndex x,
                    std::optional<LayerIndex> h, workload::Activation act, int d);
    LayerIndex weighted(const Cell& c, const std::string& name, LayerIndex x, int index, int side, int d,
                        workload::Activation act = workload::Activation::none);
    /// Squeeze, Unsqueeze, Transpose, Reshape, Flatten, Gather, Slice, Identity, Dropout of a
    /// Steps tensor; false for other nodes (a one-step tensor becomes a plain value for them).
    bool step_view(const NodeProto& n);
    void regrid(const NodeProto& n, const Steps& s);
    void transposed(const NodeProto& n, const Steps& s);
    void squeezed(const NodeProto& n, const Steps& s, std::vector<std::int64_t> axes);
    void pick(const NodeProto& n, const Steps& s);
    const Steps* steps_of(const std::string& tensor) const {
        const auto it = steps_.find(tensor);
        return it == steps_.end() ? nullptr : &it->second;
    }
    // QDQ models (onnx_quantize.cpp).
    /// QuantizeLinear, DequantizeLinear: an activation passes through; on weights, nothing.
    void quantize(const NodeProto& n);
    /// The node whose output `tensor` is, else nullptr (a graph input or an initializer).
    const NodeProto* producer(const std::string& tensor) const;
    /// A layer's weights: the initializer `tensor` names, or the one a DequantizeLinear (and
    /// a QuantizeLinear) before it converts; then `*bits`, when given and 0, is the bits of
    /// the quantized type. nullptr when `tensor` is no constant.
    const onnx::TensorProto* weights(const std::string& tensor, std::int32_t* bits = nullptr) const;
    /// The bits of an activation that a DequantizeLinear produces, else 0 (not quantized).
    std::int32_t activation_bits(const std::string& tensor) const;
    /// 8, 16 or 32 for the integer element type of `tensor`; else fails naming `n`.
    std::int32_t quantized_bits(const NodeProto& n, const std::string& tensor) const;

    /// The padding of a Conv or pool, before and after: its pads or auto_pad (SAME_UPPER,
    /// SAME_LOWER) plus a folded Pad before it.
    Pads padding(const NodeProto& n, std::int64_t span_h, std::int64_t span_w, std::int64_t stride_h,
                 std::int64_t stride_w, const TensorShape& in) const;
    int channel_axis(const NodeProto& n, int rank, std::int64_t axis) const;

    OnnxModel m_;
    OnnxImportOptions options_;
    workload::NetworkBuilder builder_;
    std::unordered_map<std::string, Value> values_;
    std::unordered_map<std::string, std::vector<int>> consumers_;
    std::unordered_map<std::string, int> producers_;
    std::unordered_set<std::string> outputs_;
    std::unordered_set<std::string> names_;
    std::vector<bool> done_;
    int followed_ = -1;
    /// Pads [begin_h, begin_w, end_h, end_w] of a folded Pad, by the Pad's output tensor.
    std::unordered_map<std::string, std::vector<std::int64_t>> pads_;
    std::unordered_map<std::string, Steps> steps_;
};

}  // namespace pimdse::io::onnx_detail
