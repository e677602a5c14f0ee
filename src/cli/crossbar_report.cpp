// What `pimdse evaluate --crossbar` prints (crossbar_report.hpp).

#include "crossbar_report.hpp"

#include <algorithm>

#include "report.hpp"

namespace pimdse::cli {

std::string CrossbarEvaluation::design() const {
    const sim::CrossbarConfig& c = config;
    std::string out =
        format("%dx%d crossbars, ADC %db, DAC %db, cell %db, W%d/A%d, polarity %d, ", c.size, c.size,
               c.adc_bits, c.dac_bits, c.cell_bits, c.weight_bits, c.activation_bits, c.polarity);
    out += c.active_wordlines > 0 ? format("%d word lines at once, ", c.active_wordlines) : "";
    return out + tech->name;
}

std::string CrossbarEvaluation::status() const {
    return reason().empty() ? "ok" : "infeasible";
}

std::string CrossbarEvaluation::reason() const {
    const double area = cost.area.total().value();
    if (!area_budget_mm2 || area <= *area_budget_mm2) return {};
    return format("area %.6g mm² over the budget of %.6g mm² (crossbar.area_budget_mm2)", area,
                  *area_budget_mm2);
}

void print_crossbar_report(std::ostream& out, const CrossbarEvaluation& e) {
    const sim::CrossbarNetworkCost& n = e.cost;
    const workload::Network& network = *e.network;
    out << "network " << network.name() << " (batch " << network.batch() << ", " << n.layers.size()
        << " weighted layers of " << network.size() << ") on " << e.design() << "\n\n";
    out << format(
        "%-24s %-7s %5s %6s %6s %6s %5s %4s %3s %3s %12s %6s %11s %11s %11s %11s %11s %11s %11s %11s\n",
        "layer", "kind", "W/A", "rows", "cols", "xbars", "tiles", "repl", "cyc", "sub", "ADC conv", "ADC b",
        "latency ns", "energy pJ", "crossbar", "adc", "dac", "shift_add", "buffer", "noc");
    for (std::size_t k = 0; k < n.layers.size(); ++k) {
        const workload::Layer& l = network.layer(n.layers[k]);
        const sim::CrossbarLayerCost& c = n.layer_costs[k];
        const sim::CrossbarMapping& m = c.mapping;
        const sim::CrossbarEnergy& en = c.energy;
        // "10/8" : bits a column's sum needs / the ADC's (the deficit is their difference).
        const std::string adc = format("%d/%d", m.adc_bits_needed, e.config.adc_bits);
        // The weight / activation bits the layer is costed with (its own, or the design's).
        const sim::CrossbarConfig own = sim::layer_config(e.config, l);
        const std::string bits = format("%d/%d", own.weight_bits, own.activation_bits);
        out << format(
            "%-24s %-7s %5s %6lld %6lld %6lld %5lld %4lld %3lld %3lld %12lld %6s %11.4g %11.4g %11.4g %11.4g "
            "%11.4g %11.4g %11.4g %11.4g\n",
            l.name.c_str(), std::string(workload::to_string(l.kind)).c_str(), bits.c_str(),
            static_cast<long long>(m.rows), static_cast<long long>(m.columns),
            static_cast<long long>(m.crossbars), static_cast<long long>(c.tiles),
            static_cast<long long>(n.replicas[k]), static_cast<long long>(m.input_cycles),
            static_cast<long long>(m.subvectors), static_cast<long long>(c.adc_conversions), adc.c_str(),
            n.stage_ns[k], en.total().value(), en.crossbar.value(), en.adc.value(), en.dac.value(),
            en.shift_add.value(), en.buffer.value(), en.noc.value());
    }

    const sim::CrossbarEnergy& en = n.energy;
    const sim::CrossbarArea& a = n.area;
    const auto uj = [](Picojoules v) { return v.value() * 1e-6; };
    const double total = en.total().value();
    const auto share = [total](Picojoules v) { return total > 0 ? 100 * v.value() / total : 0.0; };
    const int deficit = sim::worst_adc_deficit(n, e.config);
    out << "\nsummary: " << network.name() << '\n'
        << format("  latency      %.6g ns = %.4f ms (%s", n.latency_ns, n.latency_ns * 1e-6,
                  std::string(name_of(kCrossbarScheduleNames, e.options.schedule)).c_str())
        << (e.options.tile_budget > 0
                ? format(", tile budget %lld", static_cast<long long>(e.options.tile_budget))
                : std::string())
        << ")\n"
        << format(
               "  energy       %.4f uJ: crossbar %.4f (%.1f %%), adc %.4f (%.1f %%), dac %.4f (%.1f %%), "
               "shift_add %.4f (%.1f %%), buffer %.4f (%.1f %%), noc %.4f uJ (%.1f %%)\n",
               uj(en.total()), uj(en.crossbar), share(en.crossbar), uj(en.adc), share(en.adc), uj(en.dac),
               share(en.dac), uj(en.shift_add), share(en.shift_add), uj(en.buffer), share(en.buffer),
               uj(en.noc), share(en.noc))
        << format("  EDP          %.6g ms x mJ\n", n.latency_ns * 1e-6 * total * 1e-9)
        << format(
               "  area         %.4f mm2: crossbars %.4f, adcs %.4f, dacs %.4f, shift_add %.4f, buffers "
               "%.4f, routers %.4f mm2\n",
               a.total().value(), a.crossbars.value(), a.adcs.value(), a.dacs.value(), a.shift_add.value(),
               a.buffers.value(), a.routers.value())
        << format("  tiles        %lld (%d crossbars of %dx%d each) on a %d x %d mesh\n",
                  static_cast<long long>(n.tiles), e.tech->crossbars_per_tile(), e.config.size, e.config.size,
                  n.noc.mesh.rows, n.noc.mesh.cols)
        << format("  ADC deficit  %d bit%s at most (0: every column sum read exactly)\n", deficit,
                  deficit == 1 ? "" : "s");
    if (e.area_budget_mm2) out << format("  area budget  %.6g mm2\n", *e.area_budget_mm2);
    out << "  status       " << e.status();
    if (const std::string r = e.reason(); !r.empty()) out << ": " << r;
    out << '\n';
}

}  // namespace pimdse::cli
