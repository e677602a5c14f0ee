// The units of the cost and of the Pareto objectives (include/pimdse/io/objective_units.hpp).

#include "pimdse/io/objective_units.hpp"

#include <gtest/gtest.h>

namespace pimdse::io {
namespace {

TEST(ObjectiveUnits, CostUnitSpellsTheExponents) {
    EXPECT_EQ(cost_unit({1, 1}), "J s");  // the energy-delay product, NicePIM VIII-C
    EXPECT_EQ(cost_unit({2, 1}), "J^2 s");
    EXPECT_EQ(cost_unit({0, 1}), "s");
    EXPECT_EQ(cost_unit({1, 0}), "J");
    EXPECT_EQ(cost_unit({0.5, 2}), "J^0.5 s^2");
    EXPECT_EQ(cost_unit({0, 0}), "1");
}

TEST(ObjectiveUnits, EachObjectiveInTheUnitTheArchiveMinimises) {
    const CostConfig edp;
    EXPECT_EQ(objective_unit(Objective::latency, edp, ""), "s");
    EXPECT_EQ(objective_unit(Objective::energy, edp, ""), "J");
    EXPECT_EQ(objective_unit(Objective::area, edp, ""), "mm2");
    EXPECT_EQ(objective_unit(Objective::cost, {2, 1}, ""), "J^2 s");
    EXPECT_EQ(objective_unit(Objective::power, edp, ""), "W");
    EXPECT_EQ(objective_unit(Objective::throughput, edp, ""), "s");  // seconds per sample
    EXPECT_EQ(objective_unit(Objective::edp, edp, ""), "J s");
    EXPECT_EQ(objective_unit(Objective::adc_deficit, edp, "bit"), "bit");
    EXPECT_EQ(objective_unit(Objective::accuracy_loss, edp, "percentage points"), "percentage points");
    EXPECT_EQ(objective_unit(Objective::peak_temperature, edp, "K"), "K");
    EXPECT_EQ(objective_unit(Objective::err, edp, ""), "");
}

}  // namespace
}  // namespace pimdse::io
