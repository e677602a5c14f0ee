// Training workloads: the `mode` key of network files, the phases of a training step
// (workload/training.hpp), and HuNT's CIFAR-10 networks (inputs/networks/cifar10/, HuNT
// Table III) counted by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/workload/training.hpp"
#include "support.hpp"

namespace pimdse::workload {
namespace {

using io::parse_network;

const Network& hunt(const std::string& name) {
    static std::map<std::string, Network> cache;
    auto it = cache.find(name);
    if (it == cache.end())
        it = cache.emplace(name, io::read_network_file(test::library_dir() / "cifar10" / (name + ".yaml")))
                 .first;
    return it->second;
}

const std::vector<std::string> kHuntNetworks{"vgg11_half_cifar10", "vgg16_half_cifar10",
                                             "resnet18_quarter_cifar10", "resnet34_quarter_cifar10",
                                             "densenet40_cifar10"};

const std::string kTiny = R"(network: tiny
batch: 2
input: {channels: 3, height: 8, width: 8}
layers:
  - {name: c1, type: conv, out_channels: 4, kernel: 3, padding: 1}
  - {name: p1, type: pool, mode: max, kernel: 2}
  - {name: fc, type: matmul, out_features: 5, flatten: true}
)";

TEST(TrainingMode, DefaultsToInference) {
    EXPECT_EQ(parse_network(kTiny, "tiny.yaml").mode(), NetworkMode::inference);
}

TEST(TrainingMode, ReadAndEmitted) {
    const Network net = parse_network("mode: training\n" + kTiny, "tiny.yaml");
    EXPECT_EQ(net.mode(), NetworkMode::training);
    const Network back = parse_network(io::emit_network(net), "emitted.yaml");
    EXPECT_EQ(back.mode(), NetworkMode::training);
    EXPECT_EQ(back.with_batch(4).mode(), NetworkMode::training);
    // Inference is the absence of the key, so emitting it writes none.
    EXPECT_EQ(io::emit_network(net.with_mode(NetworkMode::inference)).find("\nmode:"), std::string::npos);
}

TEST(TrainingMode, BadValueNamesFileKeyAndChoices) {
    try {
        (void)parse_network("mode: train\n" + kTiny, "tiny.yaml");
        FAIL() << "mode: train was accepted";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("tiny.yaml"), std::string::npos) << what;
        EXPECT_NE(what.find("mode"), std::string::npos) << what;
        EXPECT_NE(what.find("inference, training"), std::string::npos) << what;
        EXPECT_NE(what.find("train"), std::string::npos) << what;
    }
}

TEST(TrainingPhases, InferenceHasForwardPhasesOnly) {
    const Network net = parse_network(kTiny, "tiny.yaml");
    const auto steps = phase_steps(net);
    ASSERT_EQ(steps.size(), 3U);
    for (const PhaseStep& s : steps) EXPECT_EQ(s.phase, TrainingPhase::forward);
}

TEST(TrainingPhases, TinyNetworkByHand) {
    const Network net = parse_network("mode: training\n" + kTiny, "tiny.yaml");
    const auto steps = phase_steps(net);
    // 3 forward, then ΔAG and ΔWG of fc and c1 (last first), then the updates of c1 and fc.
    ASSERT_EQ(steps.size(), 3U + 4U + 2U);
    // c1: 4 filters of 3x3x3 over 8x8 outputs, batch 2: 2 * 4 * 27 * 64 = 13824 MACs, 108 weights.
    // fc: 5 x (4 * 4 * 4) = 320 weights, batch 2: 640 MACs.
    EXPECT_EQ(steps[3].layer, 2);
    EXPECT_EQ(steps[3].phase, TrainingPhase::activation_gradient);
    EXPECT_EQ(steps[3].macs, 640);
    EXPECT_EQ(steps[3].result_elements, 2 * 64);  // the gradient of fc's 4x4x4 input
    EXPECT_EQ(steps[4].phase, TrainingPhase::weight_gradient);
    EXPECT_EQ(steps[4].macs, 640);
    EXPECT_EQ(steps[4].result_elements, 320);
    EXPECT_EQ(steps[5].layer, 0);
    EXPECT_EQ(steps[5].macs, 13824);
    EXPECT_EQ(steps[5].result_elements, 2 * 3 * 64);
    EXPECT_EQ(steps[6].macs, 13824);
    EXPECT_EQ(steps[6].precision, kGradientPrecision);
    EXPECT_EQ(steps[7].phase, TrainingPhase::weight_update);
    EXPECT_EQ(steps[7].layer, 0);
    EXPECT_EQ(steps[7].weight_writes, 108);
    EXPECT_EQ(steps[8].layer, 2);
    EXPECT_EQ(steps[8].weight_writes, 320);
    EXPECT_EQ(steps[0].precision, kForwardPrecision);
    EXPECT_EQ(kForwardPrecision.bits, 16);
    EXPECT_EQ(kGradientPrecision.format, NumberFormat::floating_point);
    EXPECT_EQ(kGradientPrecision.bits, 32);
}

// Every backward phase has its layer's forward MACs, and the update writes every weight once.
TEST(TrainingPhases, LibraryNetworksKeepForwardMacsAndUpdateEveryWeightOnce) {
    for (const std::string& name : kHuntNetworks) {
        const Network& net = hunt(name);
        ASSERT_EQ(net.mode(), NetworkMode::training) << name;
        std::int64_t dag = 0, dwg = 0, writes = 0, weighted_macs = 0;
        std::vector<int> updates(static_cast<std::size_t>(net.size()), 0);
        for (const PhaseStep& s : phase_steps(net)) {
            const Layer& l = net.layer(s.layer);
            if (s.phase == TrainingPhase::activation_gradient || s.phase == TrainingPhase::weight_gradient) {
                EXPECT_EQ(s.macs, l.macs()) << name << " " << l.name;
            }
            if (s.phase == TrainingPhase::activation_gradient) dag += s.macs;
            if (s.phase == TrainingPhase::weight_gradient) dwg += s.macs;
            if (s.phase == TrainingPhase::weight_update) ++updates[static_cast<std::size_t>(s.layer)];
            writes += s.weight_writes;
        }
        for (const Layer& l : net.layers()) weighted_macs += l.has_weights() ? l.macs() : 0;
        EXPECT_EQ(dag, weighted_macs) << name;
        EXPECT_EQ(dwg, weighted_macs) << name;
        EXPECT_EQ(writes, net.total_weights()) << name;
        for (LayerIndex i = 0; i < net.size(); ++i)
            EXPECT_EQ(updates[static_cast<std::size_t>(i)], net.layer(i).has_weights() ? 1 : 0) << name;
    }
}

// VGG-11 at half width, per sample (batch 64 scales the MACs), by hand: 3x3 convs
// K * C * 9 * P * Q; parameters K * C * 9 + 2K (folded batch norm); fc K * C + K (bias).
TEST(HuntLibrary, Vgg11HalfByHand) {
    const Network& net = hunt("vgg11_half_cifar10");
    EXPECT_EQ(net.batch(), 64);                        // HuNT Table III
    const std::int64_t macs = 32 * 3 * 9 * 1024        // conv1_1 at 32x32
                              + 64 * 32 * 9 * 256      // conv2_1 at 16x16
                              + 128 * 64 * 9 * 64      // conv3_1 at 8x8
                              + 128 * 128 * 9 * 64     // conv3_2
                              + 256 * 128 * 9 * 16     // conv4_1 at 4x4
                              + 256 * 256 * 9 * 16     // conv4_2
                              + 2 * 256 * 256 * 9 * 4  // conv5_1, conv5_2 at 2x2
                              + 256 * 256 + 10 * 256;  // fc6, fc7
    EXPECT_EQ(net.total_macs(), 64 * macs);
    const std::int64_t params = (32 * 27 + 64) + (64 * 288 + 128) + (128 * 576 + 256) + (128 * 1152 + 256) +
                                (256 * 1152 + 512) + 3 * (256 * 2304 + 512) + (256 * 256 + 256) +
                                (10 * 256 + 10);
    EXPECT_EQ(net.total_parameters(), params);
    EXPECT_EQ(params, 2'375'978);
}

// ResNet-18 at quarter width, per sample: stem 16 at 32x32; stage widths 16, 32, 64, 128 at
// 32, 16, 8, 4 pixels; the first block of stages 3-5 has a 1x1 stride-2 projection.
TEST(HuntLibrary, ResNet18QuarterByHand) {
    const Network& net = hunt("resnet18_quarter_cifar10");
    EXPECT_EQ(net.batch(), 128);  // HuNT Table III
    std::int64_t macs = 16 * 3 * 9 * 1024, params = 16 * 27 + 32;
    std::int64_t in = 16;
    const std::int64_t pixels[] = {1024, 256, 64, 16};
    for (int s = 0; s < 4; ++s) {
        const std::int64_t w = std::int64_t{16} << s, px = pixels[s];
        // block 1: a (in -> w), b (w -> w), projection when the width changes
        macs += w * in * 9 * px + w * w * 9 * px;
        params += (w * in * 9 + 2 * w) + (w * w * 9 + 2 * w);
        if (s > 0) {
            macs += w * in * px;
            params += w * in + 2 * w;
        }
        // block 2: two w -> w convs
        macs += 2 * w * w * 9 * px;
        params += 2 * (w * w * 9 + 2 * w);
        in = w;
    }
    macs += 10 * 128;
    params += 10 * 128 + 10;
    EXPECT_EQ(net.total_macs(), 128 * macs);
    EXPECT_EQ(net.total_parameters(), params);
    EXPECT_EQ(params, 701'466);
}

// The widths (docs/model.md, "HuNT: training workloads"): each network's parameters lie
// within a factor 1.6 of Table III's, and Table III's order by size is kept.
TEST(HuntLibrary, ParametersNearTableIII) {
    const std::pair<std::string, double> table[] = {{"vgg11_half_cifar10", 1.5e6},
                                                    {"vgg16_half_cifar10", 2.2e6},
                                                    {"resnet18_quarter_cifar10", 1.1e6},
                                                    {"resnet34_quarter_cifar10", 2.0e6},
                                                    {"densenet40_cifar10", 0.9e6}};
    for (const auto& [name, published] : table) {
        const double ratio = static_cast<double>(hunt(name).total_parameters()) / published;
        EXPECT_LT(std::abs(std::log(ratio)), std::log(1.75)) << name << " ratio " << ratio;
    }
    EXPECT_GT(hunt("vgg16_half_cifar10").total_parameters(), hunt("vgg11_half_cifar10").total_parameters());
    EXPECT_GT(hunt("resnet34_quarter_cifar10").total_parameters(),
              hunt("resnet18_quarter_cifar10").total_parameters());
    EXPECT_EQ(hunt("densenet40_cifar10").size(),
              1 + 3 * 24 + 2 * 2 + 2);  // convs, concats, transitions, head
}

}  // namespace
}  // namespace pimdse::workload
