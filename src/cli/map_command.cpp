// `pimdse map --hardware H.yaml --network N.yaml [--mapper nicepim|baseline] [-o M.yaml]`:
// the PIM-Mapper (or NicePIM VIII-D's baseline) maps one network on one hardware point; the
// segment mappings and the per-layer table are printed, and the mapping is written in the
// format `pimdse evaluate --mapping` reads back to the same numbers (docs/cli.md).

#include <CLI/CLI.hpp>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layer_table.hpp"
#include "option_checks.hpp"
#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/core/heap.hpp"
#include "pimdse/core/model_options.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/output_file.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/mapper/mapping_file.hpp"
#include "pimdse/nodemip/node_mip.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/sim/overlap_timeline.hpp"
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
    std::string layers;
    std::optional<std::int64_t> batch;
    int rounds = 3;
    bool fallback = false;
    bool overlap = false;
    bool overlap_transform = false;  ///< --overlap-transform (implies --overlap)
    bool no_overlap_greedy = false;  ///< --no-overlap-greedy
    std::string intra_node;          ///< empty: the hardware file's model.intra_node
    std::vector<std::string> freeze;
    std::int64_t max_nodes = kDefaultMaxNodes;
    int layer_band = 0;  ///< --layer-band: ddam, every segment on its own band this wide
};

/// What one --csv row reports: the whole batch (for ddam, the samples streamed through it).
struct CsvRow {
    double latency_cycles = 0;
    double seconds = 0;
    sim::EnergyBreakdown energy;
    double pe_utilisation = 0;
    bool from_baseline = false;
    std::int64_t batch = 1;
};

/// The files `map` reads, which its outputs must not replace.
std::vector<std::filesystem::path> inputs_of(const MapOptions& o) {
    return {o.hardware, o.network};
}

/// One row of the --csv table (docs/cli.md): the header is written when the file is new.
void append_csv_row(const MapOptions& o, const workload::Network& network, const CsvRow& r, double seconds) {
    const sim::EnergyBreakdown& e = r.energy;
    const double throughput = r.seconds > 0 ? static_cast<double>(r.batch) / r.seconds : 0.0;
    const std::string row = format(
        "%s,%s,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.6f,%lld,%."
        "17g\n",
        std::filesystem::path(o.hardware).stem().string().c_str(), network.name().c_str(), o.mapper.c_str(),
        r.latency_cycles, r.seconds, e.total().value(), e.pe.value(), e.registers.value(), e.sram.value(),
        e.dram_access.value(), e.dram_activation.value(), e.dram_background.value(), e.dram().value(),
        e.noc.value(), r.pe_utilisation, r.from_baseline ? 1 : 0, seconds, static_cast<long long>(r.batch),
        throughput);
    io::append_output_file(o.csv,
                           "hardware,network,mapper,latency_cycles,seconds_at_clock,energy_pj,pe_pj,"
                           "register_pj,sram_pj,dram_access_pj,dram_activation_pj,dram_background_pj,"
                           "dram_pj,noc_pj,pe_utilisation,from_baseline,map_seconds,batch,throughput_per_s\n",
                           row, inputs_of(o));
}

/// The pipeline's parts and rate, after the per-layer report of one sample.
void print_pipeline(const mapper::PipelineResult& p, const sim::System& system) {
    std::cout << format("  pipeline     %zu parts; %lld samples stream through them one after another\n",
                        p.stages.size(), static_cast<long long>(p.batch));
    for (std::size_t i = 0; i < p.stages.size(); ++i) {
        const mapper::PipelineStage& st = p.stages[i];
        std::cout << format("    part %zu: segments %d-%d on %s, %.0f cycles per sample\n", i,
                            st.first_segment, st.end_segment - 1, sim::to_string(st.band).c_str(), st.cycles);
    }
    std::cout << format("  interval     %.0f cycles (the slowest part)\n", p.interval_cycles)
              << format("  batch        %.0f cycles = %.4f ms at %.0f MHz for %lld samples: %.1f samples/s\n",
                        p.batch_cycles, p.batch_seconds * 1e3, system.clock_mhz,
                        static_cast<long long>(p.batch), p.throughput())
              << format("  energy       %.4f uJ for the batch (DRAM background over the batch's time)\n",
                        p.batch_energy.total().value() * 1e-6);
}

/// Per multi-branch segment, which branch runs on which region.
void print_segments(const workload::Network& network, const workload::Segmentation& seg,
                    const sim::NetworkMapping& mapping) {
    std::cout << "segments of " << network.name() << " (" << seg.segments.size()
              << "): regions and branches\n";
    for (std::size_t s = 0; s < seg.segments.size(); ++s) {
        const sim::SegmentMapping& sm = mapping.segments[s];
        if (sm.regions.size() < 2 && seg.segments[s].branches.size() < 2) continue;
        std::cout << format("  segment %zu: %zu branches on %zu regions:", s, seg.segments[s].branches.size(),
                            sm.regions.size());
        for (std::size_t b = 0; b < sm.branch_region.size(); ++b)
            std::cout << ' ' << 'b' << b << "->"
                      << sim::to_string(sm.regions[static_cast<std::size_t>(sm.branch_region[b])]);
        std::cout << '\n';
    }
    std::cout << "  (single-branch segments run on the whole array and are not listed)\n\n";
}

/// The mapper's one line of search statistics (docs/cli.md, `pimdse map`).
void print_search_stats(const MapOptions& o, std::int32_t rounds, double seconds,
                        const mapper::SearchStats& st) {
    std::cout << format(
        "  mapper       %s, %d round(s), %.3f s; LM searches %lld (memo hits %lld), count "
        "vectors %lld (pruned %lld), options costed %lld, sharing geometries %lld\n",
        o.mapper.c_str(), rounds, seconds, static_cast<long long>(st.searches),
        static_cast<long long>(st.memo_hits), static_cast<long long>(st.count_vectors),
        static_cast<long long>(st.pruned_vectors), static_cast<long long>(st.options_costed),
        static_cast<long long>(st.geometries));
}

/// The files the options ask for: the mapping (-o), the per-layer table (--layers) and the
/// summary row (--csv).
void write_outputs(const MapOptions& o, const workload::Network& network, const workload::Segmentation& seg,
                   const sim::System& system, const io::HardwareFile& h, const mapper::MapResult& r,
                   const mapper::PipelineResult* pipe, const std::string& label, double seconds) {
    if (!o.output.empty()) {
        const mapper::MappingTarget target{&network, &seg, system.node_rows(), system.node_cols()};
        io::write_output_file(o.output, mapper::to_yaml(r.mapping, target), inputs_of(o));
    }
    if (!o.layers.empty()) {
        write_layer_table(o.layers, network, seg, r.mapping, r.cost, {hw::to_string(h.params), label, true},
                          inputs_of(o));
    }
    if (!o.csv.empty()) {
        CsvRow row{r.cost.latency.value(), r.cost.seconds,  r.cost.energy,
                   r.cost.pe_utilisation,  r.from_baseline, network.batch()};
        if (pipe) {
            row.latency_cycles = pipe->batch_cycles;
            row.seconds = pipe->batch_seconds;
            row.energy = pipe->batch_energy;
            row.batch = pipe->batch;
        }
        append_csv_row(o, network, row, seconds);
    }
}

// The mapper's options from the command line: rounds, the baseline's LM and fallback, and
// the ablation's frozen dimensions.
mapper::MapperOptions mapper_options(const MapOptions& o) {
    mapper::MapperOptions options;
    options.max_optim_iter = o.rounds;
    options.baseline_lm = o.baseline_lm == "full-latency" ? mapper::BaselineLm::full_latency
                          : o.baseline_lm == "compute-delay-sharing"
                              ? mapper::BaselineLm::compute_delay_sharing
                              : mapper::BaselineLm::compute_delay;
    options.keep_baseline_if_better = o.fallback;
    options.layer_band = o.layer_band;
    options.overlap_greedy = !o.no_overlap_greedy;
    for (const std::string& f : o.freeze) {
        options.freeze_sm = options.freeze_sm || f == "sm";
        options.freeze_wr = options.freeze_wr || f == "wr";
        options.freeze_dl = options.freeze_dl || f == "dl";
    }
    return options;
}

int run_map(const MapOptions& o) {
    (void)prefer_huge_pages();  // the mapper's caches on huge pages (core/heap.hpp)
    // Refused before the search's seconds; checked again when written.
    if (!o.output.empty()) io::check_output_path(o.output, inputs_of(o));
    if (!o.csv.empty()) io::check_output_path(o.csv, inputs_of(o));
    if (!o.layers.empty()) io::check_output_path(o.layers, inputs_of(o));
    io::HardwareFile h = io::read_hardware_file(o.hardware);
    h.model.overlap = h.model.overlap || o.overlap || o.overlap_transform;
    h.model.overlap_transform = h.model.overlap_transform || o.overlap_transform;
    if (!o.intra_node.empty()) h.model.intra_node = *value_of(pimdse::kIntraNodeModelNames, o.intra_node);
    check_node_count("map", o.hardware, h.params.node_rows, h.params.node_cols, o.max_nodes);
    const bool ddam = o.mapper == "ddam";
    if (o.layer_band > 0 && !ddam) throw UsageError("map: --layer-band takes --mapper ddam");
    if (ddam && h.model.overlap)
        throw UsageError("map: --mapper ddam does not take overlap (--overlap or model.overlap in " +
                         o.hardware +
                         "): the pipeline is costed by its own model; use --mapper nicepim or baseline");
    io::NetworkReadOptions read;
    // A pipeline streams single samples through its parts: --batch is how many.
    read.batch = ddam ? std::optional<std::int64_t>(1) : o.batch;
    read.inference_only = true;
    const workload::Network network = io::read_network_file(o.network, read);
    const workload::Segmentation seg = workload::decompose(network);
    const sim::System system = sim::make_system(h.constraints, h.params, h.technology);

    const std::unique_ptr<sim::IntraNodeMapper> intra = nodemip::make_node_model(h.model, system.energy);
    // The search costs sharing with the snake ring (it runs for every option); the returned
    // mapping is costed with the hardware file's `schedule:` section (default: the ILP), as
    // `pimdse evaluate` does, so the written mapping evaluates to the printed numbers.
    sim::SnakeRingScheduler search;
    const std::unique_ptr<sched::DataScheduler> final = sched::make_scheduler(h.schedule);
    // With overlap the search ranks its rounds by the overlapped timeline: the model the
    // mapping is judged by (docs/mapper.md, "Ranking with overlap").
    mapper::Mapper m(system, mapper_options(o), *intra, search, *final, sim::timeline_of(h.model));
    const auto start = std::chrono::steady_clock::now();
    mapper::MapResult r;
    std::optional<mapper::PipelineResult> pipe;
    try {
        if (ddam) {
            pipe = m.pipeline(network, seg, o.batch.value_or(1));
            r.mapping = pipe->mapping;
            r.cost = pipe->cost;
        } else {
            r = o.mapper == "baseline" ? m.baseline(network, seg) : m.map(network, seg);
        }
    } catch (const mapper::Unmappable& e) {
        // An outcome, as in `evaluate` and sweeps: printed with exit code 0, no files written.
        std::cout << "network " << network.name() << " on " << system.node_rows() << 'x' << system.node_cols()
                  << " nodes: no mapping exists\n  status       infeasible: " << e.what() << '\n';
        for (const std::string* file : {&o.output, &o.csv, &o.layers})
            if (!file->empty()) std::cout << "  (nothing written to " << *file << ")\n";
        return static_cast<int>(ExitCode::ok);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The same mapping composed without overlap, for the report's ratio. The mapper's cost
    // comes from evaluate_mapping under the final scheduler, so its layer costs recompose;
    // the pipeline's cost is its own and is evaluated afresh.
    Cycles sequential = r.cost.latency;
    if (h.model.overlap)
        sequential = pipe ? sim::evaluate_mapping(network, seg, r.mapping, system, *intra, *final).latency
                          : sim::recomposed_latency(network, seg, r.mapping, system, r.cost);

    print_segments(network, seg, r.mapping);
    std::string label = o.mapper == "baseline" ? "baseline mapping (NicePIM VIII-D)"
                        : ddam                 ? "DDAM pipeline, one sample through every part"
                                               : "PIM-Mapper mapping";
    if (r.from_baseline && o.mapper != "baseline")
        label += " (the baseline's mapping was faster and is kept)";
    print_report(std::cout, h, network, seg, r.mapping, r.cost, system, label);
    if (h.model.overlap) {
        print_overlap(std::cout, r.cost, sequential);
        if (r.greedy_changed > 0)
            std::cout << "  greedy step  " << r.greedy_changed << " layer(s) changed (OverlaPIM III-E)\n";
    }
    if (pipe) print_pipeline(*pipe, system);
    print_search_stats(o, r.rounds, seconds, m.search().stats());
    write_outputs(o, network, seg, system, h, r, pipe ? &*pipe : nullptr, label, seconds);
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_map_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand(
        "map", "Map one network on one hardware point with the PIM-Mapper or the baseline (docs/cli.md)");
    auto o = std::make_shared<MapOptions>();
    cmd->add_option("--hardware", o->hardware, "hardware file (YAML, docs/config.md)")->required();
    cmd->add_option("--network", o->network, "network file (YAML, docs/workloads.md)")->required();
    cmd->add_option("--mapper", o->mapper,
                    "nicepim (NicePIM VI), baseline (VIII-D) or ddam (the pipelined mapping of Fig. 11)")
        ->check(CLI::IsMember({"nicepim", "baseline", "ddam"}));
    cmd->add_option("--baseline-lm", o->baseline_lm,
                    "the baseline's LM per layer: compute-delay (fewest compute cycles, blind to sharing, "
                    "as Timeloop's Delay goal in NicePIM VIII-D; default), compute-delay-sharing (the "
                    "same, ties broken by the least sharing) or full-latency (compute + sharing)")
        ->check(CLI::IsMember({"compute-delay", "compute-delay-sharing", "full-latency"}));
    cmd->add_flag("--baseline-fallback", o->fallback,
                  "also cost the baseline's mappings and return the fastest of all (a portfolio; "
                  "the CSV's from_baseline column says which produced the mapping). Off: Algorithm 1 "
                  "+ 2 alone, as in the paper");
    cmd->add_flag(
        "--overlap", o->overlap,
        "cost the mapping with overlapped layers (OverlaPIM; the hardware file's model.overlap on; "
        "docs/model.md, \"Overlapped layers\"); the search ranks its rounds by it and adds OverlaPIM's "
        "greedy step (docs/mapper.md, \"Ranking with overlap\")");
    cmd->add_flag("--no-overlap-greedy", o->no_overlap_greedy,
                  "with overlap: leave out the greedy step after the selection (for comparisons)");
    cmd->add_flag("--overlap-transform", o->overlap_transform,
                  "cost it overlapped with the overlap-friendly transformation: each node runs its steps by "
                  "input ready time (OverlaPIM III-D; implies --overlap; the hardware file's "
                  "model.overlap_transform on; docs/model.md)");
    cmd->add_option("--intra-node", o->intra_node,
                    "the node model of a part-layer: analytic (the fast search) or exact (the optimum of "
                    "the hardware file's model.exact objective; slow); default: the hardware file's "
                    "model.intra_node (docs/model.md, \"The exact intra-node optimum\")")
        ->check(intra_node_model());
    cmd->add_option("--freeze", o->freeze,
                    "ablation: give these dimensions the baseline's choice (sm, wr, dl; comma-separated)")
        ->delimiter(',')
        ->check(CLI::IsMember({"sm", "wr", "dl"}));
    cmd->add_option("-o,--output", o->output, "write the mapping to this file (YAML, docs/mapping.md)")
        ->check(output_file());
    cmd->add_option("--csv", o->csv, "append one summary row (latency, energy split) to this CSV file")
        ->check(output_file());
    cmd->add_option("--layers", o->layers,
                    "write one row per layer (region, partitions, cycles and energy by part, status) to "
                    "this file: CSV, or JSON with the summary when it ends in .json (docs/cli.md)")
        ->check(output_file());
    cmd->add_option("--batch", o->batch,
                    "batch size (default: the network file's); for ddam, the samples streamed through the "
                    "pipeline one at a time (default 1)")
        ->check(integer_in(1, 65536));
    cmd->add_option("--layer-band", o->layer_band,
                    "with --mapper ddam: every segment a part of its own on a band this many rows (columns) "
                    "wide, wrapping to the array's start when the segments outnumber the bands: OverlaPIM's "
                    "fixed memory per layer (default: DDAM's load-balanced cuts; docs/mapper.md)")
        ->check(integer_in(1, 4096));
    cmd->add_option("--rounds", o->rounds, "MAX_OPTIM_ITER of Algorithm 1 (default 3)")
        ->check(integer_in(1, 100));
    cmd->add_option("--max-nodes", o->max_nodes,
                    "refuse a hardware point with more nodes than this (default 4096, 64 x 64; the search's "
                    "work grows about tenfold per doubling of the array's side; docs/cli.md)")
        ->check(integer_in(1, kMostNodes));
    cmd->callback([&action, o] { action = [o] { return run_map(*o); }; });
}

}  // namespace pimdse::cli
