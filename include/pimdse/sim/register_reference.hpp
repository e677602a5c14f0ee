#pragma once
// The register-reuse reference: it steps a tiled part-layer through every PE-array cycle and
// counts the buffer reads one-entry operand registers leave, and the registers' fills, by
// brute force. Plain and slow
// on purpose; used only to validate buffer_reads() (intra_node.hpp).
//
// The rules (docs/model.md, "Register reuse"): every tile starts with empty registers. Inside
// a tile, the temporal loops run with the dims the stationary operand does not depend on
// innermost (for the psum also R and S); each unrolled dim runs in passes of its PE extent
// on its lanes. In a cycle, every busy lane needs one element of each operand. An operand a
// lane's register already holds (the stationary one, unchanged since the last cycle) costs
// nothing; the others are read once per distinct element the cycle needs, so an element
// broadcast to several lanes is one read, but fills the register of every lane that takes it.
// Partial sums are written to the obuf at every accumulation and drained from every lane that
// made one; an output's first accumulation (no earlier cycle touched it) starts from zero, so
// it neither reads the obuf nor fills a register. An input element is named by its
// (b, c, p, q, r, s) like the analytic model (no sliding-window reuse between kernel
// positions).

#include "pimdse/sim/intra_node.hpp"

namespace pimdse::sim {

[[nodiscard]] BufferReads simulate_buffer_reads(const PartLayer& layer, const NodeSpec& node,
                                                const Tiling& tiling, PeDataflow dataflow);

}  // namespace pimdse::sim
