// The node MIP (nodemip/node_mip.hpp) per part-layer: small part-layers on a node whose
// buffers bind (4 x 2 PEs, 1 KiB buffers, 512 B for weights, a 256-bit port) with the 4 x 4
// system's energy coefficients, each objective. Counters: MIP solves, programs, the largest
// program's columns and rows (cuts included), proven (1 optimal, 0 work limit), the gap,
// and the time of sim::exact_search on the same part-layer for comparison.
// BM_NodeMipReal solves the part-layers `pimdse map` meets: node (0, 0)'s share of every
// compute layer of ResNet-18, VGG-16 and MobileNetV2 under the uniform mapping on the NicePIM
// 4 x 4 and 16 x 16 systems (their own nodes and energies), each distinct part-layer once;
// it runs only with PIMDSE_BENCH_NODE_MIP_REAL set (a part-layer may take more than 5 CPU minutes).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/nodemip/node_mip.hpp"
#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

namespace {

using namespace pimdse;
using namespace pimdse::sim;

struct Named {
    const char* name;
    PartLayer layer;
};

PartLayer depthwise(std::int64_t K, std::int64_t P, std::int64_t R) {
    PartLayer l = PartLayer::convolution(K, 1, P, P, R);
    l.depthwise = true;
    return l;
}

const std::array<Named, 8> kLayers{{
    {"conv3x3_K8_C4_P4", PartLayer::convolution(8, 4, 4, 4, 3)},
    {"conv3x3_K6_C3_P5x3_B2", PartLayer::convolution(6, 3, 5, 3, 1, 1, 2)},
    {"conv1x1_K12_C8_P2", PartLayer::convolution(12, 8, 2, 2, 1)},
    {"conv3x3s2_K4_C6_P3", PartLayer::convolution(4, 6, 3, 3, 3, 2)},
    {"fc_K10_C16_B4", PartLayer::convolution(10, 16, 1, 1, 1, 1, 4)},
    {"dw3x3_K8_P4", depthwise(8, 4, 3)},
    {"conv3x3_K16_C8_P6", PartLayer::convolution(16, 8, 6, 6, 3)},
    {"fc_K16_C24_B2", PartLayer::convolution(16, 24, 1, 1, 1, 1, 2)},
}};

NodeSpec small_node() {
    NodeSpec n = NodeSpec::with_banks(4, 2, 1, 2);
    n.wbuf = Bytes(512);
    return n;
}

const IntraNodeEnergyCoefficients& coefficients() {
    static const IntraNodeEnergyCoefficients k = [] {
        const io::HardwareFile h =
            io::read_hardware_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/nicepim_4x4.yaml");
        return make_system(h.constraints, h.params, h.technology).energy;
    }();
    return k;
}

void BM_NodeMip(benchmark::State& state) {
    const Named& l = kLayers[static_cast<std::size_t>(state.range(0))];
    const auto objective = static_cast<NodeObjective>(state.range(1));
    const NodeSpec n = small_node();
    const DataLayout in{LayoutOrder::bchw, 1};
    const DataLayout out{LayoutOrder::bhwc, 1};
    nodemip::MipNodeResult r;
    for (auto _ : state) {
        // The work limit `pimdse map` gives the exact node model by default (model.exact.work_limit).
        r = nodemip::mip_search(l.layer, n, in, out, coefficients(), {objective, kDefaultNodeWorkLimit});
        benchmark::DoNotOptimize(r);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const ExactNodeResult e =
        exact_search(l.layer, n, in, out, coefficients(), {objective, kDefaultNodeWorkLimit});
    const double exact_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    state.SetLabel(std::string(l.name) + " " + std::string(to_string(objective)) + " " +
                   to_string(r.cost.tiling) + (r.objective == e.objective ? " equal" : " DIFFERENT"));
    state.counters["solves"] = static_cast<double>(r.solves);
    state.counters["programs"] = static_cast<double>(r.programs);
    state.counters["columns"] = static_cast<double>(r.max_columns);
    state.counters["rows"] = static_cast<double>(r.max_rows);
    state.counters["proven"] = r.status == ExactStatus::optimal ? 1.0 : 0.0;
    state.counters["gap"] = r.gap;
    state.counters["exact_ms"] = exact_ms;
}
BENCHMARK(BM_NodeMip)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

struct RealCase {
    std::string name;
    PartLayer layer;
    const System* system;
    DataLayout in, out;
};

const System& system_of(const std::string& hardware) {
    static const std::array<System, 2> k = [] {
        const std::string dir = std::string(PIMDSE_SOURCE_DIR) + "/inputs/hardware/";
        const io::HardwareFile a = io::read_hardware_file(dir + "nicepim_4x4.yaml");
        const io::HardwareFile b = io::read_hardware_file(dir + "nicepim_16x16.yaml");
        return std::array<System, 2>{make_system(a.constraints, a.params, a.technology),
                                     make_system(b.constraints, b.params, b.technology)};
    }();
    return hardware == "4x4" ? k[0] : k[1];
}

const std::vector<RealCase>& real_cases() {
    static const std::vector<RealCase> k = [] {
        std::vector<RealCase> cases;
        for (const char* hardware : {"4x4", "16x16"}) {
            const System& sys = system_of(hardware);
            for (const char* net : {"resnet18", "vgg16", "mobilenet_v2"}) {
                const workload::Network n = io::read_network_file(std::string(PIMDSE_SOURCE_DIR) +
                                                                  "/inputs/networks/" + net + ".yaml");
                for (const workload::Layer& l : n.layers()) {
                    if (!l.is_compute()) continue;
                    const auto m = uniform_layer_mapping(l, sys.node_rows(), sys.node_cols());
                    if (!m) continue;
                    const PartLayer p = part_layer_of(l, part_ranges(l, *m, 0, 0), sys);
                    bool seen = false;
                    for (const RealCase& c : cases) seen = seen || (c.layer == p && c.system == &sys);
                    if (!seen)
                        cases.push_back(
                            {std::string(hardware) + " " + net + " " + l.name, p, &sys, m->dl_in, m->dl_out});
                }
            }
        }
        return cases;
    }();
    return k;
}

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

// One run solves every distinct part-layer for one objective; the counters are the
// distribution of the per-part-layer CPU time, the share proven optimal and the largest
// program. Per part-layer lines go to stderr with PIMDSE_BENCH_VERBOSE set.
void BM_NodeMipReal(benchmark::State& state) {
    if (std::getenv("PIMDSE_BENCH_NODE_MIP_REAL") == nullptr) {
        state.SkipWithError(
            "set PIMDSE_BENCH_NODE_MIP_REAL=1: a 1x1 part-layer alone takes more than 5 CPU minutes");
        return;
    }
    const auto objective = static_cast<NodeObjective>(state.range(0));
    const bool verbose = std::getenv("PIMDSE_BENCH_VERBOSE") != nullptr;
    std::vector<double> seconds;
    double proven = 0, columns = 0, rows = 0, solves = 0;
    for (auto _ : state) {
        for (const RealCase& c : real_cases()) {
            if (verbose)
                std::fprintf(stderr, "%s: K %lld C %lld P %lld Q %lld R %lld B %lld ... ", c.name.c_str(),
                             static_cast<long long>(c.layer.K), static_cast<long long>(c.layer.C),
                             static_cast<long long>(c.layer.P), static_cast<long long>(c.layer.Q),
                             static_cast<long long>(c.layer.R), static_cast<long long>(c.layer.B));
            const std::clock_t t0 = std::clock();
            const nodemip::MipNodeResult r = nodemip::mip_search(
                c.layer, c.system->node, c.in, c.out, c.system->energy, {objective, kDefaultNodeWorkLimit});
            const double s = static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC;
            seconds.push_back(s);
            proven += r.status == ExactStatus::optimal ? 1 : 0;
            columns = std::max(columns, static_cast<double>(r.max_columns));
            rows = std::max(rows, static_cast<double>(r.max_rows));
            solves += static_cast<double>(r.solves);
            if (verbose)
                std::fprintf(stderr, "%s: %.3f s CPU, %lld solves, %s\n",
                             std::string(to_string(objective)).c_str(), s, static_cast<long long>(r.solves),
                             r.status == ExactStatus::optimal ? "optimal" : "work_limit");
        }
    }
    const auto n = static_cast<double>(seconds.size());
    state.SetLabel(std::string(to_string(objective)));
    state.counters["part_layers"] = n;
    state.counters["median_s"] = quantile(seconds, 0.5);
    state.counters["p95_s"] = quantile(seconds, 0.95);
    state.counters["max_s"] = quantile(seconds, 1.0);
    state.counters["proven"] = proven / n;
    state.counters["solves"] = solves / n;
    state.counters["columns"] = columns;
    state.counters["rows"] = rows;
}
BENCHMARK(BM_NodeMipReal)->DenseRange(0, 2)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
