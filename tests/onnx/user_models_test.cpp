// Models as users export them (tests/onnx/gen_user_models.py): each imports with the MACs and
// parameters worked out by hand in its builder's docstring, or is refused with a message
// that says what to do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/onnx_import.hpp"
#include "support.hpp"

namespace pimdse::test {
namespace {

using workload::Activation;
using workload::LayerKind;

workload::Network user_model(const std::string& name, const io::OnnxImportOptions& o = {}) {
    return io::import_onnx(models_dir() / "user" / (name + ".onnx"), o);
}

const workload::Layer& named(const workload::Network& net, const std::string& name) {
    for (const auto& l : net.layers())
        if (l.name == name) return l;
    throw std::runtime_error("no layer " + name);
}

std::string refusal(const std::filesystem::path& path, const io::OnnxImportOptions& o = {}) {
    try {
        (void)io::import_onnx(path, o);
    } catch (const InputError& e) {
        return e.what();
    }
    return "imported";
}

TEST(UserModels, MobileNetV3BlockPadsHardSwishSiluAndSqueezeExcite) {
    const auto net = user_model("mobilenet_v3_block");
    EXPECT_EQ(net.size(), 7);
    EXPECT_EQ(net.total_macs(), 1'384'960);
    EXPECT_EQ(net.total_parameters(), 5'960);
    // The Pad [0, 0, 1, 1] before a stride-2 conv: 0 before, 1 after, floor((32 + 1 - 3) / 2) + 1 = 16.
    const auto& stem = named(net, "stem");
    EXPECT_EQ(std::vector<std::int64_t>({stem.pad_h, stem.pad_w, stem.pad_h_end, stem.pad_w_end}),
              std::vector<std::int64_t>({0, 0, 1, 1}));
    EXPECT_EQ(stem.P, 16);
    EXPECT_EQ(stem.activation, Activation::hard_swish);
    EXPECT_EQ(named(net, "dw").activation, Activation::swish);
    EXPECT_EQ(named(net, "se.fc2").activation, Activation::hard_sigmoid);
    const auto& scale = named(net, "se.scale");
    EXPECT_EQ(scale.kind, LayerKind::mul);
    EXPECT_TRUE(scale.broadcast);
    EXPECT_EQ(scale.inputs, (std::vector<workload::LayerIndex>{1, 4}));  // dw, then the gate
}

TEST(UserModels, SameAndAsymmetricPadsAreTheLayersOwn) {
    const auto net = user_model("tf_same_padding");
    ASSERT_EQ(net.size(), 4);
    EXPECT_EQ(net.total_macs(), 7'936);
    EXPECT_EQ(net.total_parameters(), 1'120);
    const auto pads = [](const workload::Layer& l) {
        return std::vector<std::int64_t>({l.pad_h, l.pad_w, l.pad_h_end, l.pad_w_end, l.P, l.Q});
    };
    // [before h, w, after h, w, P, Q], worked out in gen_user_models.py.
    EXPECT_EQ(pads(named(net, "upper")), std::vector<std::int64_t>({0, 0, 1, 1, 4, 4}));
    EXPECT_EQ(pads(named(net, "lower")), std::vector<std::int64_t>({1, 1, 0, 0, 2, 2}));
    EXPECT_EQ(pads(named(net, "explicit")), std::vector<std::int64_t>({0, 0, 1, 1, 2, 2}));
    EXPECT_EQ(pads(named(net, "pool")), std::vector<std::int64_t>({1, 1, 0, 0, 1, 1}));
    // SAME_LOWER's extra row is at the top: the last output row reads rows [1, 4), not [2, 4).
    EXPECT_EQ(named(net, "lower").input_rows(1, 2, false), (std::pair<std::int64_t, std::int64_t>(1, 4)));
    EXPECT_EQ(named(net, "upper").input_rows(3, 4, false), (std::pair<std::int64_t, std::int64_t>(6, 8)));
}

TEST(UserModels, QdqModelsGiveEachLayerItsBits) {
    const auto net = user_model("qdq_convnet");
    ASSERT_EQ(net.size(), 3);  // QuantizeLinear and DequantizeLinear are no layers
    EXPECT_EQ(net.total_macs(), 60'416);
    EXPECT_EQ(net.total_parameters(), 6'002);
    const auto bits = [](const workload::Layer& l) { return std::pair(l.weight_bits, l.activation_bits); };
    EXPECT_EQ(bits(named(net, "c1")), std::pair(8, 8));   // int8 weights, uint8 input
    EXPECT_EQ(bits(named(net, "c2")), std::pair(16, 8));  // int16 weights, int8 input
    EXPECT_EQ(bits(named(net, "fc")), std::pair(8, 8));   // weights quantized in the graph to uint8
    EXPECT_TRUE(named(net, "c1").bias);
    EXPECT_EQ(named(net, "c1").activation, Activation::relu);
    EXPECT_TRUE(named(net, "fc").flatten);
    // Without quantization nodes the layers keep the design point's bits (0).
    EXPECT_EQ(bits(named(user_model("tf_same_padding"), "upper")), std::pair(0, 0));
}

TEST(UserModels, UNetImportsTransposedConvAndResize) {
    const auto net = user_model("unet_tiny");
    EXPECT_EQ(net.size(), 12);
    EXPECT_EQ(net.total_macs(), 4'300'800);
    EXPECT_EQ(net.total_parameters(), 14'658);
    const auto& up = named(net, "u1");
    EXPECT_EQ(up.kind, LayerKind::deconv);
    EXPECT_EQ(std::vector<std::int64_t>({up.H, up.P, up.pad_h, up.up_h, up.stride_h}),
              std::vector<std::int64_t>({31, 32, 1, 2, 1}));
    EXPECT_EQ(up.macs(), 524'288);  // the zero-stuffed convolution (docs/model.md)
    const auto& resize = named(net, "u2");
    EXPECT_EQ(resize.kind, LayerKind::upsample);
    EXPECT_EQ(resize.interpolation, workload::Interpolation::bilinear);
    EXPECT_EQ(resize.output_shape(), (workload::TensorShape{32, 16, 16}));
}

TEST(UserModels, OutputPaddingAndNearestSizes) {
    const auto net = user_model("decoder_padded");
    EXPECT_EQ(net.total_macs(), 294'912);
    EXPECT_EQ(net.total_parameters(), 288);
    EXPECT_EQ(net.layer(0).output_shape(), (workload::TensorShape{4, 32, 32}));
    EXPECT_EQ(net.layer(1).output_shape(), (workload::TensorShape{4, 64, 64}));
    EXPECT_EQ(net.layer(1).interpolation, workload::Interpolation::nearest);
}

TEST(UserModels, PyTorchGeluExportFoldsIntoALayerOrBecomesOne) {
    const auto net = user_model("gelu_mlp");
    ASSERT_EQ(net.size(), 5);
    EXPECT_EQ(net.total_macs(), 131'072);
    EXPECT_EQ(net.total_parameters(), 8'416);
    EXPECT_EQ(net.layer(1).kind, LayerKind::activation);
    EXPECT_EQ(net.layer(1).activation, Activation::gelu);
    EXPECT_EQ(named(net, "fc1").activation, Activation::gelu);
    EXPECT_EQ(named(net, "residual").inputs, (std::vector<workload::LayerIndex>{3, 1}));
}

TEST(UserModels, PyTorchStyleVitPatchEmbeddingPositionAndFusedQkv) {
    const auto net = user_model("vit_tiny");
    EXPECT_EQ(net.size(), 25);
    EXPECT_EQ(net.total_macs(), 1'147'200);
    EXPECT_EQ(net.total_parameters(), 16'714);
    // The tokens stay the patch conv's 8x8 plane; per-token linears are 1x1 convs over it.
    const auto& pos = named(net, "pos");
    EXPECT_EQ(pos.kind, LayerKind::add);
    EXPECT_TRUE(pos.bias);
    EXPECT_EQ(pos.parameters(), 64 * 32);
    const auto& q = named(net, "qkv.q.head2");
    EXPECT_EQ(q.kind, LayerKind::conv);
    EXPECT_EQ(q.K, 16);
    const auto& scores = named(net, "scores.head1");
    EXPECT_TRUE(scores.transpose_b);
    EXPECT_EQ(scores.inputs, (std::vector<workload::LayerIndex>{named(net, "qkv.q.head1").inputs[0] + 1,
                                                                named(net, "qkv.q.head1").inputs[0] + 3}));
    EXPECT_EQ(named(net, "fc1").activation, Activation::gelu);
}

TEST(UserModels, NewKindsRoundTripThroughTheNetworkFormat) {
    for (const char* name : {"mobilenet_v3_block", "tf_same_padding", "qdq_convnet", "unet_tiny",
                             "decoder_padded", "vit_tiny"}) {
        const auto net = user_model(name);
        expect_same_network(net, io::parse_network(io::emit_network(net), name));
    }
}

TEST(UserModels, SeqLenOnAFixedLengthModelSaysWhatIsWrong) {
    io::OnnxImportOptions o;
    o.seq_len = 8;
    const std::string msg = refusal(models_dir() / "user" / "fixed_tokens.onnx", o);
    EXPECT_NE(msg.find("--seq-len 8 does not fit this model: its input 'x' fixes the sequence length at 16"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("omit --seq-len"), std::string::npos) << msg;
}

TEST(UserModels, RefusedConstructsSayWhatToDo) {
    const auto dir = models_dir() / "user" / "refused";
    EXPECT_NE(
        refusal(dir / "pad_alone.onnx")
            .find("node 'pad' (op type Pad): a Pad is folded into the Conv, MaxPool or AveragePool that "
                  "alone reads it"),
        std::string::npos);
    EXPECT_NE(refusal(dir / "resize_down.onnx")
                  .find("an upsample layer enlarges height and width by integer factors"),
              std::string::npos);
    EXPECT_NE(refusal(dir / "class_token.onnx").find("export the model with a mean over the tokens"),
              std::string::npos);
}

}  // namespace
}  // namespace pimdse::test
