#pragma once
// The trace-driven DRAM reference (PIM Optimizer 8.1, Algorithm 2): it walks the tiled loop
// nest of a part-layer, and for every tile fetch or write-back computes every element's
// address under the data layout, maps it to a port-wide access word and a DRAM row, and
// counts accesses and row activations with an open-row policy. Plain and slow on purpose;
// used only to validate dram.hpp.
//
// The nest (docs/model.md, "DRAM"): tile loops in the tiling's order; at each step, in this
// order, the input tile is fetched if it changed, then the weight tile if it changed, then,
// if the output tile changed, the new tile's partial sums are read back (from its second
// visit on) and the previous output tile is written back: as partial sums if it will be
// visited again, else as final outputs. Partial sums live in two ping-pong regions (visit v
// writes region v mod 2, visit v + 1 reads it). Every region (input, weights, output, the
// two psum regions) starts on its own row. simulate_dram_commands issues the same stream as
// DRAM commands with their timing, the reference of the analytic DRAM time.

#include <array>
#include <cstdint>

#include "pimdse/sim/dram.hpp"

namespace pimdse::sim {

/// The exact counts of fetching one box in address order (one fetch, row initially closed).
[[nodiscard]] FetchCount simulate_box_fetch(const TensorDims& dims, DataLayout layout, const TensorBox& box,
                                            const DramGeometry& g);

/// The exact DRAM traffic of the whole nest. Preconditions as for dram_traffic. Cost is
/// proportional to the elements moved: keep validation layers small.
[[nodiscard]] DramTraffic simulate_dram_trace(const PartLayer& layer, const NodeSpec& node,
                                              const Tiling& tiling, DataLayout in, DataLayout out);

/// What the command-level reference issued for a whole nest, and when the last burst ended.
struct DramCommandCount {
    std::int64_t activates = 0;   ///< ACT (row misses, plus re-opening a row after a refresh)
    std::int64_t precharges = 0;  ///< PRE (before an ACT of another row, or a refresh)
    std::int64_t columns = 0;     ///< RD and WR (one per access)
    std::int64_t refreshes = 0;   ///< REF
    double cycles = 0;            ///< node cycles from the first command to the end of the last burst
};

/// The same nest as simulate_dram_trace, issued as ACT, RD/WR, PRE and REF commands under
/// the node's timing (access, precharge, activate and RAS cycles) with a refresh every
/// `refi_cycles` lasting `rfc_cycles` (docs/model.md, "DRAM timing"), the first one due at
/// `refresh_phase` x `refi_cycles` after the start (phase in (0, 1]; 1: a whole interval, as
/// for a bank just refreshed). Validation only.
[[nodiscard]] DramCommandCount simulate_dram_commands(const PartLayer& layer, const NodeSpec& node,
                                                      const Tiling& tiling, DataLayout in, DataLayout out,
                                                      double refi_cycles, double rfc_cycles,
                                                      double refresh_phase = 1.0);

/// One tile transfer of the nest, in the order above: at step s, the input fetch, the weight
/// fetch, the psum reload of the new output tile, the write-back of the previous one; the
/// last output tile's write-back comes after the nest, as step `steps`.
struct NestTransfer {
    enum class Kind : std::uint8_t { input, weight, psum_reload, write_back };
    Kind kind = Kind::input;
    std::int64_t step = 0;
};

/// Holds the command stream back from outside (node_timing_reference.hpp plays compute
/// against it): no command of a transfer issues before earliest(transfer), and finished()
/// hears when the transfer's last burst ended.
class TransferPacer {
public:
    virtual ~TransferPacer() = default;
    /// Step `step` of the nest begins, on the tiles `idx` (indexed by LoopDim).
    virtual void begin_step(std::int64_t step, const std::array<std::int64_t, kLoopDims>& idx) = 0;
    [[nodiscard]] virtual double earliest(const NestTransfer& t) = 0;
    virtual void finished(const NestTransfer& t, double end) = 0;
};

/// simulate_dram_commands with every transfer held back by `pacer`; refreshes fall due while
/// the bank waits as well.
[[nodiscard]] DramCommandCount simulate_dram_commands(const PartLayer& layer, const NodeSpec& node,
                                                      const Tiling& tiling, DataLayout in, DataLayout out,
                                                      double refi_cycles, double rfc_cycles,
                                                      TransferPacer& pacer);

}  // namespace pimdse::sim
