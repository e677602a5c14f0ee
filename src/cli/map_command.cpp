// `pimdse map --hardware H.yaml --network N.yaml [--mapper nicepim|baseline] [-o M.yaml]`:
// the PIM-Mapper (or NicePIM VIII-D's baseline) maps one network on one hardware point; the
// segment mappings and the per-layer table are printed, and the mapping is written in the
// format `pimdse evaluate --mapping` reads back to the same numbers (docs/cli.md).

#include <CLI/CLI.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "option_checks.hpp"
#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/mapping_file.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/workload/segments.hpp"
#include "report.hpp"

namespace pimdse::cli {

namespace {

struct MapOptions {
    std::string hardware;
    std::string network;
    std::string mapper = "nicepim";
    std::string baseline_lm = "compute-delay";
    std::string output;
    std::string csv;
    std::optional<std::int64_t> batch;
    int rounds = 3;
};

/// One row of the --csv table (docs/cli.md): the header is written when the file is new.
void append_csv_row(const MapOptions& o, const workload::Network& network, const mapper::MapResult& r,
                    double seconds) {
    const bool fresh = !std::filesystem::exists(o.csv) || std::filesystem::file_size(o.csv) == 0;
    std::ofstream out(o.csv, std::ios::app);
    if (!out) throw IoError(o.csv + ": cannot open for appending");
    if (fresh)
        out << "hardware,network,mapper,latency_cycles,seconds_at_clock,energy_pj,pe_pj,sram_pj,dram_pj,noc_"
               "pj,"
               "pe_utilisation,from_baseline,map_seconds\n";
    const sim::EnergyBreakdown& e = r.cost.energy;
    out << format("%s,%s,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.6f\n",
                  std::filesystem::path(o.hardware).stem().string().c_str(), network.name().c_str(),
                  o.mapper.c_str(), r.cost.latency.value(), r.cost.seconds, e.total().value(), e.pe.value(),
                  e.sram.value(), e.dram.value(), e.noc.value(), r.cost.pe_utilisation,
                  r.from_baseline ? 1 : 0, seconds);
    if (!out) throw IoError(o.csv + ": write failed");
}

int run_map(const MapOptions& o) {
    const io::HardwareFile h = io::read_hardware_file(o.hardware);
    io::NetworkReadOptions read;
    read.batch = o.batch;
    const workload::Network network = io::read_network_file(o.network, read);
    const workload::Segmentation seg = workload::decompose(network);
    const sim::System system = sim::make_system(h.constraints, h.params, h.technology);

    sim::AnalyticIntraNodeMapper intra;
    // The search costs sharing with the snake ring (it runs for every option); the returned
    // mapping is costed with the hardware file's `schedule:` section (default: the ILP), as
    // `pimdse evaluate` does, so the written mapping evaluates to the printed numbers.
    sim::SnakeRingScheduler search;
    const std::unique_ptr<sched::DataScheduler> final = sched::make_scheduler(h.schedule);
    mapper::MapperOptions options;
    options.max_optim_iter = o.rounds;
    options.baseline_lm = o.baseline_lm == "full-latency" ? mapper::BaselineLm::full_latency
                                                          : mapper::BaselineLm::compute_delay;
    mapper::Mapper m(system, options, intra, search, *final);
    const auto start = std::chrono::steady_clock::now();
    mapper::MapResult r;
    try {
        r = o.mapper == "baseline" ? m.baseline(network, seg) : m.map(network, seg);
    } catch (const mapper::Unmappable& e) {
        // An outcome, as in `evaluate` and sweeps: printed with exit code 0, no files written.
        std::cout << "network " << network.name() << " on " << system.node_rows() << 'x' << system.node_cols()
                  << " nodes: no mapping exists\n  status       infeasible: " << e.what() << '\n';
        if (!o.output.empty() || !o.csv.empty())
            std::cout << "  (nothing written to " << (o.output.empty() ? o.csv : o.output) << ")\n";
        return static_cast<int>(ExitCode::ok);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::cout << "segments of " << network.name() << " (" << seg.segments.size()
              << "): regions and branches\n";
    for (std::size_t s = 0; s < seg.segments.size(); ++s) {
        const sim::SegmentMapping& sm = r.mapping.segments[s];
        if (sm.regions.size() < 2 && seg.segments[s].branches.size() < 2) continue;
        std::cout << format("  segment %zu: %zu branches on %zu regions:", s, seg.segments[s].branches.size(),
                            sm.regions.size());
        for (std::size_t b = 0; b < sm.branch_region.size(); ++b)
            std::cout << ' ' << 'b' << b << "->"
                      << sim::to_string(sm.regions[static_cast<std::size_t>(sm.branch_region[b])]);
        std::cout << '\n';
    }
    std::cout << "  (single-branch segments run on the whole array and are not listed)\n\n";
    std::string label = o.mapper == "baseline" ? "baseline mapping (NicePIM VIII-D)" : "PIM-Mapper mapping";
    if (r.from_baseline && o.mapper != "baseline")
        label += " (the baseline's mapping was faster and is kept)";
    print_report(std::cout, h, network, seg, r.mapping, r.cost, system, label);
    const mapper::SearchStats& st = m.search().stats();
    std::cout << format(
        "  mapper       %s, %d round(s), %.3f s; LM searches %lld (memo hits %lld), count "
        "vectors %lld (pruned %lld), options costed %lld, sharing geometries %lld\n",
        o.mapper.c_str(), r.rounds, seconds, static_cast<long long>(st.searches),
        static_cast<long long>(st.memo_hits), static_cast<long long>(st.count_vectors),
        static_cast<long long>(st.pruned_vectors), static_cast<long long>(st.options_costed),
        static_cast<long long>(st.geometries));
    if (!o.output.empty()) {
        const io::MappingTarget target{&network, &seg, system.node_rows(), system.node_cols()};
        write_text(o.output, io::to_yaml(r.mapping, target));
    }
    if (!o.csv.empty()) append_csv_row(o, network, r, seconds);
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_map_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand(
        "map", "Map one network on one hardware point with the PIM-Mapper or the baseline (docs/cli.md)");
    auto o = std::make_shared<MapOptions>();
    cmd->add_option("--hardware", o->hardware, "hardware file (YAML, docs/config.md)")->required();
    cmd->add_option("--network", o->network, "network file (YAML, docs/workloads.md)")->required();
    cmd->add_option("--mapper", o->mapper, "nicepim (NicePIM VI) or baseline (VIII-D)")
        ->check(CLI::IsMember({"nicepim", "baseline"}));
    cmd->add_option("--baseline-lm", o->baseline_lm,
                    "the baseline's LM per layer: compute-delay (fewest compute cycles, as Timeloop's Delay "
                    "goal in NicePIM VIII-D; default) or full-latency (compute + sharing)")
        ->check(CLI::IsMember({"compute-delay", "full-latency"}));
    cmd->add_option("-o,--output", o->output, "write the mapping to this file (YAML, docs/mapping.md)")
        ->check(file_path());
    cmd->add_option("--csv", o->csv, "append one summary row (latency, energy split) to this CSV file")
        ->check(file_path());
    cmd->add_option("--batch", o->batch, "batch size (default: the network file's)")
        ->check(integer_in(1, 65536));
    cmd->add_option("--rounds", o->rounds, "MAX_OPTIM_ITER of Algorithm 1 (default 3)")
        ->check(integer_in(1, 100));
    cmd->callback([&action, o] { action = [o] { return run_map(*o); }; });
}

}  // namespace pimdse::cli
