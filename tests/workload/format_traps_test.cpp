// The network format's traps (docs/workloads.md, "The format's traps"): each is an error or
// a warning naming the layer and its line, and ceil-mode and adaptive pooling exist.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "support.hpp"

namespace pimdse::test {
namespace {

using io::parse_network;

std::vector<std::string> warnings_of(const std::string& text) {
    std::vector<std::string> out;
    io::NetworkReadOptions o;
    o.warn = [&](const std::string& w) { out.push_back(w); };
    (void)parse_network(text, "trap.yaml", o);
    return out;
}

// Two branches meant to read `x`; the second forgot `inputs` and chains after the first.
const std::string kChained = R"(network: chained
input: {channels: 8, height: 8, width: 8}
layers:
  - {name: x, type: conv, out_channels: 8, kernel: 1}
  - {name: b1, type: conv, out_channels: 4, kernel: 3, padding: 1}
  - {name: b2, type: conv, out_channels: 4, kernel: 1}
  - {name: cat, type: concat, inputs: [b1, b2]}
)";

TEST(FormatTraps, ASiblingThatOmitsInputsIsAWarningWithItsLine) {
    const auto w = warnings_of(kChained);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(
        w[0],
        "trap.yaml:6: layer 'b2' omits 'inputs' and so reads the layer above it, 'b1', which 'cat' also "
        "concatenates with b2's path: if 'b2' starts a parallel branch, write its inputs; write 'inputs: "
        "b1' to keep the chain and silence this warning");
}

TEST(FormatTraps, WritingTheProducerSilencesTheWarning) {
    std::string meant_parallel = kChained;
    meant_parallel.replace(meant_parallel.find("{name: b2,"), 10, "{name: b2, inputs: x,");
    EXPECT_TRUE(warnings_of(meant_parallel).empty());
    std::string meant_chain = kChained;
    meant_chain.replace(meant_chain.find("{name: b2,"), 10, "{name: b2, inputs: b1,");
    EXPECT_TRUE(warnings_of(meant_chain).empty());
}

TEST(FormatTraps, TheLibraryHasNoWarnings) {
    for (const std::string& name : library_names()) {
        std::vector<std::string> w;
        io::NetworkReadOptions o;
        o.warn = [&](const std::string& text) { w.push_back(text); };
        (void)io::read_network_file(library_dir() / (name + ".yaml"), o);
        EXPECT_TRUE(w.empty()) << name << ": " << (w.empty() ? "" : w.front());
    }
}

const std::string kPool = R"(network: pools
input: {channels: 96, height: 54, width: 54}
layers:
)";

workload::Network pool_net(const std::string& layer) {
    return parse_network(kPool + "  - " + layer + "\n", "pool.yaml");
}

TEST(FormatTraps, CeilModeRoundsTheOutputUp) {
    // SqueezeNet's 3x3/2 max pool: 54 -> 27 with ceil mode, 26 without.
    const auto floor = pool_net("{name: p, type: pool, mode: max, kernel: 3, stride: 2}");
    const auto ceil = pool_net("{name: p, type: pool, mode: max, kernel: 3, stride: 2, ceil_mode: true}");
    EXPECT_EQ(floor.layer(0).P, 26);
    EXPECT_EQ(ceil.layer(0).P, 27);
    EXPECT_TRUE(ceil.layer(0).ceil_mode);
    // A last window that would start in the right padding is dropped (PyTorch's rule): 5 -> 3.
    EXPECT_EQ(workload::window_extent(5, 2, 2, 1, 1, true), 3);
    EXPECT_EQ(workload::window_extent(5, 2, 2, 1, 1, false), 3);
    EXPECT_EQ(workload::window_extent(6, 2, 2, 1, 1, true), 4);
}

TEST(FormatTraps, AdaptivePoolingTakesTheOutputSize) {
    const auto net = pool_net("{name: p, type: pool, mode: avg, output: [5, 7]}");
    const auto& l = net.layer(0);
    EXPECT_TRUE(l.adaptive);
    EXPECT_EQ(l.P, 5);
    EXPECT_EQ(l.Q, 7);
    // 54 -> 5: windows [0,11), [10,22), [21,33), [32,44), [43,54): the widest spans 12 rows.
    EXPECT_EQ(l.R, 12);
    EXPECT_EQ(l.S, workload::adaptive_window(54, 7));
    EXPECT_EQ(l.stride_h, 10);
    EXPECT_EQ(l.ops(), 96 * 5 * 7 * l.R * l.S);
    // Divisible sizes are ordinary pooling: 54 -> 6 is a 9x9/9 window.
    EXPECT_EQ(workload::adaptive_window(54, 6), 9);
    const auto again = parse_network(io::emit_network(net), "emitted.yaml");
    EXPECT_EQ(again.layer(0).R, l.R);
    EXPECT_TRUE(again.layer(0).adaptive);
}

TEST(FormatTraps, CeilModeAndDilationSurviveEmission) {
    const auto net =
        parse_network(kPool +
                          "  - {name: c, type: conv, out_channels: 8, kernel: 3, dilation: 2, "
                          "padding: 2}\n  - {name: p, type: pool, mode: max, kernel: 3, stride: 2, "
                          "ceil_mode: true}\n",
                      "pool.yaml");
    EXPECT_EQ(net.layer(0).P, 54);
    const auto again = parse_network(io::emit_network(net), "emitted.yaml");
    EXPECT_EQ(again.layer(0).dilation_h, 2);
    EXPECT_EQ(again.layer(1).P, 27);
    EXPECT_TRUE(again.layer(1).ceil_mode);
}

TEST(FormatTraps, CeilModeOnlyOnWindowedPools) {
    try {
        (void)pool_net("{name: p, type: pool, mode: avg, global: true, ceil_mode: true}");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(
            std::string(e.what()).find("pool.yaml:4: key 'layers[0].ceil_mode': a global pool covers the "
                                       "whole input; 'ceil_mode' does not apply"),
            std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace pimdse::test
