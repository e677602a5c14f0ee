// AMOSA's core (include/pimdse/tuner/amosa.hpp): the amount of domination, the acceptance
// probabilities and every case of section III-D on hand-computed points; the archive's
// invariants (never a dominated member, never past SL) and clustering to HL; the schedule;
// the serial loop on a bi-objective toy problem whose front is known by brute force.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include "amosa_toy.hpp"
#include "pimdse/tuner/amosa.hpp"
#include "pimdse/tuner/pareto.hpp"

namespace pimdse::tuner::amosa {
namespace {

Member m(std::int64_t id, double a, double b) {
    return Member{id, {a, b}};
}

TEST(Amosa, DominationAmountIsTheProductOfScaledDifferences) {
    const std::vector<Member> archive{m(1, 0, 10), m(2, 10, 0)};
    const std::vector<double> a{2, 6}, b{4, 8}, c{2, 9};
    const std::vector<double> r = ranges(archive, a, b);
    EXPECT_EQ(r, (std::vector<double>{10, 10}));
    EXPECT_NEAR(domination_amount(a, b, r), 0.2 * 0.2, 1e-15);
    EXPECT_NEAR(domination_amount(a, c, r), 0.3, 1e-15);  // only the differing objective counts
    EXPECT_EQ(domination_amount(a, a, r), 0.0);
}

TEST(Amosa, AcceptanceProbabilitiesAsPrinted) {
    EXPECT_NEAR(accept_dominated(0.04, 10), 0.401312339887548, 1e-15);
    EXPECT_EQ(accept_dominated(0.7, 0), 0.5);
    EXPECT_NEAR(accept_archive_member(0.3), 0.574442516811659, 1e-15);
}

// The archive {(1,5), (3,3), (5,1)}, ids 1 to 3, with room to spare.
Archive three() {
    Archive a(2, 10, 20);
    EXPECT_TRUE(a.add(m(1, 1, 5)));
    EXPECT_TRUE(a.add(m(2, 3, 3)));
    EXPECT_TRUE(a.add(m(3, 5, 1)));
    return a;
}

std::set<std::int64_t> ids(const Archive& a) {
    std::set<std::int64_t> out;
    for (const Member& x : a.members()) out.insert(x.id);
    return out;
}

TEST(Amosa, CaseOneAveragesOverTheArchiveAndTheCurrentPoint) {
    // All three members and the current (4,4) dominate (6,6); R = (5, 5). Delta dom: 0.2,
    // 0.36, 0.2 and 0.16, average 0.23; at T = 2, p = 1 / (1 + e^0.46).
    Archive a = three();
    const Step yes = step(a, m(10, 4, 4), m(11, 6, 6), 2, 0.38);
    EXPECT_EQ(yes.which, Case::one);
    EXPECT_NEAR(yes.probability, 0.38698582386066455, 1e-14);
    EXPECT_EQ(yes.current.id, 11);
    const Step no = step(a, m(10, 4, 4), m(11, 6, 6), 2, 0.39);
    EXPECT_EQ(no.current.id, 10);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{1, 2, 3}));
}

TEST(Amosa, CaseTwo) {
    // (a): (2,6) and (4,3.5) do not dominate each other; (3,3) dominates (4,3.5); R = (4, 5),
    // Delta dom = 1/4 * 0.5/5 = 0.025; at T = 10, p = 1 / (1 + e^0.25).
    Archive a = three();
    const Step s = step(a, m(10, 2, 6), m(11, 4, 3.5), 10, 0.9);
    EXPECT_EQ(s.which, Case::two_a);
    EXPECT_NEAR(s.probability, 0.43782349911420193, 1e-14);
    EXPECT_EQ(s.current.id, 10);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{1, 2, 3}));
    // (b): (2,4) is non-dominated w.r.t. all: it joins and becomes current.
    const Step b = step(a, m(3, 5, 1), m(12, 2, 4), 10, 0.9);
    EXPECT_EQ(b.which, Case::two_b);
    EXPECT_EQ(b.current.id, 12);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{1, 2, 3, 12}));
    // (c): (2,2.5) dominates (3,3) and (2,4), which leave.
    const Step c = step(a, m(3, 5, 1), m(13, 2, 2.5), 10, 0.9);
    EXPECT_EQ(c.which, Case::two_c);
    EXPECT_EQ(c.current.id, 13);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{1, 3, 13}));
}

TEST(Amosa, CaseThree) {
    // (a): (4,4) dominates the current (6,6) but (3,3) dominates it: Delta dom = 0.04 with
    // R = (5, 5), p = 1 / (1 + e^-0.04); the member is taken below p, the new point above.
    Archive a = three();
    const Step to_member = step(a, m(20, 6, 6), m(21, 4, 4), 10, 0.5);
    EXPECT_EQ(to_member.which, Case::three_a);
    EXPECT_NEAR(to_member.probability, 0.5099986668799655, 1e-14);
    EXPECT_EQ(to_member.current, m(2, 3, 3));
    EXPECT_EQ(step(a, m(20, 6, 6), m(21, 4, 4), 10, 0.52).current.id, 21);
    // Of several dominating members the least Delta dom wins: from (7,7) to (6,6), R = (6, 6):
    // 5/36, 1/4, 5/36; the tie goes to the lower id.
    const Step least = step(a, m(22, 7, 7), m(23, 6, 6), 10, 0.0);
    EXPECT_NEAR(least.probability, 0.534666513353404, 1e-14);
    EXPECT_EQ(least.current.id, 1);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{1, 2, 3}));
    // (b): (3.5,2.5) dominates the current (4,4) and is non-dominated w.r.t. the archive.
    const Step b = step(a, m(24, 4, 4), m(25, 3.5, 2.5), 10, 0.9);
    EXPECT_EQ(b.which, Case::three_b);
    EXPECT_EQ(b.current.id, 25);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{1, 2, 3, 25}));
    // (c): (2,2) dominates the current (3,3), an archive member, and (3.5,2.5): both leave.
    const Step c = step(a, m(2, 3, 3), m(26, 2, 2), 10, 0.9);
    EXPECT_EQ(c.which, Case::three_c);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{1, 3, 26}));
}

// Seven points of the line f1 + f2 = 100 in three groups.
std::vector<Member> groups() {
    return {m(1, 0, 100), m(2, 1, 99), m(3, 2, 98), m(4, 50, 50), m(5, 51, 49), m(6, 99, 1), m(7, 100, 0)};
}

TEST(Amosa, SingleLinkageKeepsOneRepresentativePerCluster) {
    // {0,1,2} -> the middle one; {3,4} and {5,6} -> a tie, the lower index.
    EXPECT_EQ(cluster_representatives(groups(), 3), (std::vector<std::size_t>{1, 3, 5}));
    EXPECT_EQ(cluster_representatives(groups(), 7).size(), 7u);
    EXPECT_EQ(cluster_representatives(groups(), 1), (std::vector<std::size_t>{3}));  // least summed distance
}

TEST(Amosa, AnArchivePastItsSoftLimitIsClusteredToItsHardLimit) {
    Archive a(2, 3, 6);
    for (const Member& x : groups()) (void)a.add(x);
    EXPECT_EQ(ids(a), (std::set<std::int64_t>{2, 4, 6}));
}

TEST(Amosa, TheArchiveNeverHoldsADominatedPointNorExceedsTheSoftLimit) {
    for (std::size_t objectives : {2u, 3u}) {
        Settings s;
        s.hard_limit = 8;
        s.soft_limit = 12;
        s.iterations = 10;
        Annealer annealer(objectives, s);
        Rng rng(7, objectives);
        std::size_t largest = 0;
        for (std::int64_t id = 0; id < 3000; ++id) {
            std::vector<double> f(objectives);
            double sum = 0;
            for (double& v : f) sum += (v = rng.uniform01());
            for (double& v : f) v /= 0.5 + 0.5 * sum;  // a front near the simplex, many ties of rank
            const bool fails = id % 17 == 5;
            std::optional<std::span<const double>> told;
            if (!fails) told = std::span<const double>(f);
            (void)annealer.tell(static_cast<std::size_t>(id % 5), id, told, rng.uniform01());
            const auto& members = annealer.archive().members();
            ASSERT_LE(members.size(), s.soft_limit);
            largest = std::max(largest, members.size());
            for (const Member& x : members) {
                EXPECT_NE(x.id % 17, 5) << "a failed point joined";
                for (const Member& y : members) ASSERT_FALSE(dominates(x.objectives, y.objectives));
            }
        }
        EXPECT_GT(largest, s.hard_limit);  // the clustering was exercised
    }
}

TEST(Amosa, TheScheduleCoolsGeometricallyAndRestarts) {
    const Settings s;                // 200, 1e-7, 0.8, 500 per temperature
    EXPECT_EQ(temperatures(s), 96);  // 200 * 0.8^95 = 1.24e-7 >= 1e-7 > 200 * 0.8^96
    EXPECT_EQ(temperature(s, 0), 200);
    EXPECT_EQ(temperature(s, 499), 200);
    EXPECT_NEAR(temperature(s, 500), 160, 1e-12);
    EXPECT_NEAR(temperature(s, 95 * 500), 200 * std::pow(0.8, 95), 1e-20);
    EXPECT_EQ(temperature(s, 96 * 500), 200);
    Settings flat = s;
    flat.alpha = 1;
    EXPECT_EQ(temperatures(flat), 0);
    EXPECT_EQ(temperature(flat, 1000000), 200);
    Settings bad = s;
    bad.t_min = 300;
    EXPECT_THROW(validate(bad), std::invalid_argument);
    bad = s;
    bad.hard_limit = 200;
    EXPECT_THROW(validate(bad), std::invalid_argument);
}

TEST(Amosa, TheSerialLoopReachesTheToyFront) {
    const std::set<std::vector<double>> front = true_front();
    ASSERT_EQ(front.size(), 41u);
    using P = std::pair<int, int>;
    const auto evaluate = [](const P& p) {
        return std::optional<std::vector<double>>(toy(p.first, p.second));
    };
    const auto perturb = [](const P& p, Rng& r) {
        P q = p;
        int& v = r.uniform01() < 0.5 ? q.first : q.second;
        v = std::clamp(v + static_cast<int>(r.uniform_int(-3, 3)), 0, 40);
        return q;
    };
    Settings s;
    s.t_max = 10;
    s.t_min = 0.01;
    s.alpha = 0.7;
    s.iterations = 150;  // 20 temperatures, 3000 evaluations
    Rng rng(3, 1);
    std::vector<P> initial;
    for (int i = 0; i < 20; ++i)
        initial.emplace_back(static_cast<int>(rng.uniform_int(0, 40)),
                             static_cast<int>(rng.uniform_int(0, 40)));
    Rng run(3, 2);
    const Result<P> r = minimise(s, 2, initial, evaluate, perturb, run);
    EXPECT_EQ(r.evaluations, 20 + temperatures(s) * s.iterations);
    const std::set<std::vector<double>> found(r.objectives.begin(), r.objectives.end());
    EXPECT_EQ(found, front);
    Rng again(3, 2);
    EXPECT_EQ(minimise(s, 2, initial, evaluate, perturb, again).solutions, r.solutions);
}

}  // namespace
}  // namespace pimdse::tuner::amosa
