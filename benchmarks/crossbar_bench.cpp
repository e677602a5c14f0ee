// The crossbar family costs a whole network per candidate, and Gibbon's search evaluates
// thousands of candidates: costing ResNet-18 and VGG-16 on crossbars must stay far below a
// millisecond. Each crossbar size of Gibbon's space is measured, pipelined under a tile
// budget (the replication loop included) and in sequence.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/crossbar_cost.hpp"

namespace {

using namespace pimdse;

workload::Network library_network(const std::string& name) {
    const std::string path = std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/" + name + ".yaml";
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return io::parse_network(s.str(), name);
}

void BM_CostNetworkOnCrossbars(benchmark::State& state, const std::string& name,
                               sim::CrossbarSchedule schedule) {
    const workload::Network net = library_network(name);
    sim::CrossbarConfig config;
    config.size = static_cast<int>(state.range(0));
    sim::CrossbarNetworkOptions options;
    options.schedule = schedule;
    const sim::CrossbarTechnology& tech = sim::crossbar_technology("mnsim2");
    // Twice the tiles the network needs unreplicated: the replication loop runs in full.
    options.tile_budget = 2 * sim::cost_network_on_crossbars(net, config, tech).tiles;
    std::int64_t tiles = 0;
    for (auto _ : state) {
        const sim::CrossbarNetworkCost c = sim::cost_network_on_crossbars(net, config, tech, options);
        tiles = c.tiles;
        benchmark::DoNotOptimize(c.latency_ns);
    }
    state.counters["tiles"] = static_cast<double>(tiles);
    state.counters["layers"] = static_cast<double>(net.size());
}

BENCHMARK_CAPTURE(BM_CostNetworkOnCrossbars, resnet18_pipelined, std::string("resnet18"),
                  sim::CrossbarSchedule::pipelined)
    ->Arg(32)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256);
BENCHMARK_CAPTURE(BM_CostNetworkOnCrossbars, vgg16_pipelined, std::string("vgg16"),
                  sim::CrossbarSchedule::pipelined)
    ->Arg(128)
    ->Arg(256);
BENCHMARK_CAPTURE(BM_CostNetworkOnCrossbars, resnet18_sequential, std::string("resnet18"),
                  sim::CrossbarSchedule::sequential)
    ->Arg(128);

}  // namespace
