// `pimdse config check FILE`: validate a sweep configuration or a hardware file (a NicePIM
// point under `hardware:`, a HuNT-style 3-D stack under `hetero3d:`) and print
// it resolved (valid YAML), followed by a summary as YAML comments, so the whole output can
// be saved and read back.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/hw/area.hpp"
#include "pimdse/hw/hetero3d.hpp"
#include "pimdse/hw/node.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/hetero3d_file.hpp"
#include "pimdse/io/workloads.hpp"

namespace pimdse::cli {

namespace {

std::string space_size_text(const DesignSpace& space) {
    std::ostringstream out;
    const long double n = space.size();
    // Exact while it fits a 64-bit integer; the default space has about 2.2e10 points.
    if (n < 1e18L) out << static_cast<unsigned long long>(std::llround(n)) << " points (";
    out << std::setprecision(3) << std::scientific << static_cast<double>(n);
    out << (n < 1e18L ? ")" : " points") << " = ";
    for (std::size_t i = 0; i < space.dimensions(); ++i) out << (i ? " x " : "") << space.range(i).size();
    return out.str();
}

void print_sweep(const io::Config& c) {
    // The family checks its own settings first (an unknown family, a parameter it lacks).
    const std::unique_ptr<family::Family> fam = family::make_family(c);
    const DesignSpace& space = fam->space();
    std::cout << io::to_yaml(c);
    std::cout << "#\n# " << c.source_file.string() << ": valid sweep configuration\n"
              << "#   family " << fam->name() << ", design space: " << space_size_text(space) << '\n';
    std::size_t width = 0;  // the names in one column, whatever the family calls them
    for (const ParamAxis& a : space.axes()) width = std::max(width, a.name.size() + 1);
    for (const ParamAxis& a : space.axes()) {
        std::cout << "#     " << std::left << std::setw(static_cast<int>(width)) << a.name << a.range.str()
                  << '\n';
    }
    // The networks are parsed too: a sweep validates everything before anything runs.
    const std::vector<io::LoadedWorkload> loaded = io::load_workloads(c);
    std::cout << "#   workloads: " << loaded.size() << '\n';
    for (const io::LoadedWorkload& w : loaded) {
        std::cout << "#     " << w.spec.network.filename().string() << ": " << w.network.name() << ", batch "
                  << w.network.batch() << ", " << w.network.size() << " layers, " << std::fixed
                  << std::setprecision(3) << static_cast<double>(w.network.total_macs()) * 1e-9 << " GMACs, "
                  << static_cast<double>(w.network.total_weights()) * 1e-6 << " M weights, weight "
                  << std::defaultfloat << w.spec.weight << '\n';
    }
    std::cout << "#   sweep: " << c.sweep.budget << " evaluations in batches of " << c.sweep.batch_size
              << ", proposer " << io::to_string(c.sweep.proposer) << ", seed " << c.sweep.seed << '\n';
}

std::string mm2(SquareMillimetres a) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(3) << std::setw(8) << a.value() << " mm²";
    return out.str();
}

// The area breakdown (docs/model.md, "Area"): one node, then all nodes, then the budget.
void print_area(const io::HardwareFile& h) {
    const hw::AreaBreakdown a = hw::area(h.params, h.constraints, h.technology);
    const double n = a.node_count;
    const auto row = [n](const char* what, SquareMillimetres one) {
        std::cout << "#     " << std::left << std::setw(18) << what << std::right << mm2(one) << "  x " << n
                  << " = " << mm2(one * n) << '\n';
    };
    std::cout << "#   area (28 nm table; per node x nodes = total):\n";
    row("PE array", a.node.pe_array);
    row("input buffer", a.node.input_buffer);
    row("weight buffer", a.node.weight_buffer);
    row("output buffer", a.node.output_buffer);
    row("NN engine", a.node.nn_engine());
    row("router", a.node.router);
    row("DRAM controllers", a.node.dram_controller);
    row("node", a.node.total());
    const bool fits = a.nn_engines <= h.constraints.area_budget;
    std::cout << "#     NN engines " << mm2(a.nn_engines) << " of the budget "
              << mm2(h.constraints.area_budget) << ": " << (fits ? "fits" : "OVER BUDGET") << " ("
              << std::setprecision(1) << std::fixed << 100.0 * (a.nn_engines / h.constraints.area_budget)
              << " %); routers and DRAM controllers are outside the budget (NicePIM VIII-B)\n";
}

void print_hardware(const io::HardwareFile& h) {
    const hw::NodeFacts f = hw::node_facts(h.params, h.constraints);
    std::cout << io::to_yaml(h);
    std::cout << "#\n# " << h.source_file.string() << ": valid hardware point: " << hw::to_string(h.params)
              << '\n'
              << "#   PIM-nodes:               " << f.node_count << '\n'
              << "#   DRAM banks per node:     " << f.banks_per_node << '\n'
              << "#   DRAM port per node:      " << f.dram_port_bits << " bit\n"
              << "#   DRAM capacity per node:  " << f.dram_capacity.value() / kMiB << " MiB\n"
              << "#   NoC flit width:          " << f.flit_bits << " bit\n";
    print_area(h);
}

// Storage per tile and tier and the silicon of a 3-D stack (docs/model.md, "HuNT: device types").
void print_hetero3d(const io::Hetero3dFile& f) {
    const hw::Hetero3dHardware& h = f.hardware;
    const auto kib = [](Bytes b) { return static_cast<double>(b.value()) / 1024.0; };
    const auto mib = [](Bytes b) { return static_cast<double>(b.value()) / (1024.0 * 1024.0); };
    std::cout << io::to_yaml(f) << "#\n# " << f.source_file.string()
              << ": valid hetero3d hardware point: stack " << hw::stack_string(h.stack)
              << " (t1 nearest the heat sink), " << h.tiers << " tiers x " << h.pes_per_tier << " PEs x "
              << h.tiles_per_pe << " tiles of " << h.tile_area.value() << " mm²" << '\n';
    for (int z = 0; z < h.tiers; ++z) {
        const std::string_view device = name_of(hw::kPimDeviceNames, h.stack[static_cast<std::size_t>(z)]);
        std::cout << "#   tier t" << z + 1 << ' ' << std::left << std::setw(6) << device << std::right
                  << h.tiles_per_tier() << " tiles x " << kib(h.tile_storage(z))
                  << " KiB per tile = " << mib(h.tier_storage(z)) << " MiB\n";
    }
    std::cout << "#   storage: " << mib(h.total_storage()) << " MiB in all\n"
              << "#   silicon: " << mm2(h.silicon_area()) << " (" << h.tiers * h.tiles_per_tier()
              << " tiles)\n";
}

int run_check(const std::string& file) {
    if (io::is_hetero3d_file(file)) {
        print_hetero3d(io::read_hetero3d_file(file));
        return static_cast<int>(ExitCode::ok);
    }
    std::visit(
        [](const auto& parsed) {
            if constexpr (std::is_same_v<std::decay_t<decltype(parsed)>, io::Config>) {
                print_sweep(parsed);
            } else {
                print_hardware(parsed);
            }
        },
        io::read_config_or_hardware_file(file));
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_config_command(CLI::App& app, Action& action) {
    CLI::App* config =
        app.add_subcommand("config", "Validate configuration and hardware files (docs/config.md)");
    config->require_subcommand(1);
    CLI::App* check = config->add_subcommand(
        "check", "Validate a sweep configuration or hardware file and print it resolved, with a summary");
    auto file = std::make_shared<std::string>();
    check->add_option("FILE", *file, "sweep configuration or hardware file (YAML)")->required();
    check->callback([&action, file] { action = [file] { return run_check(*file); }; });
}

}  // namespace pimdse::cli
