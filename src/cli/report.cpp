#include "report.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/area.hpp"

namespace pimdse::cli {

// A C variadic with the printf attribute, so that -Wformat checks every call's arguments.
std::string format(const char* fmt, ...) {
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

void print_report(std::ostream& out, const io::HardwareFile& h, const workload::Network& network,
                  const workload::Segmentation& seg, const sim::NetworkMapping& mapping,
                  const sim::NetworkCost& cost, const sim::System& system, const std::string& label,
                  const std::string& sharing) {
    out << "network " << network.name() << " (batch " << network.batch() << ", " << network.size()
        << " layers) on " << hw::to_string(h.params) << ", " << label << "\n\n";
    out << format("%-24s %-10s %-9s %-16s %5s %-19s %12s %12s %12s %12s %12s %12s %12s %6s  %s\n", "layer",
                  "kind", "region", "partitions", "WR", "DL in/out", "cycles", "redistrib", "sharing",
                  "compute", "energy pJ", "PE+reg+SRAM pJ", "DRAM+NoC pJ", "util", "status");
    for (workload::LayerIndex i = 0; i < network.size(); ++i) {
        const workload::Layer& l = network.layer(i);
        const sim::LayerMapping& m = mapping.layers[static_cast<std::size_t>(i)];
        const sim::LayerCost& c = cost.layers[static_cast<std::size_t>(i)];
        std::string dl = sim::to_string(m.dl_in);
        dl += '/';
        dl += sim::to_string(m.dl_out);
        out << format(
            "%-24s %-10s %-9s %-16s %5d %-19s %12.0f %12.0f %12.0f %12.0f %12.4g %12.4g %12.4g %6.3f  %s",
            l.name.c_str(), std::string(workload::to_string(l.kind)).c_str(),
            sim::to_string(sim::layer_region(seg, mapping, i)).c_str(), partitions_text(m).c_str(), m.wr,
            dl.c_str(), c.latency.value(), c.redistribution.value(), c.sharing.value(), c.compute.value(),
            c.energy.total().value(), (c.energy.pe + c.energy.registers + c.energy.sram).value(),
            (c.energy.dram() + c.energy.noc).value(), c.pe_utilisation,
            std::string(sim::to_string(c.status)).c_str());
        if (!c.reason.empty()) out << " (" << c.reason << ')';
        out << '\n';
    }

    const hw::AreaBreakdown area = hw::area(h.params, h.constraints, h.technology);
    const auto uj = [](Picojoules e) { return e.value() * 1e-6; };
    out << "\nsummary: " << network.name() << '\n'
        << format("  latency      %.0f cycles = %.4f ms at %.0f MHz (%zu segments)\n", cost.latency.value(),
                  cost.seconds * 1e3, system.clock_mhz, cost.segments.size())
        << format(
               "  energy       %.4f uJ: PE %.4f, registers %.4f, SRAM %.4f, DRAM %.4f (access %.4f, "
               "activation %.4f, background %.4f), NoC %.4f uJ\n",
               uj(cost.energy.total()), uj(cost.energy.pe), uj(cost.energy.registers), uj(cost.energy.sram),
               uj(cost.energy.dram()), uj(cost.energy.dram_access), uj(cost.energy.dram_activation),
               uj(cost.energy.dram_background), uj(cost.energy.noc))
        << format("  utilisation  %.4f (MACs / (latency x PEs of all nodes))\n", cost.pe_utilisation)
        << format("  area         %.3f mm2 NN engines (budget %.3f), %.3f mm2 in all\n",
                  area.nn_engines.value(), h.constraints.area_budget.value(), area.total.value());
    if (!sharing.empty()) out << "  sharing      " << sharing << '\n';
    out << "  status       " << sim::to_string(cost.status);
    if (!cost.reason.empty()) out << ": " << cost.reason;
    out << '\n';
}

void print_overlap(std::ostream& out, const sim::NetworkCost& overlapped, Cycles sequential) {
    const double ratio =
        overlapped.latency.value() > 0 ? sequential.value() / overlapped.latency.value() : 1.0;
    out << format(
        "  overlap      on: %.0f cycles overlapped, %.0f sequential (%.4fx; docs/model.md, \"Overlapped "
        "layers\")\n",
        overlapped.latency.value(), sequential.value(), ratio);
}

}  // namespace pimdse::cli
