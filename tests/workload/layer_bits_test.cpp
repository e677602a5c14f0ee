// Per-layer quantisation bits (docs/workloads.md): `weight_bits` and `activation_bits` on
// conv, deconv and weighted matmul layers, read, checked, written back and read again; the
// counts do not change with them.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::workload {
namespace {

const std::string kHead = "network: q\ninput: {channels: 4, height: 8, width: 8}\nlayers:\n";

std::string refusal(const std::string& layers) {
    try {
        (void)io::parse_network(kHead + layers, "bits.yaml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(LayerBits, ReadOnWeightedLayersAndWrittenBack) {
    const Network net =
        io::parse_network(kHead +
                              "  - {name: c, type: conv, out_channels: 8, kernel: 3, padding: 1, "
                              "weight_bits: 5, activation_bits: 7}\n"
                              "  - {name: d, type: deconv, out_channels: 4, kernel: 2, stride: 2, "
                              "weight_bits: 4}\n"
                              "  - {name: fc, type: matmul, out_features: 10, flatten: true, "
                              "activation_bits: 8}\n"
                              "  - {name: plain, type: matmul, out_features: 10}\n",
                          "bits.yaml");
    EXPECT_EQ(std::pair(net.layer(0).weight_bits, net.layer(0).activation_bits), std::pair(5, 7));
    EXPECT_EQ(std::pair(net.layer(1).weight_bits, net.layer(1).activation_bits), std::pair(4, 0));
    EXPECT_EQ(std::pair(net.layer(2).weight_bits, net.layer(2).activation_bits), std::pair(0, 8));
    EXPECT_EQ(std::pair(net.layer(3).weight_bits, net.layer(3).activation_bits), std::pair(0, 0));
    // The counts are the loop bounds': 8 x 4 x 8 x 8 x 9 MACs whatever the bits.
    EXPECT_EQ(net.layer(0).macs(), 8LL * 4 * 64 * 9);
    const std::string text = io::emit_network(net);
    EXPECT_NE(text.find("padding: 1, weight_bits: 5, activation_bits: 7}"), std::string::npos) << text;
    EXPECT_NE(text.find("stride: 2, weight_bits: 4}"), std::string::npos) << text;
    EXPECT_NE(text.find("flatten: true, activation_bits: 8}"), std::string::npos) << text;
    EXPECT_EQ(text.find("bits", text.find("name: plain")), std::string::npos) << text;  // 0: not written
    const Network again = io::parse_network(text, "emitted.yaml");
    for (LayerIndex i = 0; i < net.size(); ++i) {
        EXPECT_EQ(again.layer(i).weight_bits, net.layer(i).weight_bits) << i;
        EXPECT_EQ(again.layer(i).activation_bits, net.layer(i).activation_bits) << i;
    }
    EXPECT_EQ(io::emit_network(again), text);
}

TEST(LayerBits, BadValuesNameTheFileTheLayerAndTheKey) {
    const std::string range =
        "expected an integer in [1, 32] (layer 'c' quantised on its own; absent: the "
        "design point's bits), got ";
    const std::pair<std::string, std::string> cases[] = {
        {"  - {name: c, type: conv, out_channels: 8, kernel: 1, weight_bits: 0}\n",
         "bits.yaml:4: key 'layers[0].weight_bits': " + range + "0 (too small)"},
        {"  - {name: c, type: conv, out_channels: 8, kernel: 1, activation_bits: 33}\n",
         "bits.yaml:4: key 'layers[0].activation_bits': " + range + "33 (too large)"},
        {"  - {name: c, type: conv, out_channels: 8, kernel: 1, weight_bits: 4.5}\n",
         "bits.yaml:4: key 'layers[0].weight_bits': " + range + "4.5"},
        {"  - {name: c, type: conv, out_channels: 8, kernel: 1, weight_bits: eight}\n",
         "bits.yaml:4: key 'layers[0].weight_bits': " + range + "eight"},
        {"  - {name: p, type: pool, mode: max, kernel: 2, weight_bits: 8}\n",
         "bits.yaml:4: key 'layers[0].weight_bits': expected a key among name, type, inputs, mode, kernel, "
         "stride, padding, padding_end, global, ceil_mode, output, got 'weight_bits'"},
        {"  - {name: a, type: matmul, out_features: 8, flatten: true}\n"
         "  - {name: b, type: matmul, inputs: input, out_features: 8, flatten: true}\n"
         "  - {name: s, type: matmul, inputs: [a, b], transpose_b: true, activation_bits: 8}\n",
         "bits.yaml:6: key 'layers[2].activation_bits': a matmul of two producers (attention) has no weights "
         "to quantise on their own: 'activation_bits' applies to conv, deconv and weighted matmul"},
    };
    for (const auto& [layers, message] : cases) {
        const std::string got = refusal(layers);
        EXPECT_EQ(got, message);
    }
}

TEST(LayerBits, TheBuilderAndTheNetworkCheckTheRange) {
    NetworkBuilder b(NetworkInfo{"t", "", ""}, 1, TensorShape{4, 8, 8});
    ConvSpec s;
    s.out_channels = 4;
    s.bits.weight = 40;
    try {
        b.conv("c", kNetworkInput, s);
        ADD_FAILURE() << "accepted 40 bits";
    } catch (const InputError& e) {
        EXPECT_EQ(e.key(), "layers[0].weight_bits");
        EXPECT_NE(std::string(e.what()).find("layer 'c': weight_bits 40: expected 1 to 32 bits, or 0 for the "
                                             "design point's"),
                  std::string::npos)
            << e.what();
    }
    s.bits.weight = 6;
    b.conv("c", kNetworkInput, s);
    b.pool("p", 0, PoolSpec{});
    const Network net = std::move(b).build();
    std::vector<Layer> layers(net.layers().begin(), net.layers().end());
    layers[1].activation_bits = 8;  // a pool has no bits of its own
    try {
        (void)Network(net.info(), net.batch(), net.input(), layers);
        ADD_FAILURE() << "accepted bits on a pool";
    } catch (const InputError& e) {
        EXPECT_EQ(e.key(), "layers[1].activation_bits");
        EXPECT_NE(
            std::string(e.what()).find("only conv, deconv and weighted matmul layers have their own bits"),
            std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace pimdse::workload
