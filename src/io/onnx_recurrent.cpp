// ONNX LSTM, GRU and RNN nodes unrolled over their time steps (docs/workloads.md, "ONNX
// import"). The layer model has no time axis and no slice, so a recurrent node becomes, per
// direction and step, the layers its cell computes on one time step's vectors (features x 1
// x 1): per gate an input projection x_t W^T and a recurrent projection h_{t-1} R^T (weighted
// matmuls with their biases), their add with the gate's activation folded, and the cell's
// elementwise products and sums as mul and add layers. The sequence X is read step by step:
// the network input of a recurrent model is one step's x_t (every step reads it), and an
// earlier recurrent node hands over its per-step outputs (onnx_steps.cpp).

#include "onnx_importer.hpp"

namespace pimdse::io::onnx_detail {

namespace {

enum class CellKind { lstm, gru, rnn };

std::optional<Activation> cell_activation(const std::string& name) {
    if (name == "Sigmoid") return Activation::sigmoid;
    if (name == "Tanh") return Activation::tanh;
    if (name == "Relu") return Activation::relu;
    if (name == "LeakyRelu") return Activation::leaky_relu;
    if (name == "HardSigmoid") return Activation::hard_sigmoid;
    return std::nullopt;
}

std::vector<std::string> attr_strings(const NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) return {a.strings().begin(), a.strings().end()};
    return {};
}

}  // namespace

/// What a recurrent node computes: its kind, sizes, directions and the functions of its
/// gates (f: the gates, g: the candidate, h: the LSTM output, per direction).
struct Importer::Cell {
    CellKind kind = CellKind::lstm;
    std::int64_t hidden = 0, input = 0, steps = 0;
    int gates = 4, directions = 1;
    bool reverse = false, bias = false, linear_before_reset = false;
    int layout = 0;
    std::vector<Activation> f, g, h;
    std::string base;  ///< the layer names' prefix
};

/// One direction's state while unrolling: the last h and c, and the outputs by time step.
struct Importer::Direction {
    std::optional<LayerIndex> h, c;
    std::vector<LayerIndex> hs;
};

void Importer::step_input() {
    Steps s;
    s.dims = m_.dims(m_.input().name()).value_or(std::vector<std::int64_t>{});
    s.batch_axis = recurrent_axes(m_.graph(), m_.input().name())->first;
    s.cells.assign(static_cast<std::size_t>(m_.input_dims()[1]), workload::kNetworkInput);
    s.origin = "the network input";
    steps_[m_.input().name()] = s;
}

Importer::Cell Importer::cell(const NodeProto& n) const {
    Cell c;
    const std::string& op = n.op_type();
    c.kind = op == "LSTM" ? CellKind::lstm : op == "GRU" ? CellKind::gru : CellKind::rnn;
    c.gates = c.kind == CellKind::lstm ? 4 : c.kind == CellKind::gru ? 3 : 1;
    const std::string direction = attr_string(n, "direction", "forward");
    if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
        m_.fail(n, "direction '" + direction + "': expected forward, reverse or bidirectional");
    c.directions = direction == "bidirectional" ? 2 : 1;
    c.reverse = direction == "reverse";
    c.layout = static_cast<int>(attr_int(n, "layout", 0));
    c.linear_before_reset = attr_int(n, "linear_before_reset", 0) != 0;
    const onnx::TensorProto* w = n.input_size() > 1 ? m_.constant(n.input(1)) : nullptr;
    const onnx::TensorProto* r = n.input_size() > 2 ? m_.constant(n.input(2)) : nullptr;
    if (!w || !r || w->dims_size() != 3 || r->dims_size() != 3)
        m_.fail(n, "W and R (operands 1 and 2) must be 3-D initializers [directions, gates x hidden, input]");
    c.hidden = attr_int(n, "hidden_size", r->dims(2));
    c.input = w->dims(2);
    if (w->dims(0) != c.directions || r->dims(0) != c.directions || w->dims(1) != c.gates * c.hidden ||
        r->dims(1) != c.gates * c.hidden || r->dims(2) != c.hidden)
        m_.fail(n, "W " + dims_text({w->dims().begin(), w->dims().end()}) + " and R " +
                       dims_text({r->dims().begin(), r->dims().end()}) + " do not fit " +
                       std::to_string(c.directions) + " direction(s) of " + std::to_string(c.gates) +
                       " gate(s) with hidden_size " + std::to_string(c.hidden));
    c.bias = n.input_size() > 3 && !n.input(3).empty();
    if (n.input_size() > 4 && !n.input(4).empty()) {
        const auto lens = m_.values(n.input(4));
        bool full = lens.has_value();
        for (double v : lens.value_or(std::vector<double>{})) full = full && v == m_.input_dims()[1];
        if (!full)
            m_.fail(n, "sequence_lens (operand 4) must be a constant holding the sequence length " +
                           std::to_string(m_.input_dims()[1]) +
                           " for every sample; the layer model unrolls all "
                           "samples over the same steps");
    }
    if (n.input_size() > 7 && !n.input(7).empty())
        m_.fail(n,
                "peepholes (operand P) multiply by a learned vector, which the layer model has no layer for");
    if (attr_int(n, "input_forget", 0) != 0) m_.fail(n, "input_forget = 1 (coupled gates) is not supported");
    // ONNX's defaults: LSTM f = Sigmoid, g = h = Tanh; GRU f = Sigmoid, g = Tanh; RNN f = Tanh.
    const auto names = attr_strings(n, "activations");
    const int per = c.kind == CellKind::lstm ? 3 : c.kind == CellKind::gru ? 2 : 1;
    if (!names.empty() && names.size() != static_cast<std::size_t>(per * c.directions))
        m_.fail(n, "activations: " + std::to_string(names.size()) + " given, expected " +
                       std::to_string(per * c.directions) + " (" + std::to_string(per) + " per direction)");
    for (int d = 0; d < c.directions; ++d)
        for (int k = 0; k < per; ++k) {
            const std::size_t i = static_cast<std::size_t>(d * per + k);
            const bool gate = k == 0 && c.kind != CellKind::rnn;
            std::optional<Activation> a = gate ? Activation::sigmoid : Activation::tanh;
            if (!names.empty()) a = cell_activation(names[i]);
            if (!a)
                m_.fail(n, "activation '" + names[i] +
                               "' has no activation of the layer model (Sigmoid, Tanh, Relu, LeakyRelu, "
                               "HardSigmoid)");
            (k == 0 ? c.f : k == 1 ? c.g : c.h).push_back(*a);
        }
    return c;
}

// X's steps in time order: a Steps tensor [steps, batch, input] (layout 0) or [batch,
// steps, input] (layout 1) of one layer per step.
std::vector<LayerIndex> Importer::sequence(const NodeProto& n, const Cell& c) const {
    const Steps* x = steps_of(n.input(0));
    if (!x) {
        const auto it = values_.find(n.input(0));
        const std::string what = it == values_.end() ? "a tensor no imported node produced"
                                                     : "a whole sequence, one layer over all steps";
        m_.fail(n, "X ('" + n.input(0) + "') is " + what +
                       "; the layer model has no slice to take one step's x_t from it: a recurrent node "
                       "reads the network input or the per-step outputs of another recurrent node");
    }
    const int seq = c.layout == 0 ? 0 : 1;
    const bool fits = x->dims.size() == 3 && x->dims[2] == c.input &&
                      static_cast<std::int64_t>(x->cells.size()) == x->dims[static_cast<std::size_t>(seq)] &&
                      (x->batch_axis < 0 || x->batch_axis == 1 - seq);
    if (!fits)
        m_.fail(n, "X " + dims_text(x->dims) + " (from " + x->origin + ") is not [" +
                       (seq == 0 ? "steps, batch, " : "batch, steps, ") + std::to_string(c.input) +
                       "] for layout " + std::to_string(c.layout) + " and W's input size");
    return x->cells;
}

// An initial state (operand k: 5 initial_h, 6 initial_c) of direction d: a layer when an
// earlier node computes it; nullopt when absent or a constant (zeros, or a constant whose
// product the cell folds into its bias: the layer model has no constant activations).
std::optional<LayerIndex> Importer::initial(const NodeProto& n, int k, const Cell& c, int d) const {
    if (n.input_size() <= k || n.input(k).empty() || m_.constant(n.input(k))) return std::nullopt;
    if (const Steps* s = steps_of(n.input(k));
        s && static_cast<int>(s->cells.size()) == c.directions && s->dims.back() == c.hidden)
        return s->cells[static_cast<std::size_t>(d)];
    const auto it = values_.find(n.input(k));
    if (c.directions == 1 && it != values_.end() && it->second.heads.empty() &&
        shape(it->second) == TensorShape{c.hidden, 1, 1})
        return it->second.producer;
    m_.fail(n, "initial state '" + n.input(k) + "' (operand " + std::to_string(k) +
                   ") is neither a constant nor one " + std::to_string(c.hidden) +
                   "-vector per direction computed by an earlier node");
}

void Importer::recurrent(const NodeProto& n) {
    Cell c = cell(n);
    const std::vector<LayerIndex> x = sequence(n, c);
    c.steps = static_cast<std::int64_t>(x.size());
    c.base = layer_name(n);
    std::vector<Direction> dirs(static_cast<std::size_t>(c.directions));
    for (int d = 0; d < c.directions; ++d) unroll(n, c, x, d, dirs[static_cast<std::size_t>(d)]);
    // Outputs: Y [T, D, B, H] (layout 1: [B, T, D, H]); Y_h, Y_c [D, B, H] ([B, D, H]).
    const std::int64_t b = m_.input_dims()[0], t = c.steps, nd = c.directions, h = c.hidden;
    const auto out = [&](int k, Steps s) {
        if (n.output_size() <= k || n.output(k).empty()) return;
        s.origin = OnnxModel::describe(n);
        steps_[n.output(k)] = std::move(s);
    };
    Steps y{c.layout == 0 ? std::vector<std::int64_t>{t, nd, b, h} : std::vector<std::int64_t>{b, t, nd, h},
            c.layout == 0 ? 2 : 0,
            {},
            {}};
    for (std::int64_t i = 0; i < t; ++i)
        for (const Direction& dir : dirs) y.cells.push_back(dir.hs[static_cast<std::size_t>(i)]);
    out(0, y);
    const auto last = [&](bool cell_state) {
        Steps s{c.layout == 0 ? std::vector<std::int64_t>{nd, b, h} : std::vector<std::int64_t>{b, nd, h},
                c.layout == 0 ? 1 : 0,
                {},
                {}};
        for (const Direction& dir : dirs) s.cells.push_back(cell_state ? *dir.c : *dir.h);
        return s;
    };
    out(1, last(false));
    if (c.kind == CellKind::lstm) out(2, last(true));
}

void Importer::unroll(const NodeProto& n, const Cell& c, const std::vector<LayerIndex>& x, int d,
                      Direction& out) {
    out.h = initial(n, 5, c, d);
    if (c.kind == CellKind::lstm) out.c = initial(n, 6, c, d);
    const bool backward = c.reverse || d == 1;
    const std::string prefix = c.directions == 2 ? c.base + (d == 0 ? ".fw" : ".bw") : c.base;
    out.hs.assign(x.size(), workload::kNetworkInput);
    for (std::size_t s = 0; s < x.size(); ++s) {
        const std::size_t t = backward ? x.size() - 1 - s : s;
        const std::string p = prefix + ".t" + std::to_string(t);
        out.hs[t] = build(n, [&] { return step(c, p, x[t], out, d); });
    }
}

// One time step of direction d on x_t; updates s.h (and s.c); returns h_t. A missing
// previous state is zero: the step has no recurrent projection and no product with it.
LayerIndex Importer::step(const Cell& c, const std::string& p, LayerIndex x, Direction& s, int d) {
    const auto dd = static_cast<std::size_t>(d);
    const std::optional<LayerIndex> h = s.h;
    if (c.kind == CellKind::rnn) return *(s.h = gate(c, unique_name(p + ".h"), 0, x, h, c.f[dd], d));
    if (c.kind == CellKind::lstm) {
        // ONNX's gate order in W and R: i, o, f, c (the candidate, here g).
        const LayerIndex i = gate(c, unique_name(p + ".i"), 0, x, h, c.f[dd], d);
        const LayerIndex o = gate(c, unique_name(p + ".o"), 1, x, h, c.f[dd], d);
        const bool forget = s.c.has_value();  // f * c_{-1} is 0 from a zero state
        const LayerIndex f =
            forget ? gate(c, unique_name(p + ".f"), 2, x, h, c.f[dd], d) : workload::kNetworkInput;
        const LayerIndex g = gate(c, unique_name(p + ".g"), 3, x, h, c.g[dd], d);
        // c_t = f * c_{t-1} + i * g; h_t = o * h(c_t).
        LayerIndex ct = builder_.mul(unique_name(p + (forget ? ".ig" : ".c")), i, g);
        if (forget) {
            const LayerIndex fc = builder_.mul(unique_name(p + ".fc"), f, *s.c);
            ct = builder_.add(unique_name(p + ".c"), {fc, ct});
        }
        const LayerIndex act = builder_.activation(unique_name(p + ".c_act"), ct, c.h[dd]);
        s.c = ct;
        return *(s.h = builder_.mul(unique_name(p + ".h"), o, act));
    }
    // GRU, ONNX's gate order z, r, h (the candidate, here n):
    // n = g(x Wn + r * (h Rn + Rbn) + Wbn) with linear_before_reset, else g(x Wn + (r * h) Rn + ...);
    // h_t = (1 - z) * n + z * h_{t-1} = n + z * (h_{t-1} - n), the subtraction an add layer.
    const LayerIndex z = gate(c, unique_name(p + ".z"), 0, x, h, c.f[dd], d);
    if (!h) {  // h_{-1} = 0: no reset gate; h_0 = n - z * n
        const LayerIndex nn = weighted(c, unique_name(p + ".n"), x, 2, 0, d, c.g[dd]);
        const LayerIndex zn = builder_.mul(unique_name(p + ".zn"), z, nn);
        return *(s.h = builder_.add(unique_name(p + ".h"), {nn, zn}));
    }
    const LayerIndex r = gate(c, unique_name(p + ".r"), 1, x, h, c.f[dd], d);
    const LayerIndex nx = weighted(c, unique_name(p + ".n.x"), x, 2, 0, d);
    LayerIndex nh;
    if (c.linear_before_reset) {
        const LayerIndex proj = weighted(c, unique_name(p + ".n.h"), *h, 2, 1, d);
        nh = builder_.mul(unique_name(p + ".n.r"), r, proj);
    } else {
        const LayerIndex reset = builder_.mul(unique_name(p + ".rh"), r, *h);
        nh = weighted(c, unique_name(p + ".n.h"), reset, 2, 1, d);
    }
    const LayerIndex nn = builder_.add(unique_name(p + ".n"), {nx, nh}, c.g[dd]);
    const LayerIndex diff = builder_.add(unique_name(p + ".hn"), {*h, nn});
    const LayerIndex zd = builder_.mul(unique_name(p + ".zd"), z, diff);
    return *(s.h = builder_.add(unique_name(p + ".h"), {nn, zd}));
}

// Gate `index` (its rows of W and R) on x_t and h_{t-1}: x_t W^T + h R^T + Wb + Rb, the
// activation folded into the add; without h, into the input projection.
LayerIndex Importer::gate(const Cell& c, const std::string& name, int index, LayerIndex x,
                          std::optional<LayerIndex> h, Activation act, int d) {
    if (!h) return weighted(c, name, x, index, 0, d, act);
    const LayerIndex gx = weighted(c, unique_name(name + ".x"), x, index, 0, d);
    const LayerIndex gh = weighted(c, unique_name(name + ".h"), *h, index, 1, d);
    return builder_.add(name, {gx, gh}, act);
}

// The hidden rows of gate `index` of W (side 0) or R (side 1) as a matmul; the node's bias
// B holds Wb and Rb, a bias of `hidden` elements each.
LayerIndex Importer::weighted(const Cell& c, const std::string& name, LayerIndex x, int index, int side,
                              int d, Activation act) {
    (void)index, (void)side, (void)d;
    workload::LinearSpec s;
    s.out_features = c.hidden;
    s.bias = c.bias;
    s.activation = act;
    return builder_.linear(name, x, s);
}

}  // namespace pimdse::io::onnx_detail
