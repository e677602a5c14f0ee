// The predictor filter's second level (tuner/filter.hpp, `cheap_fidelity`): of the
// cheap_pool x batch points the predictor keeps, exactly the batch of lowest cheap cost goes
// on, their cheap costs are reported, the options are checked, and a fresh filter told the
// same history proposes the same batch (the cheap cost depends on the point alone).

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "dram_pim_points.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/tuner/filter.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "proposer_setup.hpp"

namespace pimdse::tuner {
namespace {

ProposerOptions cheap_options(FilterPredictor predictor) {
    ProposerOptions o = small_options(8, {32, 8}, 64, 30);
    o.filter = predictor;
    o.filter_pool = 4;
    o.cheap_fidelity = CheapFidelity::snake;
    o.cheap_pool = 2;
    o.xgb_trees = 20;
    o.xgb_ensemble = 3;
    return o;
}

// A stand-in for the cheap evaluation: the synthetic cost with a distortion of its own, so
// that it ranks unlike the truth in places; +inf where the truth fails.
double cheap_cost(const Encoding& e, const DesignPoint& p) {
    const Observation o = synthetic_evaluation(e, 0, p);
    if (o.outcome != Outcome::ok) return std::numeric_limits<double>::infinity();
    return o.cost * (1.0 + 0.5 * e.encode(p)[0]);
}

// The engine's side of the level as the proposer sees it: every point's cost, in order.
std::function<std::vector<double>(std::span<const DesignPoint>)> cheap_costs(const Encoding& e) {
    return [&e](std::span<const DesignPoint> points) {
        std::vector<double> out;
        for (const DesignPoint& p : points) out.push_back(cheap_cost(e, p));
        return out;
    };
}

class CheapLevel : public ::testing::TestWithParam<FilterPredictor> {};

// Batch b of the filtered proposer is, of the pool an unfiltered random proposer makes of
// filter_pool x size points, the cheap_pool x size kept by the predictor (the first ones
// before it has two successes, or with filter none), then the size of lowest cheap cost.
TEST_P(CheapLevel, KeepsTheCheapestOfThePredictedAndResumes) {
    ProposerContext ctx = dram_pim_context(5, 256);
    const Encoding e(ctx.space);
    ctx.cheap_costs = cheap_costs(e);
    const ProposerOptions o = cheap_options(GetParam());
    auto filtered = make_proposer("random", ctx, o);
    auto plain = make_proposer("random", ctx, ProposerOptions{});
    constexpr int kSize = 5;
    Trace trace;
    for (std::int64_t b = 0; b < 4; ++b) {
        const std::vector<DesignPoint> pool = plain->propose(b, kSize * o.filter_pool);
        const std::vector<DesignPoint> kept = filtered->propose(b, kSize);
        const ProposalStats stats = filtered->last_stats();
        std::vector<DesignPoint> narrowed;
        CostPredictor predictor(GetParam(), ctx.space, o, ctx.seed);
        if (predictor.fit(trace.history)) {
            const std::vector<double> predicted = predictor.predict(pool);
            for (std::size_t i : best_predicted(predicted, kSize * o.cheap_pool)) narrowed.push_back(pool[i]);
        } else {
            narrowed.assign(pool.begin(), pool.begin() + kSize * o.cheap_pool);
        }
        std::vector<double> cheap;
        for (const DesignPoint& p : narrowed) cheap.push_back(cheap_cost(e, p));
        std::vector<DesignPoint> expected;
        std::vector<double> expected_cheap;
        for (std::size_t i : best_predicted(cheap, kSize)) {
            expected.push_back(narrowed[i]);
            expected_cheap.push_back(cheap[i]);
        }
        EXPECT_EQ(kept, expected) << "batch " << b;
        EXPECT_EQ(stats.cheap, expected_cheap) << "batch " << b;
        // The predictions travel with the kept points when the predictor ranked them.
        EXPECT_EQ(stats.predicted.size(), b > 0 && GetParam() != FilterPredictor::none ? kept.size() : 0U);
        tell_plain_and_filtered(*plain, *filtered, kept, trace, e);
    }
    expect_legal_and_distinct(trace, kSize);
    expect_resumes_at_every_batch(trace, kSize, [&] { return make_proposer("random", ctx, o); });
}

INSTANTIATE_TEST_SUITE_P(Predictors, CheapLevel,
                         ::testing::Values(FilterPredictor::none, FilterPredictor::xgboost),
                         [](const auto& test_info) {
                             return std::string(name_of(kFilterPredictorNames, test_info.param));
                         });

TEST(CheapLevel, OptionsAreChecked) {
    ProposerContext ctx = dram_pim_context(5, 256);
    ProposerOptions o = cheap_options(FilterPredictor::xgboost);
    // No cheap evaluation to call: refused, not silently the predictor alone.
    EXPECT_THROW((void)make_proposer("random", ctx, o), ModelError);
    ctx.cheap_costs = [](std::span<const DesignPoint> points) {
        return std::vector<double>(points.size(), 1.0);
    };
    EXPECT_NO_THROW((void)make_proposer("random", ctx, o));
    o.cheap_pool = o.filter_pool + 1;
    EXPECT_THROW((void)make_proposer("random", ctx, o), ModelError);
    o.cheap_pool = 0;
    EXPECT_THROW((void)make_proposer("random", ctx, o), ModelError);
    // Off: neither cheap_pool nor the missing cost matter.
    o.cheap_fidelity = CheapFidelity::none;
    o.cheap_pool = o.filter_pool + 1;
    ctx.cheap_costs = nullptr;
    EXPECT_NO_THROW((void)make_proposer("random", ctx, o));
}

// The engine spreads a proposal's cheap evaluations over its workers: the filter asks for all
// cheap_pool x size of them in one call, and a call that throws (the sweep stopping) abandons
// the proposal instead of ranking on missing costs.
TEST(CheapLevel, AsksForThePoolInOneCall) {
    ProposerContext ctx = dram_pim_context(5, 256);
    const Encoding e(ctx.space);
    std::vector<std::size_t> calls;
    ctx.cheap_costs = [&e, &calls](std::span<const DesignPoint> points) {
        calls.push_back(points.size());
        return cheap_costs(e)(points);
    };
    const ProposerOptions o = cheap_options(FilterPredictor::none);
    auto filtered = make_proposer("random", ctx, o);
    constexpr int kSize = 5;
    for (std::int64_t b = 0; b < 3; ++b) EXPECT_EQ(filtered->propose(b, kSize).size(), std::size_t{kSize});
    EXPECT_EQ(calls, std::vector<std::size_t>(3, std::size_t{kSize} * o.cheap_pool));

    struct Abandoned {};
    ctx.cheap_costs = [](std::span<const DesignPoint>) -> std::vector<double> { throw Abandoned{}; };
    EXPECT_THROW((void)make_proposer("random", ctx, o)->propose(0, kSize), Abandoned);
    // A level that answers with the wrong number of costs is an error, not a silent ranking.
    ctx.cheap_costs = [](std::span<const DesignPoint> points) {
        return std::vector<double>(points.size() - 1, 1.0);
    };
    EXPECT_THROW((void)make_proposer("random", ctx, o)->propose(0, kSize), Error);
}

}  // namespace
}  // namespace pimdse::tuner
