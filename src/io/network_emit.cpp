// Network files written back (docs/workloads.md): what `pimdse network import` writes.
// Every key is written explicitly (producers, strides) so that the text does not rely on
// the reader's defaults, and reading it back gives the same network.

#include <sstream>
#include <string>
#include <vector>

#include "pimdse/io/network_file.hpp"

namespace pimdse::io {

namespace {

using workload::Layer;
using workload::LayerKind;

std::string pair_text(std::int64_t a, std::int64_t b) {
    if (a == b) return std::to_string(a);
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string&&.
    std::string out(1, '[');
    out += std::to_string(a);
    out += ", ";
    out += std::to_string(b);
    out += ']';
    return out;
}

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

std::string producers(const workload::Network& net, const Layer& l) {
    const auto name = [&](workload::LayerIndex p) {
        return p == workload::kNetworkInput ? std::string("input") : net.layer(p).name;
    };
    if (l.inputs.size() == 1) return name(l.inputs.front());
    std::string out = "[";
    for (std::size_t i = 0; i < l.inputs.size(); ++i) {
        if (i) out += ", ";
        out += name(l.inputs[i]);
    }
    return out + "]";
}

// The folded post-operations and the layer's own bits (absent: the design point's).
void post_ops(std::vector<std::string>& f, const Layer& l) {
    if (l.bias) f.push_back("bias: true");
    if (l.norm != workload::Normalization::none) f.push_back("norm: " + std::string(to_string(l.norm)));
    if (l.activation != workload::Activation::none)
        f.push_back("activation: " + std::string(to_string(l.activation)));
    if (l.weight_bits) f.push_back("weight_bits: " + std::to_string(l.weight_bits));
    if (l.activation_bits) f.push_back("activation_bits: " + std::to_string(l.activation_bits));
}

// `padding` (or `sep`), and `padding_end` only when it differs from `padding`.
void padding(std::vector<std::string>& f, const Layer& l) {
    if (l.sep_padding) {
        f.push_back("padding: sep");
        return;
    }
    if (l.pad_h || l.pad_w) f.push_back("padding: " + pair_text(l.pad_h, l.pad_w));
    if (l.pad_h_end != l.pad_h || l.pad_w_end != l.pad_w)
        f.push_back("padding_end: " + pair_text(l.pad_h_end, l.pad_w_end));
}

std::vector<std::string> kind_fields(const workload::Network& net, const Layer& l) {
    std::vector<std::string> f;
    switch (l.kind) {
        case LayerKind::conv:
            f.push_back("out_channels: " + std::to_string(l.K));
            f.push_back("kernel: " + pair_text(l.R, l.S));
            f.push_back("stride: " + pair_text(l.stride_h, l.stride_w));
            padding(f, l);
            if (l.dilation_h != 1 || l.dilation_w != 1)
                f.push_back("dilation: " + pair_text(l.dilation_h, l.dilation_w));
            if (l.groups != 1)
                f.push_back("groups: " + (l.groups == l.C && l.groups == l.K ? std::string("depthwise")
                                                                             : std::to_string(l.groups)));
            post_ops(f, l);
            break;
        case LayerKind::matmul:
            if (l.weights_are_activations) {
                if (l.transpose_b) f.push_back("transpose_b: true");
                if (l.activation != workload::Activation::none)
                    f.push_back("activation: " + std::string(to_string(l.activation)));
                break;
            }
            f.push_back("out_features: " + std::to_string(l.K));
            if (l.flatten) f.push_back("flatten: true");
            post_ops(f, l);
            break;
        case LayerKind::pool: {
            f.push_back("mode: " + std::string(to_string(l.pooling)));
            const auto in = net.output_shape(l.inputs.front());
            if (l.adaptive) {
                f.push_back("output: " + pair_text(l.P, l.Q));
            } else if (l.P == 1 && l.Q == 1 && l.R == in.height && l.S == in.width && l.pad_h == 0 &&
                       l.pad_w == 0 && l.pad_h_end == 0 && l.pad_w_end == 0 && l.stride_h == 1 &&
                       l.stride_w == 1 && !l.ceil_mode) {
                f.push_back("global: true");
            } else {
                f.push_back("kernel: " + pair_text(l.R, l.S));
                f.push_back("stride: " + pair_text(l.stride_h, l.stride_w));
                padding(f, l);
                if (l.ceil_mode) f.push_back("ceil_mode: true");
            }
            break;
        }
        case LayerKind::add:
        case LayerKind::mul:
            if (l.bias) f.push_back("bias: true");
            if (l.activation != workload::Activation::none)
                f.push_back("activation: " + std::string(to_string(l.activation)));
            break;
        case LayerKind::deconv: {
            const auto in = net.output_shape(l.inputs.front());
            f.push_back("out_channels: " + std::to_string(l.K));
            f.push_back("kernel: " + pair_text(l.R, l.S));
            f.push_back("stride: " + pair_text(l.up_h, l.up_w));
            if (l.R - 1 - l.pad_h || l.S - 1 - l.pad_w)
                f.push_back("padding: " + pair_text(l.R - 1 - l.pad_h, l.S - 1 - l.pad_w));
            const std::int64_t extra_h = l.H - ((in.height - 1) * l.up_h + 1);
            const std::int64_t extra_w = l.W - ((in.width - 1) * l.up_w + 1);
            if (extra_h || extra_w) f.push_back("output_padding: " + pair_text(extra_h, extra_w));
            if (l.groups != 1) f.push_back("groups: " + std::to_string(l.groups));
            post_ops(f, l);
            break;
        }
        case LayerKind::upsample:
            f.push_back("scale: " + pair_text(l.up_h, l.up_w));
            f.push_back("mode: " + std::string(to_string(l.interpolation)));
            break;
        case LayerKind::norm:
            f.push_back("mode: " + std::string(to_string(l.norm)));
            break;
        case LayerKind::activation:
            f.push_back("function: " + std::string(to_string(l.activation)));
            break;
        case LayerKind::concat:
        case LayerKind::softmax:
            break;
    }
    return f;
}

}  // namespace

std::string emit_network(const workload::Network& net, const std::vector<std::string>& header) {
    std::ostringstream out;
    for (const std::string& line : header) out << "# " << line << '\n';
    out << "network: " << net.name() << '\n';
    if (!net.info().description.empty()) out << "description: " << quoted(net.info().description) << '\n';
    if (!net.info().source.empty()) out << "source: " << quoted(net.info().source) << '\n';
    out << "batch: " << net.batch() << '\n';
    if (net.mode() != workload::NetworkMode::inference)
        out << "mode: " << name_of(workload::kNetworkModeNames, net.mode()) << '\n';
    const auto& in = net.input();
    out << "input: {channels: " << in.channels << ", height: " << in.height << ", width: " << in.width
        << "}\n";
    out << "layers:\n";
    for (const Layer& l : net.layers()) {
        out << "  - {name: " << l.name << ", type: " << to_string(l.kind)
            << ", inputs: " << producers(net, l);
        for (const std::string& field : kind_fields(net, l)) out << ", " << field;
        out << "}\n";
    }
    return out.str();
}

}  // namespace pimdse::io
