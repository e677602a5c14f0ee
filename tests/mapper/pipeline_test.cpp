// The DDAM-style pipeline: its load-balancing programme against brute force over every cut
// and band width, and the invariants of the result (parts in order on disjoint bands, the
// batch's time and energy from the parts').
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/mapper/segment_candidates.hpp"

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

TEST(Pipeline, BalancesItsPartsAsWellAsBruteForce) {
    const sim::System sys = pimdse::testing::library_system("nicepim_4x4.yaml");
    const workload::Network n = io::parse_network(kChain, "chain.yaml");
    const workload::Segmentation seg = workload::decompose(n);
    ASSERT_EQ(seg.segments.size(), 5u);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    Mapper m(sys, MapperOptions{}, intra, sched, sched);
    const PipelineResult p = m.pipeline(n, seg, 4);

    // Each segment's estimate on a band of w rows (4 columns): the baseline LM's latency on
    // the largest corner of the band where it has one.
    const sim::DataLayout dl = MapperOptions{}.layouts.front();
    const auto estimate = [&](std::size_t s, int w) {
        for (const auto& [r, c] : shrinking_shapes(w, 4)) {
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
    // Every way to cut five segments into contiguous parts, each on a band of >= 1 row, at
    // most 4 rows in all.
    double best = kInf;
    const std::function<void(std::size_t, int, double)> cut = [&](std::size_t first, int rows_left,
                                                                  double worst) {
        if (first == seg.segments.size()) {
            best = std::min(best, worst);
            return;
        }
        for (std::size_t end = first + 1; end <= seg.segments.size(); ++end)
            for (int w = 1; w <= rows_left; ++w) {
                double part = 0;
                for (std::size_t s = first; s < end; ++s) part += estimate(s, w);
                cut(end, rows_left - w, std::max(worst, part));
            }
    };
    cut(0, 4, 0);
    EXPECT_DOUBLE_EQ(p.estimated_interval, best);

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
