#pragma once
// Fetches that find their first row already open (src/sim/dram_open_row.cpp; docs/model.md,
// "Rows shared by consecutive fetches"). The DRAM model costs every fetch as if it began
// with a row miss; under the open-row policy of the node's one logical bank a fetch that
// directly follows one of the same region whose last row is its first row does not. In
// the loop nest of dram_reference.hpp that happens at three places only, since every tile
// loop changes at least two tensors:
//  - a partial-sum spill right after the reload that precedes it, from the same ping-pong
//    region: at every advance of the C loop, the last output tile of the inner loops is
//    spilled after the first one is reloaded (a read-to-write turnaround in the open row);
//  - the final write-back of the last output tile, right after the one before it, when the
//    innermost tile loop moves the output;
//  - the second weight tile, right after the first, when the innermost loop is K (the first
//    step has no write-back in between).

#include <array>
#include <cstdint>

#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/intra_node_tiling.hpp"

namespace pimdse::sim::detail {

struct OpenRowHits {
    std::int64_t weight = 0;            ///< weight fetches that start in the open row
    std::int64_t output_writes = 0;     ///< write-backs and spills that start in the open row
    std::int64_t read_write_turns = 0;  ///< of those, after a read of that row (a reload)
};

/// The spills per advance of the C loop under `order` that start in the row their reload
/// left open, in expectation over the contexts of the loops outside C (spanned() of
/// dram_shape.hpp); 0 where no output loop with more than one tile is inside C. It depends
/// on the output tiles only (tiling's B, K, P, Q), so a search caches it by them.
[[nodiscard]] double spill_rows_per_advance(const PartLayer& layer, const NodeSpec& node,
                                            const Tiling& tiling,
                                            const std::array<std::int64_t, kLoopDims>& n, DataLayout out,
                                            const LoopOrder& order);
/// spill_rows_per_advance for each of kFastOrders.
[[nodiscard]] std::array<double, kFastOrderCount> spill_rows_per_advance(
    const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
    const std::array<std::int64_t, kLoopDims>& n, DataLayout out);

/// The fetches of `layer` under `tiling` (its loop order included; n[d] tiles along d) that
/// start in the row the previous fetch left open, given spill_rows_per_advance for that order
/// (the spills are rounded to the nearest count).
[[nodiscard]] OpenRowHits open_row_hits(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                        const std::array<std::int64_t, kLoopDims>& n, DataLayout in,
                                        DataLayout out, double spills_per_c_advance);

}  // namespace pimdse::sim::detail
