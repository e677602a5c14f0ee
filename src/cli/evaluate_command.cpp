// `pimdse evaluate --hardware H.yaml --network N.yaml (--mapping M.yaml | --uniform)`: one
// network under one mapping on one hardware point, costed by the network timeline
// (docs/model.md, "Network timeline"), printed as a per-layer table and a summary. An
// infeasible mapping is a result, printed with its reason, not an error (docs/cli.md).
// `pimdse evaluate --crossbar D.yaml --network N.yaml`: one network on one design of the
// crossbar family, costed by its model (docs/model.md, "ReRAM crossbars: ...").
// `pimdse evaluate --hardware S.yaml --network N.yaml` with a hetero3d file: one network on a
// tier stack, its layer-to-PE mapping by AMOSA (hetero3d_evaluate.hpp).

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdarg>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "crossbar_layer_table.hpp"
#include "crossbar_report.hpp"
#include "hetero3d_evaluate.hpp"
#include "layer_table.hpp"
#include "option_checks.hpp"
#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/core/heap.hpp"
#include "pimdse/core/model_options.hpp"
#include "pimdse/hw/area.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/crossbar_design_file.hpp"
#include "pimdse/io/hetero3d_file.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/output_file.hpp"
#include "pimdse/mapper/mapping_file.hpp"
#include "pimdse/nodemip/node_mip.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/crossbar_cost.hpp"
#include "pimdse/sim/crossbar_technology.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/sim/overlap_timeline.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"
#include "pimdse/workload/segments.hpp"
#include "report.hpp"

namespace pimdse::cli {

namespace {

// Both costings run the forward pass: a training network is refused, not run as inference.
const io::NetworkReadOptions kInferenceOnly{.batch = {}, .warn = {}, .inference_only = true};

struct EvaluateOptions {
    std::string hardware;
    std::string crossbar;
    std::string network;
    std::string mapping;
    bool uniform = false;
    bool overlap = false;
    bool overlap_transform = false;  ///< --overlap-transform (implies --overlap)
    std::string intra_node;          ///< empty: the hardware file's model.intra_node
    std::string write_mapping;
    std::string layers;
    std::int64_t max_nodes = kDefaultMaxNodes;
};

// "ilp: 48 events, 12 solved (36 from the cache), all optimal; 0.210 s evaluation".
std::string sharing_summary(const sched::DataScheduler& s, double seconds) {
    const auto& records = s.records();
    std::size_t solved = 0;
    std::map<std::string_view, std::size_t> statuses;
    for (const sched::ScheduleRecord& r : records) {
        if (r.from_cache) continue;
        ++solved;
        ++statuses[sched::to_string(r.status)];
    }
    std::string out = format("%s: %zu events, %zu solved (%zu from the cache)",
                             std::string(sched::to_string(s.options().scheduler)).c_str(), records.size(),
                             solved, records.size() - solved);
    if (statuses.size() == 1) {
        out += ", all ";
        out += statuses.begin()->first;
    } else {
        for (const auto& [name, n] : statuses) out += format(", %zu %s", n, std::string(name).c_str());
    }
    return out + format("; %.3f s to evaluate", seconds);
}

int run_evaluate(const EvaluateOptions& o) {
    (void)prefer_huge_pages();  // the mapper's caches on huge pages (core/heap.hpp)
    const std::vector<std::filesystem::path> inputs{o.hardware, o.network, o.mapping};
    // Refused before the costing; checked again when written.
    if (!o.layers.empty()) io::check_output_path(o.layers, inputs);
    io::HardwareFile h = io::read_hardware_file(o.hardware);
    h.model.overlap = h.model.overlap || o.overlap || o.overlap_transform;
    h.model.overlap_transform = h.model.overlap_transform || o.overlap_transform;
    if (!o.intra_node.empty()) h.model.intra_node = *value_of(pimdse::kIntraNodeModelNames, o.intra_node);
    check_node_count("evaluate", o.hardware, h.params.node_rows, h.params.node_cols, o.max_nodes);
    const workload::Network network = io::read_network_file(o.network, kInferenceOnly);
    const workload::Segmentation seg = workload::decompose(network);
    const sim::System system = sim::make_system(h.constraints, h.params, h.technology);
    const mapper::MappingTarget target{&network, &seg, system.node_rows(), system.node_cols()};
    const sim::NetworkMapping mapping =
        o.uniform ? sim::uniform_mapping(network, seg, system.node_rows(), system.node_cols())
                  : mapper::read_mapping_file(o.mapping, target);
    if (!o.write_mapping.empty()) {
        io::write_output_file(o.write_mapping, mapper::to_yaml(mapping, target), inputs);
    }

    // The hardware file's `model:` section (default: the analytic node model).
    const std::unique_ptr<sim::IntraNodeMapper> mapper = nodemip::make_node_model(h.model, system.energy);
    // The hardware file's `schedule:` section (default: the ILP) schedules every data-sharing
    // event; records feed the summary line.
    const std::unique_ptr<sched::DataScheduler> scheduler = sched::make_scheduler(h.schedule);
    scheduler->set_recording(true);
    const auto t0 = std::chrono::steady_clock::now();
    const sim::NetworkCost cost =
        sim::evaluate_mapping(network, seg, mapping, system, *mapper, *scheduler, sim::timeline_of(h.model));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const std::string label = o.uniform ? std::string("uniform mapping") : "mapping " + o.mapping;
    print_report(std::cout, h, network, seg, mapping, cost, system, label,
                 sharing_summary(*scheduler, seconds));
    if (h.model.overlap) {
        // The same layer costs composed sequentially, for the ratio (the scheduler's cache
        // answers the sharing events again).
        const sim::NetworkCost seq =
            sim::evaluate_mapping(network, seg, mapping, system, *mapper, *scheduler);
        print_overlap(std::cout, cost, seq.latency);
    }
    if (!o.layers.empty())
        write_layer_table(o.layers, network, seg, mapping, cost, {hw::to_string(h.params), label, true},
                          inputs);
    return static_cast<int>(ExitCode::ok);
}

// The preset `crossbar.technology` names, checked; errors point at the design file's key.
const sim::CrossbarTechnology& crossbar_technology_of(const io::CrossbarDesignFile& d) {
    const SourceLocation at{d.source_file.string(), d.technology_line, 0};
    const sim::CrossbarTechnology* t = nullptr;
    try {
        t = &sim::crossbar_technology(d.crossbar.technology);
    } catch (const ConfigError&) {
        throw ConfigError(at, "crossbar.technology",
                          "expected a technology preset (" + sim::crossbar_technology_names() + "), got '" +
                              d.crossbar.technology + "'");
    }
    try {
        sim::check_technology(*t);
    } catch (const ConfigError& ex) {
        throw ConfigError(at, ex.key(), ex.problem());
    }
    return *t;
}

int run_evaluate_crossbar(const EvaluateOptions& o) {
    const std::vector<std::filesystem::path> inputs{o.crossbar, o.network};
    if (!o.layers.empty()) io::check_output_path(o.layers, inputs);
    const io::CrossbarDesignFile d = io::read_crossbar_design_file(o.crossbar);
    const workload::Network network = io::read_network_file(o.network, kInferenceOnly);
    bool weighted = false;
    for (workload::LayerIndex i = 0; i < network.size(); ++i)
        weighted = weighted || network.layer(i).has_weights();
    if (!weighted) {
        throw InputError({o.network, 0, 0}, "",
                         "expected a network with a weighted layer (conv, deconv or matmul with weights) to "
                         "place on crossbars, got none");
    }

    CrossbarEvaluation e;
    e.network = &network;
    e.tech = &crossbar_technology_of(d);
    const auto value = [&d](std::size_t i) { return d.values[i]; };
    e.config.size = value(0);
    e.config.adc_bits = value(1);
    e.config.dac_bits = value(2);
    e.config.cell_bits = value(3);
    e.config.weight_bits = value(4);
    e.config.activation_bits = value(5);
    e.config.polarity = d.crossbar.polarity;
    e.config.active_wordlines = d.crossbar.active_wordlines;
    e.options.schedule = d.crossbar.schedule;
    e.options.tile_budget = d.crossbar.tile_budget;
    e.area_budget_mm2 = d.crossbar.area_budget_mm2;
    e.cost = sim::cost_network_on_crossbars(network, e.config, *e.tech, e.options);

    print_crossbar_report(std::cout, e);
    if (!o.layers.empty()) write_crossbar_layer_table(o.layers, e, inputs);
    return static_cast<int>(ExitCode::ok);
}

// Whether --hardware is a hetero3d file, asked while the command line is parsed, where an
// exception would escape main's handler: a file that cannot be read is not one here, and the
// hardware reader reports why when the command runs.
bool names_hetero3d_file(const std::string& path) noexcept {
    try {
        return io::is_hetero3d_file(path);
    } catch (const std::exception&) {
        return false;
    }
}

// The options of a hetero3d evaluation (docs/cli.md).
std::vector<CLI::Option*> add_hetero3d_options(CLI::App& cmd, Hetero3dEvaluateOptions& o) {
    std::vector<CLI::Option*> out;
    out.push_back(cmd.add_option_function<std::string>(
                         "--tier-mapping", [&o](const std::string& v) { o.greedy = v == "greedy"; },
                         "hetero3d: amosa (default; HuNT's search) or greedy (the start point only)")
                      ->check(CLI::IsMember({"amosa", "greedy"})));
    out.push_back(cmd.add_option("--iterations", o.iterations, "hetero3d: AMOSA's evaluations (default 100)")
                      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 24)));
    out.push_back(cmd.add_option("--seed", o.seed, "hetero3d: AMOSA's seed (default 1)"));
    out.push_back(cmd.add_option_function<std::string>(
                         "--pick", [&o](const std::string& v) { o.pick_area = v == "tops_per_mm2"; },
                         "hetero3d: pick the front's best by tops_per_w (default) or tops_per_mm2")
                      ->check(CLI::IsMember({"tops_per_w", "tops_per_mm2"})));
    out.push_back(cmd.add_option_function<double>(
                         "--max-err", [&o](double v) { o.max_err = v; },
                         "hetero3d: keep only mappings with Err at most this before the pick")
                      ->check(CLI::NonNegativeNumber));
    out.push_back(cmd.add_option_function<std::string>(
                         "--heat", [&o](const std::string& v) { o.peak_objective = v == "peak_temperature"; },
                         "hetero3d: the third objective, power (default) or peak_temperature")
                      ->check(CLI::IsMember({"power", "peak_temperature"})));
    out.push_back(
        cmd.add_option("--adc-reading", o.adc_reading,
                       "hetero3d: Table II's ReRAM ADCs, table_ii_tile (default) or neurosim_column_mux "
                       "(docs/model.md, \"HuNT: per-layer costs\")")
            ->check(CLI::IsMember({"table_ii_tile", "neurosim_column_mux"})));
    out.push_back(
        cmd.add_option("--gradients", o.gradients,
                       "hetero3d: how the SRAM tier costs the gradients, digital_float32 (default) or "
                       "in_memory (docs/model.md, \"HuNT: gradient models\")")
            ->check(CLI::IsMember({"digital_float32", "in_memory"})));
    out.push_back(cmd.add_option("--csv", o.csv,
                                 "hetero3d: append one summary row (the picked mapping's objectives, TOPS/W, "
                                 "TOPS/mm², temperatures) to this CSV file")
                      ->check(output_file()));
    return out;
}

}  // namespace

void add_evaluate_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand(
        "evaluate",
        "Cost one network under one mapping on one hardware point, or on one crossbar design (docs/cli.md, "
        "docs/model.md)");
    auto o = std::make_shared<EvaluateOptions>();
    CLI::Option* hardware =
        cmd->add_option("--hardware", o->hardware, "hardware file (YAML, docs/config.md)");
    CLI::Option* crossbar = cmd->add_option(
        "--crossbar", o->crossbar,
        "crossbar design file (YAML, docs/config.md): cost the network on this design of the crossbar family "
        "instead of a hardware file and mapping");
    cmd->add_option("--network", o->network, "network file (YAML, docs/workloads.md)")->required();
    CLI::Option* mapping = cmd->add_option("--mapping", o->mapping, "mapping file (YAML, docs/mapping.md)");
    CLI::Option* uniform =
        cmd->add_flag("--uniform", o->uniform, "evaluate the uniform mapping instead of a mapping file");
    mapping->excludes(uniform);
    uniform->excludes(mapping);
    CLI::Option* overlap = cmd->add_flag("--overlap", o->overlap,
                                         "layers overlap (OverlaPIM; the hardware file's model.overlap on; "
                                         "docs/model.md, \"Overlapped layers\")");
    crossbar->excludes(overlap);
    CLI::Option* transform = cmd->add_flag(
        "--overlap-transform", o->overlap_transform,
        "overlap with the overlap-friendly transformation: each node runs its steps by input ready time "
        "(OverlaPIM III-D; implies --overlap; the hardware file's model.overlap_transform on; "
        "docs/model.md)");
    crossbar->excludes(transform);
    CLI::Option* intra_node =
        cmd->add_option("--intra-node", o->intra_node,
                        "the node model of a part-layer: analytic (the fast search) or exact (the optimum of "
                        "the hardware file's model.exact objective; slow); default: the hardware file's "
                        "model.intra_node (docs/model.md, \"The exact intra-node optimum\")")
            ->check(intra_node_model());
    crossbar->excludes(intra_node);
    crossbar->excludes(hardware)->excludes(mapping)->excludes(uniform);
    cmd->add_option("--max-nodes", o->max_nodes,
                    "refuse a hardware point with more nodes than this (default 4096, 64 x 64; docs/cli.md)")
        ->check(integer_in(1, kMostNodes));
    cmd->add_option("--write-mapping", o->write_mapping, "write the evaluated mapping to this file (YAML)")
        ->check(output_file())
        ->excludes(crossbar);
    cmd->add_option("--layers", o->layers,
                    "write one row per layer (region, partitions, cycles and energy by part, status; with "
                    "--crossbar: crossbars, conversions, latency, energy by part) to this file: CSV, or JSON "
                    "with the summary when it ends in .json (docs/cli.md)")
        ->check(output_file());
    auto h3 = std::make_shared<Hetero3dEvaluateOptions>();
    const std::vector<CLI::Option*> h3_options = add_hetero3d_options(*cmd, *h3);
    for (CLI::Option* opt : h3_options) opt->excludes(crossbar)->excludes(mapping)->excludes(uniform);
    cmd->callback([cmd, &action, o, h3, h3_options] {
        if (!o->hardware.empty() && names_hetero3d_file(o->hardware)) {
            if (!o->mapping.empty() || o->uniform || o->overlap || o->overlap_transform ||
                !o->intra_node.empty() || !o->write_mapping.empty() || !o->layers.empty())
                throw CLI::ValidationError("--hardware",
                                           "a hetero3d file takes none of --mapping, --uniform, "
                                           "--overlap, --overlap-transform, --intra-node, "
                                           "--write-mapping and --layers");
            h3->hardware = o->hardware;
            h3->network = o->network;
            action = [h3] { return run_evaluate_hetero3d(*h3); };
            return;
        }
        for (const CLI::Option* opt : h3_options)
            if (opt->count() > 0)
                throw CLI::ValidationError(opt->get_name(), "applies to a hetero3d hardware file only");
        if (!o->crossbar.empty()) {
            action = [o] { return run_evaluate_crossbar(*o); };
            return;
        }
        if (o->hardware.empty()) throw CLI::RequiredError("--hardware or --crossbar");
        if (o->mapping.empty() && !o->uniform) throw CLI::RequiredError("--mapping or --uniform");
        action = [o] { return run_evaluate(*o); };
    });
}

}  // namespace pimdse::cli
