// ParEGO's scalarisation (docs/tuner.md, "Multi-objective proposals"): the augmented
// Tchebycheff function and the normalisation by hand, the weight vectors on the simplex and
// covering it, and the model-based proposers under `scalarisation: parego`: deterministic,
// resumable, legal and distinct, and better on a two-objective toy than random search and
// the Eq. 1 scalarisation.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#include "dram_pim_points.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "pimdse/tuner/scalarisation.hpp"
#include "proposer_setup.hpp"

namespace pimdse::tuner {
namespace {

TEST(Scalarisation, TchebycheffByHand) {
    // max(0.5 * 0.2, 0.5 * 0.8) + 0.05 * (0.1 + 0.4) = 0.4 + 0.025.
    EXPECT_DOUBLE_EQ(augmented_tchebycheff(std::vector<double>{0.2, 0.8}, std::vector<double>{0.5, 0.5}),
                     0.425);
    // Three objectives, rho 0: the weighted maximum only.
    EXPECT_DOUBLE_EQ(
        augmented_tchebycheff(std::vector<double>{1, 0.5, 0.25}, std::vector<double>{0.1, 0.6, 0.3}, 0), 0.3);
    EXPECT_THROW((void)augmented_tchebycheff(std::vector<double>{1}, std::vector<double>{0.5, 0.5}),
                 ModelError);
}

Observation observed(std::vector<double> f, Outcome outcome = Outcome::ok) {
    Observation o;
    o.outcome = outcome;
    o.cost = outcome == Outcome::ok ? 1.0 : std::numeric_limits<double>::infinity();
    o.objectives = std::move(f);
    return o;
}

// Objective 0 is positive throughout and spans decades: taken in log, log 1, log 10, log 100
// -> 0, 0.5, 1. Objective 1 has a zero: linear, 0, 1, 2 -> 0, 0.5, 1. The failure and the ok
// observation with an infinite objective are imputed: worst 0.8 + 0.5 x spread 0.8 = 1.2.
TEST(Scalarisation, NormalisationAndTargetsByHand) {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<Observation> h{observed({1, 0}), observed({100, 2}), observed({10, 1}),
                                     observed({inf, inf}, Outcome::failed), observed({5, inf})};
    const NormalisedObjectives n(h);
    ASSERT_EQ(n.objectives(), 2u);
    EXPECT_TRUE(n.logged(0));
    EXPECT_FALSE(n.logged(1));
    EXPECT_DOUBLE_EQ(n.rows()[2][0], 0.5);
    EXPECT_DOUBLE_EQ(n.rows()[2][1], 0.5);
    EXPECT_TRUE(n.rows()[3].empty());
    EXPECT_TRUE(n.rows()[4].empty());
    const std::vector<double> t = n.targets(std::vector<double>{0.25, 0.75}, 0.5);
    // a: 0; b: max(0.25, 0.75) + 0.05 x 1 = 0.8; c: max(0.125, 0.375) + 0.05 x 0.5 = 0.4.
    ASSERT_EQ(t.size(), 5u);
    EXPECT_DOUBLE_EQ(t[0], 0.0);
    EXPECT_DOUBLE_EQ(t[1], 0.8);
    EXPECT_DOUBLE_EQ(t[2], 0.4);
    EXPECT_DOUBLE_EQ(t[3], 1.2);
    EXPECT_DOUBLE_EQ(t[4], 1.2);
    EXPECT_THROW((void)n.targets(std::vector<double>{1.0}, 0.5), ModelError);
    // One objective constant: it normalises to 0 and leaves the other to decide.
    const NormalisedObjectives flat(std::vector<Observation>{observed({3, 1}), observed({3, 4})});
    EXPECT_EQ(flat.targets(std::vector<double>{0.5, 0.5}, 0.5), (std::vector<double>{0.0, 0.5 + 0.05 * 0.5}));
    // No usable observation: nothing to tell apart.
    const NormalisedObjectives none(
        std::vector<Observation>{observed({}, Outcome::failed), observed({inf, 1})});
    EXPECT_EQ(none.objectives(), 0u);
    EXPECT_EQ(none.targets(std::vector<double>{0.5, 0.5}, 0.5), (std::vector<double>{0.0, 0.0}));
    // Observations that disagree on the number of objectives are a caller's bug.
    EXPECT_THROW(NormalisedObjectives(std::vector<Observation>{observed({1, 2}), observed({1, 2, 3})}),
                 ModelError);
}

TEST(Scalarisation, WeightsOnTheSimplexAndCoveringIt) {
    Rng rng(7, 1);
    const auto w = simplex_weights(rng, 4000, 3);
    ASSERT_EQ(w.size(), 4000u);
    std::vector<double> mean(3, 0.0);
    int corners[3] = {0, 0, 0}, centre = 0, below_half = 0;
    for (const auto& v : w) {
        ASSERT_EQ(v.size(), 3u);
        EXPECT_NEAR(std::accumulate(v.begin(), v.end(), 0.0), 1.0, 1e-12);
        for (std::size_t k = 0; k < 3; ++k) {
            EXPECT_GE(v[k], 0.0);
            mean[k] += v[k] / 4000.0;
            if (v[k] > 0.7) corners[k] += 1;
        }
        if (v[0] > 0.2 && v[1] > 0.2 && v[2] > 0.2) centre += 1;
        if (v[0] < 0.5) below_half += 1;
    }
    // Uniform on the 2-simplex: E[w_k] = 1/3; P(w_k > 0.7) = 0.3^2 = 0.09 (360 of 4000);
    // P(all > 0.2) = 0.4^2 = 0.16 (640); P(w_0 < 0.5) = 1 - 0.5^2 = 0.75 (3000). Bounds are
    // about four binomial standard deviations.
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_NEAR(mean[k], 1.0 / 3, 0.015);
        EXPECT_NEAR(corners[k], 360, 75);
    }
    EXPECT_NEAR(centre, 640, 95);
    EXPECT_NEAR(below_half, 3000, 110);
    // The same stream gives the same vectors.
    Rng again(7, 1);
    EXPECT_EQ(simplex_weights(again, 4000, 3), w);
}

ProposerContext context(std::uint64_t seed) {
    return dram_pim_context(seed, 512);
}

ProposerOptions small(Scalarisation s) {
    ProposerOptions o = small_options(8, {16, 4}, 48, 15);
    o.xgb_trees = 20;
    o.xgb_ensemble = 4;
    o.believer_max = 3;  // groups of 3 slots fill past the believer on the grid
    o.scalarisation = s;
    o.parego_weights = 4;
    return o;
}

// Two objectives in conflict: squared distances of the encoding to 0.25 and to 0.75 (weighted
// per coordinate), and their product as the cost (Eq. 1 with alpha = beta = 1). Every ninth
// candidate fails.
Observation evaluate(const Encoding& e, std::int64_t id, const DesignPoint& p) {
    const Unit u = e.encode(p);
    double a = 0, b = 0;
    for (std::size_t k = 0; k < e.space().dimensions(); ++k) {
        const double wk = 1.0 + static_cast<double>(k);
        a += wk * (u[k] - 0.25) * (u[k] - 0.25);
        b += wk * (u[k] - 0.75) * (u[k] - 0.75);
    }
    Observation o;
    o.candidate = id;
    o.params = p;
    o.outcome = id % 9 == 4 ? Outcome::failed : Outcome::ok;
    const double inf = std::numeric_limits<double>::infinity();
    o.cost = o.outcome == Outcome::ok ? a * b : inf;
    o.objectives = o.outcome == Outcome::ok ? std::vector<double>{a, b} : std::vector<double>{inf, inf};
    return o;
}

constexpr int kSize = 12;

Trace run(std::string_view name, Scalarisation s, std::uint64_t seed, int batches) {
    const ProposerContext ctx = context(seed);
    const Encoding e(ctx.space);
    auto proposer = make_proposer(name, ctx, small(s));
    Trace r;
    for (int b = 0; b < batches; ++b)
        tell_batch(*proposer, proposer->propose(b, kSize), r,
                   [&](std::int64_t id, const DesignPoint& p) { return evaluate(e, id, p); });
    return r;
}

class Parego : public ::testing::TestWithParam<std::string_view> {};

TEST_P(Parego, DeterministicResumableLegalDistinct) {
    const std::string_view name = GetParam();
    const Trace a = run(name, Scalarisation::parego, 3, 6);
    EXPECT_EQ(a.batches, run(name, Scalarisation::parego, 3, 6).batches);
    EXPECT_NE(a.batches, run(name, Scalarisation::eq1, 3, 6).batches);  // the mode changes the model batches
    expect_legal_and_distinct(a, kSize);
    expect_resumes_at_every_batch(
        a, kSize, [name] { return make_proposer(name, context(3), small(Scalarisation::parego)); });
}

INSTANTIATE_TEST_SUITE_P(Tuner, Parego, ::testing::Values("gp", "nicepim", "xgboost"),
                         [](const auto& test_info) { return std::string(test_info.param); });

TEST(Parego, NeedsObjectives) {
    auto p = make_proposer("gp", context(1), small(Scalarisation::parego));
    std::vector<DesignPoint> first = p->propose(0, kSize);
    std::vector<Observation> obs;
    for (std::size_t i = 0; i < first.size(); ++i) {
        Observation o;
        o.candidate = static_cast<std::int64_t>(i);
        o.params = first[i];
        o.cost = 1.0 + static_cast<double>(i);
        obs.push_back(o);  // ok, but without objectives
    }
    p->observe(obs);
    EXPECT_THROW((void)p->propose(1, kSize), ModelError);
}

double front_hypervolume(const std::vector<Observation>& history) {
    ParetoArchive archive(2);
    for (const Observation& o : history)
        if (o.outcome == Outcome::ok) (void)archive.insert(o.candidate, o.objectives);
    // The toy's objectives lie in [0, 15.75] (weights 1..7 sum to 28, times at most 0.75^2):
    // the reference bounds every point.
    const std::vector<double> reference{16, 16};
    return hypervolume(archive.front(), reference);
}

// On the toy the Eq. 1 target drives every slot to the few points of lowest product, the
// ParEGO slots spread along the front: its mean hypervolume over three seeds is the highest.
TEST(Parego, WidensTheFrontOnAToy) {
    double parego = 0, eq1 = 0, random = 0;
    for (std::uint64_t seed : {1, 2, 3}) {
        parego += front_hypervolume(run("gp", Scalarisation::parego, seed, 8).history);
        eq1 += front_hypervolume(run("gp", Scalarisation::eq1, seed, 8).history);
        random += front_hypervolume(run("random", Scalarisation::eq1, seed, 8).history);
    }
    std::printf("mean hypervolume: parego %.4f, eq1 %.4f, random %.4f\n", parego / 3, eq1 / 3, random / 3);
    EXPECT_GT(parego, eq1);
    EXPECT_GT(parego, random);
}

}  // namespace
}  // namespace pimdse::tuner
