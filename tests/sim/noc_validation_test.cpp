// Validation of the analytic NoC latency against the step-level reference simulator on a
// generated suite of transfer patterns. The table printed by NocValidation.AnalyticMatchesReference
// is the one in docs/model.md ("Network-on-chip", validation); regenerate it with
//   <build-dir>/tests/sim_tests --gtest_filter='NocValidation.*'
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/sim/noc.hpp"
#include "pimdse/sim/noc_reference.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sim {
namespace {

struct Case {
    std::string name;
    Mesh mesh;
    NocParams params;
    std::vector<Transfer> transfers;
};

NocParams params_with_hop(std::int32_t hop_cycles) {
    NocParams p;
    p.hop_cycles = hop_cycles;
    return p;
}

std::string size_label(std::int64_t bytes) {
    return bytes % kKiB == 0 ? std::to_string(bytes / kKiB) + "KiB" : std::to_string(bytes) + "B";
}

std::string mesh_label(const Mesh& m) {
    return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}

/// Fisher-Yates with Rng::uniform_int, so the suite is the same on every platform.
template <class T>
void shuffle(std::vector<T>& v, Rng& rng) {
    for (std::size_t i = v.size(); i > 1; --i) {
        const auto j = static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i) - 1));
        std::swap(v[i - 1], v[j]);
    }
}

std::vector<Transfer> random_permutation(const Mesh& m, std::int64_t bytes, Rng& rng) {
    std::vector<NodeId> dst(static_cast<std::size_t>(m.node_count()));
    for (NodeId n = 0; n < m.node_count(); ++n) dst[static_cast<std::size_t>(n)] = n;
    shuffle(dst, rng);
    std::vector<Transfer> t;
    for (NodeId n = 0; n < m.node_count(); ++n)
        t.push_back({n, dst[static_cast<std::size_t>(n)], Bytes(bytes)});
    return t;
}

std::vector<Transfer> all_to_one(const Mesh& m, std::int64_t bytes, Rng& rng) {
    const auto sink = static_cast<NodeId>(rng.uniform_int(0, m.node_count() - 1));
    std::vector<Transfer> t;
    for (NodeId n = 0; n < m.node_count(); ++n) t.push_back({n, sink, Bytes(bytes)});
    return t;
}

/// Every node sends to the node (dr, dc) away, wrapping around the array edges (so the
/// wrapped transfers cross the whole mesh).
std::vector<Transfer> shift(const Mesh& m, std::int32_t dr, std::int32_t dc, std::int64_t bytes) {
    std::vector<Transfer> t;
    for (std::int32_t r = 0; r < m.rows(); ++r) {
        for (std::int32_t c = 0; c < m.cols(); ++c) {
            const std::int32_t r2 = ((r + dr) % m.rows() + m.rows()) % m.rows();
            const std::int32_t c2 = ((c + dc) % m.cols() + m.cols()) % m.cols();
            t.push_back({m.node(r, c), m.node(r2, c2), Bytes(bytes)});
        }
    }
    return t;
}

std::vector<Transfer> cycle_step(const Mesh& m, std::int64_t bytes, bool random_order, Rng& rng) {
    const std::vector<SharingSet> sets = interleaved_sets(m, 4, Bytes(bytes));
    std::vector<SharingCycle> cycles = SnakeRingScheduler{}.schedule(m, sets);
    if (random_order) {
        for (SharingCycle& c : cycles) shuffle(c.order, rng);
    }
    return cycle_step_transfers(cycles);
}

std::vector<Transfer> random_pairs(const Mesh& m, std::int32_t count, std::int64_t max_bytes, Rng& rng) {
    std::vector<Transfer> t;
    for (std::int32_t i = 0; i < count; ++i) {
        const auto a = static_cast<NodeId>(rng.uniform_int(0, m.node_count() - 1));
        const auto b = static_cast<NodeId>(rng.uniform_int(0, m.node_count() - 1));
        t.push_back({a, b, Bytes(rng.uniform_int(1, max_bytes))});
    }
    return t;
}

std::vector<Case> validation_suite() {
    std::vector<Case> suite;
    Rng root(20240611);
    std::uint64_t stream = 0;
    const std::int32_t hop_choices[] = {1, 2, 4};
    for (std::int32_t side : {4, 8, 16}) {
        const Mesh m(side, side);
        const std::string ml = mesh_label(m);
        // Big meshes get smaller messages to keep the simulator fast; every mesh gets a
        // small size where the pipeline term matters and a large one where links dominate.
        const std::int64_t big = side == 16 ? 2 * kKiB : 8 * kKiB;
        const std::int64_t small = 256;
        std::int32_t k = 0;
        auto hop = [&] { return hop_choices[static_cast<std::size_t>(k++) % 3]; };
        for (std::int64_t bytes : {small, big}) {
            for (int rep = 0; rep < 2; ++rep) {
                Rng rng = root.split(++stream);
                suite.push_back({ml + " permutation " + size_label(bytes) + " #" + std::to_string(rep), m,
                                 params_with_hop(hop()), random_permutation(m, bytes, rng)});
            }
            {
                Rng rng = root.split(++stream);
                const std::int64_t b = side == 16 ? bytes / 8 : bytes / 2;  // 255 senders on 16 x 16
                suite.push_back(
                    {ml + " all-to-one " + size_label(b), m, params_with_hop(hop()), all_to_one(m, b, rng)});
            }
            for (auto [dr, dc] : {std::pair{0, 1}, std::pair{1, 1}, std::pair{-1, 2}}) {
                suite.push_back({ml + " shift(" + std::to_string(dr) + "," + std::to_string(dc) + ") " +
                                     size_label(bytes),
                                 m, params_with_hop(hop()), shift(m, dr, dc, bytes)});
            }
            {
                Rng rng = root.split(++stream);
                suite.push_back({ml + " fig12 snake-ring step " + size_label(bytes), m,
                                 params_with_hop(hop()), cycle_step(m, bytes, false, rng)});
            }
            {
                Rng rng = root.split(++stream);
                suite.push_back({ml + " fig12 random-ring step " + size_label(bytes), m,
                                 params_with_hop(hop()), cycle_step(m, bytes, true, rng)});
            }
            {
                Rng rng = root.split(++stream);
                suite.push_back({ml + " random pairs <=" + size_label(bytes), m, params_with_hop(hop()),
                                 random_pairs(m, 2 * m.node_count(), bytes, rng)});
            }
        }
        if (side == 16) {  // the Fig. 12 message size on the largest array as well
            for (bool random_order : {false, true}) {
                Rng rng = root.split(++stream);
                suite.push_back({ml + " fig12 " + (random_order ? "random" : "snake") + "-ring step 8KiB", m,
                                 params_with_hop(hop()), cycle_step(m, 8 * kKiB, random_order, rng)});
            }
        }
        {
            const std::int64_t b = side == 4 ? 2 * kKiB : (side == 8 ? 512 : 128);
            suite.push_back({ml + " fig12 SHP " + size_label(b), m, params_with_hop(hop()),
                             shortest_path_transfers(interleaved_sets(m, 4, Bytes(b)))});
        }
    }
    return suite;
}

TEST(NocValidation, SuiteIsLargeEnough) {
    EXPECT_GE(validation_suite().size(), 50u);
}

// Bounds. The analytic latency differs from the simulator only through (a) the pipeline
// terms, whose mistakes are a few hops' worth of cycles, and (b) cycles in which a
// bottleneck channel idles because its flows are held up elsewhere. Both shrink relative
// to the latency as messages grow, so: mean |error| <= 2% over the suite, <= 10% for any
// case (the worst cases are 4-32-flit messages, where a few cycles are several per cent),
// and <= 1% for cases with >= 1024 flits on the bottleneck, the size of the data-sharing
// events the mapper costs (8 KiB per node on 64-bit flits, NicePIM Fig. 12).
constexpr double kMeanBound = 0.02;
constexpr double kCaseBound = 0.10;
constexpr double kLargeCaseBound = 0.01;
constexpr std::int64_t kLargeFlits = 1024;

TEST(NocValidation, AnalyticMatchesReference) {
    const std::vector<Case> suite = validation_suite();
    double sum_abs = 0;
    double max_abs = 0;
    double sum_abs_plain = 0;
    double max_abs_plain = 0;
    std::printf("| case | hop | bottleneck flits | analytic | simulated | error | B + H x hop | error |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Case& c : suite) {
        ChannelLoads loads;
        const TransferCost a = evaluate_transfers(c.mesh, c.transfers, c.params, loads);
        const ReferenceResult r = simulate_transfers(c.mesh, c.transfers, c.params);
        const double sim = r.latency.value();
        ASSERT_GT(sim, 0) << c.name;
        // The plain bottleneck formula of the brief, kept in the table for comparison.
        const auto plain =
            static_cast<double>(a.max_channel_flits + std::int64_t{a.max_hops} * c.params.hop_cycles);
        const double err = (a.latency.value() - sim) / sim;
        const double err_plain = (plain - sim) / sim;
        sum_abs += std::abs(err);
        max_abs = std::max(max_abs, std::abs(err));
        sum_abs_plain += std::abs(err_plain);
        max_abs_plain = std::max(max_abs_plain, std::abs(err_plain));
        std::printf("| %s | %d | %lld | %.0f | %.0f | %+.2f%% | %.0f | %+.2f%% |\n", c.name.c_str(),
                    c.params.hop_cycles, static_cast<long long>(a.max_channel_flits), a.latency.value(), sim,
                    100 * err, plain, 100 * err_plain);

        // Same channels, same flit counts: the two models disagree only on timing.
        ASSERT_EQ(r.channel_flits.size(), loads.flits().size());
        for (std::size_t ch = 0; ch < r.channel_flits.size(); ++ch) {
            ASSERT_EQ(r.channel_flits[ch], loads.flits()[ch]) << c.name << " channel " << ch;
        }
        const Cycles lower = reference_lower_bound(c.mesh, c.transfers, c.params);
        EXPECT_GE(a.latency.value(), lower.value()) << c.name;
        EXPECT_GE(sim, lower.value()) << c.name;
        EXPECT_LE(a.latency.value(), plain) << c.name;
        EXPECT_LE(std::abs(err), kCaseBound) << c.name;
        if (a.max_channel_flits >= kLargeFlits) {
            EXPECT_LE(std::abs(err), kLargeCaseBound) << c.name;
        }
    }
    const double n = static_cast<double>(suite.size());
    std::printf(
        "\n%zu cases: analytic mean |error| %.2f%%, max |error| %.2f%%; "
        "B + H x hop: mean |error| %.2f%%, max |error| %.2f%%\n",
        suite.size(), 100 * sum_abs / n, 100 * max_abs, 100 * sum_abs_plain / n, 100 * max_abs_plain);
    EXPECT_LE(sum_abs / n, kMeanBound);
}

}  // namespace
}  // namespace pimdse::sim
