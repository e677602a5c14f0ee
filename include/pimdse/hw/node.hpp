#pragma once
// Facts about one PIM-node that follow from the parameters and the constraints alone,
// without an area model (NicePIM III-A and VIII-B), and the constraints a point's clock and
// data width override.

#include "pimdse/core/units.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"

namespace pimdse::hw {

struct NodeFacts {
    int node_count = 0;      ///< NA_row * NA_col
    int banks_per_node = 0;  ///< (BA_row * BA_col) / (NA_row * NA_col) (III-A)
    int dram_port_bits = 0;  ///< the node's banks bound into one port: banks * Width_Bank (III-A)
    Bytes dram_capacity;     ///< banks * CA_Bank
    int flit_bits = 0;       ///< NoC flit: half the node's total bank width (VIII-B)

    friend bool operator==(const NodeFacts&, const NodeFacts&) = default;
};

/// The constraints a point is costed under: `c` with the point's clock and data width where
/// it sets them (HardwareParams::clock_mhz, data_width_bits; 0 keeps the constraints').
[[nodiscard]] Constraints with_point(const Constraints& c, const HardwareParams& p);

/// The node facts of `p`. Precondition: the node array divides the bank array (check()
/// reports that); otherwise throws ModelError, since nodes would not be equal.
[[nodiscard]] NodeFacts node_facts(const HardwareParams& p, const Constraints& c);

}  // namespace pimdse::hw
