// Operators that exporters write as several nodes, or that only fit the layer model next to
// another layer (docs/workloads.md, "ONNX import"): activations spelled out in elementwise
// arithmetic (PyTorch's GELU before opset 20, SiLU and hard swish as x times a gate of x),
// a Pad that a Conv or pool absorbs, and elementwise products (squeeze-excite's per-channel
// scale, gates).

#include <algorithm>
#include <cmath>

#include "onnx_importer.hpp"

namespace pimdse::io::onnx_detail {

namespace {

bool reads(const NodeProto& n, const std::string& tensor) {
    for (const std::string& in : n.input())
        if (in == tensor) return true;
    return false;
}

// The operand of a two-input node that is not `tensor` (empty when both or neither are).
std::string other_operand(const NodeProto& n, const std::string& tensor) {
    if (n.input_size() != 2) return {};
    if (n.input(0) == tensor && n.input(1) != tensor) return n.input(1);
    if (n.input(1) == tensor && n.input(0) != tensor) return n.input(0);
    return {};
}

}  // namespace

const NodeProto* Importer::sole_reader(const std::string& tensor, int* index) const {
    const auto it = consumers_.find(tensor);
    if (outputs_.count(tensor) || it == consumers_.end() || it->second.size() != 1) return nullptr;
    if (done_[static_cast<std::size_t>(it->second.front())]) return nullptr;
    if (index) *index = it->second.front();
    return &m_.graph().node(it->second.front());
}

bool Importer::scalar_near(const std::string& name, double want) const {
    if (!m_.constant(name)) return false;
    const auto v = m_.values(name);
    return v && v->size() == 1 && std::abs(v->front() - want) < 1e-3;
}

std::optional<Importer::Pattern> Importer::pattern(const std::string& x) const {
    const auto it = consumers_.find(x);
    if (outputs_.count(x) || it == consumers_.end() || it->second.size() != 2) return std::nullopt;
    for (int first : it->second)
        if (done_[static_cast<std::size_t>(first)]) return std::nullopt;
    const auto node = [&](int i) -> const NodeProto& { return m_.graph().node(i); };
    for (int pick = 0; pick < 2; ++pick) {
        const int gi = it->second[static_cast<std::size_t>(pick)];
        const int oi = it->second[static_cast<std::size_t>(1 - pick)];
        const NodeProto& gate = node(gi);
        const NodeProto& other = node(oi);
        // x * Sigmoid(x) (SiLU, swish) and x * HardSigmoid(x) (hard swish).
        if ((gate.op_type() == "Sigmoid" || gate.op_type() == "HardSigmoid") && gate.input(0) == x) {
            int mi = -1;
            const NodeProto* m = sole_reader(gate.output(0), &mi);
            if (m && mi == oi && m->op_type() == "Mul" && other_operand(*m, x) == gate.output(0))
                return Pattern{gate.op_type() == "Sigmoid" ? Activation::swish : Activation::hard_swish,
                               m->output(0),
                               {gi, oi}};
            continue;
        }
        // GELU: x / sqrt 2 (or x * 1/sqrt 2), Erf, + 1, times x, times 0.5 (in either order).
        const bool scaled = gate.input_size() == 2 && gate.input(0) == x &&
                            ((gate.op_type() == "Div" && scalar_near(gate.input(1), std::sqrt(2.0))) ||
                             (gate.op_type() == "Mul" && scalar_near(gate.input(1), std::sqrt(0.5))));
        if (!scaled) continue;
        int ei = -1, ai = -1, m1i = -1, m2i = -1;
        const NodeProto* erf = sole_reader(gate.output(0), &ei);
        if (!erf || erf->op_type() != "Erf") continue;
        const NodeProto* plus = sole_reader(erf->output(0), &ai);
        if (!plus || plus->op_type() != "Add" || !scalar_near(other_operand(*plus, erf->output(0)), 1.0))
            continue;
        const NodeProto* m1 = sole_reader(plus->output(0), &m1i);
        if (!m1 || m1->op_type() != "Mul") continue;
        const std::string partner = other_operand(*m1, plus->output(0));
        if (m1i == oi && partner == x) {
            // (x * (1 + erf)) * 0.5
            const NodeProto* m2 = sole_reader(m1->output(0), &m2i);
            if (m2 && m2->op_type() == "Mul" && scalar_near(other_operand(*m2, m1->output(0)), 0.5))
                return Pattern{Activation::gelu, m2->output(0), {gi, ei, ai, m1i, m2i}};
        } else if (other.op_type() == "Mul" && reads(other, x) && scalar_near(other_operand(other, x), 0.5) &&
                   partner == other.output(0) && sole_reader(other.output(0)) == m1) {
            // (x * 0.5) * (1 + erf)
            return Pattern{Activation::gelu, m1->output(0), {gi, ei, ai, oi, m1i}};
        }
    }
    return std::nullopt;
}

// A pattern whose first node is `n`, over an activation that no layer folded (a network
// input, a concat): an activation layer of its own.
bool Importer::mapped_pattern(const NodeProto& n) {
    for (const std::string& x : n.input()) {
        const auto v = values_.find(x);
        if (v == values_.end() || !v->second.heads.empty() || v->second.flat || v->second.transposed)
            continue;
        // run() marks a node done before mapping it; the pattern starts at this one.
        const auto& readers = consumers_.at(x);
        const auto self =
            std::find_if(readers.begin(), readers.end(), [&](int i) { return &m_.graph().node(i) == &n; });
        if (self == readers.end()) continue;
        done_[static_cast<std::size_t>(*self)] = false;
        const auto p = pattern(x);
        done_[static_cast<std::size_t>(*self)] = true;
        if (!p) continue;
        for (int i : p->nodes) done_[static_cast<std::size_t>(i)] = true;
        const std::string name = layer_name(n);
        const Value& in = v->second;
        set(p->out,
            {build(n, [&] { return builder_.activation(name, in.producer, p->activation); }), in.rank});
        return true;
    }
    return false;
}

void Importer::pad(const NodeProto& n) {
    const Value& x = plain(n, 0);
    std::vector<std::int64_t> pads = attr_ints(n, "pads");  // before opset 11
    if (n.input_size() > 1 && !n.input(1).empty()) {
        const auto v = m_.values(n.input(1));
        if (!v) m_.fail(n, "the pads (operand 1) must be a constant");
        pads.assign(v->begin(), v->end());
    }
    if (n.input_size() > 3 && !n.input(3).empty())
        m_.fail(n, "a Pad with axes (operand 3) is not supported; give pads for all 4 axes");
    if (x.rank != 4 || pads.size() != 8 || pads[0] || pads[1] || pads[4] || pads[5])
        m_.fail(n, "pads " + dims_text(pads) +
                       ": only height and width of a [batch, channels, height, width] tensor are padded in "
                       "the layer model");
    for (auto p : pads)
        if (p < 0)
            m_.fail(n, "negative pads " + dims_text(pads) + " crop the tensor; the layer model has no crop");
    const NodeProto* next = sole_reader(n.output(0));
    const bool folds =
        next && next->input(0) == n.output(0) &&
        (next->op_type() == "Conv" || next->op_type() == "MaxPool" || next->op_type() == "AveragePool");
    if (!folds)
        m_.fail(n,
                "a Pad is folded into the Conv, MaxPool or AveragePool that alone reads it; the layer model "
                "has no padding layer of its own (pad in that Conv or pool instead)");
    // The padding's mode (constant, reflect, edge) changes the values, not the loop bounds.
    pads_[n.output(0)] = {pads[2], pads[3], pads[6], pads[7]};
    set(n.output(0), x);
}

void Importer::mul(const NodeProto& n) {
    for (int k = 0; k < 2; ++k)
        if (m_.constant(n.input(k)))
            m_.fail(
                n,
                "multiplies by the constant '" + n.input(k) +
                    "', which is no attention scale and no part of a GELU, SiLU or hard swish pattern; the "
                    "layer model multiplies two activations");
    const Value* a = &plain(n, 0);
    const Value* b = &plain(n, 1);
    // The per-channel factor (squeeze-excite) is the second operand of a mul layer.
    if (shape(*a) != shape(*b) && shape(*a) == TensorShape{shape(*b).channels, 1, 1}) std::swap(a, b);
    std::string out = n.output(0);
    const Activation act = fold_activation(&out);
    const std::string name = layer_name(n);
    const int rank = std::max(a->rank, b->rank);
    set(out, {build(n, [&] { return builder_.mul(name, a->producer, b->producer, act); }), rank});
}

}  // namespace pimdse::io::onnx_detail
