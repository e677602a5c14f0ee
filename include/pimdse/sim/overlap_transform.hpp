#pragma once
// The overlap-friendly transformation (OverlaPIM III-D): the order in which one node of a
// layer runs its temporal steps, sorted by the ready time of their inputs instead of the
// loop order. A step holds whole C loops, so a reordering never splits a reduction: the
// partial sums of an output stay on their node. Only orders that fetch no tile more often
// than the loop order are chosen (NodeSteps::keep), so the node's latency is the loop
// order's and nothing is re-analysed: the steps' data spaces are the same boxes in another
// order. docs/model.md, "The overlap-friendly transformation", states the rule.

#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/sim/data_space.hpp"

namespace pimdse::sim {

/// The order in which node `ns` runs its steps (`order` receives a permutation of
/// 0 .. ns.steps - 1) given each step's input ready time `ready` (one per step): the blocks
/// of NodeSteps::keep by their earliest ready time, coarsest first, and inside them the
/// steps by ready time; ties go pixels first (B, P, Q, then K: a consumer reads every
/// channel of a pixel), then by loop order.
void transformed_order(const NodeSteps& ns, std::span<const double> ready, std::vector<std::int64_t>& order);

}  // namespace pimdse::sim
