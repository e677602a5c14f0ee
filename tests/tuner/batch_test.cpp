// Large batches (docs/tuner.md, "Large batches"): the local-penalisation fill on the design
// grid, by hand; and the Bayesian proposers' determinism on batches larger than the exact
// believer, whatever the state of their training cache and whichever thread calls them.

#include <gtest/gtest.h>

#include <cmath>
#include <future>
#include <limits>
#include <string>

#include "dram_pim_points.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/tuner/acquisition.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "proposer_setup.hpp"

namespace pimdse::tuner {
namespace {

using Index = DesignSpace::Index;

// Five candidates by hand (index in Param order; the last parameter is obuf):
//   0: all zero              score 10
//   1: obuf one step from 0   score 9   a neighbour of 0
//   2: obuf two steps from 0  score 8   not a neighbour of 0
//   3: two parameters moved   score 7   not a neighbour of anything (one step in one parameter only)
//   4: obuf one step from 2   score 6   a neighbour of 2
TEST(FillByExclusion, ByHand) {
    const DesignSpace space = hw::default_space(hw::Constraints{});
    const std::vector<Index> grid{Index{0, 0, 0, 0, 0, 0, 0}, Index{0, 0, 0, 0, 0, 0, 1},
                                  Index{0, 0, 0, 0, 0, 0, 2}, Index{1, 1, 0, 0, 0, 0, 0},
                                  Index{0, 0, 0, 0, 0, 0, 3}};
    const std::vector<double> score{10, 9, 8, 7, 6};
    EXPECT_EQ(fill_by_exclusion({}, score, grid, space, 3), (std::vector<std::size_t>{0, 2, 3}));
    // Short after the pass: the skipped ones follow, best first.
    EXPECT_EQ(fill_by_exclusion({}, score, grid, space, 5), (std::vector<std::size_t>{0, 2, 3, 1, 4}));
    // Earlier picks (the believer's) exclude their neighbours too and are kept first.
    EXPECT_EQ(fill_by_exclusion({1}, score, grid, space, 3), (std::vector<std::size_t>{1, 3, 4}));
    // Ties go to the lower index.
    EXPECT_EQ(fill_by_exclusion({}, std::vector<double>{1, 1, 1, 1, 1}, grid, space, 2),
              (std::vector<std::size_t>{0, 2}));
    // Nothing to add.
    EXPECT_EQ(fill_by_exclusion({4, 3}, score, grid, space, 2), (std::vector<std::size_t>{4, 3}));
}

ProposerContext context() {
    return dram_pim_context(5, 512);
}

ProposerOptions small(double retrain_growth, GpPosteriorKind posterior = GpPosteriorKind::fitc) {
    ProposerOptions o = small_options(8, {16, 4}, 48, 15);
    o.believer_max = 6;  // batches of 12 take 6 picks by the grid rule
    o.retrain_growth = retrain_growth;
    o.posterior = posterior;
    return o;
}

Observation evaluate(const Encoding& e, std::int64_t id, const DesignPoint& p) {
    const Unit u = e.encode(p);
    double s = 0;
    for (std::size_t k = 0; k < e.space().dimensions(); ++k)
        s += (1.0 + static_cast<double>(k)) * (u[k] - 0.4) * (u[k] - 0.4);
    Observation o;
    o.candidate = id;
    o.params = p;
    o.cost = id % 9 == 4 ? std::numeric_limits<double>::infinity() : std::exp(2.0 * s);
    o.outcome = std::isfinite(o.cost) ? Outcome::ok : Outcome::failed;
    return o;
}

constexpr int kSize = 12;

// Batches of 12; every second proposal on another thread, as rank 0's loop does.
Trace run(std::string_view name, double growth, int batches,
          GpPosteriorKind posterior = GpPosteriorKind::fitc) {
    const ProposerContext ctx = context();
    const Encoding e(ctx.space);
    auto proposer = make_proposer(name, ctx, small(growth, posterior));
    Trace r;
    for (int b = 0; b < batches; ++b) {
        std::vector<DesignPoint> points =
            b % 2 == 0 ? proposer->propose(b, kSize)
                       : std::async(std::launch::async, [&] { return proposer->propose(b, kSize); }).get();
        tell_batch(*proposer, std::move(points), r,
                   [&](std::int64_t id, const DesignPoint& p) { return evaluate(e, id, p); });
    }
    return r;
}

class LargeBatch : public ::testing::TestWithParam<std::tuple<std::string_view, double>> {};

TEST_P(LargeBatch, DeterministicResumableLegalDistinct) {
    const auto [name, growth] = GetParam();
    const Trace a = run(name, growth, 10);
    const Trace b = run(name, growth, 10);
    EXPECT_EQ(a.batches, b.batches);
    expect_legal_and_distinct(a, kSize);
    // A fresh proposer (no trained model cached) told batches 0..k-1 proposes batch k as the
    // uninterrupted run did, for every k; under the schedule the run reused the training of
    // batch 7 (prefix 78 of 84 observations) for batch 8 (96), the fresh one trains it.
    expect_resumes_at_every_batch(
        a, kSize, [name = name, growth = growth] { return make_proposer(name, context(), small(growth)); });
}

INSTANTIATE_TEST_SUITE_P(Tuner, LargeBatch,
                         ::testing::Combine(::testing::Values("gp", "nicepim"), ::testing::Values(1.0, 1.25)),
                         [](const auto& test_info) {
                             return std::string(std::get<0>(test_info.param)) +
                                    (std::get<1>(test_info.param) == 1.0 ? "_every_batch" : "_schedule");
                         });

// Boosted trees have no training schedule (every batch refits on every observation): one
// growth is enough.
INSTANTIATE_TEST_SUITE_P(Xgboost, LargeBatch,
                         ::testing::Combine(::testing::Values("xgboost"), ::testing::Values(1.25)),
                         [](const auto& test_info) { return std::string(std::get<0>(test_info.param)); });

// The schedule changes what is proposed once a batch falls between two training points: from
// 8 the points are 8, 10, 12, 15, 18, 22, 27, 33, 41, 51, 63, 78, 97, ..., so batch 8 (96
// observations) uses the model trained on the first 78.
TEST(LargeBatch, ScheduleIsUsed) {
    EXPECT_NE(run("gp", 1.0, 9).batches[8], run("gp", 1.25, 9).batches[8]);
}

// fit_max is 48: up to batch 4 (48 observations) the fitted subset is every observation and
// FITC changes nothing; batch 5 (60) is conditioned on all 60 under fitc, on 48 under subset.
TEST(LargeBatch, PosteriorSeesEveryObservationBeyondFitMax) {
    for (const std::string_view name : {"gp", "nicepim"}) {
        const Trace all = run(name, 1.25, 6, GpPosteriorKind::fitc);
        const Trace subset = run(name, 1.25, 6, GpPosteriorKind::subset);
        for (std::size_t b = 0; b < 5; ++b)
            EXPECT_EQ(all.batches[b], subset.batches[b]) << name << " batch " << b;
        EXPECT_NE(all.batches[5], subset.batches[5]) << name;
    }
}

}  // namespace
}  // namespace pimdse::tuner
