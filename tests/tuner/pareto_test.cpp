// The Pareto archive and the hypervolume: hand-computed fronts and volumes, and brute force on
// small integer fronts (counting the unit cells of the grid that a front dominates), for two,
// three and four objectives; the archive's invariants under every insertion order.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/pareto.hpp"

namespace pimdse::tuner {
namespace {

std::vector<ParetoPoint> points(const std::vector<std::vector<double>>& objs) {
    std::vector<ParetoPoint> out;
    for (std::size_t i = 0; i < objs.size(); ++i) out.push_back({static_cast<std::int64_t>(i), objs[i]});
    return out;
}

TEST(Dominates, Minimisation) {
    const std::vector<double> a{1, 2}, b{1, 3}, c{2, 1};
    EXPECT_TRUE(dominates(a, b));
    EXPECT_FALSE(dominates(b, a));
    EXPECT_FALSE(dominates(a, c));
    EXPECT_FALSE(dominates(c, a));
    EXPECT_FALSE(dominates(a, a));  // equal is not better
}

TEST(ParetoArchive, HandFront) {
    ParetoArchive archive(2);
    EXPECT_TRUE(archive.insert(0, std::vector<double>{3, 3}));
    EXPECT_TRUE(archive.insert(1, std::vector<double>{1, 4}));
    EXPECT_FALSE(archive.insert(2, std::vector<double>{3, 5}));  // dominated by 0
    EXPECT_TRUE(archive.insert(3, std::vector<double>{2, 2}));   // evicts 0
    EXPECT_FALSE(archive.insert(4, std::vector<double>{2, 2}));  // duplicate, higher id
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_FALSE(archive.insert(5, std::vector<double>{0, inf}));
    EXPECT_FALSE(archive.insert(6, std::vector<double>{std::nan(""), 0}));
    const std::vector<ParetoPoint> want{{1, {1, 4}}, {3, {2, 2}}};
    EXPECT_EQ(archive.front(), want);
    EXPECT_TRUE(archive.insert(2, std::vector<double>{2, 2}));  // duplicate, lower id: replaces 3
    const std::vector<ParetoPoint> want2{{1, {1, 4}}, {2, {2, 2}}};
    EXPECT_EQ(archive.front(), want2);
}

TEST(ParetoArchive, RejectsBadSizes) {
    EXPECT_THROW(ParetoArchive(0), pimdse::ModelError);
    ParetoArchive archive(3);
    EXPECT_THROW((void)archive.insert(0, std::vector<double>{1, 2}), pimdse::ModelError);
}

// The front equals the brute-force non-dominated set (the lowest id among equal objectives)
// and is the same for every insertion order.
TEST(ParetoArchive, OrderIndependentAndNonDominated) {
    Rng rng(7, 1);
    for (int trial = 0; trial < 40; ++trial) {
        const std::size_t dims = 2 + static_cast<std::size_t>(trial % 3);
        const int n = 5 + static_cast<int>(rng.uniform_int(0, 25));
        std::vector<ParetoPoint> all;
        for (int i = 0; i < n; ++i) {
            std::vector<double> o(dims);
            for (double& v : o) v = static_cast<double>(rng.uniform_int(0, 4));  // many ties
            all.push_back({i, o});
        }
        std::vector<ParetoPoint> want;
        for (const ParetoPoint& p : all) {
            bool keep = true;
            for (const ParetoPoint& q : all) {
                if (dominates(q.objectives, p.objectives) ||
                    (q.objectives == p.objectives && q.candidate < p.candidate)) {
                    keep = false;
                }
            }
            if (keep) want.push_back(p);
        }
        for (int order = 0; order < 6; ++order) {
            std::vector<ParetoPoint> shuffled = all;
            for (std::size_t i = shuffled.size(); i > 1; --i) {
                std::swap(
                    shuffled[i - 1],
                    shuffled[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i) - 1))]);
            }
            ParetoArchive archive(dims);
            for (const ParetoPoint& p : shuffled) (void)archive.insert(p.candidate, p.objectives);
            ASSERT_EQ(archive.front(), want) << "trial " << trial << " order " << order;
            for (const ParetoPoint& a : archive.front()) {
                for (const ParetoPoint& b : archive.front())
                    ASSERT_FALSE(dominates(a.objectives, b.objectives));
            }
        }
    }
}

// Incremental insertion equals the brute-force front of the points so far, checked every 250
// inserts of 3,000 random three-objective points (continuous, so the front grows large).
TEST(ParetoArchive, IncrementalEqualsBruteForceOnRandomPoints) {
    Rng rng(21, 4);
    std::vector<ParetoPoint> all;
    ParetoArchive archive(3);
    for (int i = 0; i < 3000; ++i) {
        const double a = rng.uniform01(), b = rng.uniform01();
        all.push_back({i, {a, b, 2.0 - a - b + 0.3 * rng.uniform01()}});  // a trade-off surface
        (void)archive.insert(all.back().candidate, all.back().objectives);
        if ((i + 1) % 250 != 0) continue;
        std::vector<ParetoPoint> want;
        for (const ParetoPoint& p : all) {
            bool dominated = false;
            for (const ParetoPoint& q : all) dominated = dominated || dominates(q.objectives, p.objectives);
            if (!dominated) want.push_back(p);
        }
        ASSERT_EQ(archive.front(), want) << "after " << i + 1;
    }
    EXPECT_GT(archive.front().size(), 100u);  // a front that makes O(front) per insert matter
}

TEST(Hypervolume, HandComputed2D) {
    const std::vector<double> ref{4, 4};
    // Strips of widths 1, 1, 1 and heights 1, 2, 3.
    EXPECT_DOUBLE_EQ(hypervolume(points({{1, 3}, {2, 2}, {3, 1}}), ref), 6.0);
    // A dominated point and a point beyond the reference add nothing.
    EXPECT_DOUBLE_EQ(hypervolume(points({{1, 3}, {2, 2}, {3, 1}, {3, 3}, {0, 4}, {5, 0}}), ref), 6.0);
    EXPECT_DOUBLE_EQ(hypervolume(points({{0.5, 0.25}}), ref), 3.5 * 3.75);
    EXPECT_DOUBLE_EQ(hypervolume(points({}), ref), 0.0);
    const std::vector<double> c = hypervolume_contributions(points({{1, 3}, {2, 2}, {3, 1}}), ref);
    ASSERT_EQ(c.size(), 3u);
    EXPECT_DOUBLE_EQ(c[0], 1.0);  // [1,2] x [3,4]
    EXPECT_DOUBLE_EQ(c[1], 1.0);  // [2,3] x [2,3]
    EXPECT_DOUBLE_EQ(c[2], 1.0);  // [3,4] x [1,2]
}

TEST(Hypervolume, HandComputed3D) {
    const std::vector<double> ref{2, 2, 2};
    EXPECT_DOUBLE_EQ(hypervolume(points({{1, 1, 1}}), ref), 1.0);
    // Boxes of 2*2*1 and 1*1*2 overlapping in the unit cube [1,2]^3.
    EXPECT_DOUBLE_EQ(hypervolume(points({{0, 0, 1}, {1, 1, 0}}), ref), 5.0);
    const std::vector<double> c = hypervolume_contributions(points({{0, 0, 1}, {1, 1, 0}}), ref);
    EXPECT_DOUBLE_EQ(c[0], 3.0);
    EXPECT_DOUBLE_EQ(c[1], 1.0);
    // Boxes [0,3]x[1,3]x[1,3] and its two rotations, 12 each; every pair and all three
    // overlap in [1,3]^3: 3 * 12 - 3 * 8 + 8 = 20.
    EXPECT_DOUBLE_EQ(hypervolume(points({{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}), std::vector<double>{3, 3, 3}),
                     20.0);
}

TEST(Hypervolume, FourObjectivesByHand) {
    const std::vector<double> ref{2, 2, 2, 2};
    EXPECT_DOUBLE_EQ(hypervolume(points({{1, 1, 1, 1}}), ref), 1.0);
    EXPECT_DOUBLE_EQ(hypervolume(points({{0, 1, 1, 1}}), ref), 2.0);
    // Two boxes of 8 (2 x 1 x 2 x 2 and 1 x 2 x 2 x 2) overlapping in 1 x 1 x 2 x 2 = 4.
    EXPECT_DOUBLE_EQ(hypervolume(points({{0, 1, 0, 0}, {1, 0, 0, 0}}), ref), 12.0);
    // Equal last objectives (an empty slab) and a dominated point change nothing.
    EXPECT_DOUBLE_EQ(hypervolume(points({{0, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, 1, 1}}), ref), 12.0);
}

TEST(Hypervolume, RejectsBadSizes) {
    EXPECT_THROW((void)hypervolume(points({{1}}), std::vector<double>{2}), pimdse::ModelError);
    EXPECT_THROW((void)hypervolume(points({{1, 1, 1, 1, 1}}), std::vector<double>{2, 2, 2, 2, 2}),
                 pimdse::ModelError);
    EXPECT_THROW((void)hypervolume(points({{1, 1, 1}}), std::vector<double>{2, 2}), pimdse::ModelError);
    EXPECT_THROW((void)hypervolume_contributions(points({{1, 1}}), std::vector<double>{2, 2, 2}),
                 pimdse::ModelError);
}

// Brute force: with integer objectives in [0, g] and the reference at g in every objective,
// the hypervolume is the number of unit cells [c, c + 1) that some point dominates (p <= c),
// and a point's contribution is the number of cells that only it dominates.
TEST(Hypervolume, MatchesCellCountOnSmallIntegerFronts) {
    Rng rng(11, 2);
    const int g = 6;
    for (int trial = 0; trial < 90; ++trial) {
        const std::size_t dims = 2 + static_cast<std::size_t>(trial % 3);
        const int n = 1 + static_cast<int>(rng.uniform_int(0, 9));
        std::vector<std::vector<double>> objs;
        for (int i = 0; i < n; ++i) {
            std::vector<double> o(dims);
            for (double& v : o) v = static_cast<double>(rng.uniform_int(0, g));  // g itself: on the reference
            objs.push_back(o);
        }
        const std::vector<ParetoPoint> pts = points(objs);
        const std::vector<double> ref(dims, g);
        double cells = 0;
        std::vector<double> only(pts.size(), 0.0);
        const int zmax = dims >= 3 ? g : 1, wmax = dims == 4 ? g : 1;
        for (int a = 0; a < g; ++a)
            for (int b = 0; b < g; ++b)
                for (int z = 0; z < zmax; ++z)
                    for (int w = 0; w < wmax; ++w) {
                        const std::vector<int> cell{a, b, z, w};
                        std::vector<std::size_t> by;
                        for (std::size_t i = 0; i < pts.size(); ++i) {
                            bool in = true;
                            for (std::size_t k = 0; k < dims; ++k) in = in && pts[i].objectives[k] <= cell[k];
                            if (in) by.push_back(i);
                        }
                        if (!by.empty()) cells += 1;
                        if (by.size() == 1) only[by[0]] += 1;
                    }
        ASSERT_DOUBLE_EQ(hypervolume(pts, ref), cells) << "trial " << trial;
        const std::vector<double> c = hypervolume_contributions(pts, ref);
        for (std::size_t i = 0; i < pts.size(); ++i) ASSERT_DOUBLE_EQ(c[i], only[i]) << "trial " << trial;
    }
}

}  // namespace
}  // namespace pimdse::tuner
