// The predictor filter (tuner/filter.hpp): it keeps exactly the best-predicted points of the
// pool its proposer made, reports their predictions, refits only on what it was told (so a
// fresh filter told the same history proposes the same batch), and the per-batch quality the
// sweep records is Kendall's tau and the median relative error of those predictions.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dram_pim_points.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/tuner/filter.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "pimdse/tuner/rank_correlation.hpp"
#include "proposer_setup.hpp"

namespace pimdse::tuner {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(BestPredicted, KeepsTheLowestLowestFirstTiesByIndexNanLast) {
    const std::vector<double> p{5, 1, kNan, 3, 1, 0.5};
    EXPECT_EQ(best_predicted(p, 3), (std::vector<std::size_t>{5, 1, 4}));
    EXPECT_EQ(best_predicted(p, 6), (std::vector<std::size_t>{5, 1, 4, 3, 0, 2}));
    EXPECT_EQ(best_predicted(p, 9).size(), 6U);
    EXPECT_TRUE(best_predicted(p, 0).empty());
}

TEST(PredictionQuality, TauAndMedianErrorOverTheOkCandidatesOnly) {
    // Candidate 2 failed (+inf): it is left out of both. The rest: truths 1, 2, 4, 8 predicted
    // 1.5, 1, 4, 10: pairs (0,1) disagree, the other five agree: (5 - 1) / 6.
    const std::vector<double> predicted{1.5, 1, 0.1, 4, 10};
    const std::vector<double> cost{1, 2, kInf, 4, 8};
    const PredictionQuality q = prediction_quality(predicted, cost, true);
    EXPECT_DOUBLE_EQ(q.tau, kendall_tau(std::vector<double>{1, 2, 4, 8}, std::vector<double>{1.5, 1, 4, 10}));
    EXPECT_DOUBLE_EQ(q.tau, 4.0 / 6.0);
    // Relative errors 0.5, 0.5, 0, 0.25: the median of an even count is the mean of 0.25 and 0.5.
    EXPECT_DOUBLE_EQ(q.error, 0.375);
    // A model's standardised target ranks but is no cost: no relative error.
    EXPECT_TRUE(std::isnan(prediction_quality(predicted, cost, false).error));
    EXPECT_DOUBLE_EQ(prediction_quality(predicted, cost, false).tau, q.tau);
}

TEST(PredictionQuality, NanWithoutPredictionsOrTwoOkResults) {
    const std::vector<double> cost{1, kInf, kInf};
    EXPECT_TRUE(std::isnan(prediction_quality({}, cost, true).tau));
    const PredictionQuality one = prediction_quality(std::vector<double>{1, 2, 3}, cost, true);
    EXPECT_TRUE(std::isnan(one.tau));
    EXPECT_TRUE(std::isnan(one.error));
    EXPECT_THROW((void)prediction_quality(std::vector<double>{1, 2}, cost, true), ModelError);
}

ProposerOptions filter_options(FilterPredictor predictor) {
    ProposerOptions o = small_options(8, {32, 8}, 64, 30);
    o.filter = predictor;
    o.filter_pool = 4;
    o.xgb_trees = 20;
    o.xgb_ensemble = 3;
    return o;
}

class Filter : public ::testing::TestWithParam<FilterPredictor> {};

// Each batch past the first is the `size` best-predicted of the pool an unfiltered random
// proposer, told the same history, makes of filter_pool x size points; the reported
// predictions are the predictor's at those points. Then a fresh filter told the first k batches
// proposes batch k as the uninterrupted one did.
TEST_P(Filter, KeepsExactlyTheBestPredictedAndResumes) {
    const ProposerContext ctx = dram_pim_context(5, 256);
    const ProposerOptions o = filter_options(GetParam());
    const Encoding e(ctx.space);
    auto filtered = make_proposer("random", ctx, o);
    auto plain = make_proposer("random", ctx, ProposerOptions{});
    constexpr int kSize = 6;
    Trace trace;
    for (std::int64_t b = 0; b < 4; ++b) {
        const std::vector<DesignPoint> pool = plain->propose(b, kSize * o.filter_pool);
        const std::vector<DesignPoint> kept = filtered->propose(b, kSize);
        const ProposalStats stats = filtered->last_stats();
        if (b == 0) {  // nothing observed: the pool's first points, no prediction
            EXPECT_EQ(kept, std::vector<DesignPoint>(pool.begin(), pool.begin() + kSize));
            EXPECT_TRUE(stats.predicted.empty());
        } else {
            CostPredictor predictor(GetParam(), ctx.space, o, ctx.seed);
            ASSERT_TRUE(predictor.fit(trace.history));
            const std::vector<double> predicted = predictor.predict(pool);
            std::vector<DesignPoint> expected;
            std::vector<double> expected_predictions;
            for (std::size_t i : best_predicted(predicted, kSize)) {
                expected.push_back(pool[i]);
                expected_predictions.push_back(predicted[i]);
            }
            EXPECT_EQ(kept, expected) << "batch " << b;
            EXPECT_EQ(stats.predicted, expected_predictions);
            EXPECT_TRUE(stats.predicted_is_cost);
        }
        tell_plain_and_filtered(*plain, *filtered, kept, trace, e);
    }
    expect_legal_and_distinct(trace, kSize);
    expect_resumes_at_every_batch(trace, kSize, [&] { return make_proposer("random", ctx, o); });
}

INSTANTIATE_TEST_SUITE_P(Predictors, Filter, ::testing::Values(FilterPredictor::xgboost, FilterPredictor::gp),
                         [](const auto& test_info) {
                             return std::string(name_of(kFilterPredictorNames, test_info.param));
                         });

TEST(ModelProposerPredictions, EveryModelPickIsPredicted) {
    const ProposerContext ctx = dram_pim_context(7, 256);
    const Encoding e(ctx.space);
    auto proposer = make_proposer("xgboost", ctx, filter_options(FilterPredictor::none));
    Trace trace;
    for (std::int64_t b = 0; b < 3; ++b) {
        const std::vector<DesignPoint> points = proposer->propose(b, 8);
        const ProposalStats stats = proposer->last_stats();
        // Warm-up (8 uniform points) predicts nothing; the model's batches predict every point.
        EXPECT_EQ(stats.predicted.size(), b == 0 ? 0U : points.size()) << "batch " << b;
        EXPECT_FALSE(stats.predicted_is_cost);
        tell_batch(*proposer, points, trace,
                   [&](std::int64_t id, const DesignPoint& p) { return synthetic_evaluation(e, id, p); });
    }
}

}  // namespace
}  // namespace pimdse::tuner
