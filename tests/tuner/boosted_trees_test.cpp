// The boosted trees of proposer "xgboost" (boosted_trees.hpp): a booster fits a step function,
// the ensemble's spread is zero where every resample agrees and positive off the data, the
// same inputs give bit-identical predictions, and XGBoost's own errors reach the message.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/boosted_trees.hpp"

namespace pimdse::tuner {
namespace {

// x = 0, 0.05, ..., 1 in one column; y = 0 below 0.5, 1 from 0.5 on.
struct Step {
    Matrix x{21, 1};
    std::vector<double> y;
    Step() {
        for (int i = 0; i <= 20; ++i) {
            x(i, 0) = i / 20.0;
            y.push_back(i >= 10 ? 1.0 : 0.0);
        }
    }
};

// Every round's stump splits at the step, and from base 0.5 a leaf of n rows keeps
// 1 - eta n / (n + lambda) of its residual (lambda = 1): 8/11 on the left (10 rows), 0.725 on
// the right (11 rows). After t rounds the left predicts 0.5 (8/11)^t, the right 1 - 0.5 0.725^t.
TEST(Booster, StumpsShrinkTheResidualGeometrically) {
    const Step s;
    for (int t : {1, 2, 20}) {
        BoosterOptions o;
        o.trees = t;
        o.depth = 1;
        const Vector p = Booster(XgbMatrix(s.x, s.y), 0.5, o).predict(XgbMatrix(s.x));
        for (int i = 0; i <= 20; ++i) {
            const double want = i < 10 ? 0.5 * std::pow(8.0 / 11.0, t) : 1 - 0.5 * std::pow(0.725, t);
            EXPECT_NEAR(p(i), want, 1e-6) << t << " rounds, x = " << s.x(i, 0);
        }
    }
}

// With enough trees the step is fitted: XGBoost stops splitting once a split would gain less
// than its threshold of 1e-6 (here at a residual of about 2e-4 of the step's height of 1).
TEST(Booster, FitsAStepFunction) {
    const Step s;
    BoosterOptions o;
    o.trees = 100;
    const Booster b(XgbMatrix(s.x, s.y), 0.5, o);
    const Vector p = b.predict(XgbMatrix(s.x));
    for (int i = 0; i <= 20; ++i)
        EXPECT_NEAR(p(i), s.y[static_cast<std::size_t>(i)], 1e-3) << "x = " << s.x(i, 0);
    // Off the grid: the histogram's cuts are data values, so the split is x < 0.5, the first
    // value on the right.
    Matrix off(4, 1);
    off << 0.12, 0.46, 0.49, 0.93;
    const Vector q = b.predict(XgbMatrix(off));
    EXPECT_NEAR(q(0), 0.0, 1e-3);
    EXPECT_NEAR(q(1), 0.0, 1e-3);
    EXPECT_NEAR(q(2), 0.0, 1e-3);
    EXPECT_NEAR(q(3), 1.0, 1e-3);
}

// 2-D inputs on a 6 x 6 grid of [0, 0.5]^2 with a smooth target.
struct Grid {
    Matrix x{36, 2};
    Vector y{36};
    Grid() {
        for (int i = 0; i < 36; ++i) {
            x(i, 0) = (i % 6) * 0.1;
            x(i, 1) = (i / 6) * 0.1;
            y(i) = std::sin(6 * x(i, 0)) + 2 * x(i, 1);
        }
    }
};

TEST(BoostedEnsemble, NoSpreadOnIdenticalTargets) {
    Grid g;
    g.y.setConstant(2.5);
    Rng rng(7, 1);
    const BoostedEnsemble e(g.x, g.y, BoosterOptions{}, 8, rng);
    EXPECT_EQ(e.size(), 8u);
    Matrix xs(3, 2);
    xs << 0.05, 0.05, 0.9, 0.9, 0.3, 0.2;
    Vector mean, sd;
    e.predict(xs, mean, sd);
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(mean(i), 2.5, 1e-6);
        EXPECT_LT(sd(i), 1e-6);
    }
}

TEST(BoostedEnsemble, SpreadOffTheData) {
    const Grid g;
    Rng rng(7, 1);
    const BoostedEnsemble e(g.x, g.y, BoosterOptions{}, 8, rng);
    // Between the grid's points and beyond it the resamples disagree.
    Matrix xs(3, 2);
    xs << 0.25, 0.35, 0.9, 0.9, 0.55, 0.15;
    Vector mean, sd;
    e.predict(xs, mean, sd);
    for (int i = 0; i < 3; ++i) EXPECT_GT(sd(i), 1e-3) << "row " << i;
    // The mean stays within the targets' range: trees never extrapolate beyond the leaves.
    for (int i = 0; i < 3; ++i) {
        EXPECT_GE(mean(i), g.y.minCoeff() - 1e-6);
        EXPECT_LE(mean(i), g.y.maxCoeff() + 1e-6);
    }
}

TEST(BoostedEnsemble, SameInputsBitIdenticalPredictions) {
    const Grid g;
    Matrix xs(50, 2);
    Rng draw(3, 3);
    for (int i = 0; i < 50; ++i) xs.row(i) << draw.uniform01(), draw.uniform01();
    const auto fit = [&](std::uint64_t seed) {
        Rng rng(seed, 1);
        const BoostedEnsemble e(g.x, g.y, BoosterOptions{}, 5, rng);
        Vector mean, sd;
        e.predict(xs, mean, sd);
        return std::make_pair(mean, sd);
    };
    const auto a = fit(11), b = fit(11), c = fit(12);
    EXPECT_TRUE(a.first == b.first);  // bit for bit
    EXPECT_TRUE(a.second == b.second);
    EXPECT_FALSE(a.first == c.first);  // another seed resamples differently
}

TEST(BoostedEnsemble, XgboostErrorsNameTheCallAndXgboostsMessage) {
    const Step s;
    const Booster b(XgbMatrix(s.x, s.y), 0.5, BoosterOptions{});
    try {
        (void)b.predict(XgbMatrix(Matrix::Zero(2, 3)));  // three columns for a one-feature model
        ADD_FAILURE() << "predicted on the wrong number of features";
    } catch (const InternalError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("XGBoosterPredictFromDMatrix failed: "), std::string::npos) << what;
        EXPECT_NE(what.find("feature"), std::string::npos) << what;
    }
    EXPECT_THROW(XgbMatrix(s.x, std::vector<double>{1.0}), ModelError);
    Rng rng(1, 1);
    EXPECT_THROW(BoostedEnsemble(Matrix(0, 2), Vector(0), BoosterOptions{}, 4, rng), ModelError);
}

}  // namespace
}  // namespace pimdse::tuner
