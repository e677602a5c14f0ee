// `pimdse evaluate --hardware H.yaml --network N.yaml (--mapping M.yaml | --uniform)`: one
// network under one mapping on one hardware point, costed by the network timeline
// (docs/model.md, "Network timeline"), printed as a per-layer table and a summary. An
// infeasible mapping is a result, printed with its reason, not an error (docs/cli.md).

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdarg>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/area.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/mapping_file.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/sim/uniform_mapping.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::cli {

namespace {

struct EvaluateOptions {
    std::string hardware;
    std::string network;
    std::string mapping;
    bool uniform = false;
    std::string write_mapping;
};

// A C variadic with the printf attribute, so that -Wformat checks every call's arguments.
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...) {
    std::va_list args;
    va_start(args, fmt);
    std::va_list copy;
    va_copy(copy, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, copy);
    va_end(copy);
    std::string out(static_cast<std::size_t>(std::max(n, 0)), '\0');
    std::vsnprintf(out.data(), out.size() + 1, fmt, args);
    va_end(args);
    return out;
}

/// "K2x2 P1x2" (loops with more than one part), "-" for none.
std::string partitions_text(const sim::LayerMapping& m) {
    std::string out;
    for (sim::PartDim d : sim::kAllPartDims) {
        const sim::Partition p = m.part(d);
        if (p.count() == 1) continue;
        if (!out.empty()) out += ' ';
        out += sim::to_string(d);
        out += std::to_string(p.h);
        out += 'x';
        out += std::to_string(p.w);
    }
    return out.empty() ? "-" : out;
}

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    out.close();
    if (!out) {
        std::string what = path;
        what += ": cannot write the mapping file";
        throw IoError(what);
    }
}

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
    const io::HardwareFile h = io::read_hardware_file(o.hardware);
    const workload::Network network = io::read_network_file(o.network);
    const workload::Segmentation seg = workload::decompose(network);
    const sim::System system = sim::make_system(h.constraints, h.params, h.technology);
    const io::MappingTarget target{&network, &seg, system.node_rows(), system.node_cols()};
    const sim::NetworkMapping mapping =
        o.uniform ? sim::uniform_mapping(network, seg, system.node_rows(), system.node_cols())
                  : io::read_mapping_file(o.mapping, target);
    if (!o.write_mapping.empty()) write_text(o.write_mapping, io::to_yaml(mapping, target));

    sim::AnalyticIntraNodeMapper mapper;
    // The hardware file's `schedule:` section (default: the ILP) schedules every data-sharing
    // event; records feed the summary line.
    const std::unique_ptr<sched::DataScheduler> scheduler = sched::make_scheduler(h.schedule);
    scheduler->set_recording(true);
    const auto t0 = std::chrono::steady_clock::now();
    const sim::NetworkCost cost = sim::evaluate_mapping(network, seg, mapping, system, mapper, *scheduler);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    std::cout << "network " << network.name() << " (batch " << network.batch() << ", " << network.size()
              << " layers) on " << hw::to_string(h.params) << ", "
              << (o.uniform ? std::string("uniform mapping") : "mapping " + o.mapping) << "\n\n";
    std::cout << format("%-24s %-10s %-9s %-16s %5s %-19s %12s %12s %12s %12s %12s %12s %12s %6s  %s\n",
                        "layer", "kind", "region", "partitions", "WR", "DL in/out", "cycles", "redistrib",
                        "sharing", "compute", "energy pJ", "PE+SRAM pJ", "DRAM+NoC pJ", "util", "status");
    for (workload::LayerIndex i = 0; i < network.size(); ++i) {
        const workload::Layer& l = network.layer(i);
        const sim::LayerMapping& m = mapping.layers[static_cast<std::size_t>(i)];
        const sim::LayerCost& c = cost.layers[static_cast<std::size_t>(i)];
        std::string dl = sim::to_string(m.dl_in);
        dl += '/';
        dl += sim::to_string(m.dl_out);
        std::cout << format(
            "%-24s %-10s %-9s %-16s %5d %-19s %12.0f %12.0f %12.0f %12.0f %12.4g %12.4g %12.4g %6.3f  %s",
            l.name.c_str(), std::string(workload::to_string(l.kind)).c_str(),
            sim::to_string(sim::layer_region(seg, mapping, i)).c_str(), partitions_text(m).c_str(), m.wr,
            dl.c_str(), c.latency.value(), c.redistribution.value(), c.sharing.value(), c.compute.value(),
            c.energy.total().value(), (c.energy.pe + c.energy.sram).value(),
            (c.energy.dram + c.energy.noc).value(), c.pe_utilisation,
            std::string(sim::to_string(c.status)).c_str());
        if (!c.reason.empty()) std::cout << " (" << c.reason << ')';
        std::cout << '\n';
    }

    const hw::AreaBreakdown area = hw::area(h.params, h.constraints, h.technology);
    const auto uj = [](Picojoules e) { return e.value() * 1e-6; };
    std::cout << "\nsummary: " << network.name() << '\n'
              << format("  latency      %.0f cycles = %.4f ms at %.0f MHz (%zu segments)\n",
                        cost.latency.value(), cost.seconds * 1e3, system.clock_mhz, cost.segments.size())
              << format("  energy       %.4f uJ: PE %.4f, SRAM %.4f, DRAM %.4f, NoC %.4f uJ\n",
                        uj(cost.energy.total()), uj(cost.energy.pe), uj(cost.energy.sram),
                        uj(cost.energy.dram), uj(cost.energy.noc))
              << format("  utilisation  %.4f (MACs / (latency x PEs of all nodes))\n", cost.pe_utilisation)
              << format("  area         %.3f mm2 NN engines (budget %.3f), %.3f mm2 in all\n",
                        area.nn_engines.value(), h.constraints.area_budget.value(), area.total.value())
              << "  sharing      " << sharing_summary(*scheduler, seconds) << '\n'
              << "  status       " << sim::to_string(cost.status);
    if (!cost.reason.empty()) std::cout << ": " << cost.reason;
    std::cout << '\n';
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_evaluate_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand(
        "evaluate", "Cost one network under one mapping on one hardware point (docs/cli.md, docs/model.md)");
    auto o = std::make_shared<EvaluateOptions>();
    cmd->add_option("--hardware", o->hardware, "hardware file (YAML, docs/config.md)")->required();
    cmd->add_option("--network", o->network, "network file (YAML, docs/workloads.md)")->required();
    CLI::Option* mapping = cmd->add_option("--mapping", o->mapping, "mapping file (YAML, docs/mapping.md)");
    CLI::Option* uniform =
        cmd->add_flag("--uniform", o->uniform, "evaluate the uniform mapping instead of a mapping file");
    mapping->excludes(uniform);
    uniform->excludes(mapping);
    cmd->add_option("--write-mapping", o->write_mapping, "write the evaluated mapping to this file (YAML)");
    cmd->callback([cmd, &action, o] {
        if (o->mapping.empty() && !o->uniform) throw CLI::RequiredError("--mapping or --uniform");
        action = [o] { return run_evaluate(*o); };
    });
}

}  // namespace pimdse::cli
