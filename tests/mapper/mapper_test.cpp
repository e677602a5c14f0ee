#include "pimdse/mapper/mapper.hpp"

#include <gtest/gtest.h>

#include <string>

#include "mapper_fixtures.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

#include "../library_systems.hpp"

namespace pimdse::mapper {
namespace {

using testing::kTwoBranch;
using testing::Library;
using testing::library;
using testing::system_of;
using workload::Network;
using workload::Segmentation;

// Every layer of NicePIM's DNNs gets a legal mapping (checked by the evaluator, which throws
// on an illegal one) and the mapper is never slower than the baseline.
TEST(Mapper, MapsTheNicePimNetworksLegallyAndBeatsOrTiesTheBaseline) {
    const sim::System sys = pimdse::testing::library_system("nicepim_4x4.yaml");
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    MapperOptions portfolio;
    portfolio.keep_baseline_if_better = true;  // the portfolio's guarantee
    Mapper m(sys, portfolio, intra, sched, sched);
    Mapper paper(sys, MapperOptions{}, intra, sched, sched);
    for (const char* name : {"googlenet", "vgg16", "resnet18"}) {
        const Library l = library(name);
        const MapResult r = m.map(l.net, l.seg);
        EXPECT_FALSE(sim::check_mapping(l.net, l.seg, r.mapping, 4, 4).has_value()) << name;
        // Algorithm 1 alone never returns the baseline's mapping, and the portfolio is at least
        // as fast as it.
        const MapResult a = paper.map(l.net, l.seg);
        EXPECT_FALSE(a.from_baseline) << name;
        EXPECT_LE(r.cost.latency.value(), a.cost.latency.value()) << name;
        ASSERT_EQ(r.cost.status, sim::EvalStatus::ok) << name << ": " << r.cost.reason;
        const MapResult b = m.baseline(l.net, l.seg);
        ASSERT_EQ(b.cost.status, sim::EvalStatus::ok) << name << ": " << b.cost.reason;
        EXPECT_LE(r.cost.latency.value(), b.cost.latency.value()) << name;
        // The uniform mapping is a legal point of the same space: the mapper does better.
        const sim::NetworkMapping u = sim::uniform_mapping(l.net, l.seg, 4, 4);
        const sim::NetworkCost uc = sim::evaluate_mapping(l.net, l.seg, u, sys, intra, sched);
        EXPECT_LT(r.cost.latency.value(), uc.latency.value()) << name;
    }
}

// Every layer of the five NicePIM DNNs gets a legal mapping on the final 4 x 8
// design (NicePIM VIII-C), judged by the evaluator's legality check and status, and the
// mapper is never slower than the baseline there. (The 16 x 16 system is covered by
// jobs/paper/fig10, whose mappings are evaluated the same way.)
TEST(Mapper, MapsTheFiveNicePimDnnsLegallyOnTheFinalDesign) {
    const sim::System sys = pimdse::testing::library_system("nicepim_final_4x8.yaml");
    for (const char* name : {"resnet152", "vgg16", "googlenet", "darknet53", "bert_base"}) {
        sim::AnalyticIntraNodeMapper intra;
        sim::SnakeRingScheduler sched;
        MapperOptions portfolio;
        portfolio.keep_baseline_if_better = true;
        Mapper m(sys, portfolio, intra, sched, sched);
        const Library l = library(name);
        const MapResult r = m.map(l.net, l.seg);
        EXPECT_FALSE(
            sim::check_mapping(l.net, l.seg, r.mapping, sys.node_rows(), sys.node_cols()).has_value())
            << name;
        ASSERT_EQ(r.cost.status, sim::EvalStatus::ok) << name << ": " << r.cost.reason;
        for (const sim::LayerCost& c : r.cost.layers) EXPECT_EQ(c.status, sim::EvalStatus::ok) << name;
        const MapResult b = m.baseline(l.net, l.seg);
        EXPECT_LE(r.cost.latency.value(), b.cost.latency.value()) << name;
    }
}

// The DP respects a node's DRAM: with a capacity too small for full replication, the mapper
// replicates less and the timeline finds the weights fit.
TEST(Mapper, ReducesReplicationToFitASmallDram) {
    sim::System sys = system_of(2, 4, 8, 16);
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    const Segmentation seg = workload::decompose(n);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    sys.dram_capacity = Bytes(1 << 30);
    Mapper roomy(sys, MapperOptions{}, intra, sched, sched);
    const MapResult big = roomy.map(n, seg);
    ASSERT_EQ(big.cost.status, sim::EvalStatus::ok);
    std::int64_t total_weights = 0;
    for (workload::LayerIndex l = 0; l < n.size(); ++l) total_weights += n.layer(l).weights() * 2;
    sys.dram_capacity = Bytes(total_weights / 4);  // a quarter of one full copy per node
    Mapper tight(sys, MapperOptions{}, intra, sched, sched);
    const MapResult small = tight.map(n, seg);
    ASSERT_EQ(small.cost.status, sim::EvalStatus::ok) << small.cost.reason;
    EXPECT_GE(small.cost.latency.value(), big.cost.latency.value());
    sys.dram_capacity = Bytes(16);  // nothing fits: infeasible, with the timeline's reason
    Mapper none(sys, MapperOptions{}, intra, sched, sched);
    const MapResult r = none.map(n, seg);
    EXPECT_EQ(r.cost.status, sim::EvalStatus::infeasible);
    EXPECT_NE(r.cost.reason.find("DRAM capacity"), std::string::npos) << r.cost.reason;
}

}  // namespace
}  // namespace pimdse::mapper
