#pragma once
// A step-level reference simulator of the mesh NoC: flits move channel by channel, cycle
// by cycle. It is slow and plain on purpose; it exists to validate the analytic model of
// noc.hpp (tests, benchmarks of accuracy), never to run inside a sweep.
//
// Rules (docs/model.md, "Reference simulator"):
//  - every transfer with src != dst is a stream of flits_of(bytes) flits, all present at
//    the source at cycle 0; node-local transfers are ignored;
//  - a flit follows the XY route: injection port of src, the mesh links, ejection port
//    of dst (the same channels the analytic model loads);
//  - every channel forwards at most one flit per cycle;
//  - buffers are unbounded and there is one FIFO per (transfer, channel), i.e. an
//    input-queued router with a virtual channel per packet: no head-of-line blocking and
//    no back-pressure;
//  - a channel with several eligible flows serves them round-robin (the flow after the
//    one it served last);
//  - a flit that crosses the injection port in cycle t competes for its first link in the
//    same cycle t; one that crosses a link in cycle t competes for the next channel from
//    cycle t + hop_cycles; one that crosses the ejection port in cycle t has arrived at
//    the end of the cycle, i.e. at time t + 1.
// So one lone transfer of F flits over h hops finishes at exactly F + h * hop_cycles.

#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/noc.hpp"

namespace pimdse::sim {

struct ReferenceResult {
    /// Time at which the last flit has arrived (0 if nothing crosses the NoC).
    Cycles latency{0};
    /// Flits that crossed each channel, indexed by ChannelId.
    std::vector<std::int64_t> channel_flits;
    /// Arrival time of each transfer's last flit (0 for node-local or empty transfers).
    std::vector<std::int64_t> transfer_done;
};

/// Simulates one set of simultaneous transfers under the rules above.
[[nodiscard]] ReferenceResult simulate_transfers(const Mesh& mesh, std::span<const Transfer> transfers,
                                                 const NocParams& params);

/// A lower bound on simulate_transfers' latency that holds for any work-conserving
/// arbitration under the same rules: for every channel c, the earliest a flit can reach c,
/// plus load(c) cycles to serialise its flits, plus the fewest hops any of its flows still
/// has to go; and for every transfer, its own flits plus its path.
[[nodiscard]] Cycles reference_lower_bound(const Mesh& mesh, std::span<const Transfer> transfers,
                                           const NocParams& params);

}  // namespace pimdse::sim
