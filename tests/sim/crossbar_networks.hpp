#pragma once
// Small networks shared by the crossbar cost and inter-tile network suites.

#include <cstdint>
#include <utility>

#include "pimdse/workload/builder.hpp"

namespace pimdse::sim::crossbar_fixtures {

/// A `kernel` x `kernel` convolution to `k` channels, padded to keep its extent at stride 1.
inline workload::ConvSpec spec(std::int64_t k, std::int64_t stride, std::int64_t kernel = 3) {
    workload::ConvSpec s;
    s.out_channels = k;
    s.kernel_h = s.kernel_w = kernel;
    s.stride_h = s.stride_w = stride;
    s.pad_h = s.pad_w = kernel / 2;
    return s;
}

/// 3 x 16 x 16 -> conv a (3 filters, 16 x 16 out) -> conv b (64 filters, stride 2, 8 x 8 out):
/// a on 1 crossbar (1 tile), b on 9 crossbars (2 tiles) of 128 x 128.
inline workload::Network two_convs() {
    workload::NetworkBuilder b(workload::NetworkInfo{"two", "", ""}, 1, workload::TensorShape{3, 16, 16});
    const auto a = b.conv("a", workload::kNetworkInput, spec(3, 1));
    b.conv("b", a, spec(64, 2));
    return std::move(b).build();
}

}  // namespace pimdse::sim::crossbar_fixtures
