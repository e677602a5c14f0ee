// DL alternation (NicePIM VI, Algorithm 1's second step; Mapper::optimise_layouts): with the
// LMs fixed, one layout per tensor, chosen by coordinate descent over the tensors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "mapper_fixtures.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper {
namespace {

using testing::kTwoBranch;
using testing::system_of;
using workload::LayerIndex;
using workload::Network;
using workload::Segmentation;

// Three convolutions in a chain: four tensors (the input and three outputs).
const char* const kChain = R"(
network: chain
input: {channels: 24, height: 12, width: 12}
layers:
  - {name: c1, type: conv, out_channels: 40, kernel: 3, padding: 1}
  - {name: c2, type: conv, inputs: c1, out_channels: 24, kernel: 1}
  - {name: c3, type: conv, inputs: c2, out_channels: 48, kernel: 3, padding: 1}
)";

using Score = std::pair<double, double>;

// The score optimise_layouts minimises, summed over the network: compute cycles, then DRAM
// access and activation energy.
Score score(const Network& n, const sim::NetworkMapping& m, const sim::System& sys,
            sim::IntraNodeMapper& intra) {
    Score total{0, 0};
    for (LayerIndex l = 0; l < n.size(); ++l) {
        const sim::LayerMapping& lm = m.layers[static_cast<std::size_t>(l)];
        const auto [rows, cols] = lm.shape();
        sim::LayerCost c;
        sim::add_compute_cost(n.layer(l), lm, rows, cols, sys, intra, c);
        total.first += c.compute.value();
        total.second += (c.energy.dram_access + c.energy.dram_activation).value();
    }
    return total;
}

// Every reader of a tensor reads it in the layout its producer wrote (the network input: one
// layout for all its readers).
void expect_consistent(const Network& n, const sim::NetworkMapping& m) {
    std::vector<const sim::DataLayout*> input_readers;
    for (LayerIndex l = 0; l < n.size(); ++l) {
        const sim::LayerMapping& lm = m.layers[static_cast<std::size_t>(l)];
        for (LayerIndex p : n.layer(l).inputs) {
            if (p == workload::kNetworkInput)
                input_readers.push_back(&lm.dl_in);
            else
                EXPECT_EQ(m.layers[static_cast<std::size_t>(p)].dl_out, lm.dl_in) << n.layer(l).name;
        }
    }
    for (const sim::DataLayout* d : input_readers) EXPECT_EQ(*d, *input_readers.front());
}

struct Case {
    Network net;
    Segmentation seg;
    sim::NetworkMapping mapping;
};

// The uniform mapping's LMs with every tensor in a deliberately mixed, inconsistent layout.
Case start(const char* yaml, const MapperOptions& o) {
    Network n = io::parse_network(yaml, "net.yaml");
    Segmentation s = workload::decompose(n);
    sim::NetworkMapping m = sim::uniform_mapping(n, s, 2, 2);
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        m.layers[l].dl_in = o.layouts[l % o.layouts.size()];
        m.layers[l].dl_out = o.layouts[(l + 1) % o.layouts.size()];
    }
    return {std::move(n), std::move(s), std::move(m)};
}

TEST(DlAlternation, OneLayoutPerTensorFromTheCandidates) {
    const sim::System sys = system_of(2, 2, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    const MapperOptions o;
    Mapper mapper(sys, o, intra, sched, sched);
    for (const char* yaml : {kChain, kTwoBranch}) {
        Case c = start(yaml, o);
        const sim::NetworkMapping before = c.mapping;
        mapper.optimise_layouts(c.net, c.seg, c.mapping);
        expect_consistent(c.net, c.mapping);
        for (std::size_t l = 0; l < c.mapping.layers.size(); ++l) {
            const sim::LayerMapping& m = c.mapping.layers[l];
            EXPECT_NE(std::find(o.layouts.begin(), o.layouts.end(), m.dl_in), o.layouts.end());
            EXPECT_NE(std::find(o.layouts.begin(), o.layouts.end(), m.dl_out), o.layouts.end());
            // Only layouts change: partitions, order and WR are the LMs' own.
            EXPECT_EQ(m.parts, before.layers[l].parts);
            EXPECT_EQ(m.order, before.layers[l].order);
            EXPECT_EQ(m.wr, before.layers[l].wr);
        }
    }
}

// At the descent's fixed point no single tensor's layout can be changed for a better score:
// try every candidate for every tensor (the producer's DL_o and all its readers' DL_i).
TEST(DlAlternation, NoSingleTensorChangeImprovesTheResult) {
    const sim::System sys = system_of(2, 2, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    const MapperOptions o;
    Mapper mapper(sys, o, intra, sched, sched);
    Case c = start(kChain, o);
    mapper.optimise_layouts(c.net, c.seg, c.mapping);
    sim::NetworkMapping again = c.mapping;
    mapper.optimise_layouts(c.net, c.seg, again);
    ASSERT_EQ(again.layers, c.mapping.layers);  // a fixed point
    const Score best = score(c.net, c.mapping, sys, intra);
    // Tensor t: the network input (t = -1) or layer t's output.
    for (LayerIndex t = workload::kNetworkInput; t < c.net.size(); ++t) {
        for (const sim::DataLayout& candidate : o.layouts) {
            sim::NetworkMapping m = c.mapping;
            if (t >= 0) m.layers[static_cast<std::size_t>(t)].dl_out = candidate;
            for (LayerIndex l = 0; l < c.net.size(); ++l)
                for (LayerIndex p : c.net.layer(l).inputs)
                    if (p == t) m.layers[static_cast<std::size_t>(l)].dl_in = candidate;
            EXPECT_GE(score(c.net, m, sys, intra), best) << "tensor " << t;
        }
    }
}

// With one candidate layout the descent has nothing to choose: every tensor takes it.
TEST(DlAlternation, SingleCandidateIsUsedEverywhere) {
    const sim::System sys = system_of(2, 2, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    MapperOptions o;
    o.layouts = {sim::DataLayout{sim::LayoutOrder::bhwc, 1}};
    Mapper mapper(sys, o, intra, sched, sched);
    Case c = start(kTwoBranch, o);
    mapper.optimise_layouts(c.net, c.seg, c.mapping);
    for (const sim::LayerMapping& m : c.mapping.layers) {
        EXPECT_EQ(m.dl_in, o.layouts.front());
        EXPECT_EQ(m.dl_out, o.layouts.front());
    }
}

// Algorithm 1 alternates LM selection and DL choice and returns the best round costed by the
// timeline, so more rounds are never slower than fewer.
TEST(DlAlternation, MoreRoundsAreNeverSlower) {
    const sim::System sys = system_of(2, 4, 8, 16);
    sim::AnalyticIntraNodeMapper intra;
    sim::SnakeRingScheduler sched;
    const Network n = io::parse_network(kTwoBranch, "two_branch.yaml");
    const Segmentation s = workload::decompose(n);
    double previous = 0;
    for (std::int32_t rounds : {1, 2, 3}) {
        MapperOptions o;
        o.max_optim_iter = rounds;
        Mapper mapper(sys, o, intra, sched, sched);
        const MapResult r = mapper.map(n, s);
        ASSERT_EQ(r.cost.status, sim::EvalStatus::ok);
        EXPECT_LE(r.rounds, rounds);
        expect_consistent(n, r.mapping);
        if (rounds > 1) {
            EXPECT_LE(r.cost.latency.value(), previous);
        }
        previous = r.cost.latency.value();
    }
}

}  // namespace
}  // namespace pimdse::mapper
