#include "pimdse/hw/node.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::hw {

Constraints with_point(const Constraints& c, const HardwareParams& p) {
    Constraints out = c;
    if (p.clock_mhz != 0) out.clock_mhz = p.clock_mhz;
    if (p.data_width_bits != 0) out.data_width_bits = p.data_width_bits;
    return out;
}

NodeFacts node_facts(const HardwareParams& p, const Constraints& c) {
    if (p.node_rows <= 0 || p.node_cols <= 0 || c.bank_rows % p.node_rows != 0 ||
        c.bank_cols % p.node_cols != 0) {
        throw ModelError("node_facts: a " + std::to_string(p.node_rows) + 'x' + std::to_string(p.node_cols) +
                         " node array does not tile the " + std::to_string(c.bank_rows) + 'x' +
                         std::to_string(c.bank_cols) + " bank array");
    }
    NodeFacts f;
    f.node_count = p.node_rows * p.node_cols;
    f.banks_per_node = c.bank_count() / f.node_count;
    // III-A: ports bound together. The configuration bounds the product (io/config.cpp); a
    // Constraints built by hand that overflows is refused rather than wrapped to 0.
    const std::int64_t port = static_cast<std::int64_t>(f.banks_per_node) * c.bank_width_bits;
    if (port > std::numeric_limits<int>::max())
        throw std::overflow_error("node_facts: a DRAM port of " + std::to_string(port) + " bits");
    f.dram_port_bits = static_cast<int>(port);
    f.dram_capacity = c.bank_capacity * static_cast<Bytes::rep>(f.banks_per_node);
    f.flit_bits = f.dram_port_bits / 2;  // VIII-B: half the node's total bank width
    return f;
}

}  // namespace pimdse::hw
