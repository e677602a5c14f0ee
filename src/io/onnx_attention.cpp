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
    const auto to = reshape_target(*reshape, {m_.input_dims()[0], tokens(shape(x)), s.out_features});
    if (!to || to->size() != 4 || (*to)[1] != tokens(shape(x)) || (*to)[2] * (*to)[3] != s.out_features)
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
        v.heads.push_back(per_token(n, name, x.producer, head));
    }
    set(transpose->output(0), v);
    return true;
}

// timm's and torchvision's fused projection: a MatMul to 3 x heads x width, a Reshape to
// [batch, tokens, 3, heads, width] and a Transpose [2, 0, 3, 1, 4]; q, k and v are then
// picked by a Gather on axis 0. One projection layer per part and head, as split_heads.
bool Importer::split_qkv(const NodeProto& n, const Value& x, const workload::LinearSpec& s,
                         const std::string& out) {
    const NodeProto* reshape = follow(out, "Reshape");
    if (!reshape) return false;
    const int reshape_index = followed_;
    const std::int64_t t = tokens(shape(x));
    const auto to = reshape_target(*reshape, {m_.input_dims()[0], t, s.out_features});
    if (!to || to->size() != 5 || (*to)[1] != t || (*to)[2] * (*to)[3] * (*to)[4] != s.out_features)
        return false;
    const NodeProto* transpose = follow(reshape->output(0), "Transpose");
    if (!transpose || attr_ints(*transpose, "perm") != std::vector<std::int64_t>{2, 0, 3, 1, 4})
        m_.fail(*reshape,
                "a 5-D Reshape of a projection maps onto the layer model only as a fused q/k/v "
                "projection: [batch, tokens, parts, heads, width] followed by Transpose perm "
                "[2, 0, 3, 1, 4]");
    done_[static_cast<std::size_t>(reshape_index)] = true;
    done_[static_cast<std::size_t>(followed_)] = true;
    Value v{x.producer, 5, false, false, {}};
    v.parts = static_cast<int>((*to)[2]);
    workload::LinearSpec head = s;
    head.out_features = (*to)[4];
    const std::string base = layer_name(n);
    const char* const names[] = {"q", "k", "v"};
    for (std::int64_t p = 0; p < (*to)[2]; ++p)
        for (std::int64_t i = 0; i < (*to)[3]; ++i) {
            const std::string part = p < 3 && (*to)[2] == 3 ? names[p] : "part" + std::to_string(p + 1);
            const std::string name = unique_name(head_name(base + "." + part, static_cast<std::size_t>(i)));
            v.heads.push_back(per_token(n, name, x.producer, head));
        }
    set(transpose->output(0), v);
    return true;
}

void Importer::gather(const NodeProto& n) {
    const Value& x = value(n, 0);
    const auto index = n.input_size() > 1 ? m_.values(n.input(1)) : std::nullopt;
    const auto index_dims = n.input_size() > 1 ? m_.dims(n.input(1)) : std::nullopt;
    if (x.parts < 2 || attr_int(n, "axis", 0) != 0 || !index || index->size() != 1 || !index_dims ||
        !index_dims->empty())
        m_.fail(n,
                "only picking q, k or v (a scalar index on axis 0) of a fused projection split by a 5-D "
                "Reshape maps onto the layer model; a Gather of tokens (a class token's x[:, 0]) has no "
                "layer: pool over the tokens instead (ReduceMean on axis 1)");
    auto part = static_cast<std::int64_t>(index->front());
    if (part < 0) part += x.parts;
    if (part < 0 || part >= x.parts) m_.fail(n, "index " + std::to_string(part) + " is outside the parts");
    const std::size_t per = x.heads.size() / static_cast<std::size_t>(x.parts);
    Value v{x.producer, 4, false, false, {}};
    const auto first = x.heads.begin() + static_cast<std::ptrdiff_t>(per * static_cast<std::size_t>(part));
    v.heads.assign(first, first + static_cast<std::ptrdiff_t>(per));
    set(n.output(0), v);
}

void Importer::head_matmul(const NodeProto& n, const Value& a, const Value& b) {
    if (a.heads.empty() || b.heads.empty() || a.transposed || a.heads.size() != b.heads.size() ||
        a.parts > 1 || b.parts > 1)
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
    if (axis != 3 || x.transposed || x.parts > 1)
        m_.fail(n, "a per-head softmax runs along the last axis (the keys) of one of q.k^T's heads");
    Value v{x.producer, 4, false, false, {}};
    const std::string base = layer_name(n);
    for (std::size_t i = 0; i < x.heads.size(); ++i) {
        const std::string name = unique_name(head_name(base, i));
        v.heads.push_back(build(n, [&] { return builder_.softmax(name, x.heads[i]); }));
    }
    set(n.output(0), v);
}

bool Importer::merge_heads(const NodeProto& n, const Value& x) {
    if (x.transposed || x.parts > 1 || attr_ints(n, "perm") != std::vector<std::int64_t>{0, 2, 1, 3})
        return false;
    const NodeProto* reshape = follow(n.output(0), "Reshape");
    if (!reshape) return false;
    const TensorShape head = builder_.shape(x.heads.front());  // width x tokens x 1
    const auto to = reshape_target(*reshape, {m_.input_dims()[0], tokens(head),
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
