#pragma once
// The node MIP's program: for one part-layer, node and spatial unrolling, a
// mixed-integer program over one-hot tile choices (one binary per candidate tile of each
// loop dim, sim::exact_tile_candidates) whose optimum is a valid lower bound of the analytic
// node model's latency, energy or EDP over every fitting tiling of that unrolling under the
// four loop orders of sim::kFastOrders, the other permutations not being in the program
// (after PIM Optimizer §4-5: loop bounds chosen in log space). Exact in log space: the buffer
// capacity (a footprint is a product of per-dim factors) and the compute cycles (a product
// of per-dim lane passes). Lower bounds: each tensor's DRAM accesses (its distinct elements
// times the trip counts of the loops it ignores outside its innermost relevant loop, over
// the port width), and the latency and energy as log-sum-exp epigraphs whose tangent planes
// are added as cuts. This module owns the program and its reading; the search that solves,
// re-costs and cuts it is node_mip.hpp. docs/model.md, "The node MIP".

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "pimdse/core/model_options.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/solver/linear_model.hpp"

namespace pimdse::nodemip {

/// One affine term of a log-sum-exp: constant + sum of coef x col.
struct LogTerm {
    double constant = 0;
    std::vector<std::pair<std::size_t, double>> coef;
};

/// epigraph column >= log(sum_i exp(term_i)).
struct LogSum {
    std::size_t epigraph = 0;
    std::vector<LogTerm> terms;
};

struct NodeProgram {
    solver::LinearModel model;
    sim::SpatialUnroll unroll;
    /// The binary of each loop order (one is chosen).
    std::array<std::size_t, sim::kFastOrderCount> order_col{};
    /// The candidate tiles of each dim and the binary column of each.
    std::array<std::vector<std::int64_t>, sim::kLoopDims> tiles;
    std::array<std::vector<std::size_t>, sim::kLoopDims> y;
    LogSum latency;  ///< log total cycles >= log DRAM cycles (and >= log compute, exact)
    LogSum energy;   ///< log energy
    /// Log lower bounds of each tensor's row activations (input, weight, output), terms of `energy`.
    std::array<LogTerm, 3> activations;
    bool feasible = true;  ///< false when no tiling can fit the buffers
};

/// The program of `unroll` (every loop order), minimising the log of the objective.
[[nodiscard]] NodeProgram build_program(const sim::PartLayer& layer, const sim::NodeSpec& node,
                                        sim::SpatialUnroll unroll, const sim::IntraNodeEnergyCoefficients& k,
                                        NodeObjective objective);

/// The tiling a solution's binaries choose (with the program's unrolling).
[[nodiscard]] sim::Tiling tiling_of(const NodeProgram& p, const std::vector<double>& x);

/// The index of each dim's chosen candidate in a solution.
[[nodiscard]] std::array<std::size_t, sim::kLoopDims> choice_of(const NodeProgram& p,
                                                                const std::vector<double>& x);

/// Excludes the tiling `choice` under every order: at most kLoopDims - 1 of its binaries.
void add_no_good(NodeProgram& p, const std::array<std::size_t, sim::kLoopDims>& choice);

/// Adds the tangent plane of each log-sum-exp at solution `x` when `x` violates it; returns
/// how many were added.
int add_tangent_cuts(NodeProgram& p, const std::vector<double>& x);

/// The value of a term at `x`.
[[nodiscard]] double term_at(const LogTerm& t, const std::vector<double>& x);

/// The value of log(sum exp(terms)) at `x`.
[[nodiscard]] double log_sum_at(const LogSum& s, const std::vector<double>& x);

}  // namespace pimdse::nodemip
