#include "pimdse/mapper/selection.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "mapper_fixtures.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper {
namespace {

using testing::kTwoBranch;
using testing::system_of;
using workload::Network;
using workload::Segmentation;

double objective(const Mapper::RoundInputs& in, const std::vector<std::size_t>& sm,
                 const std::vector<std::vector<std::vector<std::size_t>>>& pick, std::int64_t* units) {
    double total = 0;
    *units = 0;
    for (std::size_t s = 0; s < sm.size(); ++s) {
        double seg = 0;
        std::int64_t seg_units = 0;
        const SmChoices& c = in.choices[s].sms[sm[s]];
        for (std::size_t r = 0; r < c.regions.size(); ++r) {
            double sum = 0;
            std::int64_t u = 0;
            for (std::size_t l = 0; l < c.regions[r].size(); ++l) {
                sum += c.regions[r][l].latency[pick[s][r][l]];
                u += c.regions[r][l].units[pick[s][r][l]];
            }
            seg = std::max(seg, sum);
            seg_units = std::max(seg_units, u);
        }
        total += seg;
        *units += seg_units;
    }
    return total;
}

// Algorithm 2 against exhaustive enumeration of every SM x (LM, WR) combination.
TEST(Selection, DpEqualsExhaustiveEnumerationUnderCapacity) {
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    const Segmentation seg = workload::decompose(n);
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{2, 2}, {2, 4}}) {
        sim::System sys = system_of(rows, cols, 8, 16);
        sim::AnalyticIntraNodeMapper intra;
        sim::SnakeRingScheduler sched;
        MapperOptions o;
        Mapper m(sys, o, intra, sched, sched);
        const std::vector<sim::DataLayout> dl(static_cast<std::size_t>(n.size()));
        const Mapper::RoundInputs in = m.round_inputs(n, seg, dl, dl);
        // Unconstrained minimum, minimum footprint, then capacities in between.
        std::int64_t max_units = 0;
        for (const auto& s : in.choices)
            for (const auto& c : s.sms)
                for (const auto& r : c.regions)
                    for (const auto& l : r) max_units += *std::max_element(l.units.begin(), l.units.end());
        for (std::int64_t cap : {std::int64_t{0}, max_units / 8, max_units / 4, max_units / 2, max_units}) {
            double best = std::numeric_limits<double>::infinity();
            std::vector<std::size_t> sm(in.choices.size(), 0);
            std::vector<std::vector<std::vector<std::size_t>>> pick(in.choices.size());
            std::function<void(std::size_t)> over_sm;
            std::function<void(std::size_t, std::size_t, std::size_t)> over_layers =
                [&](std::size_t s, std::size_t r, std::size_t l) {
                    const SmChoices& c = in.choices[s].sms[sm[s]];
                    if (r == c.regions.size()) return over_sm(s + 1);
                    if (l == c.regions[r].size()) return over_layers(s, r + 1, 0);
                    for (std::size_t j = 0; j < c.regions[r][l].latency.size(); ++j) {
                        pick[s][r][l] = j;
                        over_layers(s, r, l + 1);
                    }
                };
            over_sm = [&](std::size_t s) {
                if (s == in.choices.size()) {
                    std::int64_t units = 0;
                    const double v = objective(in, sm, pick, &units);
                    if (units <= cap) best = std::min(best, v);
                    return;
                }
                for (std::size_t k = 0; k < in.choices[s].sms.size(); ++k) {
                    sm[s] = k;
                    pick[s].assign(in.choices[s].sms[k].regions.size(), {});
                    for (std::size_t r = 0; r < pick[s].size(); ++r)
                        pick[s][r].assign(in.choices[s].sms[k].regions[r].size(), 0);
                    over_layers(s, 0, 0);
                }
            };
            over_sm(0);
            const Selection sel = select_mappings(in.choices, cap);
            if (std::isinf(best)) {
                EXPECT_FALSE(sel.feasible) << "cap " << cap;
                continue;
            }
            ASSERT_TRUE(sel.feasible) << "cap " << cap;
            EXPECT_DOUBLE_EQ(sel.latency, best) << rows << "x" << cols << " cap " << cap;
            EXPECT_LE(sel.units, cap);
            // The reconstructed choice achieves the reported objective.
            std::vector<std::size_t> sm_sel(sel.sm.begin(), sel.sm.end());
            std::vector<std::vector<std::vector<std::size_t>>> pick_sel(sel.option.size());
            for (std::size_t s = 0; s < sel.option.size(); ++s)
                for (const auto& r : sel.option[s]) pick_sel[s].emplace_back(r.begin(), r.end());
            std::int64_t units = 0;
            EXPECT_DOUBLE_EQ(objective(in, sm_sel, pick_sel, &units), sel.latency);
            EXPECT_LE(units, cap);
        }
    }
}

LayerChoices choices(std::vector<double> latency, std::vector<std::int64_t> units) {
    return LayerChoices{std::move(latency), std::move(units), {}};
}

// A chain of three single-layer segments, each with one SM of one region: latency adds up,
// footprints add up. The DP's answer is the minimum over all 2 x 2 x 2 picks that fit, by
// brute force, for every capacity; by hand at capacity 5: (4, 3 units) + (8, 1) + (6, 1) = 18.
TEST(Selection, ThreeLayerChainIsTheBruteForceMinimum) {
    const std::vector<LayerChoices> layers{choices({10, 4}, {1, 3}), choices({8, 5}, {1, 2}),
                                           choices({6, 1}, {1, 4})};
    std::vector<SegmentChoices> segments;
    for (const LayerChoices& l : layers) segments.push_back(SegmentChoices{{SmChoices{{{l}}}}});
    for (std::int64_t cap = 0; cap <= 10; ++cap) {
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t a = 0; a < 2; ++a)
            for (std::size_t b = 0; b < 2; ++b)
                for (std::size_t c = 0; c < 2; ++c) {
                    const std::int64_t units = layers[0].units[a] + layers[1].units[b] + layers[2].units[c];
                    if (units <= cap)
                        best = std::min(best,
                                        layers[0].latency[a] + layers[1].latency[b] + layers[2].latency[c]);
                }
        const Selection s = select_mappings(segments, cap);
        if (std::isinf(best)) {
            EXPECT_FALSE(s.feasible) << "cap " << cap;
            continue;
        }
        ASSERT_TRUE(s.feasible) << "cap " << cap;
        EXPECT_DOUBLE_EQ(s.latency, best) << "cap " << cap;
        EXPECT_LE(s.units, cap);
        double sum = 0;
        for (std::size_t i = 0; i < 3; ++i)
            sum += layers[i].latency[static_cast<std::size_t>(s.option[i][0][0])];
        EXPECT_DOUBLE_EQ(sum, s.latency);
    }
    EXPECT_FALSE(select_mappings(segments, 2).feasible);          // the smallest picks need 3 units
    EXPECT_DOUBLE_EQ(select_mappings(segments, 3).latency, 24);   // 10 + 8 + 6
    EXPECT_DOUBLE_EQ(select_mappings(segments, 5).latency, 18);   // 4 + 8 + 6
    EXPECT_DOUBLE_EQ(select_mappings(segments, 10).latency, 10);  // 4 + 5 + 1
}

// Regions of one SM run in parallel on different nodes: a segment costs the maximum of its
// regions' latencies and the maximum of their footprints. Two SMs by hand: one region of
// 10 cycles and 2 units, or two regions of 6 and 7 cycles and 3 and 1 units (7 cycles, 3
// units).
TEST(Selection, ParallelRegionsTakeTheMaximum) {
    const SmChoices one{{{choices({10}, {2})}}};
    const SmChoices two{{{choices({6}, {3})}, {choices({7}, {1})}}};
    const std::vector<SegmentChoices> segments{SegmentChoices{{one, two}}};
    const Selection roomy = select_mappings(segments, 3);
    ASSERT_TRUE(roomy.feasible);
    EXPECT_EQ(roomy.sm, (std::vector<std::int32_t>{1}));
    EXPECT_DOUBLE_EQ(roomy.latency, 7);
    EXPECT_EQ(roomy.units, 3);
    const Selection tight = select_mappings(segments, 2);
    ASSERT_TRUE(tight.feasible);
    EXPECT_EQ(tight.sm, (std::vector<std::int32_t>{0}));
    EXPECT_DOUBLE_EQ(tight.latency, 10);
    EXPECT_FALSE(select_mappings(segments, 1).feasible);
}

/// Runs the regions of a segment one after another, as if they shared their nodes.
class SerialRegions final : public sim::Timeline {
public:
    [[nodiscard]] Cycles segment(std::span<const sim::TimelineLayer> layers, std::size_t,
                                 std::span<sim::LayerTiming> timing) const override {
        Cycles t{0};
        for (std::size_t i = 0; i < layers.size(); ++i) {
            timing[i] = {t, layers[i].redistribution + layers[i].sharing + layers[i].compute};
            t += timing[i].latency;
        }
        return t;
    }
};

// The selection asks the timeline for a segment's latency: with regions in series, the
// two-region SM of ParallelRegionsTakeTheMaximum costs 6 + 7 and loses to the one region.
TEST(Selection, TheTimelineGivesTheSegmentsLatency) {
    const SmChoices one{{{choices({10}, {2})}}};
    const SmChoices two{{{choices({6}, {3})}, {choices({7}, {1})}}};
    const std::vector<SegmentChoices> segments{SegmentChoices{{one, two}}};
    const Selection serial = select_mappings(segments, 3, SerialRegions{});
    ASSERT_TRUE(serial.feasible);
    EXPECT_EQ(serial.sm, (std::vector<std::int32_t>{0}));
    EXPECT_DOUBLE_EQ(serial.latency, 10);
}

}  // namespace
}  // namespace pimdse::mapper
