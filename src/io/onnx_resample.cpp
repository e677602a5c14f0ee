// Operators that enlarge a feature map (docs/workloads.md, "ONNX import"): ConvTranspose onto
// a deconv layer, Resize and Upsample onto an upsample layer (U-Net decoders, FPNs, YOLO).

#include <algorithm>

#include "onnx_importer.hpp"

namespace pimdse::io::onnx_detail {

void Importer::conv_transpose(const NodeProto& n) {
    const Value& x = plain(n, 0);
    workload::DeconvSpec s;
    const onnx::TensorProto* w = n.input_size() > 1 ? weights(n.input(1), &s.bits.weight) : nullptr;
    if (!w) m_.fail(n, "the weights (operand 1) are not an initializer or a Constant");
    if (w->dims_size() != 4 || x.rank != 4)
        m_.fail(
            n, "only 2-D transposed convolutions ([batch, channels, height, width]) map onto a deconv layer");
    for (auto d : attr_ints(n, "dilations"))
        if (d != 1) m_.fail(n, "a dilated transposed convolution has no deconv layer (dilations must be 1)");
    const TensorShape in = shape(x);
    s.bits.activation = activation_bits(n.input(0));
    s.groups = attr_int(n, "group", 1);
    // ConvTranspose weights are [C, K / group, kernel_h, kernel_w].
    if (w->dims(0) != in.channels)
        m_.fail(n, "weights " + dims_text({w->dims().begin(), w->dims().end()}) + " do not fit the input's " +
                       std::to_string(in.channels) + " channels");
    s.out_channels = w->dims(1) * s.groups;
    std::tie(s.kernel_h, s.kernel_w) = std::pair(w->dims(2), w->dims(3));
    const auto strides = attr_ints(n, "strides");
    if (!strides.empty() && strides.size() != 2)
        m_.fail(n, "strides " + dims_text(strides) + ": expected 2 values");
    if (strides.size() == 2) std::tie(s.stride_h, s.stride_w) = std::pair(strides[0], strides[1]);
    // The output extent as ONNX defines it (pads, output_padding, output_shape, auto_pad);
    // shape inference computes it. The deconv layer pads symmetrically and adds up to
    // stride - 1 rows at the end (output_padding): any extent (in - 1) stride + kernel - 2 pad
    // + extra with 0 <= pad < kernel and 0 <= extra < stride maps exactly.
    const auto out = m_.dims(n.output(0));
    if (!out || out->size() != 4) m_.fail(n, "the output shape is not known (ONNX shape inference)");
    const auto fit = [&](std::int64_t size, std::int64_t kernel, std::int64_t stride, std::int64_t want,
                         std::int64_t* pad, std::int64_t* extra) {
        const std::int64_t full = (size - 1) * stride + kernel;  // no padding
        *pad = std::max<std::int64_t>(0, (full - want + 1) / 2);
        *extra = want - (full - 2 * *pad);
        if (*pad >= kernel || *extra < 0 || *extra >= stride)
            m_.fail(n,
                    "output extent " + std::to_string(want) + " from " + std::to_string(size) +
                        " rows, kernel " + std::to_string(kernel) + ", stride " + std::to_string(stride) +
                        " needs padding outside [0, kernel - 1] or output_padding outside [0, stride - 1]");
    };
    fit(in.height, s.kernel_h, s.stride_h, (*out)[2], &s.pad_h, &s.output_pad_h);
    fit(in.width, s.kernel_w, s.stride_w, (*out)[3], &s.pad_w, &s.output_pad_w);
    s.bias = n.input_size() > 2 && !n.input(2).empty();
    std::string tensor = n.output(0);
    s.norm = fold_batch_norm(&tensor);
    s.activation = fold_activation(&tensor);
    const std::string name = layer_name(n);
    set(tensor, {build(n, [&] { return builder_.deconv(name, x.producer, s); }), 4});
}

void Importer::resize(const NodeProto& n) {
    const Value& x = plain(n, 0);
    if (x.rank != 4)
        m_.fail(n, "only a [batch, channels, height, width] tensor is resized by an upsample layer");
    const std::string mode = attr_string(n, "mode", "nearest");
    workload::Interpolation interpolation = workload::Interpolation::nearest;
    if (mode == "linear" || mode == "bilinear")
        interpolation = workload::Interpolation::bilinear;
    else if (mode != "nearest")
        m_.fail(n, "mode '" + mode + "': an upsample layer interpolates nearest or (bi)linear");
    const TensorShape in = shape(x);
    const auto out = m_.dims(n.output(0));
    if (!out || out->size() != 4)
        m_.fail(
            n,
            "the output shape is not known (its scales or sizes must be constants for ONNX shape inference)");
    const std::int64_t oh = (*out)[2], ow = (*out)[3];
    if ((*out)[1] != in.channels || oh < in.height || ow < in.width || oh % in.height || ow % in.width)
        m_.fail(
            n, "resizes " + workload::to_string(in) + " to " + dims_text(*out) +
                   ": an upsample layer enlarges height and width by integer factors and keeps the channels");
    const std::string name = layer_name(n);
    set(n.output(0), {build(n,
                            [&] {
                                return builder_.upsample(name, x.producer, oh / in.height, ow / in.width,
                                                         interpolation);
                            }),
                      4});
}

}  // namespace pimdse::io::onnx_detail
