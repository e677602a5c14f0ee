// What the Bayesian proposers fit: log-cost targets with failed and infeasible candidates
// imputed (never dropped), and the bounded fit subset (the best, then a random rest).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

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

TEST(Options, InvalidOptionsThrow) {
    ProposerContext ctx;
    ctx.space = hw::default_space(ctx.constraints);
    ProposerOptions o;
    o.fit_best = o.fit_max + 1;
    EXPECT_THROW((void)make_proposer("gp", ctx, o), std::invalid_argument);
    o = {};
    o.hidden = {256, 0, 16};
    EXPECT_THROW((void)make_proposer("nicepim", ctx, o), std::invalid_argument);
    o = {};
    o.anneal_cooling = 1.5;
    EXPECT_THROW((void)make_proposer("annealing", ctx, o), std::invalid_argument);
    EXPECT_NO_THROW((void)make_proposer("evolution", ctx, ProposerOptions{}));
}

}  // namespace
}  // namespace pimdse::tuner
