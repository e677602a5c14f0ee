// Batched multi-head attention, as exporters write it: a projection to heads x width, a
// Reshape to [batch, tokens, heads, width] and a Transpose to [batch, heads, tokens, width]
// (K: [.., width, tokens]); MatMuls and a Softmax over all heads at once; a Transpose and
// Reshape that merge the heads. The layer model has no head dimension, so the importer
// writes attention as the network files do (docs/workloads.md): each head its own q, k, v
// projection, scores, softmax and context layers (one branch per head), merged by a concat.
// Projection weights and MACs are the same as the fused projection's.

#include "onnx_importer.hpp"

namespace pimdse::io::onnx_detail {

namespace {

std::string head_name(const std::string& base, std::size_t i) {
    return base + ".head" + std::to_string(i + 1);
}

}  // namespace

bool Importer::split_heads(const NodeProto& n, const Value& x, const workload::LinearSpec& s,
                           const std::string& out) {
    const NodeProto* reshape = follow(out, "Reshape");
    if (!reshape) return false;
    const int reshape_index = followed_;
    const auto to = reshape_target(*reshape, {m_.input_dims()[0], shape(x).height, s.out_features});
    if (!to || to->size() != 4 || (*to)[1] != shape(x).height || (*to)[2] * (*to)[3] != s.out_features)
        return false;
    const NodeProto* transpose = follow(reshape->output(0), "Transpose");
    if (!transpose) return false;
    const auto perm = attr_ints(*transpose, "perm");
    const bool keys = perm == std::vector<std::int64_t>{0, 2, 3, 1};  // K^T: [batch, heads, width, tokens]
    if (!keys && perm != std::vector<std::int64_t>{0, 2, 1, 3}) return false;
    done_[static_cast<std::size_t>(reshape_index)] = true;
    done_[static_cast<std::size_t>(followed_)] = true;

    Value v{x.producer, 4, false, keys, {}};
    workload::LinearSpec head = s;
    head.out_features = (*to)[3];
    const std::string base = layer_name(n);
    for (std::int64_t i = 0; i < (*to)[2]; ++i) {
        const std::string name = unique_name(head_name(base, static_cast<std::size_t>(i)));
        v.heads.push_back(build(n, [&] { return builder_.linear(name, x.producer, head); }));
    }
    set(transpose->output(0), v);
    return true;
}

void Importer::head_matmul(const NodeProto& n, const Value& a, const Value& b) {
    if (a.heads.empty() || b.heads.empty() || a.transposed || a.heads.size() != b.heads.size())
        m_.fail(n,
                "a per-head product needs both operands split into the same heads ([batch, heads, tokens, "
                "width]; the second may be K^T)");
    Value v{a.producer, 4, false, false, {}};
    const std::string base = layer_name(n);
    for (std::size_t i = 0; i < a.heads.size(); ++i) {
        const std::string name = unique_name(head_name(base, i));
        v.heads.push_back(
            build(n, [&] { return builder_.matmul(name, a.heads[i], b.heads[i], b.transposed); }));
    }
    set(n.output(0), v);
}

void Importer::head_softmax(const NodeProto& n, const Value& x) {
    std::int64_t axis = attr_int(n, "axis", m_.opset() < 13 ? 1 : -1);
    if (axis < 0) axis += 4;
    if (axis != 3 || x.transposed) m_.fail(n, "a per-head softmax runs along the last axis (the keys)");
    Value v{x.producer, 4, false, false, {}};
    const std::string base = layer_name(n);
    for (std::size_t i = 0; i < x.heads.size(); ++i) {
        const std::string name = unique_name(head_name(base, i));
        v.heads.push_back(build(n, [&] { return builder_.softmax(name, x.heads[i]); }));
    }
    set(n.output(0), v);
}

bool Importer::merge_heads(const NodeProto& n, const Value& x) {
    if (x.transposed || attr_ints(n, "perm") != std::vector<std::int64_t>{0, 2, 1, 3}) return false;
    const NodeProto* reshape = follow(n.output(0), "Reshape");
    if (!reshape) return false;
    const TensorShape head = builder_.shape(x.heads.front());  // width x tokens x 1
    const auto to = reshape_target(*reshape, {m_.input_dims()[0], head.height,
                                              static_cast<std::int64_t>(x.heads.size()), head.channels});
    if (!to || to->size() != 3) return false;
    consume(*reshape);
    const std::string name = layer_name(*reshape);
    set(reshape->output(0), {build(n, [&] { return builder_.concat(name, x.heads); }), 3});
    return true;
}

// The 1/sqrt(width) scale (Mul/Div by a one-element constant) and the attention mask (Add of
// a constant) of per-head scores are folded into the softmax, as the network files do.
bool Importer::scale_or_mask(const NodeProto& n) {
    if (n.input_size() != 2) return false;
    const int constant = m_.constant(n.input(1)) ? 1 : m_.constant(n.input(0)) ? 0 : -1;
    if (constant < 0 || (n.op_type() == "Div" && constant == 0)) return false;
    const auto it = values_.find(n.input(1 - constant));
    if (it == values_.end() || it->second.heads.empty()) return false;
    if (n.op_type() != "Add") {
        const auto d = m_.dims(n.input(constant));
        std::int64_t count = 1;
        for (auto v : d.value_or(std::vector<std::int64_t>{})) count *= v;
        if (!d || count != 1) return false;
    }
    set(n.output(0), it->second);
    return true;
}

}  // namespace pimdse::io::onnx_detail
