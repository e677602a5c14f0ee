#include "pimdse/workload/builder.hpp"

#include <tuple>
#include <utility>

#include "pimdse/core/error.hpp"

namespace pimdse::workload {

namespace {

std::string num(std::int64_t v) {
    return std::to_string(v);
}

}  // namespace

NetworkBuilder::NetworkBuilder(NetworkInfo info, std::int64_t batch, TensorShape input)
    : info_(std::move(info)), batch_(batch), input_(input) {
    const SourceLocation where{"network '" + info_.name + "'"};
    if (batch_ < 1) throw InputError(where, "batch", "batch " + num(batch_) + ", expected >= 1");
    if (input_.channels < 1 || input_.height < 1 || input_.width < 1)
        throw InputError(where, "input", "input shape " + to_string(input_) + " must be positive");
}

void NetworkBuilder::fail(std::string_view field, const std::string& layer_name,
                          const std::string& problem) const {
    std::string key = "layers[" + num(size()) + "]";
    if (!field.empty()) {
        key += '.';
        key += field;
    }
    throw InputError(SourceLocation{"network '" + info_.name + "'"}, std::move(key),
                     "layer '" + layer_name + "': " + problem);
}

TensorShape NetworkBuilder::shape(LayerIndex producer) const {
    return producer == kNetworkInput ? input_ : layers_.at(static_cast<std::size_t>(producer)).output_shape();
}

Layer NetworkBuilder::start(std::string name, LayerKind kind, std::vector<LayerIndex> inputs) const {
    require(is_valid_name(name) && name != "input", "name", name,
            "a layer name is made of letters, digits, '_', '-', '.' and is not 'input'");
    if (auto it = names_.find(name); it != names_.end())
        fail("name", name, "duplicate layer name (also layers[" + num(it->second) + "])");
    require(!inputs.empty(), "inputs", name, "needs at least one producer");
    for (LayerIndex p : inputs)
        require(p >= kNetworkInput && p < size(), "inputs", name,
                "producer index " + num(p) + " is not an earlier layer");
    Layer l;
    l.name = std::move(name);
    l.kind = kind;
    l.B = batch_;
    l.inputs = std::move(inputs);
    // Shape-preserving default: C x H x W in, K x P x Q = C x H x W out.
    const TensorShape in = shape(l.inputs.front());
    l.C = l.K = in.channels;
    l.H = l.P = in.height;
    l.W = l.Q = in.width;
    return l;
}

LayerIndex NetworkBuilder::finish(Layer layer) {
    const auto index = size();
    layers_.push_back(std::move(layer));
    if (auto issue = check_layer(layers_, index, batch_, input_)) {
        layers_.pop_back();  // the builder stays usable after a rejected layer
        throw InputError(SourceLocation{"network '" + info_.name + "'"}, issue->key, issue->problem);
    }
    names_.emplace(layers_.back().name, index);
    return index;
}

namespace {

/// Padding before and after, rows then columns.
struct Padding {
    std::int64_t h = 0, w = 0, h_end = 0, w_end = 0;

    static Padding symmetric(std::int64_t h, std::int64_t w) { return {h, w, h, w}; }
    [[nodiscard]] bool valid() const { return h >= 0 && w >= 0 && h_end >= 0 && w_end >= 0; }
};

/// Sets R, S, strides, padding and P, Q of a windowed layer; returns false when the
/// window does not fit the padded input.
bool set_window(Layer& l, std::int64_t kh, std::int64_t kw, std::int64_t sh, std::int64_t sw,
                const Padding& pad, bool ceil_mode = false) {
    l.R = kh;
    l.S = kw;
    l.stride_h = sh;
    l.stride_w = sw;
    l.pad_h = pad.h;
    l.pad_w = pad.w;
    l.pad_h_end = pad.h_end;
    l.pad_w_end = pad.w_end;
    l.ceil_mode = ceil_mode;
    // NicePIM Fig. 2: the filter slides P x Q times.
    l.P = window_extent(l.H, kh, sh, pad.h, pad.h_end, ceil_mode);
    l.Q = window_extent(l.W, kw, sw, pad.w, pad.w_end, ceil_mode);
    return l.P > 0 && l.Q > 0;
}

/// "34x34": the input plane with its padding.
std::string padded_text(const Layer& l, const Padding& pad) {
    return num(l.H + pad.h + pad.h_end) + "x" + num(l.W + pad.w + pad.w_end);
}

}  // namespace

void NetworkBuilder::set_bits(Layer& l, const LayerBits& bits) const {
    for (const auto& [key, v] : {std::pair{"weight_bits", bits.weight}, {"activation_bits", bits.activation}})
        require(v >= 0 && v <= kMaxLayerBits, key, l.name,
                std::string(key) + " " + num(v) + ": expected 1 to " + num(kMaxLayerBits) +
                    " bits, or 0 for the design point's");
    l.weight_bits = bits.weight;
    l.activation_bits = bits.activation;
}

LayerIndex NetworkBuilder::conv(std::string name, LayerIndex input, const ConvSpec& spec) {
    Layer l = start(std::move(name), LayerKind::conv, {input});
    require(spec.out_channels >= 1, "out_channels", l.name,
            "out_channels " + num(spec.out_channels) + ", expected >= 1");
    require(spec.kernel_h >= 1 && spec.kernel_w >= 1, "kernel", l.name, "kernel sizes must be >= 1");
    require(spec.stride_h >= 1 && spec.stride_w >= 1, "stride", l.name, "strides must be >= 1");
    require(spec.pad_h >= 0 && spec.pad_w >= 0, "padding", l.name, "padding must be >= 0");
    require(spec.pad_h_end.value_or(0) >= 0 && spec.pad_w_end.value_or(0) >= 0, "padding_end", l.name,
            "padding_end must be >= 0");
    require(!spec.sep || (spec.pad_h == 0 && spec.pad_w == 0 && !spec.pad_h_end && !spec.pad_w_end),
            "padding_end", l.name, "SEP padding follows from the kernel: no padding or padding_end with it");
    require(spec.groups >= 1, "groups", l.name, "groups " + num(spec.groups) + ", expected >= 1");
    require(l.C % spec.groups == 0 && spec.out_channels % spec.groups == 0, "groups", l.name,
            "groups " + num(spec.groups) + " must divide the input channels " + num(l.C) +
                " and out_channels " + num(spec.out_channels));
    require(spec.dilation_h >= 1 && spec.dilation_w >= 1, "dilation", l.name, "dilations must be >= 1");
    l.K = spec.out_channels;
    l.groups = spec.groups;
    l.dilation_h = spec.dilation_h;
    l.dilation_w = spec.dilation_w;
    l.bias = spec.bias;
    l.norm = spec.norm;
    l.activation = spec.activation;
    set_bits(l, spec.bits);
    // The window spans (kernel - 1) dilation + 1 input rows; the layer keeps the tap count.
    const std::int64_t span_h = (spec.kernel_h - 1) * spec.dilation_h + 1;
    const std::int64_t span_w = (spec.kernel_w - 1) * spec.dilation_w + 1;
    const bool dilated = spec.dilation_h != 1 || spec.dilation_w != 1;
    Padding pad{spec.pad_h, spec.pad_w, spec.pad_h_end.value_or(spec.pad_h),
                spec.pad_w_end.value_or(spec.pad_w)};
    if (spec.sep) {
        // Gibbon IV-A, Eq. 3: span - 1 rows in all, the odd one on either side (expected halo).
        std::tie(pad.h, pad.h_end) = sep_padding(span_h);
        std::tie(pad.w, pad.w_end) = sep_padding(span_w);
    }
    l.sep_padding = spec.sep;
    require(set_window(l, span_h, span_w, spec.stride_h, spec.stride_w, pad), "kernel", l.name,
            "kernel " + num(spec.kernel_h) + "x" + num(spec.kernel_w) +
                (dilated ? " (span " + num(span_h) + "x" + num(span_w) + " with its dilation)" : "") +
                " does not fit the padded input " + padded_text(l, pad));
    l.R = spec.kernel_h;
    l.S = spec.kernel_w;
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::linear(std::string name, LayerIndex input, const LinearSpec& spec) {
    Layer l = start(std::move(name), LayerKind::matmul, {input});
    require(spec.out_features >= 1, "out_features", l.name,
            "out_features " + num(spec.out_features) + ", expected >= 1");
    require(spec.flatten || l.W == 1, "flatten", l.name,
            "a matmul without flatten applies at each of the " + num(l.H) + "x" + num(l.W) +
                " positions of its input " + to_string(shape(l.inputs.front())) +
                " (that many times the MACs of a classifier): set flatten: true to use the whole tensor as "
                "one vector, or write a conv with kernel 1 for a per-position linear layer");
    if (spec.flatten) {
        l.C = l.C * l.H * l.W;
        l.H = l.W = l.P = l.Q = 1;
    }
    l.K = spec.out_features;
    l.flatten = spec.flatten;
    l.bias = spec.bias;
    l.norm = spec.norm;
    l.activation = spec.activation;
    set_bits(l, spec.bits);
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::matmul(std::string name, LayerIndex a, LayerIndex b, bool transpose_b,
                                  Activation activation) {
    Layer l = start(std::move(name), LayerKind::matmul, {a, b});
    const TensorShape sb = shape(b);
    // A is (P*Q) x C; the second operand supplies K columns: its rows when transposed.
    l.K = transpose_b ? sb.height * sb.width : sb.channels;
    l.weights_are_activations = true;
    l.transpose_b = transpose_b;
    l.activation = activation;
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::pool(std::string name, LayerIndex input, const PoolSpec& spec) {
    Layer l = start(std::move(name), LayerKind::pool, {input});
    l.pooling = spec.mode;
    if (spec.global) {
        set_window(l, l.H, l.W, 1, 1, Padding{});
        return finish(std::move(l));
    }
    if (spec.output_h > 0 || spec.output_w > 0) {
        require(spec.output_h >= 1 && spec.output_w >= 1 && spec.output_h <= l.H && spec.output_w <= l.W,
                "output", l.name,
                "adaptive output " + num(spec.output_h) + "x" + num(spec.output_w) + " must lie in 1x1.." +
                    num(l.H) + "x" + num(l.W) + " (the input plane)");
        l.adaptive = true;
        l.P = spec.output_h;
        l.Q = spec.output_w;
        l.R = adaptive_window(l.H, l.P);
        l.S = adaptive_window(l.W, l.Q);
        l.stride_h = l.H / l.P;
        l.stride_w = l.W / l.Q;
        return finish(std::move(l));
    }
    require(spec.kernel_h >= 1 && spec.kernel_w >= 1, "kernel", l.name, "kernel sizes must be >= 1");
    require(spec.stride_h >= 1 && spec.stride_w >= 1, "stride", l.name, "strides must be >= 1");
    require(spec.pad_h >= 0 && spec.pad_w >= 0, "padding", l.name, "padding must be >= 0");
    const Padding pad{spec.pad_h, spec.pad_w, spec.pad_h_end.value_or(spec.pad_h),
                      spec.pad_w_end.value_or(spec.pad_w)};
    require(pad.valid(), "padding_end", l.name, "padding_end must be >= 0");
    require(set_window(l, spec.kernel_h, spec.kernel_w, spec.stride_h, spec.stride_w, pad, spec.ceil_mode),
            "kernel", l.name,
            "kernel " + num(spec.kernel_h) + "x" + num(spec.kernel_w) + " does not fit the padded input " +
                padded_text(l, pad));
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::add(std::string name, std::vector<LayerIndex> inputs, Activation activation,
                               bool learned) {
    Layer l = start(std::move(name), LayerKind::add, std::move(inputs));
    l.activation = activation;
    l.bias = learned;
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::concat(std::string name, std::vector<LayerIndex> inputs) {
    Layer l = start(std::move(name), LayerKind::concat, std::move(inputs));
    std::int64_t channels = 0;
    for (LayerIndex p : l.inputs) channels += shape(p).channels;
    l.C = l.K = channels;
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::mul(std::string name, LayerIndex a, LayerIndex b, Activation activation) {
    Layer l = start(std::move(name), LayerKind::mul, {a, b});
    const TensorShape sb = shape(b);
    l.broadcast = sb != shape(a) && sb == TensorShape{l.C, 1, 1};
    l.activation = activation;
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::deconv(std::string name, LayerIndex input, const DeconvSpec& spec) {
    Layer l = start(std::move(name), LayerKind::deconv, {input});
    require(spec.out_channels >= 1, "out_channels", l.name,
            "out_channels " + num(spec.out_channels) + ", expected >= 1");
    require(spec.kernel_h >= 1 && spec.kernel_w >= 1, "kernel", l.name, "kernel sizes must be >= 1");
    require(spec.stride_h >= 1 && spec.stride_w >= 1, "stride", l.name, "strides must be >= 1");
    require(spec.pad_h >= 0 && spec.pad_w >= 0 && spec.pad_h < spec.kernel_h && spec.pad_w < spec.kernel_w,
            "padding", l.name, "padding must lie in [0, kernel - 1]");
    require(spec.output_pad_h >= 0 && spec.output_pad_w >= 0 && spec.output_pad_h < spec.stride_h &&
                spec.output_pad_w < spec.stride_w,
            "output_padding", l.name, "output_padding must lie in [0, stride - 1]");
    require(spec.groups >= 1 && l.C % spec.groups == 0 && spec.out_channels % spec.groups == 0, "groups",
            l.name,
            "groups " + num(spec.groups) + " must divide the input channels " + num(l.C) +
                " and out_channels " + num(spec.out_channels));
    l.K = spec.out_channels;
    l.groups = spec.groups;
    l.bias = spec.bias;
    l.norm = spec.norm;
    l.activation = spec.activation;
    set_bits(l, spec.bits);
    // The equivalent convolution: stride 1 over the input with stride - 1 zeros between rows
    // (and output_padding more at the end), padded by kernel - 1 - pad (docs/model.md).
    l.up_h = spec.stride_h;
    l.up_w = spec.stride_w;
    l.H = (l.H - 1) * spec.stride_h + 1 + spec.output_pad_h;
    l.W = (l.W - 1) * spec.stride_w + 1 + spec.output_pad_w;
    set_window(l, spec.kernel_h, spec.kernel_w, 1, 1,
               Padding::symmetric(spec.kernel_h - 1 - spec.pad_h, spec.kernel_w - 1 - spec.pad_w));
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::upsample(std::string name, LayerIndex input, std::int64_t scale_h,
                                    std::int64_t scale_w, Interpolation mode) {
    Layer l = start(std::move(name), LayerKind::upsample, {input});
    require(scale_h >= 1 && scale_w >= 1, "scale", l.name,
            "scale " + num(scale_h) + "x" + num(scale_w) + ": expected integers >= 1");
    l.up_h = scale_h;
    l.up_w = scale_w;
    l.P = l.H * scale_h;
    l.Q = l.W * scale_w;
    l.interpolation = mode;
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::norm(std::string name, LayerIndex input, Normalization norm) {
    Layer l = start(std::move(name), LayerKind::norm, {input});
    l.norm = norm;
    return finish(std::move(l));
}

LayerIndex NetworkBuilder::softmax(std::string name, LayerIndex input) {
    return finish(start(std::move(name), LayerKind::softmax, {input}));
}

LayerIndex NetworkBuilder::activation(std::string name, LayerIndex input, Activation function) {
    Layer l = start(std::move(name), LayerKind::activation, {input});
    l.activation = function;
    return finish(std::move(l));
}

Network NetworkBuilder::build() && {
    return Network(std::move(info_), batch_, input_, std::move(layers_), mode_);
}

}  // namespace pimdse::workload
