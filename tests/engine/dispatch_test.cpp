// The dispatch order of a batch: the evaluation-time model recovers a log-linear law from
// its observations, and slowest-first dispatch shortens a batch against id order on a
// hand-computed case and is never worse than 4/3 of the best split (Graham's bound) on
// brute-forced small batches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "pimdse/engine/dispatch.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/hw/design_space.hpp"

namespace pimdse::engine {
namespace {

DesignPoint point(int nodes_r, int nodes_c, int pes, int buf) {
    return hw::to_point(hw::HardwareParams{nodes_r, nodes_c, pes, pes, buf, buf, buf});
}

// The model a dram_pim sweep starts from: the family's prior.
EvalTimeModel dram_pim_model() {
    const std::vector<double> prior = family::make_family(io::Config{})->eval_time_prior();
    return EvalTimeModel(Eigen::Map<const EvalTimeModel::Vector>(prior.data(), std::ssize(prior)));
}

// Wall time of a batch handed out in `order` to `workers` ranks, each taking the next
// candidate when it finishes (the engine's protocol).
double makespan(const std::vector<std::size_t>& order, const std::vector<double>& times, int workers) {
    std::vector<double> free_at(static_cast<std::size_t>(workers), 0.0);
    for (std::size_t i : order) {
        auto first = std::min_element(free_at.begin(), free_at.end());
        *first += times[i];
    }
    return *std::max_element(free_at.begin(), free_at.end());
}

// The best split of `times` over two workers, by enumerating every subset.
double best_two_way(const std::vector<double>& times) {
    const double total = std::accumulate(times.begin(), times.end(), 0.0);
    double best = total;
    for (std::uint32_t mask = 0; mask < (1u << times.size()); ++mask) {
        double a = 0;
        for (std::size_t i = 0; i < times.size(); ++i) {
            if (mask & (1u << i)) a += times[i];
        }
        best = std::min(best, std::max(a, total - a));
    }
    return best;
}

// A hidden law, ln t = c . (1, log2 params), and a random point of the default space. The
// model has a slope for each of Table I's seven parameters (the clock and the data width
// take the constraints' values in this space), so the law has those seven.
const EvalTimeModel::Vector& law() {
    static const EvalTimeModel::Vector c = [] {
        EvalTimeModel::Vector v(8);
        v << -3.0, 0.7, 0.2, -0.3, 0.1, 0.05, -0.2, 0.0;
        return v;
    }();
    return c;
}

double law_seconds(const DesignPoint& p) {
    double l = law()(0);
    for (int i = 0; i + 1 < law().size(); ++i)
        l += law()(i + 1) * std::log2(static_cast<double>(p[static_cast<std::size_t>(i)]));
    return std::exp(l);
}

DesignPoint random_point(std::mt19937_64& rng) {
    const auto pow2 = [&](int lo, int hi) { return 1 << std::uniform_int_distribution<int>(lo, hi)(rng); };
    const auto buf = [&] { return 8 * std::uniform_int_distribution<int>(1, 256)(rng); };
    return hw::to_point(
        hw::HardwareParams{pow2(1, 4), pow2(1, 4), pow2(0, 8), pow2(0, 8), buf(), buf(), buf()});
}

// A model that has seen `n` random points timed by the law.
EvalTimeModel trained_on_law(std::mt19937_64& rng, int n) {
    EvalTimeModel model = dram_pim_model();
    for (int i = 0; i < n; ++i) {
        const DesignPoint p = random_point(rng);
        model.observe(p, law_seconds(p));
    }
    return model;
}

TEST(EvalTimeModel, PriorPutsLargeArraysOfSmallPesFirst) {
    const EvalTimeModel model = dram_pim_model();
    EXPECT_EQ(model.observations(), 0u);
    const std::vector<DesignPoint> batch{point(2, 2, 64, 64), point(16, 16, 4, 64), point(4, 4, 16, 64)};
    EXPECT_EQ(slowest_first(batch, model), (std::vector<std::size_t>{1, 2, 0}));
    // Equal predictions keep their index order.
    const std::vector<DesignPoint> same{point(4, 4, 8, 64), point(4, 4, 8, 64), point(4, 4, 8, 64)};
    EXPECT_EQ(slowest_first(same, model), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(EvalTimeModel, RecoversALogLinearLaw) {
    std::mt19937_64 rng(7);
    EvalTimeModel model = trained_on_law(rng, 400);
    model.observe(point(2, 2, 1, 8), 0.0);           // not a duration: ignored
    model.observe(point(2, 2, 1, 8), std::nan(""));  // ditto
    EXPECT_EQ(model.observations(), 400u);
    // The prior weighs one observation against 400: the slopes come out within 0.01.
    for (int k = 1; k < law().size(); ++k) EXPECT_NEAR(model.coefficients()(k), law()(k), 0.01) << k;
    for (int i = 0; i < 50; ++i) {
        const DesignPoint p = random_point(rng);
        EXPECT_NEAR(model.predict(p) / law_seconds(p), 1.0, 0.1);
    }
}

TEST(SlowestFirst, ShortensABatchThatIdOrderEndsWithItsSlowest) {
    // Six 1 s candidates then one of 6 s, on two workers: in id order the 6 s one starts at
    // 3 s and the batch takes 9 s; slowest first it runs alone beside the six: 6 s, the best.
    std::vector<DesignPoint> batch(6, point(2, 2, 16, 64));
    batch.push_back(point(16, 16, 16, 64));
    EvalTimeModel model = dram_pim_model();
    for (const DesignPoint& p : batch) model.observe(p, p[0] == 16 ? 6.0 : 1.0);
    const std::vector<double> times{1, 1, 1, 1, 1, 1, 6};
    std::vector<std::size_t> by_id(batch.size());
    std::iota(by_id.begin(), by_id.end(), std::size_t{0});
    EXPECT_DOUBLE_EQ(makespan(by_id, times, 2), 9.0);
    EXPECT_DOUBLE_EQ(makespan(slowest_first(batch, model), times, 2), 6.0);
}

TEST(SlowestFirst, WithinGrahamsBoundOfTheBestSplit) {
    // With a model that knows the law, slowest-first is LPT: on two workers its batch time
    // is at most (4/3 - 1/6) of the best split. Checked against enumeration of every split.
    std::mt19937_64 rng(11);
    const EvalTimeModel model = trained_on_law(rng, 400);
    double worst = 0;
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<DesignPoint> batch;
        std::vector<double> times;
        for (int i = 0; i < 12; ++i) {
            batch.push_back(random_point(rng));
            times.push_back(model.predict(batch.back()));  // exact LPT: the model's own times
        }
        const double ratio = makespan(slowest_first(batch, model), times, 2) / best_two_way(times);
        EXPECT_LE(ratio, 4.0 / 3.0 - 1.0 / 6.0 + 1e-12) << trial;
        worst = std::max(worst, ratio);
    }
    EXPECT_GE(worst, 1.0);
}

}  // namespace
}  // namespace pimdse::engine
