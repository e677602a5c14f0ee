#include "pimdse/sim/system.hpp"

#include <algorithm>
#include <cmath>

#include "pimdse/hw/node.hpp"

namespace pimdse::sim {

System make_system(const hw::Constraints& constraints, const hw::HardwareParams& p, const hw::Technology& t) {
    // The point's clock and data width, where it sets them (docs/model.md, "Clock and data width").
    const hw::Constraints c = hw::with_point(constraints, p);
    const hw::NodeFacts f = hw::node_facts(p, c);
    System s;
    s.mesh = Mesh(p.node_rows, p.node_cols);
    s.clock_mhz = c.clock_mhz;
    s.data_bits = c.data_width_bits;
    s.psum_bits = c.psum_width_bits;

    NodeSpec& n = s.node;
    n.pe_rows = p.pe_rows;
    n.pe_cols = p.pe_cols;
    n.ibuf = kibibytes(p.ibuf_kib);
    n.wbuf = kibibytes(p.wbuf_kib);
    n.obuf = kibibytes(p.obuf_kib);
    n.dram_port_bits = f.dram_port_bits;  // III-A: the node's banks bound into one port
    n.row_buffer = t.dram_row_buffer * static_cast<Bytes::rep>(f.banks_per_node);
    // DRAM timing at the node clock (1 MHz = 1e-3 per ns); docs/model.md, "DRAM timing".
    const double per_ns = c.clock_mhz * 1e-3;
    n.access_cycles = t.dram_tccd_ns * per_ns;
    n.precharge_cycles = t.dram_trp_ns * per_ns;
    n.activate_cycles = t.dram_trcd_ns * per_ns;
    n.ras_cycles = t.dram_tras_ns * per_ns;
    n.read_precharge_cycles = t.dram_trtp_ns * per_ns;
    n.write_precharge_cycles = t.dram_write_to_precharge_ns * per_ns;
    n.write_read_cycles = t.dram_write_to_read_ns * per_ns;
    n.read_write_cycles = t.dram_read_to_write_ns * per_ns;
    n.refresh_factor = t.dram_trefi_ns / (t.dram_trefi_ns - t.dram_trfc_ns);
    n.refresh_interval_cycles = t.dram_trefi_ns * per_ns;
    n.clock_mhz = c.clock_mhz;
    validate(n);

    s.noc.flit_bits = f.flit_bits;  // VIII-B: half the node's bank width
    s.noc.hop_cycles = t.noc_hop_cycles;
    s.noc.pj_per_bit_hop = c.noc_energy_per_bit_hop.value();
    validate(s.noc);
    s.dram_capacity = f.dram_capacity;

    // Per element access: bits per element x the buffer's size-dependent energy per bit.
    const auto sram = [&](int kib, int bits) {
        const double per_bit =
            0.5 * (t.sram_read_energy_per_bit(kib).value() + t.sram_write_energy_per_bit(kib).value());
        return per_bit * bits;
    };
    s.energy.pj_per_mac = t.mac_energy_at(c.data_width_bits).value();
    s.energy.pj_per_ibuf_access = sram(p.ibuf_kib, c.data_width_bits);
    s.energy.pj_per_wbuf_access = sram(p.wbuf_kib, c.data_width_bits);
    s.energy.pj_per_obuf_access = sram(p.obuf_kib, c.psum_width_bits);  // the obuf holds partial sums
    s.energy.pj_per_dram_bit = c.dram_energy_per_bit.value();
    // The technology figure is for one bank's row; all the node's banks open together.
    s.energy.pj_per_row_activation = t.dram_activation_energy.value() * f.banks_per_node;
    s.energy.pj_per_register_bit = t.register_energy_per_bit.value();
    // mW x ns = pJ; one node cycle lasts 1000 / clock_mhz ns.
    const double banks = static_cast<double>(f.banks_per_node) * p.node_rows * p.node_cols;
    s.dram_background_pj_per_cycle =
        banks * (t.dram_background_mw_per_bank + t.dram_refresh_mw_per_bank) * 1000.0 / c.clock_mhz;
    return s;
}

}  // namespace pimdse::sim
