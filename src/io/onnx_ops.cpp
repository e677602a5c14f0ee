// ONNX operators onto layers (docs/workloads.md, "ONNX import"): one method per operator
// family. Shapes come from the network being built (NetworkBuilder infers every layer's);
// ONNX shape inference gives the dimensions of reshapes and of skipped nodes.

#include "onnx_importer.hpp"

#include <algorithm>
#include <iostream>

namespace pimdse::io::onnx_detail {

namespace {

std::pair<std::int64_t, std::int64_t> pair_of(const OnnxModel& m, const NodeProto& n, const std::string& attr,
                                              std::int64_t fallback) {
    const auto v = attr_ints(n, attr);
    if (v.empty()) return {fallback, fallback};
    if (v.size() != 2) m.fail(n, attr + " " + dims_text(v) + ": expected 2 values (a 2-D operator)");
    return {v[0], v[1]};
}

}  // namespace

Pads Importer::padding(const NodeProto& n, std::int64_t span_h, std::int64_t span_w, std::int64_t stride_h,
                       std::int64_t stride_w, const TensorShape& in) const {
    // ONNX pads are [begin_h, begin_w, end_h, end_w].
    const std::string mode = attr_string(n, "auto_pad", "NOTSET");
    std::vector<std::int64_t> pads(4, 0);
    if (mode == "NOTSET") {
        const auto given = attr_ints(n, "pads");
        if (!given.empty() && given.size() != 4)
            m_.fail(n, "pads " + dims_text(given) + ": expected 4 values (a 2-D operator)");
        if (!given.empty()) pads = given;
    } else if (mode != "VALID") {
        // SAME_*: the output is ceil(in / stride); SAME_UPPER puts an odd pad's extra at the end.
        const auto same = [&](std::int64_t size, std::int64_t span, std::int64_t stride, std::size_t axis) {
            const std::int64_t out = (size + stride - 1) / stride;
            const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * stride + span - size);
            const std::int64_t small = total / 2;
            pads[axis] = mode == "SAME_LOWER" ? total - small : small;
            pads[axis + 2] = total - pads[axis];
        };
        same(in.height, span_h, stride_h, 0);
        same(in.width, span_w, stride_w, 1);
    }
    if (const auto it = pads_.find(n.input(0)); it != pads_.end())
        for (std::size_t i = 0; i < 4; ++i) pads[i] += it->second[i];
    // Unequal pads (TensorFlow's SAME, a Pad before the layer) are the layer's own padding
    // before and after: the output extent and the rows each output reads are exact.
    return {pads[0], pads[1], pads[2], pads[3]};
}

void Importer::conv(const NodeProto& n) {
    const Value& x = plain(n, 0);
    workload::ConvSpec s;
    const onnx::TensorProto* w = n.input_size() > 1 ? weights(n.input(1), &s.bits.weight) : nullptr;
    if (!w) m_.fail(n, "the weights (operand 1) are not an initializer or a Constant");
    if (w->dims_size() != 4 || x.rank != 4)
        m_.fail(n, "only 2-D convolutions ([batch, channels, height, width]) map onto a conv layer");
    s.bits.activation = activation_bits(n.input(0));
    const TensorShape in = shape(x);
    s.groups = attr_int(n, "group", 1);
    s.out_channels = w->dims(0);
    if (w->dims(1) * s.groups != in.channels)
        m_.fail(n, "weights " + dims_text({w->dims().begin(), w->dims().end()}) + " with group " +
                       std::to_string(s.groups) + " do not fit the input's " + std::to_string(in.channels) +
                       " channels");
    std::tie(s.kernel_h, s.kernel_w) = std::pair(w->dims(2), w->dims(3));
    std::tie(s.stride_h, s.stride_w) = pair_of(m_, n, "strides", 1);
    std::tie(s.dilation_h, s.dilation_w) = pair_of(m_, n, "dilations", 1);
    padding(n, (s.kernel_h - 1) * s.dilation_h + 1, (s.kernel_w - 1) * s.dilation_w + 1, s.stride_h,
            s.stride_w, in)
        .set(s);
    s.bias = n.input_size() > 2 && !n.input(2).empty();
    std::string out = n.output(0);
    s.norm = fold_batch_norm(&out);
    s.activation = fold_activation(&out);
    const std::string name = layer_name(n);
    set(out, {build(n, [&] { return builder_.conv(name, x.producer, s); }), 4});
}

void Importer::gemm(const NodeProto& n) {
    const Value& x = value(n, 0);
    workload::LinearSpec s;
    const onnx::TensorProto* w = weights(n.input(1), &s.bits.weight);
    if (!w || w->dims_size() != 2) m_.fail(n, "operand B must be a 2-D initializer (the weight matrix)");
    if (attr_int(n, "transA", 0) != 0) m_.fail(n, "transA = 1 does not map onto a layer (the input is A)");
    if (x.rank != 2 || x.transposed) m_.fail(n, "operand A must be a [batch, features] activation");
    s.bits.activation = activation_bits(n.input(0));
    const bool trans_b = attr_int(n, "transB", 0) != 0;
    s.out_features = trans_b ? w->dims(0) : w->dims(1);
    const std::int64_t features = trans_b ? w->dims(1) : w->dims(0);
    const TensorShape in = shape(x);
    if (features != in.elements())
        m_.fail(n, "the weights take " + std::to_string(features) + " features but the input has " +
                       std::to_string(in.elements()) + " (" + workload::to_string(in) + ")");
    s.flatten = x.flat && in.height * in.width > 1;
    s.bias = n.input_size() > 2 && !n.input(2).empty();
    std::string out = n.output(0);
    s.norm = fold_batch_norm(&out);
    s.activation = fold_activation(&out);
    const std::string name = layer_name(n);
    set(out, {build(n, [&] { return builder_.linear(name, x.producer, s); }), 2});
}

void Importer::matmul(const NodeProto& n) {
    workload::LinearSpec s;
    if (const onnx::TensorProto* w = weights(n.input(1), &s.bits.weight)) {
        const Value& x = value(n, 0);
        if (w->dims_size() != 2 || x.rank < 2 || x.rank > 3 || x.transposed)
            m_.fail(
                n, "a MatMul with weights needs a [batch, (tokens,) features] input and a 2-D weight matrix");
        s.bits.activation = activation_bits(n.input(0));
        s.out_features = w->dims(1);
        const TensorShape in = shape(x);
        const std::int64_t have = x.flat ? in.elements() : in.channels;
        if (w->dims(0) != have)
            m_.fail(n, "the weights take " + std::to_string(w->dims(0)) + " features but the input has " +
                           std::to_string(have));
        s.flatten = x.flat && in.height * in.width > 1;
        std::string out = n.output(0);
        s.bias = fold_bias(&out, s.out_features);
        if (x.rank == 3 && (split_heads(n, x, s, out) || split_qkv(n, x, s, out))) return;
        s.activation = fold_activation(&out);
        const std::string name = layer_name(n);
        set(out, {per_token(n, name, x.producer, s), x.rank});
        return;
    }
    if (!value(n, 0).heads.empty() || !value(n, 1).heads.empty())
        return head_matmul(n, value(n, 0), value(n, 1));
    const Value& a = plain(n, 0);
    const Value& b = value(n, 1);
    if (a.rank != 3 || b.rank != 3 || b.flat)
        m_.fail(
            n,
            "a product of two activations maps onto an attention matmul only for [batch, tokens, features] "
            "operands (rank 3); rank-" +
                std::to_string(std::max(a.rank, b.rank)) +
                " operands need the heads split from a projection (Reshape + Transpose of a MatMul's "
                "output)");
    std::string out = n.output(0);
    const Activation act = fold_activation(&out);
    const std::string name = layer_name(n);
    set(out, {build(n, [&] { return builder_.matmul(name, a.producer, b.producer, b.transposed, act); }), 3});
}

LayerIndex Importer::per_token(const NodeProto& n, const std::string& name, LayerIndex producer,
                               const workload::LinearSpec& s) {
    if (s.flatten || builder_.shape(producer).width == 1)
        return build(n, [&] { return builder_.linear(name, producer, s); });
    workload::ConvSpec c;
    c.out_channels = s.out_features;
    c.bits = s.bits;
    c.bias = s.bias;
    c.norm = s.norm;
    c.activation = s.activation;
    return build(n, [&] { return builder_.conv(name, producer, c); });
}

void Importer::pool(const NodeProto& n) {
    const Value& x = plain(n, 0);
    if (x.rank != 4) m_.fail(n, "only 2-D pooling ([batch, channels, height, width]) maps onto a pool layer");
    if (n.output_size() > 1 && !n.output(1).empty() && consumers_.count(n.output(1)))
        m_.fail(n, "the Indices output of MaxPool has no layer");
    const std::string& op = n.op_type();
    workload::PoolSpec s;
    s.mode = op == "MaxPool" || op == "GlobalMaxPool" ? workload::Pooling::max : workload::Pooling::avg;
    s.global = op.rfind("Global", 0) == 0;
    if (!s.global) {
        const auto kernel = attr_ints(n, "kernel_shape");
        if (kernel.size() != 2) m_.fail(n, "kernel_shape " + dims_text(kernel) + ": expected 2 values");
        for (auto d : attr_ints(n, "dilations"))
            if (d != 1) m_.fail(n, "dilated pooling has no pool layer (dilations must be 1)");
        std::tie(s.kernel_h, s.kernel_w) = std::pair(kernel[0], kernel[1]);
        std::tie(s.stride_h, s.stride_w) = pair_of(m_, n, "strides", 1);
        s.ceil_mode = attr_int(n, "ceil_mode", 0) != 0;
        padding(n, s.kernel_h, s.kernel_w, s.stride_h, s.stride_w, shape(x)).set(s);
    }
    const std::string name = layer_name(n);
    set(n.output(0), {build(n, [&] { return builder_.pool(name, x.producer, s); }), 4});
}

void Importer::add(const NodeProto& n) {
    std::vector<LayerIndex> operands;
    std::vector<std::string> constants;
    int rank = 0;
    for (int k = 0; k < n.input_size(); ++k) {
        if (m_.constant(n.input(k))) {
            constants.push_back(n.input(k));
            continue;
        }
        operands.push_back(plain(n, k).producer);
        rank = std::max(rank, plain(n, k).rank);
    }
    // A learned tensor of the activation's own shape (ViT's position embedding) is the add's
    // `bias`; any other constant is refused.
    bool learned = false;
    if (!constants.empty()) {
        const auto d = m_.dims(constants.front());
        std::int64_t count = 1;
        for (auto v : d.value_or(std::vector<std::int64_t>{0})) count *= v;
        const std::int64_t batch = m_.input_dims()[0];
        learned = constants.size() == 1 && operands.size() == 1 && d && !d->empty() &&
                  (d->front() == 1 || d->front() == batch) &&
                  count / d->front() == builder_.shape(operands.front()).elements();
        if (!learned)
            m_.fail(n, "adds the constant '" + constants.front() +
                           "', which is no bias of a MatMul just before it and no learned tensor of the "
                           "activation's shape (a position embedding); the layer model adds activations");
    }
    std::string out = n.output(0);
    const Activation act = fold_activation(&out);
    const std::string name = layer_name(n);
    set(out, {build(n, [&] { return builder_.add(name, operands, act, learned); }), rank});
}

// A mean over the tokens of a sequence (axis 1), or over a plane (axes 2 and 3): a global
// average pool (a ViT's head without a class token).
void Importer::reduce_mean(const NodeProto& n) {
    const Value& x = plain(n, 0);
    std::vector<std::int64_t> axes = attr_ints(n, "axes");
    if (n.input_size() > 1 && !n.input(1).empty()) {
        const auto v = m_.values(n.input(1));
        if (!v) m_.fail(n, "the axes (operand 1) must be a constant");
        axes.assign(v->begin(), v->end());
    }
    for (auto& a : axes)
        if (a < 0) a += x.rank;
    std::sort(axes.begin(), axes.end());
    const bool over_tokens = x.rank == 3 && axes == std::vector<std::int64_t>{1};
    const bool over_plane = x.rank == 4 && axes == std::vector<std::int64_t>{2, 3};
    if (!over_tokens && !over_plane)
        m_.fail(n, "axes " + dims_text(axes) + " of a rank-" + std::to_string(x.rank) +
                       " tensor: only a mean over the tokens ([1] of a sequence) or the plane ([2, 3]) maps "
                       "onto a (global average) pool layer");
    workload::PoolSpec s;
    s.mode = workload::Pooling::avg;
    s.global = true;
    const bool keep = attr_int(n, "keepdims", 1) != 0;
    const std::string name = layer_name(n);
    set(n.output(0), {build(n, [&] { return builder_.pool(name, x.producer, s); }), keep ? x.rank : 2});
}

void Importer::concat(const NodeProto& n) {
    for (const std::string& in : n.input())
        if (m_.constant(in) || !values_.count(in))
            m_.fail(n,
                    "concatenates '" + in +
                        "', which is no activation the layer model computes (a class "
                        "token?); the layer model cannot add a token: export the model with a mean over the "
                        "tokens instead of a class token (timm: class_token=False, global_pool='avg')");
    std::vector<LayerIndex> operands;
    const int rank = plain(n, 0).rank;
    channel_axis(n, rank, attr_int(n, "axis", 1));
    for (int k = 0; k < n.input_size(); ++k) operands.push_back(plain(n, k).producer);
    const std::string name = layer_name(n);
    set(n.output(0), {build(n, [&] { return builder_.concat(name, operands); }), rank});
}

void Importer::reshape(const NodeProto& n) {
    const Value& x = value(n, 0);
    const TensorShape in = shape(x);
    std::vector<std::int64_t> to;
    if (n.op_type() == "Flatten") {
        std::int64_t axis = attr_int(n, "axis", 1);
        if (axis < 0) axis += x.rank;
        if (axis != 1)
            m_.fail(n, "Flatten with axis " + std::to_string(axis) + " keeps more than the batch apart");
        to = {m_.input_dims()[0], in.elements()};
    } else if (auto d = reshape_target(
                   n, x.flat ? std::vector<std::int64_t>{m_.input_dims()[0], in.elements()} : onnx_dims(x))) {
        to = *d;
    } else {
        m_.fail(n, "the target shape is not known (ONNX shape inference could not determine it)");
    }
    if (to.size() == 2 && to[1] == in.elements())
        return set(n.output(0), {x.producer, 2, x.rank > 2 || x.flat});
    // A patch embedding's [batch, D, h, w] -> [batch, D, h*w] before a Transpose [0, 2, 1]:
    // the sequence, transposed; the tokens stay the plane h x w (tokens()).
    const NodeProto* next = x.rank == 4 ? sole_reader(n.output(0)) : nullptr;
    if (next && next->op_type() == "Transpose" &&
        attr_ints(*next, "perm") == std::vector<std::int64_t>{0, 2, 1} && !x.flat && to.size() == 3 &&
        to[1] == in.channels && to[2] == tokens(in))
        return set(n.output(0), {x.producer, 3, false, true});
    const auto from = m_.dims(n.input(0));
    if (from && *from == to) return set(n.output(0), x);
    m_.fail(n, "reshapes to " + dims_text(to) +
                   ", which changes the layout; only flattening to [batch, C*H*W] maps onto the layer model");
}

void Importer::transpose(const NodeProto& n) {
    if (!value(n, 0).heads.empty()) {
        if (value(n, 0).parts == 1 && attr_ints(n, "perm") == std::vector<std::int64_t>{0, 1, 3, 2}) {
            Value v = value(n, 0);  // k.transpose(-2, -1): the keys' heads, transposed
            v.transposed = !v.transposed;
            return set(n.output(0), v);
        }
        if (merge_heads(n, value(n, 0))) return;
        m_.fail(n,
                "per-head attention tensors are merged only by Transpose perm [0, 2, 1, 3] and a Reshape to "
                "[batch, tokens, heads x width]");
    }
    const auto perm = attr_ints(n, "perm");
    if (const Value& t = value(n, 0);
        t.transposed && t.rank == 3 && t.heads.empty() && perm == std::vector<std::int64_t>{0, 2, 1})
        return set(n.output(0), {t.producer, 3});  // [batch, D, tokens] back to [batch, tokens, D]
    const Value& x = plain(n, 0);
    if (x.rank != 3 || perm != std::vector<std::int64_t>{0, 2, 1})
        m_.fail(n, "perm " + dims_text(perm) + " of a rank-" + std::to_string(x.rank) +
                       " tensor: only [0, 2, 1] of a [batch, tokens, features] tensor (attention's K^T) maps "
                       "onto the layer model");
    set(n.output(0), {x.producer, 3, false, true});
}

void Importer::softmax(const NodeProto& n) {
    if (!value(n, 0).heads.empty()) return head_softmax(n, value(n, 0));
    const Value& x = plain(n, 0);
    channel_axis(n, x.rank, attr_int(n, "axis", m_.opset() < 13 ? 1 : -1));
    const std::string name = layer_name(n);
    set(n.output(0), {build(n, [&] { return builder_.softmax(name, x.producer); }), x.rank});
}

void Importer::normalization(const NodeProto& n) {
    const Value& x = plain(n, 0);
    const std::string& op = n.op_type();
    workload::Normalization mode = workload::Normalization::batch;
    if (op == "LayerNormalization") {
        channel_axis(n, x.rank, attr_int(n, "axis", -1));
        mode = workload::Normalization::layer;
    } else if (op == "LRN") {
        mode = workload::Normalization::local_response;
    } else if (x.rank != 4 && x.rank != 2) {
        m_.fail(n, "batch norm over a rank-" + std::to_string(x.rank) + " tensor has no norm layer");
    }
    if (op != "LayerNormalization" && x.rank == 3) m_.fail(n, op + " over a sequence has no norm layer");
    const std::string name = layer_name(n);
    set(n.output(0), {build(n, [&] { return builder_.norm(name, x.producer, mode); }), x.rank});
}

void Importer::skip(const NodeProto& n) {
    int first = -1;
    for (int k = 0; k < n.input_size() && first < 0; ++k)
        if (!n.input(k).empty() && values_.count(n.input(k))) first = k;
    const auto out = n.output_size() ? m_.dims(n.output(0)) : std::nullopt;
    const auto in = first >= 0 ? m_.dims(n.input(first)) : std::nullopt;
    if (first < 0 || !out || !in || *out != *in)
        m_.fail(n,
                "unsupported operator that cannot be skipped: it does not keep the shape of an activation it "
                "reads");
    set(n.output(0), value(n, first));
    const std::string line = m_.file() + ": skipped " + OnnxModel::describe(n) +
                             ": its output is its input '" + n.input(first) + "' " + dims_text(*in);
    if (options_.note)
        options_.note(line);
    else
        std::cerr << "pimdse: warning: " << line << '\n';
}

}  // namespace pimdse::io::onnx_detail
