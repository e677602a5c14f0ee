// The node model's one factory: the configured kind, fresh for every call.
#include "pimdse/sim/node_model.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace pimdse::sim {
namespace {

TEST(NodeModel, AnalyticIsTheDefaultAndCostsAsTheAnalyticMapper) {
    const std::unique_ptr<IntraNodeMapper> model =
        make_node_model(ModelOptions{}, IntraNodeEnergyCoefficients{});
    ASSERT_NE(dynamic_cast<AnalyticIntraNodeMapper*>(model.get()), nullptr);
    PartLayer l;
    l.K = 64;
    l.C = 32;
    l.P = l.Q = 8;
    l.H = l.W = 10;
    l.R = l.S = 3;
    const NodeSpec node = NodeSpec::with_banks(32, 32, 128, 16);
    EXPECT_EQ(model->map(l, node, {}, {}), AnalyticIntraNodeMapper::search(l, node, {}, {}));
    // Each call builds its own model: no memo table is shared.
    EXPECT_NE(make_node_model(ModelOptions{}, IntraNodeEnergyCoefficients{}).get(), model.get());
}

}  // namespace
}  // namespace pimdse::sim
