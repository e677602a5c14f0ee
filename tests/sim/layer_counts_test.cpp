// A layer's counts and tiling (sim::LayerCounts, sim::PartTiling in layer_cost.hpp): the
// counts are what the layer's energy is made of, count x coefficient part by part, and on a
// single node they and the tiling are the node model's own.

#include <gtest/gtest.h>

#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

#include "../library_systems.hpp"

namespace pimdse::sim {
namespace {

using workload::Network;
using workload::Segmentation;

NetworkCost evaluate(const Network& n, const Segmentation& s, const NetworkMapping& m, const System& sys) {
    AnalyticIntraNodeMapper mapper;
    SnakeRingScheduler scheduler;
    return evaluate_mapping(n, s, m, sys, mapper, scheduler);
}

double d(std::int64_t v) {
    return static_cast<double>(v);
}

void expect_near(double got, double want, const std::string& what) {
    EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, std::abs(want))) << what;
}

// Every energy part of every layer of ResNet-18's uniform mapping is its count times its
// coefficient; the SRAM's buffers add up to the SRAM energy.
TEST(LayerCounts, EnergiesAreCountsTimesCoefficients) {
    const Network n =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/resnet18.yaml");
    const Segmentation s = workload::decompose(n);
    const System sys = testing::library_system("nicepim_4x4.yaml");
    const NetworkCost c = evaluate(n, s, uniform_mapping(n, s, 4, 4), sys);
    ASSERT_EQ(c.status, EvalStatus::ok) << c.reason;
    const IntraNodeEnergyCoefficients& k = sys.energy;
    std::int64_t sharing = 0;
    for (workload::LayerIndex i = 0; i < n.size(); ++i) {
        const LayerCost& l = c.layers[static_cast<std::size_t>(i)];
        const LayerCounts& q = l.counts;
        const std::string at = "layer " + n.layer(i).name;
        expect_near(q.ibuf_energy.value() + q.wbuf_energy.value() + q.obuf_energy.value(),
                    l.energy.sram.value(), at + ": SRAM by buffer");
        expect_near(q.ibuf_energy.value(), d(q.ibuf.reads + q.ibuf.writes) * k.pj_per_ibuf_access,
                    at + ": ibuf");
        expect_near(q.wbuf_energy.value(), d(q.wbuf.reads + q.wbuf.writes) * k.pj_per_wbuf_access,
                    at + ": wbuf");
        expect_near(q.obuf_energy.value(), d(q.obuf.reads + q.obuf.writes) * k.pj_per_obuf_access,
                    at + ": obuf");
        expect_near(l.energy.registers.value(), d(q.register_bits) * k.pj_per_register_bit,
                    at + ": registers");
        expect_near(
            l.energy.dram_access.value(),
            d(q.dram_read_accesses + q.dram_write_accesses) * sys.node.dram_port_bits * k.pj_per_dram_bit,
            at + ": DRAM accesses");
        expect_near(l.energy.dram_activation.value(), d(q.dram_activations) * k.pj_per_row_activation,
                    at + ": DRAM activations");
        expect_near(
            l.energy.noc.value(),
            d(q.redistribution_flit_hops + q.sharing_flit_hops) * sys.noc.flit_bits * sys.noc.pj_per_bit_hop,
            at + ": NoC");
        EXPECT_GT(q.ibuf.reads, 0) << at;
        EXPECT_GT(q.dram_read_accesses, 0) << at;
        // Compute layers are tiled by the node model; the others run as streams.
        EXPECT_EQ(l.part.tiled, n.layer(i).is_compute()) << at;
        if (l.part.tiled) {
            EXPECT_GE(l.part.nodes, 1) << at;
            EXPECT_LE(l.part.nodes, 16) << at;
        }
        sharing += q.sharing_flit_hops;
    }
    EXPECT_GT(sharing, 0) << "a 4 x 4 uniform mapping shares data";
}

// On one node the layer is one part-layer: its counts, cycles and tiling are the node
// model's for that part-layer.
TEST(LayerCounts, OneNodeHasTheNodeModelsCountsAndTiling) {
    const Network n = io::parse_network(R"(
network: one
input: {channels: 16, height: 14, width: 14}
layers:
  - {name: c, type: conv, out_channels: 32, kernel: 3, padding: 1}
)",
                                        "one.yaml");
    const Segmentation s = workload::decompose(n);
    const System sys = testing::library_system("nicepim_4x4.yaml");
    const NetworkMapping m = uniform_mapping(n, s, 1, 1);
    const NetworkCost c = evaluate(n, s, m, sys);
    ASSERT_EQ(c.status, EvalStatus::ok) << c.reason;
    const LayerCost& l = c.layers[0];
    std::array<Range, kPartDims> whole{};
    for (PartDim dim : kAllPartDims) whole[index_of(dim)] = {0, loop_bound(n.layer(0), dim)};
    AnalyticIntraNodeMapper mapper;
    const IntraNodeCost node =
        mapper.map(part_layer_of(n.layer(0), whole, sys), sys.node, m.layers[0].dl_in, m.layers[0].dl_out);
    EXPECT_EQ(l.compute, node.total_cycles);
    EXPECT_EQ(l.part, (PartTiling{true, node.tiling, node.dataflow, 1}));
    EXPECT_EQ(l.counts.ibuf, node.ibuf);
    EXPECT_EQ(l.counts.wbuf, node.wbuf);
    EXPECT_EQ(l.counts.obuf, node.obuf);
    EXPECT_EQ(l.counts.register_bits, node.register_bits);
    EXPECT_EQ(l.counts.dram_activations, node.dram.activations());
    std::int64_t reads = 0;
    std::int64_t writes = 0;
    for (const TensorTraffic& t : node.dram.tensor) reads += t.read_accesses, writes += t.write_accesses;
    EXPECT_EQ(l.counts.dram_read_accesses, reads);
    EXPECT_EQ(l.counts.dram_write_accesses, writes);
    EXPECT_GT(writes, 0) << "the outputs go back to DRAM";
    EXPECT_EQ(l.counts.sharing_flit_hops + l.counts.redistribution_flit_hops, 0) << "one node moves nothing";
}

}  // namespace
}  // namespace pimdse::sim
