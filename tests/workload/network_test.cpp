// The network DAG: shape inference and validation by the builder and the Network constructor.
#include <gtest/gtest.h>

#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::workload {
namespace {

ConvSpec conv(std::int64_t k, std::int64_t kernel, std::int64_t stride = 1, std::int64_t pad = 0) {
    ConvSpec s;
    s.out_channels = k;
    s.kernel_h = s.kernel_w = kernel;
    s.stride_h = s.stride_w = stride;
    s.pad_h = s.pad_w = pad;
    return s;
}

NetworkBuilder builder(std::int64_t batch = 1) {
    return NetworkBuilder(NetworkInfo{"net", "", ""}, batch, TensorShape{64, 56, 56});
}

/// Runs `f`, expects an InputError and returns it.
template <class F>
InputError error_of(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return e;
    }
    ADD_FAILURE() << "no InputError thrown";
    return InputError({}, "", "");
}

TEST(Builder, RejectsAddOfDifferentShapes) {
    auto b = builder();
    const auto a = b.conv("a", kNetworkInput, conv(64, 3, 1, 1));  // 64x56x56
    const auto c = b.conv("c", kNetworkInput, conv(128, 1, 2));    // 128x28x28
    const InputError e = error_of([&] { b.add("sum", {a, c}); });
    EXPECT_EQ(e.key(), "layers[2].inputs");
    EXPECT_NE(
        std::string(e.what()).find("an add needs equally shaped operands: 'a' (64x56x56) vs 'c' (128x28x28)"),
        std::string::npos)
        << e.what();
    // The builder stays usable after a rejected layer.
    EXPECT_EQ(b.add("sum", {a, a}), 2);
}

TEST(Builder, RejectsConcatOfDifferentPlanes) {
    auto b = builder();
    const auto a = b.conv("a", kNetworkInput, conv(32, 1));
    const auto c = b.conv("c", kNetworkInput, conv(32, 3));  // 54x54: no padding
    const InputError e = error_of([&] { b.concat("cat", {a, c}); });
    EXPECT_EQ(e.key(), "layers[2].inputs");
    EXPECT_NE(std::string(e.what()).find("a concat joins channels of equal height x width"),
              std::string::npos);
}

TEST(Builder, ConcatSumsChannels) {
    auto b = builder();
    const auto a = b.conv("a", kNetworkInput, conv(32, 1));
    const auto c = b.conv("c", kNetworkInput, conv(48, 3, 1, 1));
    const auto cat = b.concat("cat", {a, c, kNetworkInput});
    EXPECT_EQ(b.shape(cat), (TensorShape{32 + 48 + 64, 56, 56}));
}

TEST(Builder, RejectsKernelLargerThanInput) {
    NetworkBuilder b(NetworkInfo{"net", "", ""}, 1, TensorShape{8, 5, 5});
    const InputError e = error_of([&] { b.conv("big", kNetworkInput, conv(8, 7, 1, 0)); });
    EXPECT_EQ(e.key(), "layers[0].kernel");
    EXPECT_NE(std::string(e.what()).find("kernel 7x7 does not fit the padded input 5x5"), std::string::npos);
    EXPECT_NO_THROW(b.conv("big", kNetworkInput, conv(8, 7, 1, 1)));  // 7x7 fits 5 + 2
}

TEST(Builder, RejectsGroupsThatDoNotDivide) {
    auto b = builder();
    ConvSpec s = conv(64, 3, 1, 1);
    s.groups = 3;
    const InputError e = error_of([&] { b.conv("g", kNetworkInput, s); });
    EXPECT_EQ(e.key(), "layers[0].groups");
}

TEST(Builder, RejectsOperandsThatDoNotChain) {
    NetworkBuilder b(NetworkInfo{"net", "", ""}, 1, TensorShape{768, 128, 1});
    LinearSpec s;
    s.out_features = 64;
    const auto q = b.linear("q", kNetworkInput, s);
    const auto k = b.linear("k", kNetworkInput, s);
    // q.k without the transpose contracts 64 channels with 128 positions.
    const InputError e = error_of([&] { b.matmul("scores", q, k, false); });
    EXPECT_EQ(e.key(), "layers[2].inputs");
    EXPECT_NE(std::string(e.what()).find("set transpose_b for A.B^T"), std::string::npos) << e.what();
    EXPECT_NO_THROW(b.matmul("scores", q, k, true));
}

TEST(Builder, RejectsBadNamesAndProducers) {
    auto b = builder();
    b.conv("a", kNetworkInput, conv(8, 1));
    EXPECT_EQ(error_of([&] { b.conv("a", 0, conv(8, 1)); }).key(), "layers[1].name");
    EXPECT_EQ(error_of([&] { b.conv("input", 0, conv(8, 1)); }).key(), "layers[1].name");
    EXPECT_EQ(error_of([&] { b.conv("has space", 0, conv(8, 1)); }).key(), "layers[1].name");
    EXPECT_EQ(error_of([&] { b.conv("b", 5, conv(8, 1)); }).key(), "layers[1].inputs");
    EXPECT_EQ(error_of([&] { b.add("s", {0}); }).key(), "layers[1].inputs");  // one operand
    EXPECT_EQ(error_of([&] { b.conv("z", 0, conv(0, 1)); }).key(), "layers[1].out_channels");
}

TEST(Network, ConstructorRejectsLayersOutOfOrder) {
    Layer a;
    a.name = "a";
    a.kind = LayerKind::activation;
    a.activation = Activation::relu;
    a.C = a.K = 4;
    a.inputs = {1};  // a later layer
    Layer b = a;
    b.name = "b";
    b.inputs = {kNetworkInput};
    try {
        Network n(NetworkInfo{"net", "", ""}, 1, TensorShape{4, 1, 1}, {a, b});
        FAIL() << "accepted a producer after its consumer";
    } catch (const InputError& e) {
        EXPECT_EQ(e.key(), "layers[0].inputs");
        EXPECT_NE(std::string(e.what()).find("topological order"), std::string::npos);
        EXPECT_EQ(e.where().file, "network 'net'");
    }
}

TEST(Network, ConstructorRejectsInconsistentShapes) {
    auto b = builder(2);
    b.conv("a", kNetworkInput, conv(16, 3, 2, 1));
    const Network good = std::move(b).build();
    std::vector<Layer> layers(good.layers().begin(), good.layers().end());
    layers[0].P = 29;  // floor((56 + 2 - 3) / 2) + 1 = 28
    EXPECT_THROW(Network(good.info(), 2, good.input(), layers), InputError);
    layers[0].P = 28;
    layers[0].B = 1;  // differs from the batch
    EXPECT_THROW(Network(good.info(), 2, good.input(), layers), InputError);
    layers[0].B = 2;
    layers[0].C = 32;  // does not match the input's 64 channels
    EXPECT_THROW(Network(good.info(), 2, good.input(), layers), InputError);
    layers[0].C = 64;
    EXPECT_NO_THROW(Network(good.info(), 2, good.input(), layers));
}

TEST(Network, ConsumersAndLookup) {
    auto b = builder();
    const auto a = b.conv("a", kNetworkInput, conv(64, 1));
    const auto c = b.conv("c", kNetworkInput, conv(64, 1));
    const auto s = b.add("s", {a, c, a});
    b.activation("r", s, Activation::relu);
    const Network n = std::move(b).build();
    ASSERT_EQ(n.consumers(a).size(), 1u);  // s reads a twice, listed once
    EXPECT_EQ(n.consumers(a)[0], s);
    EXPECT_EQ(n.consumers(3).size(), 0u);
    EXPECT_EQ(std::vector<LayerIndex>(n.input_consumers().begin(), n.input_consumers().end()),
              (std::vector<LayerIndex>{0, 1}));
    EXPECT_EQ(n.find("s"), s);
    EXPECT_EQ(n.find("nope"), std::nullopt);
    EXPECT_EQ(n.output_shape(kNetworkInput), (TensorShape{64, 56, 56}));
}

TEST(Network, WithBatchScalesMacsNotWeights) {
    auto b = builder();
    b.conv("a", kNetworkInput, conv(64, 3, 1, 1));
    LinearSpec fc;
    fc.out_features = 10;
    fc.flatten = true;
    b.linear("fc", 0, fc);
    const Network one = std::move(b).build();
    const Network eight = one.with_batch(8);
    EXPECT_EQ(eight.batch(), 8);
    EXPECT_EQ(eight.total_macs(), 8 * one.total_macs());
    EXPECT_EQ(eight.total_weights(), one.total_weights());
    for (const Layer& l : eight.layers()) EXPECT_EQ(l.B, 8);
}

}  // namespace
}  // namespace pimdse::workload
