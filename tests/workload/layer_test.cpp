// Loop bounds and counts of single layers, computed by hand.
#include <gtest/gtest.h>

#include "pimdse/core/error.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::workload {
namespace {

/// Runs `add` on the builder, then builds (and so validates) the network.
template <class AddLayers>
Network make(NetworkBuilder b, AddLayers add) {
    add(b);
    return std::move(b).build();
}

NetworkBuilder image(std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t batch = 1) {
    return NetworkBuilder(NetworkInfo{"t", "", ""}, batch, TensorShape{c, h, w});
}

TEST(Layer, ConvShapeMacsWeights) {
    // ResNet conv1: 3x224x224, 64 filters 7x7, stride 2, padding 3.
    auto b = image(3, 224, 224);
    ConvSpec s;
    s.out_channels = 64;
    s.kernel_h = s.kernel_w = 7;
    s.stride_h = s.stride_w = 2;
    s.pad_h = s.pad_w = 3;
    s.norm = Normalization::batch;
    const Network net = make(std::move(b), [&](NetworkBuilder& nb) { nb.conv("conv1", kNetworkInput, s); });
    const Layer& l = net.layer(0);
    // P = floor((224 + 2*3 - 7) / 2) + 1 = floor(223 / 2) + 1 = 112.
    EXPECT_EQ(l.P, 112);
    EXPECT_EQ(l.Q, 112);
    EXPECT_EQ(l.K, 64);
    EXPECT_EQ(l.C, 3);
    EXPECT_EQ(l.R, 7);
    EXPECT_EQ(l.H, 224);
    EXPECT_EQ(l.macs(), 64LL * 3 * 112 * 112 * 7 * 7);  // 118,013,952
    EXPECT_EQ(l.macs(), 118'013'952);
    EXPECT_EQ(l.weights(), 64 * 3 * 7 * 7);     // 9,408
    EXPECT_EQ(l.parameters(), 9'408 + 2 * 64);  // + batch-norm scale and shift
    EXPECT_EQ(l.input_elements(), 3 * 224 * 224);
    EXPECT_EQ(l.output_elements(), 64 * 112 * 112);
    EXPECT_EQ(l.ops(), l.macs());
    EXPECT_TRUE(l.has_weights());
}

TEST(Layer, DepthwiseConv) {
    // MobileNetV2 block 2: 96 channels of 112x112, 3x3 depthwise, stride 2, padding 1.
    auto b = image(96, 112, 112);
    ConvSpec s;
    s.out_channels = 96;
    s.kernel_h = s.kernel_w = 3;
    s.stride_h = s.stride_w = 2;
    s.pad_h = s.pad_w = 1;
    s.groups = 96;
    const Network net = make(std::move(b), [&](NetworkBuilder& nb) { nb.conv("dw", kNetworkInput, s); });
    const Layer& l = net.layer(0);
    EXPECT_EQ(l.P, 56);                               // floor((112 + 2 - 3) / 2) + 1 = 56
    EXPECT_EQ(l.macs(), 96LL * 1 * 56 * 56 * 3 * 3);  // C / groups = 1 input channel per filter
    EXPECT_EQ(l.weights(), 96 * 1 * 3 * 3);
}

TEST(Layer, AsymmetricKernelAndGroups) {
    auto b = image(32, 8, 8);
    ConvSpec s;
    s.out_channels = 16;
    s.kernel_h = 1;
    s.kernel_w = 3;
    s.pad_w = 1;
    s.groups = 16;
    const Network net = make(std::move(b), [&](NetworkBuilder& nb) { nb.conv("c", kNetworkInput, s); });
    const Layer& l = net.layer(0);
    EXPECT_EQ(l.P, 8);
    EXPECT_EQ(l.Q, 8);
    EXPECT_EQ(l.macs(), 16 * 2 * 8 * 8 * 1 * 3);
    EXPECT_EQ(l.weights(), 16 * 2 * 3);
}

TEST(Layer, FullyConnectedOnFlattenedMap) {
    // VGG-16 fc6: 512x7x7 flattened into 25,088 inputs, 4,096 outputs, with bias.
    auto b = image(512, 7, 7, 2);
    LinearSpec s;
    s.out_features = 4096;
    s.flatten = true;
    s.bias = true;
    const Network net = make(std::move(b), [&](NetworkBuilder& nb) { nb.linear("fc6", kNetworkInput, s); });
    const Layer& l = net.layer(0);
    EXPECT_EQ(l.C, 25'088);
    EXPECT_EQ(l.P * l.Q * l.R * l.S, 1);
    EXPECT_EQ(l.macs(), 2LL * 4096 * 25'088);  // B * K * C
    EXPECT_EQ(l.weights(), 4096LL * 25'088);
    EXPECT_EQ(l.parameters(), 4096LL * 25'088 + 4096);
    EXPECT_EQ(l.input_elements(), 2 * 25'088);
}

TEST(Layer, LinearOverTokens) {
    // A BERT projection: 128 tokens of 768, 64 outputs, applied at every token.
    NetworkBuilder b(NetworkInfo{"t", "", ""}, 1, TensorShape{768, 128, 1});
    LinearSpec s;
    s.out_features = 64;
    const Network net = make(std::move(b), [&](NetworkBuilder& nb) { nb.linear("q", kNetworkInput, s); });
    const Layer& l = net.layer(0);
    EXPECT_EQ(l.P, 128);
    EXPECT_EQ(l.macs(), 128LL * 64 * 768);
    EXPECT_EQ(l.weights(), 64 * 768);
}

TEST(Layer, AttentionMatmulsHaveNoWeights) {
    NetworkBuilder b(NetworkInfo{"t", "", ""}, 3, TensorShape{768, 128, 1});
    LinearSpec s;
    s.out_features = 64;
    const Network net = make(std::move(b), [&](NetworkBuilder& nb) {
        const auto q = nb.linear("q", kNetworkInput, s);
        const auto k = nb.linear("k", kNetworkInput, s);
        const auto v = nb.linear("v", kNetworkInput, s);
        const auto scores = nb.matmul("scores", q, k, /*transpose_b=*/true);
        const auto p = nb.softmax("softmax", scores);
        nb.matmul("context", p, v, /*transpose_b=*/false);
    });
    const Layer& scores = net.layer(3);
    // Q.K^T: (128 x 64) . (64 x 128): K = 128 keys, C = 64 head width, P = 128 queries.
    EXPECT_EQ(scores.K, 128);
    EXPECT_EQ(scores.C, 64);
    EXPECT_EQ(scores.P, 128);
    EXPECT_TRUE(scores.weights_are_activations);
    EXPECT_FALSE(scores.has_weights());
    EXPECT_EQ(scores.weights(), 0);
    EXPECT_EQ(scores.parameters(), 0);
    EXPECT_EQ(scores.macs(), 3LL * 128 * 64 * 128);
    EXPECT_EQ(scores.input_elements(), 3LL * 128 * 64 * 2);  // both operands
    const Layer& context = net.layer(5);
    // softmax(S).V: (128 x 128) . (128 x 64): K = 64, C = 128 keys.
    EXPECT_EQ(context.K, 64);
    EXPECT_EQ(context.C, 128);
    EXPECT_EQ(context.macs(), 3LL * 64 * 128 * 128);
    EXPECT_EQ(net.layer(4).ops(), 3LL * 128 * 128 * 4);  // softmax: 4 operations per element
}

TEST(Layer, AuxiliaryLayersCostOperations) {
    auto b = image(64, 56, 56);
    const Network net = make(std::move(b), [&](NetworkBuilder& nb) {
        PoolSpec p;
        p.kernel_h = p.kernel_w = 3;
        p.stride_h = p.stride_w = 2;
        p.pad_h = p.pad_w = 1;
        const auto pool = nb.pool("pool", kNetworkInput, p);  // 64x28x28
        const auto relu = nb.activation("relu", pool, Activation::relu);
        const auto sum = nb.add("sum", {pool, relu, relu});  // x + y + y
        const auto cat = nb.concat("cat", {sum, pool});      // 128x28x28
        const auto bn = nb.norm("bn", cat, Normalization::batch);
        PoolSpec g;
        g.mode = Pooling::avg;
        g.global = true;
        nb.pool("gap", bn, g);
    });
    const std::int64_t e = 64 * 28 * 28;
    EXPECT_EQ(net.layer(0).P, 28);
    EXPECT_EQ(net.layer(0).ops(), e * 9);
    EXPECT_EQ(net.layer(1).ops(), e);
    EXPECT_EQ(net.layer(2).ops(), e * 2);  // two additions per element for three operands
    EXPECT_EQ(net.layer(2).input_elements(), e * 3);
    EXPECT_EQ(net.layer(3).K, 128);
    EXPECT_EQ(net.layer(3).ops(), 2 * e);
    EXPECT_EQ(net.layer(4).parameters(), 2 * 128);
    EXPECT_EQ(net.layer(4).weights(), 0);
    EXPECT_EQ(net.layer(5).R, 28);
    EXPECT_EQ(net.layer(5).P, 1);
    for (const Layer& l : net.layers()) {
        EXPECT_EQ(l.macs(), 0) << l.name;
        EXPECT_GT(l.ops(), 0) << l.name;
    }
    // add lists its operands as given, but relu consumes pool once and sum consumes relu once.
    EXPECT_EQ(net.consumers(1).size(), 1u);
    EXPECT_EQ(net.consumers(0).size(), 3u);  // relu, sum, cat
}

TEST(Layer, NamesRoundTrip) {
    for (LayerKind k : {LayerKind::conv, LayerKind::matmul, LayerKind::pool, LayerKind::add,
                        LayerKind::concat, LayerKind::norm, LayerKind::softmax, LayerKind::activation,
                        LayerKind::mul, LayerKind::deconv, LayerKind::upsample})
        EXPECT_EQ(parse_layer_kind(to_string(k)), k);
    EXPECT_EQ(parse_activation("gelu"), Activation::gelu);
    EXPECT_EQ(parse_activation("none"), std::nullopt);  // absence of the key, not a value
    EXPECT_EQ(parse_normalization("local_response"), Normalization::local_response);
    EXPECT_EQ(parse_pooling("avg"), Pooling::avg);
    EXPECT_EQ(parse_layer_kind("dense"), std::nullopt);
    EXPECT_EQ(layer_kind_names(),
              "conv, matmul, pool, add, concat, norm, softmax, activation, mul, deconv, upsample");
    EXPECT_EQ(parse_activation("hard_swish"), Activation::hard_swish);
    EXPECT_EQ(parse_interpolation("bilinear"), Interpolation::bilinear);
}

}  // namespace
}  // namespace pimdse::workload
