// What the Bayesian proposers fit: log-cost targets with failed and infeasible candidates
// imputed (never dropped), and the bounded fit subset (the best, then a random rest).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <set>
#include <stdexcept>

#include "dram_pim_points.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "pimdse/tuner/targets.hpp"

namespace pimdse::tuner {
namespace {

Observation obs(Outcome outcome, double cost) {
    Observation o;
    o.outcome = outcome;
    o.cost = cost;
    return o;
}

TEST(Targets, FailuresAreWorseThanTheWorstByAMargin) {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<Observation> h{obs(Outcome::ok, std::exp(1.0)), obs(Outcome::failed, inf),
                                     obs(Outcome::ok, std::exp(3.0)), obs(Outcome::infeasible, inf),
                                     obs(Outcome::ok, 0.0)};  // a zero cost has no logarithm: imputed too
    const std::vector<double> t = log_cost_targets(h, 0.5);
    ASSERT_EQ(t.size(), 5u);
    EXPECT_NEAR(t[0], 1.0, 1e-12);
    EXPECT_NEAR(t[2], 3.0, 1e-12);
    EXPECT_NEAR(t[1], 3.0 + 0.5 * 2.0, 1e-12);  // worst + margin * spread
    EXPECT_NEAR(t[3], 4.0, 1e-12);
    EXPECT_NEAR(t[4], 4.0, 1e-12);
    // Nothing usable: the margin on a unit spread.
    const std::vector<double> f = log_cost_targets(std::vector<Observation>{obs(Outcome::failed, inf)}, 0.5);
    EXPECT_DOUBLE_EQ(f[0], 0.5);
}

TEST(Targets, FitSubsetKeepsTheBestAndSamplesTheRest) {
    std::vector<double> t(1000);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = std::sin(static_cast<double>(i) * 0.37) * 10.0;
    Rng rng(4, 4);
    EXPECT_EQ(fit_subset(std::vector<double>(t.begin(), t.begin() + 50), 64, 32, rng).size(), 50u);
    Rng a(4, 5), b(4, 5), c(4, 6);
    const std::vector<std::size_t> s = fit_subset(t, 200, 80, a);
    ASSERT_EQ(s.size(), 200u);
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
    EXPECT_EQ(std::set<std::size_t>(s.begin(), s.end()).size(), 200u);
    std::vector<double> sorted = t;
    std::sort(sorted.begin(), sorted.end());
    int best = 0;
    for (std::size_t i : s) best += t[i] <= sorted[79] ? 1 : 0;
    EXPECT_GE(best, 80);  // every one of the 80 lowest, plus any the random rest drew
    EXPECT_EQ(fit_subset(t, 200, 80, b), s);
    EXPECT_NE(fit_subset(t, 200, 80, c), s);
}

// By hand: targets 5 1 4 2 3 0 (indices 0..5). All four best: indices 5, 1, 3, 4, returned
// ascending. Two best (5 and 1) and two drawn from the others (0, 2, 3, 4).
TEST(Targets, FitSubsetByHand) {
    const std::vector<double> t{5, 1, 4, 2, 3, 0};
    Rng rng(1, 2);
    EXPECT_EQ(fit_subset(t, 4, 4, rng), (std::vector<std::size_t>{1, 3, 4, 5}));
    EXPECT_EQ(fit_subset(t, 6, 0, rng), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));  // n <= fit_max: all
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        Rng r(seed, 3);
        const std::vector<std::size_t> s = fit_subset(t, 4, 2, r);
        ASSERT_EQ(s.size(), 4u);
        EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
        EXPECT_TRUE(std::binary_search(s.begin(), s.end(), 1u));
        EXPECT_TRUE(std::binary_search(s.begin(), s.end(), 5u));
        EXPECT_EQ(std::set<std::size_t>(s.begin(), s.end()).size(), 4u);
    }
}

// By hand: from 16 with growth 1.25 the points are 16, 20, 25, 31, 38, 47 (floor of x 1.25).
TEST(Targets, TrainingScheduleByHand) {
    EXPECT_EQ(training_prefix(15, 16, 1.25), 15u);  // before the first point: everything
    EXPECT_EQ(training_prefix(16, 16, 1.25), 16u);
    EXPECT_EQ(training_prefix(19, 16, 1.25), 16u);
    EXPECT_EQ(training_prefix(20, 16, 1.25), 20u);
    EXPECT_EQ(training_prefix(30, 16, 1.25), 25u);
    EXPECT_EQ(training_prefix(31, 16, 1.25), 31u);
    EXPECT_EQ(training_prefix(46, 16, 1.25), 38u);
    EXPECT_EQ(training_prefix(47, 16, 1.25), 47u);
    EXPECT_EQ(training_prefix(3, 1, 1.25), 3u);  // floor(1.25) = 1: at least one more
    for (std::size_t n = 16; n < 100; ++n) EXPECT_EQ(training_prefix(n, 16, 1.0), n);  // every batch
    // The prefix only grows with n, and at 10^4 observations it lags by less than the factor.
    std::size_t last = 0;
    for (std::size_t n = 16; n < 20000; n += 7) {
        const std::size_t m = training_prefix(n, 16, 1.25);
        EXPECT_GE(m, last);
        EXPECT_LE(m, n);
        EXPECT_GT(static_cast<double>(m) * 1.25 + 1, static_cast<double>(n));
        last = m;
    }
}

TEST(Options, InvalidOptionsThrow) {
    ProposerContext ctx;
    ctx.space = hw::default_space(hw::Constraints{});
    ctx.legal = dram_pim_legality(hw::Constraints{});
    ProposerOptions o;
    o.fit_best = o.fit_max + 1;
    EXPECT_THROW((void)make_proposer("gp", ctx, o), pimdse::ModelError);
    o = {};
    o.hidden = {256, 0, 16};
    EXPECT_THROW((void)make_proposer("nicepim", ctx, o), pimdse::ModelError);
    o = {};
    o.anneal_cooling = 1.5;
    EXPECT_THROW((void)make_proposer("annealing", ctx, o), pimdse::ModelError);
    o = {};
    o.retrain_growth = 0.9;
    EXPECT_THROW((void)make_proposer("nicepim", ctx, o), pimdse::ModelError);
    o = {};
    o.believer_max = 0;
    EXPECT_THROW((void)make_proposer("gp", ctx, o), pimdse::ModelError);
    o = {};
    o.samples_per_candidate = 0;
    EXPECT_THROW((void)make_proposer("gp", ctx, o), pimdse::ModelError);
    using Change = void (*)(ProposerOptions&);
    for (Change bad : std::initializer_list<Change>{
             [](ProposerOptions& x) { x.xgb_trees = 0; }, [](ProposerOptions& x) { x.xgb_depth = 0; },
             [](ProposerOptions& x) { x.xgb_eta = 0; }, [](ProposerOptions& x) { x.xgb_eta = 1.5; },
             [](ProposerOptions& x) { x.xgb_ensemble = 1; }}) {
        o = {};
        bad(o);
        EXPECT_THROW((void)make_proposer("xgboost", ctx, o), pimdse::ModelError);
    }
    EXPECT_NO_THROW((void)make_proposer("evolution", ctx, ProposerOptions{}));
}

}  // namespace
}  // namespace pimdse::tuner
