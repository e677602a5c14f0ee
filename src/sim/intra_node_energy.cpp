// The intra-node energy of a node search's counts (include/pimdse/sim/intra_node.hpp):
// counts times the technology's coefficients (docs/model.md, "Energy").

#include "pimdse/sim/intra_node.hpp"

namespace pimdse::sim {

IntraNodeEnergy intra_node_energy_split(const IntraNodeCost& c, std::int64_t macs,
                                        const IntraNodeEnergyCoefficients& k) noexcept {
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    IntraNodeEnergy e;
    e.pe = Picojoules(d(macs) * k.pj_per_mac);
    e.registers = Picojoules(d(c.register_bits) * k.pj_per_register_bit);
    e.sram = Picojoules(d(c.ibuf.reads + c.ibuf.writes) * k.pj_per_ibuf_access +
                        d(c.wbuf.reads + c.wbuf.writes) * k.pj_per_wbuf_access +
                        d(c.obuf.reads + c.obuf.writes) * k.pj_per_obuf_access);
    e.dram_access = Picojoules(d(c.dram.accesses()) * d(c.dram_port_bytes * 8) * k.pj_per_dram_bit);
    e.dram_activation = Picojoules(d(c.dram.activations()) * k.pj_per_row_activation);
    return e;
}

Picojoules intra_node_energy(const IntraNodeCost& c, std::int64_t macs,
                             const IntraNodeEnergyCoefficients& k) noexcept {
    return intra_node_energy_split(c, macs, k).total();
}

std::string_view to_string(PeDataflow d) noexcept {
    switch (d) {
        case PeDataflow::weight_stationary:
            return "weight";
        case PeDataflow::input_stationary:
            return "input";
        case PeDataflow::output_stationary:
            break;
    }
    return "output";
}

}  // namespace pimdse::sim
