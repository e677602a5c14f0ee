#pragma once
// The generated suite of DRAM validation cases (part-layers, nodes, tilings, layouts) that
// the analytic DRAM model is checked on against the trace and the command-level reference:
// tests/sim/dram_test.cpp on the sequential layouts, dram_row_aligned_test.cpp on RA.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/dram.hpp"
#include "pimdse/sim/dram_reference.hpp"
#include "pimdse/sim/intra_node.hpp"

namespace pimdse::sim::dram_suite {

constexpr DataLayout kBCHW{LayoutOrder::bchw, 1};
constexpr DataLayout kBHWC{LayoutOrder::bhwc, 1};
constexpr DataLayout grouped(std::int32_t n) {
    return {LayoutOrder::bchw, n};
}

struct Case {
    std::string name;
    PartLayer layer;
    NodeSpec node;
    Tiling tiling;
    DataLayout in;
    DataLayout out;
};

inline std::int64_t pick(Rng& rng, std::initializer_list<std::int64_t> v) {
    const auto i = rng.uniform_int(0, static_cast<std::int64_t>(v.size()) - 1);
    return *(v.begin() + i);
}

// A power of two <= extent, or the extent itself.
inline std::int64_t random_tile(Rng& rng, std::int64_t extent) {
    std::vector<std::int64_t> options;
    for (std::int64_t t = 1; t < extent; t *= 2) options.push_back(t);
    options.push_back(extent);
    return options[static_cast<std::size_t>(
        rng.uniform_int(0, static_cast<std::int64_t>(options.size()) - 1))];
}

inline DataLayout random_layout(Rng& rng) {
    switch (rng.uniform_int(0, 5)) {
        case 0:
            return kBCHW;
        case 1:
            return kBHWC;
        default:
            return grouped(static_cast<std::int32_t>(pick(rng, {2, 4, 8, 16})));
    }
}

inline PartLayer random_layer(Rng& rng, int kind, std::string& label) {
    PartLayer l;
    switch (kind) {
        case 0:  // convolution
            l.B = pick(rng, {1, 1, 2});
            l.K = pick(rng, {8, 16, 24, 32, 64});
            l.C = pick(rng, {3, 8, 16, 32, 48});
            l.R = l.S = pick(rng, {1, 3, 3, 5});
            l.stride_h = l.stride_w = static_cast<std::int32_t>(pick(rng, {1, 1, 2}));
            l.P = pick(rng, {4, 7, 14, 28});
            l.Q = pick(rng, {4, 7, 14, 28});
            label = "conv";
            break;
        case 1:  // fully connected
            l.B = pick(rng, {1, 4, 16});
            l.K = pick(rng, {64, 256, 1000});
            l.C = pick(rng, {128, 512, 1024});
            label = "fc";
            break;
        case 2:  // attention matmul: tokens x tokens, no weights
            l.B = pick(rng, {1, 2});
            l.P = pick(rng, {16, 64});
            l.K = l.P;
            l.C = pick(rng, {32, 64});
            l.has_weights = false;
            label = "attn";
            break;
        default:  // depthwise
            l.K = pick(rng, {16, 32, 96});
            l.C = 1;
            l.depthwise = true;
            l.R = l.S = 3;
            l.stride_h = l.stride_w = static_cast<std::int32_t>(pick(rng, {1, 2}));
            l.P = pick(rng, {7, 14, 28});
            l.Q = l.P;
            label = "dw";
            break;
    }
    l.H = (l.P - 1) * l.stride_h + l.R;
    l.W = (l.Q - 1) * l.stride_w + l.S;
    label += " B" + std::to_string(l.B) + " K" + std::to_string(l.K) + " C" + std::to_string(l.C) + " P" +
             std::to_string(l.P) + " Q" + std::to_string(l.Q) + " R" + std::to_string(l.R) + " s" +
             std::to_string(l.stride_h);
    return l;
}

inline std::vector<Case> validation_suite() {
    std::vector<Case> suite;
    const Rng root(20261123);
    for (std::uint64_t i = 0; i < 128; ++i) {
        Rng rng = root.split(i);
        Case c;
        std::string label;
        c.layer = random_layer(rng, static_cast<int>(i % 4), label);
        const auto banks = static_cast<std::int32_t>(pick(rng, {1, 4, 16}));
        c.node = NodeSpec::with_banks(8, 8, 32, banks);
        c.in = random_layout(rng);
        c.out = random_layout(rng);
        if (i % 8 == 7) {
            // Every eighth case: the tiling the mapper chooses.
            c.node = NodeSpec::with_banks(16, 16, 16, banks);
            c.tiling = AnalyticIntraNodeMapper::search(c.layer, c.node, c.in, c.out).tiling;
            label += " mapper";
        } else {
            c.tiling.order = kFastOrders[static_cast<std::size_t>(rng.uniform_int(0, 3))];
            for (std::size_t d = 0; d < kFastLoopDims; ++d)  // R and S whole
                c.tiling.tile[d] = random_tile(rng, extent(c.layer, static_cast<LoopDim>(d)));
            c.tiling.tile[static_cast<std::size_t>(LoopDim::R)] = c.layer.R;
            c.tiling.tile[static_cast<std::size_t>(LoopDim::S)] = c.layer.S;
        }
        // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string&&.
        c.name = std::to_string(i);
        c.name.insert(c.name.begin(), '#');
        c.name += ' ';
        c.name += label;
        c.name += ' ';
        c.name += std::to_string(banks);
        c.name += "bk";
        suite.push_back(std::move(c));
    }
    return suite;
}

inline double rel(double a, double s) {
    return s == 0 ? (a == 0 ? 0 : 1) : (a - s) / s;
}

// The analytic model against the trace on `suite`, printing the table docs/model.md quotes
// ("DRAM"). Every tensor's element and fetch counts must match exactly (same loop nest). The
// access count of each run is exact when the run starts cover their residue class evenly,
// and the tile classes (full / last tile per dim) are exact; what remains is (a) uneven
// residues over few runs and (b) rows shared across blocks at outer levels and between
// consecutive fetches of one region. So: mean |error| <= 5 % for each of accesses and
// activations (PIM Optimizer reports < 5 % for its row model), and at least 95 % of the cases
// within 5 % of the trace's activations.
inline void expect_analytic_matches_trace(const std::vector<Case>& suite, const char* label) {
    constexpr double kMeanBound = 0.05, kCaseBound = 0.05, kShareWithin = 0.95;
    double sum_acc = 0, max_acc = 0, sum_act = 0, max_act = 0;
    std::size_t act_within = 0;
    std::printf(
        "| case | DL in/out | tiling | accesses (model) | (trace) | error | rows (model) | (trace) | error "
        "|\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (const Case& c : suite) {
        const DramTraffic a = dram_traffic(c.layer, c.node, c.tiling, c.in, c.out);
        const DramTraffic s = simulate_dram_trace(c.layer, c.node, c.tiling, c.in, c.out);
        for (std::size_t t = 0; t < kTensors; ++t) {
            const auto tensor = static_cast<Tensor>(t);
            EXPECT_EQ(a[tensor].read_elements, s[tensor].read_elements) << c.name << " " << to_string(tensor);
            EXPECT_EQ(a[tensor].write_elements, s[tensor].write_elements)
                << c.name << " " << to_string(tensor);
            EXPECT_EQ(a[tensor].fetches, s[tensor].fetches) << c.name << " " << to_string(tensor);
        }
        const double e_acc = rel(static_cast<double>(a.accesses()), static_cast<double>(s.accesses()));
        const double e_act = rel(static_cast<double>(a.activations()), static_cast<double>(s.activations()));
        sum_acc += std::abs(e_acc);
        sum_act += std::abs(e_act);
        max_acc = std::max(max_acc, std::abs(e_acc));
        max_act = std::max(max_act, std::abs(e_act));
        if (std::abs(e_act) <= kCaseBound) ++act_within;
        std::printf("| %s | %s/%s | %s | %lld | %lld | %+.2f%% | %lld | %lld | %+.2f%% |\n", c.name.c_str(),
                    to_string(c.in).c_str(), to_string(c.out).c_str(), to_string(c.tiling).c_str(),
                    static_cast<long long>(a.accesses()), static_cast<long long>(s.accesses()), 100 * e_acc,
                    static_cast<long long>(a.activations()), static_cast<long long>(s.activations()),
                    100 * e_act);
    }
    const double n = static_cast<double>(suite.size());
    std::printf(
        "\n%zu %s cases: accesses mean |error| %.2f%%, max %.2f%%; rows mean |error| %.2f%%, max %.2f%%, "
        "%zu within 5%%\n",
        suite.size(), label, 100 * sum_acc / n, 100 * max_acc, 100 * sum_act / n, 100 * max_act, act_within);
    EXPECT_LE(sum_acc / n, kMeanBound);
    EXPECT_LE(sum_act / n, kMeanBound);
    EXPECT_GE(static_cast<double>(act_within), kShareWithin * n);
}

// The command reference averaged over where in the refresh interval the stream starts:
// the model's refresh stretch is an expectation over that phase, and a stream shorter than
// tREFI sees a refresh in some phases and none in others. The phases are the midpoints of n
// equal parts of the interval, n enough that a stream spans about 16 of them (4 at least,
// 64 at most: a short stream is cheap to replay).
struct AveragedReference {
    double cycles = 0;
    double refreshes = 0;
};
inline AveragedReference averaged_reference(const Case& c, double refi, double rfc) {
    const double span = simulate_dram_commands(c.layer, c.node, c.tiling, c.in, c.out, refi, rfc).cycles;
    const int phases = static_cast<int>(std::clamp(std::ceil(16 * refi / std::max(span, 1.0)), 4.0, 64.0));
    AveragedReference r;
    for (int i = 0; i < phases; ++i) {
        const DramCommandCount k =
            simulate_dram_commands(c.layer, c.node, c.tiling, c.in, c.out, refi, rfc, (i + 0.5) / phases);
        r.cycles += k.cycles / phases;
        r.refreshes += static_cast<double>(k.refreshes) / phases;
    }
    return r;
}

}  // namespace pimdse::sim::dram_suite
