// Held-Karp remembers the last matrices it solved on a thread: a repeat must get exactly
// the answer a fresh solve gives, and a matrix that differs in one entry (even by one ulp,
// or 0.0 against -0.0) must be solved anew. "Fresh" is a solve on a new thread, whose
// memo is empty; the cost is also checked against the cheapest of all tours.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "../../src/sched/hamilton.hpp"

namespace pimdse::sched::detail {
namespace {

std::vector<double> random_matrix(std::mt19937_64& rng, std::size_t n) {
    std::uniform_int_distribution<int> pick(0, 9);
    std::vector<double> m(n * n, 0.0);
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b)
            if (a != b) m[a * n + b] = 0.25 * pick(rng);
    return m;
}

double tour_cost(const std::vector<double>& m, std::size_t n, const Tour& t) {
    double c = 0;
    for (std::size_t i = 0; i < t.size(); ++i) c += m[t[i] * n + t[(i + 1) % t.size()]];
    return c;
}

double cheapest_by_enumeration(const std::vector<double>& m, std::size_t n) {
    Tour t(n);
    std::iota(t.begin(), t.end(), std::uint16_t{0});
    double best = INFINITY;
    do best = std::min(best, tour_cost(m, n, t));
    while (std::next_permutation(t.begin() + 1, t.end()));
    return best;
}

HeldKarpResult<double> fresh(const std::vector<double>& m, std::size_t n) {
    HeldKarpResult<double> r;
    std::thread([&] { r = held_karp(std::span<const double>(m), n); }).join();
    return r;
}

void expect_fresh_answer(const std::vector<double>& m, std::size_t n) {
    const HeldKarpResult<double> got = held_karp(std::span<const double>(m), n);
    const HeldKarpResult<double> want = fresh(m, n);
    EXPECT_EQ(got.tour, want.tour);
    EXPECT_EQ(std::signbit(got.cost), std::signbit(want.cost));
    EXPECT_EQ(got.cost, want.cost);
    EXPECT_EQ(got.cost, cheapest_by_enumeration(m, n));
    EXPECT_EQ(tour_cost(m, n, got.tour), got.cost);
}

TEST(HeldKarpMemo, RepeatsAndNearRepeatsGetAFreshSolvesAnswer) {
    std::mt19937_64 rng(20261127);
    std::vector<std::vector<double>> seen;
    for (int i = 0; i < 40; ++i) {
        const std::size_t n = 4 + static_cast<std::size_t>(i % 5);
        std::vector<double> m = random_matrix(rng, n);
        expect_fresh_answer(m, n);
        // The same again (a memo hit), then one entry an ulp lower: possibly a new tour.
        expect_fresh_answer(m, n);
        m[1 * n + 2] = std::nextafter(m[1 * n + 2], -1.0);
        expect_fresh_answer(m, n);
        if (i % 7 == 0) seen.push_back(m);
    }
    // Matrices solved long ago (evicted or not) still get the fresh answer.
    for (const auto& m : seen) expect_fresh_answer(m, static_cast<std::size_t>(std::sqrt(m.size())));
}

TEST(HeldKarpMemo, ZeroAndNegativeZeroMatricesAreNotConfused) {
    const std::size_t n = 5;
    const std::vector<double> zero(n * n, 0.0);
    const std::vector<double> negative(n * n, -0.0);
    expect_fresh_answer(zero, n);
    expect_fresh_answer(negative, n);
    expect_fresh_answer(zero, n);
}

}  // namespace
}  // namespace pimdse::sched::detail
