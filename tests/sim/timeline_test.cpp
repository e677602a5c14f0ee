#include "pimdse/sim/timeline.hpp"
#include "pimdse/core/error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapping_file.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

#include "../library_systems.hpp"

namespace pimdse::sim {
namespace {

using workload::Network;
using workload::Segmentation;

System system_of(int rows, int cols, int pe, int buffer_kib, hw::Constraints c = {}) {
    hw::HardwareParams p;
    p.node_rows = rows;
    p.node_cols = cols;
    p.pe_rows = p.pe_cols = pe;
    p.ibuf_kib = p.wbuf_kib = p.obuf_kib = buffer_kib;
    return make_system(c, p, hw::Technology{});
}

Network library(const std::string& name) {
    return io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/" + name + ".yaml");
}

LayerMapping lm(std::initializer_list<std::pair<PartDim, Partition>> parts, std::int32_t wr = 1) {
    LayerMapping m;
    for (const auto& [d, p] : parts) m.part(d) = p;
    m.wr = wr;
    return m;
}

NetworkCost evaluate(const Network& n, const Segmentation& s, const NetworkMapping& m, const System& sys) {
    AnalyticIntraNodeMapper mapper;
    SnakeRingScheduler scheduler;
    return evaluate_mapping(n, s, m, sys, mapper, scheduler);
}

// Two 1x1 convolutions in a chain on 8 x 32 x 32 inputs.
const char* const kChain = R"(
network: chain
input: {channels: 8, height: 32, width: 32}
layers:
  - {name: c1, type: conv, out_channels: 32, kernel: 1}
  - {name: c2, type: conv, out_channels: 8, kernel: 1}
)";

NetworkMapping single_region(const Network& n, const Segmentation& s, int rows, int cols,
                             std::vector<LayerMapping> layers) {
    NetworkMapping m;
    for (std::size_t i = 0; i < s.segments.size(); ++i)
        m.segments.push_back({{Region{0, 0, rows, cols}}, {0}});
    m.layers = std::move(layers);
    EXPECT_FALSE(check_mapping(n, s, m, rows, cols).has_value());
    return m;
}

TEST(MakeSystem, DerivesEverythingFromTheTables) {
    const System s = testing::library_system("nicepim_16x16.yaml");
    const hw::Technology t;
    EXPECT_EQ(s.mesh.rows(), 16);
    EXPECT_EQ(s.node.pe_rows, 8);
    EXPECT_EQ(s.node.ibuf, kibibytes(8));
    EXPECT_EQ(s.node.dram_port_bits, 128);  // one bank per node
    EXPECT_EQ(s.node.row_buffer, Bytes(1024));
    // HBM timing at 400 MHz (2.5 ns per cycle): tCCD_L 6 ns, tRP = tRCD 14 ns, tRAS 34 ns;
    // refresh takes 260 ns of every 3900 ns.
    EXPECT_DOUBLE_EQ(s.node.access_cycles, 2.4);
    EXPECT_DOUBLE_EQ(s.node.precharge_cycles, 5.6);
    EXPECT_DOUBLE_EQ(s.node.activate_cycles, 5.6);
    EXPECT_DOUBLE_EQ(s.node.ras_cycles, 13.6);
    EXPECT_DOUBLE_EQ(s.node.read_precharge_cycles, 5.6);
    EXPECT_DOUBLE_EQ(s.node.write_precharge_cycles, 11.2);
    EXPECT_DOUBLE_EQ(s.node.write_read_cycles, 8.0);
    EXPECT_DOUBLE_EQ(s.node.read_write_cycles, 5.6);
    EXPECT_DOUBLE_EQ(s.node.refresh_factor, 3900.0 / 3640.0);
    EXPECT_NEAR(s.node.refresh_interval_cycles, 1560.0, 1e-9);  // tREFI 3.9 us
    // 256 banks x (3.225 + 1.035) mW x 2.5 ns = 2726.4 pJ per cycle.
    EXPECT_NEAR(s.dram_background_pj_per_cycle, 256 * 4.26 * 2.5, 1e-9);
    EXPECT_DOUBLE_EQ(s.energy.pj_per_register_bit, t.register_energy_per_bit.value());
    EXPECT_EQ(s.noc.flit_bits, 64);
    EXPECT_EQ(s.noc.hop_cycles, 2);
    EXPECT_EQ(s.dram_capacity, mebibytes(8));
    EXPECT_DOUBLE_EQ(s.energy.pj_per_mac, t.mac_energy.value());
    EXPECT_DOUBLE_EQ(s.energy.pj_per_ibuf_access, 16 * t.sram_read_energy_per_bit(8).value());
    EXPECT_DOUBLE_EQ(s.energy.pj_per_obuf_access, 32 * t.sram_read_energy_per_bit(8).value());
    EXPECT_DOUBLE_EQ(s.energy.pj_per_row_activation, t.dram_activation_energy.value());
    EXPECT_DOUBLE_EQ(s.noc.pj_per_bit_hop, 1.1);
}

TEST(Timeline, SingleConvOnKPartitionComputesAtFullRate) {
    const Network n = io::parse_network(R"(
network: one
input: {channels: 8, height: 32, width: 32}
layers:
  - {name: c1, type: conv, out_channels: 32, kernel: 1}
)",
                                        "one.yaml");
    const Segmentation s = workload::decompose(n);
    const System sys = system_of(2, 2, 8, 64);
    const NetworkMapping m = single_region(n, s, 2, 2, {lm({{PartDim::k, {2, 2}}})});
    const NetworkCost c = evaluate(n, s, m, sys);
    ASSERT_EQ(c.status, EvalStatus::ok) << c.reason;
    const LayerCost& l = c.layers[0];
    // 32 x 8 x 32 x 32 MACs on 4 nodes of 8 x 8 PEs: 1024 cycles, every PE busy.
    EXPECT_EQ(l.compute, Cycles(32.0 * 8 * 32 * 32 / (8 * 8 * 4)));
    EXPECT_DOUBLE_EQ(l.pe_utilisation, 1.0);
    EXPECT_EQ(l.redistribution, Cycles(0));  // the network input is in place
    // Only the inputs are shared: the four K parts gather the 8 x 32 x 32 input.
    const std::vector<SharingEvent> events =
        sharing_events(n.layer(0), m.layers[0], Region{0, 0, 2, 2}, sys.mesh, 16, 32);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, SharingKind::inputs);
    SnakeRingScheduler sched;
    const ShareCost share = share_along_cycles(sys.mesh, sched.schedule(sys.mesh, events[0].sets), sys.noc);
    EXPECT_GT(share.latency, Cycles(0));
    EXPECT_EQ(l.sharing, share.latency);
    EXPECT_EQ(l.latency, l.sharing + l.compute);
    EXPECT_EQ(c.latency, l.latency);
    EXPECT_DOUBLE_EQ(c.seconds, c.latency.value() / 400e6);
    EXPECT_DOUBLE_EQ(c.energy.noc.value(), share.energy.value());
    EXPECT_DOUBLE_EQ(c.energy.pe.value(), 32.0 * 8 * 32 * 32 * sys.energy.pj_per_mac);
}

TEST(Timeline, IdenticalPartitionsNeedNoRedistribution) {
    const Network n = io::parse_network(kChain, "chain.yaml");
    const Segmentation s = workload::decompose(n);
    const System sys = system_of(2, 2, 8, 64);
    // P and Q split alike, full replication: every node consumes what it produced.
    const LayerMapping part = lm({{PartDim::p, {2, 1}}, {PartDim::q, {1, 2}}}, 4);
    const NetworkCost c = evaluate(n, s, single_region(n, s, 2, 2, {part, part}), sys);
    ASSERT_EQ(c.status, EvalStatus::ok) << c.reason;
    EXPECT_EQ(c.layers[1].redistribution, Cycles(0));
    EXPECT_EQ(c.layers[1].sharing, Cycles(0));
    EXPECT_DOUBLE_EQ(c.energy.noc.value(), 0.0);

    // A K-split producer before a P/Q-split consumer: every node needs all 32 channels of
    // its pixels, three quarters of them from the other nodes.
    const NetworkCost k =
        evaluate(n, s, single_region(n, s, 2, 2, {lm({{PartDim::k, {2, 2}}}, 1), part}), sys);
    EXPECT_GT(k.layers[1].redistribution, Cycles(0));
}

TEST(Timeline, WeightReplicationTradesSharingForCapacity) {
    const Network n = io::parse_network(kChain, "chain.yaml");
    const Segmentation s = workload::decompose(n);
    const System sys = system_of(2, 2, 8, 64);
    const LayerMapping full = lm({{PartDim::p, {2, 2}}}, 4);
    const LayerMapping one = lm({{PartDim::p, {2, 2}}}, 1);
    const NetworkCost a = evaluate(n, s, single_region(n, s, 2, 2, {full, full}), sys);
    const NetworkCost b = evaluate(n, s, single_region(n, s, 2, 2, {one, full}), sys);
    EXPECT_EQ(a.layers[0].sharing, Cycles(0));
    EXPECT_GT(b.layers[0].sharing, Cycles(0));
    EXPECT_LT(stored_weights_per_node(n.layer(0), one), stored_weights_per_node(n.layer(0), full));
    EXPECT_GT(b.latency, a.latency);
}

TEST(Timeline, BranchesOnTwoRegionsOverlapOnOneRegionAdd) {
    const std::string dir = std::string(PIMDSE_SOURCE_DIR) + "/tests/data/mapping/";
    const Network n = io::read_network_file(dir + "tiny.yaml");
    const Segmentation s = workload::decompose(n);
    const System sys = system_of(2, 4, 8, 64);
    const mapper::MappingTarget target{&n, &s, 2, 4};
    const NetworkMapping two = mapper::read_mapping_file(dir + "tiny_2x4.yaml", target);
    const NetworkCost c2 = evaluate(n, s, two, sys);
    ASSERT_EQ(c2.status, EvalStatus::ok) << c2.reason;
    const auto l = static_cast<std::size_t>(*n.find("l"));
    const auto r = static_cast<std::size_t>(*n.find("r"));
    EXPECT_EQ(c2.segments[1], std::max(c2.layers[l].latency, c2.layers[r].latency));

    NetworkMapping one = two;
    one.segments[1] = {{Region{0, 0, 2, 4}}, {0, 0}};
    one.layers[l] = lm({{PartDim::k, {2, 4}}});
    one.layers[r] = lm({{PartDim::k, {2, 4}}});
    one.layers[l].dl_in = one.layers[r].dl_in = two.layers[l].dl_in;
    one.layers[l].dl_out = one.layers[r].dl_out = two.layers[l].dl_out;
    const NetworkCost c1 = evaluate(n, s, one, sys);
    ASSERT_EQ(c1.status, EvalStatus::ok) << c1.reason;
    EXPECT_EQ(c1.segments[1], c1.layers[l].latency + c1.layers[r].latency);
    Cycles sum{0};
    for (Cycles t : c1.segments) sum += t;
    EXPECT_EQ(c1.latency, sum);
}

TEST(Timeline, WeightsBeyondTheDramAreInfeasible) {
    const Network n = io::parse_network(kChain, "chain.yaml");
    const Segmentation s = workload::decompose(n);
    hw::Constraints small;
    small.bank_capacity = Bytes(4);  // 64 banks per node: 256 bytes of DRAM, c1 alone stores 512
    const System sys = system_of(2, 2, 8, 64, small);
    const LayerMapping full = lm({{PartDim::p, {2, 2}}}, 4);
    const NetworkCost c = evaluate(n, s, single_region(n, s, 2, 2, {full, full}), sys);
    EXPECT_EQ(c.status, EvalStatus::infeasible);
    EXPECT_NE(c.reason.find("node (0, 0) stores 1024 bytes"), std::string::npos) << c.reason;
    EXPECT_NE(c.reason.find("256 bytes"), std::string::npos) << c.reason;
}

TEST(Timeline, PartLayerThatFitsNoBufferIsAStatus) {
    const Network n = io::parse_network(R"(
network: big
input: {channels: 64, height: 8, width: 8}
layers:
  - {name: c, type: conv, out_channels: 64, kernel: 23, padding: 11}
)",
                                        "big.yaml");
    const Segmentation s = workload::decompose(n);
    // One 23 x 23 kernel is 1058 bytes: two of them never fit a 1 KiB weight buffer.
    const System sys = system_of(2, 2, 8, 1);
    const NetworkCost c = evaluate(n, s, uniform_mapping(n, s, 2, 2), sys);
    ASSERT_EQ(c.status, EvalStatus::infeasible);
    EXPECT_NE(c.reason.find("layer 'c'"), std::string::npos) << c.reason;
    EXPECT_EQ(c.layers[0].status, EvalStatus::infeasible);
}

TEST(Timeline, EnergyBreakdownSumsToTheTotal) {
    const Network n = library("resnet18");
    const Segmentation s = workload::decompose(n);
    const System sys = testing::library_system("nicepim_4x4.yaml");
    const NetworkCost c = evaluate(n, s, uniform_mapping(n, s, 4, 4), sys);
    ASSERT_EQ(c.status, EvalStatus::ok) << c.reason;
    EnergyBreakdown sum;
    for (const LayerCost& l : c.layers) {
        sum += l.energy;
        EXPECT_EQ(l.latency, l.redistribution + l.sharing + l.compute);
        EXPECT_GE(l.pe_utilisation, 0.0);
        EXPECT_LE(l.pe_utilisation, 1.0 + 1e-12);
    }
    const double total = c.energy.total().value();
    // The layers hold everything but the background, which is charged over the whole run.
    EXPECT_NEAR(sum.total().value() + c.energy.dram_background.value(), total, 1e-9 * total);
    EXPECT_NEAR(c.energy.pe.value() + c.energy.registers.value() + c.energy.sram.value() +
                    c.energy.dram_access.value() + c.energy.dram_activation.value() +
                    c.energy.dram_background.value() + c.energy.noc.value(),
                total, 1e-9 * total);
    EXPECT_GT(c.energy.pe.value(), 0);
    EXPECT_GT(c.energy.registers.value(), 0);
    EXPECT_GT(c.energy.sram.value(), 0);
    EXPECT_GT(c.energy.dram_background.value(), 0);
    EXPECT_GT(c.energy.dram().value(), 0);
    EXPECT_GT(c.energy.noc.value(), 0);
    EXPECT_GT(c.pe_utilisation, 0.0);
    EXPECT_LE(c.pe_utilisation, 1.0);
}

TEST(Timeline, AuxiliaryLayersStreamThroughDram) {
    const Network n = io::parse_network(R"(
network: residual
input: {channels: 8, height: 32, width: 32}
layers:
  - {name: c1, type: conv, out_channels: 8, kernel: 1}
  - {name: sum, type: add, inputs: [input, c1]}
)",
                                        "residual.yaml");
    const Segmentation s = workload::decompose(n);
    // One node owns all 256 banks: a 4 KiB port, a 256 KiB row buffer.
    const System sys = system_of(1, 1, 8, 64);
    const NetworkCost c = evaluate(n, s, uniform_mapping(n, s, 1, 1), sys);
    ASSERT_EQ(c.status, EvalStatus::ok) << c.reason;
    const LayerCost& add = c.layers[1];
    // 8192 outputs, one addition each, 64 PEs: 128 cycles; the DRAM side is 32 KiB read and
    // 16 KiB written = 12 accesses and 2 activations, one of them written: (2 x 5.6 + max(2 x
    // 13.6, 2 x 5.6 + 10 x 2.4 + 5.6 (tRTP) + 11.2 (write recovery))) x 3900 / 3640 = 67.54
    // cycles and 0.44 for the refreshes inside open rows, under the 128 of the additions.
    EXPECT_EQ(add.compute, Cycles(128));
    EXPECT_NEAR(dram_cycles(sys.node, 12, 2, 1).value(),
                (11.2 + 52.0) * 3900.0 / 3640.0 + refresh_interruptions(sys.node, 12, 2), 1e-9);
    EXPECT_EQ(add.redistribution, Cycles(0));  // one node: everything is local
    EXPECT_DOUBLE_EQ(add.energy.pe.value(), 8192 * sys.energy.pj_per_mac);
    EXPECT_DOUBLE_EQ(add.energy.dram_access.value(), 12.0 * 32768 * sys.energy.pj_per_dram_bit);
    EXPECT_DOUBLE_EQ(add.energy.dram_activation.value(), 2 * sys.energy.pj_per_row_activation);
    EXPECT_DOUBLE_EQ(add.energy.dram_background.value(), 0.0);  // a network total only
    EXPECT_NEAR(c.energy.dram_background.value(), sys.dram_background_pj_per_cycle * c.latency.value(),
                1e-9 * c.energy.dram_background.value());
    EXPECT_DOUBLE_EQ(add.energy.sram.value(), 2.0 * 16384 * sys.energy.pj_per_ibuf_access +
                                                  2.0 * 8192 * sys.energy.pj_per_obuf_access);
    EXPECT_DOUBLE_EQ(add.pe_utilisation, 0.0);
}

TEST(IntraNodeEnergySplit, SumsToIntraNodeEnergy) {
    PartLayer p;
    p.K = p.C = 32;
    p.P = p.Q = 14;
    p.R = p.S = 3;
    p.H = p.W = 16;
    const System sys = system_of(4, 4, 16, 32);
    const IntraNodeCost c = AnalyticIntraNodeMapper::search(p, sys.node, {}, {});
    ASSERT_EQ(c.status, MapStatus::ok);
    const IntraNodeEnergy e = intra_node_energy_split(c, p.macs(), sys.energy);
    const double total = intra_node_energy(c, p.macs(), sys.energy).value();
    EXPECT_NEAR(e.total().value(), total, 1e-9 * total);
    EXPECT_GT(e.sram.value(), 0);
    EXPECT_GT(e.registers.value(), 0);
    EXPECT_GT(e.dram_access.value(), 0);
    EXPECT_GT(e.dram_activation.value(), 0);
}

TEST(UniformMapping, LegalOnEveryLibraryNetworkAndArray) {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks")) {
        if (!entry.is_regular_file()) continue;  // inputs/networks/cifar10/ is read file by file
        const Network n = io::read_network_file(entry.path());
        const Segmentation s = workload::decompose(n);
        for (const auto& [rows, cols] : {std::pair{4, 4}, std::pair{16, 16}, std::pair{4, 8}}) {
            const NetworkMapping m = uniform_mapping(n, s, rows, cols);
            const std::optional<MappingIssue> issue = check_mapping(n, s, m, rows, cols);
            EXPECT_FALSE(issue.has_value())
                << n.name() << " on " << rows << "x" << cols << ": " << issue->message;
            for (std::size_t i = 0; i < m.layers.size(); ++i) {
                const LayerMapping& l = m.layers[i];
                if (n.layers()[i].has_weights()) {
                    EXPECT_EQ(l.wr, nodes_sharing_weights(l));
                }
                EXPECT_EQ(l.dl_in, DataLayout{});
                EXPECT_EQ(l.dl_out, DataLayout{});
            }
        }
    }
}

TEST(UniformMapping, FallsBackWhenALayerCannotFillTheArray) {
    // A 1 x 1 x 8 matmul at batch 1 has K = 3: three parts at most, not 16.
    const Network n = io::parse_network(R"(
network: small
input: {channels: 8, height: 1, width: 1}
layers:
  - {name: fc, type: matmul, out_features: 3}
)",
                                        "small.yaml");
    const Segmentation s = workload::decompose(n);
    const NetworkMapping m = uniform_mapping(n, s, 4, 4);
    EXPECT_FALSE(check_mapping(n, s, m, 4, 4).has_value());
    // C = 8 and K = 3 hold at most 24 parts: 4 x 4 fits (K 2, C 8), so no fallback is needed.
    EXPECT_EQ(m.segments[0].regions[0].nodes(), 16);
    const NetworkMapping big = uniform_mapping(n, s, 16, 16);
    EXPECT_FALSE(check_mapping(n, s, big, 16, 16).has_value());
    EXPECT_LE(big.segments[0].regions[0].nodes(), 24);
}

TEST(Timeline, DeterministicAndEveryLibraryNetworkEvaluates) {
    const System sys = testing::library_system("nicepim_4x4.yaml");
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks")) {
        if (!entry.is_regular_file()) continue;  // inputs/networks/cifar10/ is read file by file
        const Network n = io::read_network_file(entry.path());
        const Segmentation s = workload::decompose(n);
        const NetworkMapping m = uniform_mapping(n, s, 4, 4);
        const NetworkCost a = evaluate(n, s, m, sys);
        const NetworkCost b = evaluate(n, s, m, sys);
        EXPECT_EQ(a, b) << n.name();
        EXPECT_GT(a.latency, Cycles(0)) << n.name();
        EXPECT_TRUE(std::isfinite(a.energy.total().value())) << n.name();
    }
}

TEST(Timeline, RejectsAnIllegalMapping) {
    const Network n = io::parse_network(kChain, "chain.yaml");
    const Segmentation s = workload::decompose(n);
    NetworkMapping m = uniform_mapping(n, s, 2, 2);
    m.layers[0].part(PartDim::k) = {4, 4};
    EXPECT_THROW((void)evaluate(n, s, m, system_of(2, 2, 8, 64)), pimdse::ModelError);
}

}  // namespace
}  // namespace pimdse::sim
