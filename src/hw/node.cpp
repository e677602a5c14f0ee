#include "pimdse/hw/node.hpp"

#include <stdexcept>

namespace pimdse::hw {

NodeFacts node_facts(const HardwareParams& p, const Constraints& c) {
    if (p.node_rows <= 0 || p.node_cols <= 0 || c.bank_rows % p.node_rows != 0 ||
        c.bank_cols % p.node_cols != 0) {
        throw std::invalid_argument("node_facts: a " + std::to_string(p.node_rows) + 'x' +
                                    std::to_string(p.node_cols) + " node array does not tile the " +
                                    std::to_string(c.bank_rows) + 'x' + std::to_string(c.bank_cols) +
                                    " bank array");
    }
    NodeFacts f;
    f.node_count = p.node_rows * p.node_cols;
    f.banks_per_node = c.bank_count() / f.node_count;
    f.dram_port_bits = f.banks_per_node * c.bank_width_bits;  // III-A: ports bound together
    f.dram_capacity = c.bank_capacity * static_cast<Bytes::rep>(f.banks_per_node);
    f.flit_bits = f.dram_port_bits / 2;  // VIII-B: half the node's total bank width
    return f;
}

}  // namespace pimdse::hw
