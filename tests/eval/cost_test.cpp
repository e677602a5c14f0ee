// NicePIM Eq. 1: hand values, an infeasible network, and the arguments it refuses.
#include "pimdse/eval/cost.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <span>
#include <vector>

#include "pimdse/core/error.hpp"

namespace pimdse::eval {
namespace {

TEST(CostEq1, HandValues) {
    sim::NetworkCost a;
    a.energy.pe = Picojoules(2e12);  // 2 J
    a.seconds = 3;
    sim::NetworkCost b;
    b.energy.dram_access = Picojoules(0.5e12);
    b.energy.noc = Picojoules(0.5e12);  // 1 J
    b.seconds = 0.5;
    const std::vector<sim::NetworkCost> costs{a, b};
    const std::vector<double> gammas{1.0, 2.0};
    EXPECT_DOUBLE_EQ(cost_eq1(costs, gammas, 1, 1), 2 * 3 + 1 * 0.5 * 2);  // energy-delay products
    EXPECT_DOUBLE_EQ(cost_eq1(costs, gammas, 2, 0), 4 + 1 * 2);
    EXPECT_DOUBLE_EQ(cost_eq1(costs, gammas, 0, 2), 9 + 0.25 * 2);
    EXPECT_THROW((void)cost_eq1(costs, std::vector<double>{1.0}, 1, 1), pimdse::ModelError);
    EXPECT_THROW((void)cost_eq1(costs, std::vector<double>{1.0, 0.0}, 1, 1), pimdse::ModelError);
    EXPECT_THROW((void)cost_eq1(costs, gammas, -1, 1), pimdse::ModelError);
}

TEST(CostEq1, AnInfeasibleNetworkCostsInfinity) {
    sim::NetworkCost c;
    c.energy.pe = Picojoules(1e12);
    c.seconds = 1;
    c.status = sim::EvalStatus::infeasible;
    EXPECT_EQ(cost_eq1(std::span(&c, 1), std::vector<double>{1.0}, 1, 1),
              std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace pimdse::eval
