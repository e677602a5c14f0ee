// The DDAM-style pipeline: its load-balancing programme (the least slowest part, then the
// least sum of parts) against brute force over every cut and band width, and the invariants of the result
// (parts in order on disjoint bands, the batch's time and energy from the parts').
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/mapper/segment_candidates.hpp"

#include "../../src/mapper/pipeline_cuts.hpp"
#include "../library_systems.hpp"

namespace pimdse::mapper {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Five layers of different work in a chain: five single-branch segments.
const char* const kChain = R"(
network: chain
input: {channels: 16, height: 32, width: 32}
layers:
  - {name: c1, type: conv, out_channels: 32, kernel: 3, padding: 1}
  - {name: c2, type: conv, out_channels: 64, kernel: 3, padding: 1, stride: 2}
  - {name: c3, type: conv, out_channels: 64, kernel: 1}
  - {name: c4, type: conv, out_channels: 128, kernel: 3, padding: 1, stride: 2}
  - {name: c5, type: conv, out_channels: 16, kernel: 1}
)";

/// The pipeline's two objectives by brute force: over every way to cut the segments into
/// contiguous parts, each on a band of >= 1 row of a `rows` x `cols` array, the least slowest
/// part, and among the cuts that reach it the least and the greatest sum of parts.
struct BruteForce {
    double interval = kInf;
    double least_sum = kInf;
    double greatest_sum = 0;
};

BruteForce brute_force(Mapper& m, const workload::Network& n, const workload::Segmentation& seg, int rows,
                       int cols) {
    // Each segment's estimate on a band of w rows: the baseline LM's latency on the largest
    // corner of the band where it has one.
    const sim::DataLayout dl = MapperOptions{}.layouts.front();
    const auto estimate = [&](std::size_t s, int w) {
        for (const auto& [r, c] : shrinking_shapes(w, cols)) {
            double total = 0;
            for (const workload::Branch& b : seg.segments[s].branches)
                for (workload::LayerIndex l : b.layers) {
                    const auto& o = m.search().fastest_compute_blind(n.layer(l), r, c, dl, dl);
                    total += o.empty() ? kInf : o.front().latency;
                }
            if (total < kInf) return total;
        }
        return kInf;
    };
    std::vector<std::pair<double, double>> cuts;  // (slowest part, sum of parts)
    const std::function<void(std::size_t, int, double, double)> cut = [&](std::size_t first, int rows_left,
                                                                          double worst, double total) {
        if (first == seg.segments.size()) {
            cuts.emplace_back(worst, total);
            return;
        }
        for (std::size_t end = first + 1; end <= seg.segments.size(); ++end)
            for (int w = 1; w <= rows_left; ++w) {
                double part = 0;
                for (std::size_t s = first; s < end; ++s) part += estimate(s, w);
                cut(end, rows_left - w, std::max(worst, part), total + part);
            }
    };
    cut(0, rows, 0, 0);
    BruteForce out;
    for (const auto& c : cuts) out.interval = std::min(out.interval, c.first);
    for (const auto& c : cuts)
        if (c.first <= out.interval * (1 + 1e-12)) {
            out.least_sum = std::min(out.least_sum, c.second);
            out.greatest_sum = std::max(out.greatest_sum, c.second);
        }
    return out;
}

TEST(Pipeline, BalancesItsPartsAsWellAsBruteForce) {
    const sim::System sys = pimdse::testing::library_system("nicepim_4x4.yaml");
    const workload::Network n = io::parse_network(kChain, "chain.yaml");
    const workload::Segmentation seg = workload::decompose(n);
    ASSERT_EQ(seg.segments.size(), 5u);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    Mapper m(sys, MapperOptions{}, intra, sched, sched);
    const PipelineResult p = m.pipeline(n, seg, 4);
    const BruteForce best = brute_force(m, n, seg, 4, 4);
    EXPECT_DOUBLE_EQ(p.estimated_interval, best.interval);
    EXPECT_NEAR(p.estimated_sample, best.least_sum, 1e-9 * best.least_sum);

    // Parts cover the segments in order, on disjoint bands inside the array.
    ASSERT_FALSE(p.stages.empty());
    EXPECT_EQ(p.stages.front().first_segment, 0);
    EXPECT_EQ(p.stages.back().end_segment, 5);
    double sum = 0, slowest = 0;
    for (std::size_t i = 0; i < p.stages.size(); ++i) {
        const PipelineStage& st = p.stages[i];
        if (i > 0) {
            EXPECT_EQ(st.first_segment, p.stages[i - 1].end_segment);
            EXPECT_FALSE(st.band.overlaps(p.stages[i - 1].band));
        }
        EXPECT_LE(st.band.row + st.band.rows, 4);
        for (std::int32_t s = st.first_segment; s < st.end_segment; ++s) {
            const sim::Region& r = p.mapping.segments[static_cast<std::size_t>(s)].regions.front();
            EXPECT_GE(r.row, st.band.row);
            EXPECT_LE(r.row + r.rows, st.band.row + st.band.rows);
        }
        sum += st.cycles;
        slowest = std::max(slowest, st.cycles);
    }
    EXPECT_EQ(sim::check_mapping(n, seg, p.mapping, 4, 4), std::nullopt);
    // One sample passes every part; then one leaves per interval.
    EXPECT_DOUBLE_EQ(sum, p.cost.latency.value());
    EXPECT_DOUBLE_EQ(p.interval_cycles, slowest);
    EXPECT_DOUBLE_EQ(p.batch_cycles, sum + 3 * slowest);
    // Dynamic energy scales with the samples; the background with the batch's time.
    EXPECT_NEAR(p.batch_energy.pe.value(), 4 * p.cost.energy.pe.value(), 1e-6 * p.batch_energy.pe.value());
    EXPECT_NEAR(p.batch_energy.dram_background.value(), sys.dram_background_pj_per_cycle * p.batch_cycles,
                1e-6 * p.batch_energy.dram_background.value());
    // A longer stream never lowers the rate.
    EXPECT_GE(m.pipeline(n, seg, 16).throughput(), p.throughput());
}

TEST(Pipeline, CutsMatchBruteForceOnRandomTables) {
    // Small integer estimates make many cuts tie at the least slowest part with different
    // sums; some segments do not fit narrow bands. Against every cut: the least slowest
    // part, then the least sum among the cuts that reach it, and the returned parts have both.
    std::mt19937 rng(20261128);
    int ties = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t S = 1 + rng() % 6, U = 1 + rng() % 6;
        detail::BandEstimates e(S, std::vector<double>(U + 1, kInf));
        for (auto& row : e)
            for (std::size_t w = 1; w <= U; ++w) row[w] = rng() % 10 == 0 ? kInf : 1.0 + rng() % 6;
        std::vector<std::pair<double, double>> cuts;
        const std::function<void(std::size_t, std::size_t, double, double)> cut =
            [&](std::size_t first, std::size_t left, double worst, double total) {
                if (first == S) return cuts.emplace_back(worst, total), void();
                for (std::size_t end = first + 1; end <= S; ++end)
                    for (std::size_t w = 1; w <= left; ++w) {
                        double part = 0;
                        for (std::size_t s = first; s < end; ++s) part += e[s][w];
                        if (part < kInf) cut(end, left - w, std::max(worst, part), total + part);
                    }
            };
        cut(0, U, 0, 0);
        double interval = kInf, least = kInf, greatest = 0;
        for (const auto& c : cuts) interval = std::min(interval, c.first);
        for (const auto& c : cuts)
            if (c.first == interval)
                least = std::min(least, c.second), greatest = std::max(greatest, c.second);
        ties += greatest > least;
        const detail::Cuts got = detail::balance(e, U);
        if (interval == kInf) {
            EXPECT_TRUE(got.parts.empty()) << "trial " << trial;
            continue;
        }
        ASSERT_FALSE(got.parts.empty()) << "trial " << trial;
        EXPECT_EQ(got.interval, interval) << "trial " << trial;
        EXPECT_EQ(got.sum, least) << "trial " << trial;
        double worst = 0, total = 0;
        std::size_t used = 0;
        for (std::size_t p = 0; p < got.parts.size(); ++p) {
            const auto [first, w] = got.parts[p];
            const std::size_t end = p + 1 < got.parts.size() ? got.parts[p + 1].first : S;
            ASSERT_LT(first, end);
            double part = 0;
            for (std::size_t s = first; s < end; ++s) part += e[s][w];
            worst = std::max(worst, part);
            total += part;
            used += w;
        }
        EXPECT_EQ(got.parts.front().first, 0u);
        EXPECT_LE(used, U);
        EXPECT_EQ(worst, interval) << "trial " << trial;
        EXPECT_EQ(total, least) << "trial " << trial;
    }
    EXPECT_GT(ties, 20);  // the second objective was exercised (49 of the 300 tables)
}

TEST(Pipeline, LayerBandsGiveEverySegmentItsOwnBand) {
    // Five segments on 4 rows with --layer-band 1: segment s on row s mod 4, the fifth back
    // on row 0; with 2, rows 0-1, 2-3, 0-1, ...
    const sim::System sys = pimdse::testing::library_system("nicepim_4x4.yaml");
    const workload::Network n = io::parse_network(kChain, "chain.yaml");
    const workload::Segmentation seg = workload::decompose(n);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    for (std::int32_t width : {1, 2}) {
        MapperOptions o;
        o.layer_band = width;
        Mapper m(sys, o, intra, sched, sched);
        const PipelineResult p = m.pipeline(n, seg, 1);
        ASSERT_EQ(p.stages.size(), 5u);
        for (std::size_t s = 0; s < 5; ++s) {
            const PipelineStage& st = p.stages[s];
            EXPECT_EQ(st.first_segment, static_cast<std::int32_t>(s));
            EXPECT_EQ(st.end_segment, static_cast<std::int32_t>(s + 1));
            EXPECT_EQ(st.band.row, static_cast<std::int32_t>(s) * width % 4);
            EXPECT_EQ(st.band.rows, width);
            const sim::Region& r = p.mapping.segments[s].regions.front();
            EXPECT_GE(r.row, st.band.row);
            EXPECT_LE(r.row + r.rows, st.band.row + st.band.rows);
        }
        EXPECT_EQ(sim::check_mapping(n, seg, p.mapping, 4, 4), std::nullopt);
    }
}

}  // namespace
}  // namespace pimdse::mapper
