#pragma once
// The timed node reference: it plays a part-layer's tiles one by one in the tiling's loop
// order, each tile's transfers issued as DRAM commands on the command clock of
// dram_reference.hpp and each tile's compute on the PE array, with two buffer slots per
// tensor, and says when the last write-back ends. Plain and slow on purpose; used only to
// check the analytic node latency (intra_node.hpp, `total_cycles`).
//
// The play (docs/model.md, "Timed node reference"): the transfers go through the one port
// in the trace's order (dram_reference.hpp). A fetch into a slot waits until the tile that
// held the slot has computed its last step; a write-back waits until its tile has computed;
// a psum reload, and a new output tile's first step, wait until the tile that held the obuf
// slot has been written back. A step computes once its tiles have arrived and the step
// before has computed, for R x S x the product over the tile loops of the tile's extent
// (its lane passes for the unrolled dims). So the next tiles' fetches and the last tile's
// write-back overlap compute, the first fetches (prologue) and the last write-back
// (epilogue) do not.

#include <cstdint>

#include "pimdse/sim/dram_reference.hpp"

namespace pimdse::sim {

/// When things happened in one play, in node cycles; cycles = prologue + compute + stall +
/// epilogue.
struct NodeTiming {
    double cycles = 0;       ///< from the first command to the end of the last write-back
    double compute = 0;      ///< the steps' PE-array cycles, summed
    double prologue = 0;     ///< before the first step computes: its fetches
    double stall = 0;        ///< between the first step's start and the last step's end, waiting for data
    double epilogue = 0;     ///< after the last step has computed: the last write-back
    std::int64_t steps = 0;  ///< steps of the tiled nest
    std::int64_t compute_bound = 0;  ///< steps that started right when the step before ended
    DramCommandCount commands;       ///< what the port issued, `cycles` its busy end
};

/// Plays `layer` under `tiling` on `node` with the given layouts, a refresh every
/// `refi_cycles` lasting `rfc_cycles`. Preconditions as for simulate_dram_trace; cost is
/// proportional to the elements moved.
[[nodiscard]] NodeTiming simulate_node_timing(const PartLayer& layer, const NodeSpec& node,
                                              const Tiling& tiling, DataLayout in, DataLayout out,
                                              double refi_cycles, double rfc_cycles);

}  // namespace pimdse::sim
