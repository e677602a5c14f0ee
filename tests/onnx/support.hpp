#pragma once
// Shared by the ONNX import tests: where the generated models are (tests/onnx/gen_onnx.py,
// run by the CTest fixture onnx_models) and a field-by-field network comparison.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::test {

inline std::filesystem::path models_dir() {
    return std::filesystem::path(PIMDSE_BINARY_DIR) / "tests" / "onnx" / "models";
}
inline std::filesystem::path library_dir() {
    return std::filesystem::path(PIMDSE_SOURCE_DIR) / "inputs" / "networks";
}
inline const std::vector<std::string>& library_names() {
    static const std::vector<std::string> names{"googlenet", "resnet152", "vgg16",    "darknet53",
                                                "bert_base", "resnet18",  "resnet50", "mobilenet_v2"};
    return names;
}

/// Every field the cost model reads, layer by layer, then the totals and the segments.
inline void expect_same_network(const workload::Network& want, const workload::Network& got) {
    EXPECT_EQ(got.name(), want.name());
    EXPECT_EQ(got.batch(), want.batch());
    EXPECT_EQ(got.input(), want.input());
    ASSERT_EQ(got.size(), want.size()) << want.name();
    for (workload::LayerIndex i = 0; i < want.size(); ++i) {
        const workload::Layer& a = want.layer(i);
        const workload::Layer& b = got.layer(i);
        SCOPED_TRACE(want.name() + " layer " + std::to_string(i) + " '" + a.name + "'");
        EXPECT_EQ(b.name, a.name);
        EXPECT_EQ(b.kind, a.kind);
        EXPECT_EQ(b.inputs, a.inputs);
        EXPECT_EQ(std::vector<std::int64_t>({b.B, b.K, b.C, b.P, b.Q, b.R, b.S, b.H, b.W}),
                  std::vector<std::int64_t>({a.B, a.K, a.C, a.P, a.Q, a.R, a.S, a.H, a.W}));
        EXPECT_EQ(std::vector<std::int64_t>(
                      {b.stride_h, b.stride_w, b.pad_h, b.pad_w, b.groups, b.dilation_h, b.dilation_w}),
                  std::vector<std::int64_t>(
                      {a.stride_h, a.stride_w, a.pad_h, a.pad_w, a.groups, a.dilation_h, a.dilation_w}));
        EXPECT_EQ(std::vector<std::int64_t>(
                      {b.pad_h_end, b.pad_w_end, b.sep_padding, b.weight_bits, b.activation_bits}),
                  std::vector<std::int64_t>(
                      {a.pad_h_end, a.pad_w_end, a.sep_padding, a.weight_bits, a.activation_bits}));
        EXPECT_EQ(b.pooling, a.pooling);
        EXPECT_EQ(b.norm, a.norm);
        EXPECT_EQ(b.activation, a.activation);
        EXPECT_EQ(b.bias, a.bias);
        EXPECT_EQ(b.flatten, a.flatten);
        EXPECT_EQ(b.weights_are_activations, a.weights_are_activations);
        EXPECT_EQ(b.transpose_b, a.transpose_b);
        EXPECT_EQ(b.ceil_mode, a.ceil_mode);
        EXPECT_EQ(b.adaptive, a.adaptive);
    }
    EXPECT_EQ(got.total_macs(), want.total_macs());
    EXPECT_EQ(got.total_weights(), want.total_weights());
    EXPECT_EQ(got.total_parameters(), want.total_parameters());
    EXPECT_EQ(got.total_ops(), want.total_ops());
    const auto sa = workload::decompose(want);
    const auto sb = workload::decompose(got);
    ASSERT_EQ(sb.segments.size(), sa.segments.size());
    for (std::size_t s = 0; s < sa.segments.size(); ++s) {
        ASSERT_EQ(sb.segments[s].branches.size(), sa.segments[s].branches.size()) << "segment " << s;
        for (std::size_t br = 0; br < sa.segments[s].branches.size(); ++br)
            EXPECT_EQ(sb.segments[s].branches[br].layers, sa.segments[s].branches[br].layers)
                << "segment " << s << " branch " << br;
    }
}

}  // namespace pimdse::test
