// Register reuse: the analytic buffer reads of every PE dataflow against the cycle-stepping
// reference (register_reference.hpp) on generated part-layers, tilings and unrollings.
#include <gtest/gtest.h>

#include <array>
#include <initializer_list>
#include <string>

#include "pimdse/core/rng.hpp"
#include "pimdse/sim/register_reference.hpp"

namespace pimdse::sim {
namespace {

std::int64_t pick(Rng& rng, std::initializer_list<std::int64_t> v) {
    return *(v.begin() + rng.uniform_int(0, static_cast<std::int64_t>(v.size()) - 1));
}

// A random tile: a power of two below the extent, or the whole extent.
std::int64_t random_tile(Rng& rng, std::int64_t extent) {
    std::int64_t t = 1;
    while (t * 2 < extent && rng.uniform_int(0, 2) > 0) t *= 2;
    return rng.uniform_int(0, 3) == 0 ? extent : t;
}

PartLayer random_layer(Rng& rng, int kind) {
    PartLayer l;
    l.B = pick(rng, {1, 1, 2});
    switch (kind) {
        case 0:  // convolution
            l.K = pick(rng, {3, 8, 12});
            l.C = pick(rng, {2, 5, 8});
            l.R = l.S = pick(rng, {1, 3});
            l.P = pick(rng, {3, 4, 6});
            l.Q = pick(rng, {2, 5});
            break;
        case 1:  // fully connected
            l.K = pick(rng, {6, 16});
            l.C = pick(rng, {7, 12});
            break;
        case 2:  // attention matmul: a second activation operand instead of weights
            l.P = pick(rng, {4, 6});
            l.K = l.P;
            l.C = pick(rng, {3, 8});
            l.has_weights = false;
            break;
        default:  // depthwise
            l.K = pick(rng, {4, 10});
            l.C = 1;
            l.depthwise = true;
            l.R = l.S = 3;
            l.P = l.Q = pick(rng, {3, 5});
            break;
    }
    l.H = l.P + l.R - 1;
    l.W = l.Q + l.S - 1;
    return l;
}

TEST(RegisterReuse, AnalyticReadsEqualTheCycleSteppingReference) {
    constexpr std::array<SpatialUnroll, 6> unrolls{{{LoopDim::K, LoopDim::C},
                                                    {LoopDim::C, LoopDim::K},
                                                    {LoopDim::K, LoopDim::Q},
                                                    {LoopDim::Q, LoopDim::K},
                                                    {LoopDim::P, LoopDim::Q},
                                                    {LoopDim::K, LoopDim::B}}};
    const Rng root(20261125);
    int cases = 0;
    for (std::uint64_t i = 0; i < 48; ++i) {
        Rng rng = root.split(i);
        const PartLayer l = random_layer(rng, static_cast<int>(i % 4));
        NodeSpec node;
        node.pe_rows = static_cast<std::int32_t>(pick(rng, {2, 4}));
        node.pe_cols = static_cast<std::int32_t>(pick(rng, {3, 4}));
        Tiling t;
        t.unroll = unrolls[static_cast<std::size_t>(rng.uniform_int(0, 5))];
        for (std::size_t d = 0; d < kLoopDims; ++d)
            t.tile[d] = random_tile(rng, extent(l, static_cast<LoopDim>(d)));
        for (PeDataflow df :
             {PeDataflow::output_stationary, PeDataflow::weight_stationary, PeDataflow::input_stationary}) {
            const BufferReads a = buffer_reads(l, node, t, df);
            const BufferReads s = simulate_buffer_reads(l, node, t, df);
            const std::string what = "case " + std::to_string(i) + " " + to_string(t) + " " +
                                     std::string(to_string(df)) + " stationary";
            EXPECT_EQ(a.input, s.input) << what;
            EXPECT_EQ(a.weight, s.weight) << what;
            EXPECT_EQ(a.psum, s.psum) << what;
            ++cases;
        }
    }
    EXPECT_EQ(cases, 144);
}

}  // namespace
}  // namespace pimdse::sim
