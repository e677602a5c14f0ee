#include "pimdse/hw/area.hpp"

#include "pimdse/hw/node.hpp"

namespace pimdse::hw {

namespace {

constexpr double kMm2PerUm2 = 1e-6;

// One buffer: a fixed periphery plus storage linear in its size (technology.hpp).
SquareMillimetres buffer_area(int kib, const Technology& t) {
    return t.sram_area_per_buffer + t.sram_area_per_kib * static_cast<double>(kib);
}

}  // namespace

AreaBreakdown area(const HardwareParams& p, const Constraints& constraints, const Technology& t) {
    const Constraints c = with_point(constraints, p);  // the point's data width sizes its PEs
    const int nodes = p.node_rows * p.node_cols;
    // III-A: a node's banks are bound into one port; VIII-B: a flit is half that port.
    const double banks_per_node = nodes > 0 ? static_cast<double>(c.bank_count()) / nodes : 0.0;
    const double flit_bits = banks_per_node * c.bank_width_bits / 2.0;
    const double router_buffer_bits =
        Technology::kRouterPorts * c.noc_virtual_channels * t.router_buffer_depth_flits * flit_bits;

    AreaBreakdown a;
    a.node_count = nodes;
    NodeArea& n = a.node;
    n.pe_array = SquareMillimetres(static_cast<double>(p.pe_rows) * p.pe_cols *
                                   t.pe_area_um2_at(c.data_width_bits) * kMm2PerUm2);
    n.input_buffer = buffer_area(p.ibuf_kib, t);
    n.weight_buffer = buffer_area(p.wbuf_kib, t);
    n.output_buffer = buffer_area(p.obuf_kib, t);
    n.router = t.router_area_base +
               SquareMillimetres(router_buffer_bits * t.router_buffer_area_um2_per_bit * kMm2PerUm2);
    n.dram_controller = t.dram_controller_area_per_bank * banks_per_node;
    a.nn_engines = n.nn_engine() * static_cast<double>(nodes);
    a.total = n.total() * static_cast<double>(nodes);
    return a;
}

}  // namespace pimdse::hw
