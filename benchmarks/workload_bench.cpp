// Every sweep reads its workload files once per rank and decomposes each network into
// segments (NicePIM III-B) before mapping; both must stay negligible next to an evaluation.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "pimdse/io/network_file.hpp"
#include "pimdse/workload/segments.hpp"

namespace {

std::string library_text(const std::string& name) {
    const std::string path = std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/" + name + ".yaml";
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void BM_ParseNetwork(benchmark::State& state, const std::string& name) {
    const std::string text = library_text(name);
    std::int64_t layers = 0;
    for (auto _ : state) {
        const auto net = pimdse::io::parse_network(text, name);
        layers = net.size();
        benchmark::DoNotOptimize(layers);
    }
    state.counters["layers"] = static_cast<double>(layers);
    state.SetItemsProcessed(state.iterations() * layers);
}

void BM_DecomposeNetwork(benchmark::State& state, const std::string& name) {
    const auto net = pimdse::io::parse_network(library_text(name), name);
    for (auto _ : state) {
        auto seg = pimdse::workload::decompose(net);
        benchmark::DoNotOptimize(seg.segments.data());
    }
    state.counters["layers"] = static_cast<double>(net.size());
    state.SetItemsProcessed(state.iterations() * net.size());
}

BENCHMARK_CAPTURE(BM_ParseNetwork, resnet152, std::string("resnet152"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ParseNetwork, bert_base, std::string("bert_base"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DecomposeNetwork, resnet152, std::string("resnet152"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_DecomposeNetwork, bert_base, std::string("bert_base"))->Unit(benchmark::kMicrosecond);

}  // namespace
