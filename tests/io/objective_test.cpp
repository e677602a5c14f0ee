// What the Pareto archive minimises for each objective (io::minimised_value), by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pimdse/io/config.hpp"

namespace pimdse::io {
namespace {

// 2 ms and 3 mJ over two workloads of batch 4 and 1, on 12.5 mm2, Eq. 1 cost 6e-6.
const ObjectiveInputs kRun{0.002, 0.003, 12.5, 6e-6, 5.0};

TEST(Objective, EachIsItsSumOrRatio) {
    EXPECT_DOUBLE_EQ(minimised_value(Objective::latency, kRun), 0.002);
    EXPECT_DOUBLE_EQ(minimised_value(Objective::energy, kRun), 0.003);
    EXPECT_DOUBLE_EQ(minimised_value(Objective::area, kRun), 12.5);
    EXPECT_DOUBLE_EQ(minimised_value(Objective::cost, kRun), 6e-6);
    EXPECT_DOUBLE_EQ(minimised_value(Objective::power, kRun), 1.5);          // 3 mJ / 2 ms = 1.5 W
    EXPECT_DOUBLE_EQ(minimised_value(Objective::throughput, kRun), 0.0004);  // 2 ms / 5 samples
    EXPECT_DOUBLE_EQ(minimised_value(Objective::edp, kRun), 6e-6);           // 3 mJ x 2 ms
}

TEST(Objective, UndefinedRatiosAreInfinite) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const ObjectiveInputs none{0.0, 0.003, 12.5, 0.0, 0.0};
    EXPECT_EQ(minimised_value(Objective::power, none), inf);
    EXPECT_EQ(minimised_value(Objective::throughput, none), inf);
    EXPECT_EQ(minimised_value(Objective::edp, none), 0.0);
}

TEST(Objective, AFamilyMetricIsTakenAsItIs) {
    ObjectiveInputs in = kRun;
    in.metric = 2.5;
    EXPECT_DOUBLE_EQ(minimised_value(Objective::adc_deficit, in), 2.5);
    EXPECT_DOUBLE_EQ(minimised_value(Objective::accuracy_loss, in), 2.5);
    EXPECT_DOUBLE_EQ(minimised_value(Objective::latency, in), 0.002);  // the sums ignore it
    // A missing metric (NaN: no accuracy-table row) is never on a front.
    EXPECT_EQ(minimised_value(Objective::accuracy_loss, kRun), std::numeric_limits<double>::infinity());
    EXPECT_EQ(objective_metric(Objective::adc_deficit), "adc_deficit_bits");
    EXPECT_EQ(objective_metric(Objective::accuracy_loss), "accuracy_loss");
    // The hetero3d family's two.
    EXPECT_DOUBLE_EQ(minimised_value(Objective::peak_temperature, in), 2.5);
    EXPECT_DOUBLE_EQ(minimised_value(Objective::err, in), 2.5);
    EXPECT_EQ(objective_metric(Objective::peak_temperature), "peak_temperature_k");
    EXPECT_EQ(objective_metric(Objective::err), "err");
    EXPECT_TRUE(objective_metric(Objective::edp).empty());
}

TEST(Objective, EveryNameParsesInAConfiguration) {
    // The names a sweep may list are exactly kObjectiveNames, edp among them.
    EXPECT_EQ(value_of(kObjectiveNames, "edp"), Objective::edp);
    EXPECT_EQ(to_string(Objective::edp), "edp");
    EXPECT_TRUE(is_dense(kObjectiveNames));
}

}  // namespace
}  // namespace pimdse::io
