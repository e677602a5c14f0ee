#pragma once
// The area model of a DRAM-PIM accelerator's logic die (docs/model.md, "Area"). A node is a
// PE array, three SRAM buffers, a mesh router and the controllers of its DRAM banks (NicePIM
// III-A); all nodes are equal, so the total is the node area times the node count.
//
// What the budget covers: NicePIM VIII-B gives 48 mm² as "the total available area of the
// logic die for the NN engines" and measures the NN engine (PE array + buffers) with
// Timeloop+Accelergy (VIII-A); the bank controllers sit in the rest of the logic die (III-A).
// So Cstr_area applies to `nn_engines`, and routers and controllers are reported beside it.
//
// area() is on the tuner's sampling path (16384 points per round): O(1), no allocation.

#include "pimdse/core/units.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"

namespace pimdse::hw {

/// The area of one PIM-node's logic, by component.
struct NodeArea {
    SquareMillimetres pe_array;
    SquareMillimetres input_buffer;
    SquareMillimetres weight_buffer;
    SquareMillimetres output_buffer;
    SquareMillimetres router;
    SquareMillimetres dram_controller;  ///< the controllers of all the node's banks

    /// PE array + buffers: the NN engine, what NicePIM's area budget covers.
    [[nodiscard]] SquareMillimetres nn_engine() const {
        return pe_array + input_buffer + weight_buffer + output_buffer;
    }
    [[nodiscard]] SquareMillimetres total() const { return nn_engine() + router + dram_controller; }

    friend bool operator==(const NodeArea&, const NodeArea&) = default;
};

struct AreaBreakdown {
    NodeArea node;                 ///< one node (all nodes are equal)
    int node_count = 0;            ///< NA_row * NA_col
    SquareMillimetres nn_engines;  ///< all nodes' NN engines: compared with Cstr_area
    SquareMillimetres total;       ///< all nodes, routers and DRAM controllers included

    friend bool operator==(const AreaBreakdown&, const AreaBreakdown&) = default;
};

/// The area of `p` under `c` and `t`. Banks per node are BA / NA; for a node array that does
/// not tile the bank array (which check() rejects first) the controller and flit terms use the
/// fractional share, so the result stays defined.
[[nodiscard]] AreaBreakdown area(const HardwareParams& p, const Constraints& c, const Technology& t);

}  // namespace pimdse::hw
