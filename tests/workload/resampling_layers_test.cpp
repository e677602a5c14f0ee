// The layer kinds that enlarge or scale a feature map (deconv, upsample, mul) and the add
// with a learned tensor, written in a network file: their shapes, counts worked out by hand,
// the rows they read, and the checks that refuse a wrong operand.
#include <gtest/gtest.h>

#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"

namespace pimdse::workload {
namespace {

const std::string kNet = R"(network: decoder
input: {channels: 8, height: 16, width: 16}
layers:
  - {name: up, type: deconv, out_channels: 4, kernel: 3, stride: 2, padding: 1, output_padding: 1, bias: true}
  - {name: gate, type: pool, mode: avg, global: true}
  - {name: scale, type: mul, inputs: [up, gate]}
  - {name: near, type: upsample, inputs: up, scale: 2}
  - {name: blend, type: upsample, inputs: up, scale: [2, 1], mode: bilinear}
  - {name: pos, type: add, inputs: near, bias: true}
)";

TEST(ResamplingLayers, ShapesAndCountsFromANetworkFile) {
    const Network net = io::parse_network(kNet, "decoder.yaml");
    const Layer& up = net.layer(0);
    // (16 - 1) 2 - 2 + 3 + 1 = 32; as a conv over the 32-row zero-stuffed input padded by 1.
    EXPECT_EQ(up.output_shape(), (TensorShape{4, 32, 32}));
    EXPECT_EQ(std::vector<std::int64_t>({up.H, up.pad_h, up.stride_h, up.up_h}),
              std::vector<std::int64_t>({32, 1, 1, 2}));
    EXPECT_EQ(up.macs(), 4 * 8 * 32 * 32 * 9);
    EXPECT_EQ(up.parameters(), 4 * 8 * 9 + 4);
    EXPECT_EQ(up.input_elements(), 8 * 16 * 16);  // the stuffed zeros are not read
    // Output rows [0, 4) read stuffed rows [0, 5) (pad 1, kernel 3): the producer's rows 0..2.
    EXPECT_EQ(up.input_rows(0, 4, false), (std::pair<std::int64_t, std::int64_t>{0, 3}));
    EXPECT_EQ(up.input_rows(30, 32, false), (std::pair<std::int64_t, std::int64_t>{15, 16}));

    const Layer& scale = net.layer(2);
    EXPECT_TRUE(scale.broadcast);
    EXPECT_EQ(scale.ops(), 4 * 32 * 32);
    EXPECT_EQ(scale.input_elements(), 4 * 32 * 32 + 4);

    EXPECT_EQ(net.layer(3).output_shape(), (TensorShape{4, 64, 64}));
    EXPECT_EQ(net.layer(3).input_rows(10, 13, false), (std::pair<std::int64_t, std::int64_t>{5, 7}));
    const Layer& blend = net.layer(4);
    EXPECT_EQ(blend.output_shape(), (TensorShape{4, 64, 32}));
    EXPECT_EQ(blend.ops(), 4 * 64 * 32 * 7);
    EXPECT_EQ(blend.input_rows(10, 13, false), (std::pair<std::int64_t, std::int64_t>{4, 8}));

    const Layer& pos = net.layer(5);
    EXPECT_EQ(pos.parameters(), 4 * 64 * 64);  // the learned tensor
    EXPECT_EQ(net.total_parameters(), 4 * 8 * 9 + 4 + 4 * 64 * 64);
    EXPECT_EQ(net.total_macs(), 4 * 8 * 32 * 32 * 9);

    // The emitted file reads back the same.
    const Network again = io::parse_network(io::emit_network(net), "again.yaml");
    for (LayerIndex i = 0; i < net.size(); ++i) {
        EXPECT_EQ(again.layer(i).output_shape(), net.layer(i).output_shape());
        EXPECT_EQ(again.layer(i).macs(), net.layer(i).macs());
        EXPECT_EQ(again.layer(i).ops(), net.layer(i).ops());
    }
}

TEST(ResamplingLayers, WrongOperandsAreRefused) {
    const auto refused = [](const std::string& layer) {
        const std::string text =
            "network: bad\ninput: {channels: 8, height: 4, width: 4}\nlayers:\n"
            "  - {name: a, type: conv, out_channels: 8, kernel: 1}\n" +
            layer;
        try {
            (void)io::parse_network(text, "bad.yaml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refused("  - {name: p, type: pool, mode: max, kernel: 2, inputs: a}\n"
                      "  - {name: m, type: mul, inputs: [a, p]}\n")
                  .find("is neither the first's shape 8x4x4 nor one factor per channel 8x1x1"),
              std::string::npos);
    EXPECT_NE(refused("  - {name: m, type: mul, inputs: a}\n").find("exactly 2 producers for a mul layer"),
              std::string::npos);
    EXPECT_NE(
        refused("  - {name: d, type: deconv, out_channels: 2, kernel: 2, stride: 2, output_padding: 2}\n")
            .find("output_padding must lie in [0, stride - 1]"),
        std::string::npos);
    EXPECT_NE(refused("  - {name: u, type: upsample, scale: 0}\n").find("layers[1].scale"),
              std::string::npos);
    EXPECT_NE(refused("  - {name: s, type: add, inputs: a}\n").find("at least 2 producers (or 1 and bias"),
              std::string::npos);
}

}  // namespace
}  // namespace pimdse::workload
