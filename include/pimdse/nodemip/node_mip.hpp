#pragma once
// The exact intra-node optimum on CBC: one node program (node_program.hpp) per spatial
// unrolling and loop order, each a lower bound of the analytic node model over its tilings,
// solved through the solver module, its optimum re-costed by sim::evaluate_tiling, kept as
// the incumbent when it ranks first (sim::exact_better, then the exhaustive search's
// enumeration order) and cut off by a no-good cut, with the log-sum-exp tangents at that
// point added, until the program's bound exceeds the incumbent. The result is the tiling
// sim::exact_search finds; the work limit is a count of MIP solves. The programs tile B, K,
// C, P, Q and keep the kernel whole (R and S one tile), as the exact search does. Behind the
// sim::IntraNodeMapper seam as MipIntraNodeMapper. docs/model.md, "The node MIP".

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "pimdse/core/model_options.hpp"
#include "pimdse/sim/exact_intra_node.hpp"
#include "pimdse/sim/intra_node.hpp"

namespace pimdse::nodemip {

struct MipNodeOptions {
    NodeObjective objective = NodeObjective::latency;
    /// MIP solves per part-layer (>= 1): past it the best so far, not proven optimal.
    std::int64_t max_solves = 200000;
    /// The wall-clock safety net of one solve; the deterministic limit is max_solves.
    double solve_seconds = 10.0;
};

struct MipNodeResult {
    sim::IntraNodeCost cost;  ///< the optimum, as evaluate_tiling costs it
    sim::ExactStatus status = sim::ExactStatus::optimal;
    double objective = 0;          ///< cycles, pJ or pJ x cycles
    double gap = 0;                ///< (objective - proven bound) / objective; 0 when optimal
    std::int64_t solves = 0;       ///< MIP solves (the work count)
    std::int64_t programs = 0;     ///< programs built (feasible unrolling and order pairs)
    std::int64_t max_columns = 0;  ///< the largest program's columns ...
    std::int64_t max_rows = 0;     ///< ... and rows, cuts included
};

/// The MIP search, warm-started from the fast search (AnalyticIntraNodeMapper::search) under
/// the same coefficients. Infeasible (status in the cost) when no tiling fits.
[[nodiscard]] MipNodeResult mip_search(const sim::PartLayer& layer, const sim::NodeSpec& node,
                                       sim::DataLayout in, sim::DataLayout out,
                                       const sim::IntraNodeEnergyCoefficients& k,
                                       const MipNodeOptions& options);

/// A lower bound of the objective of `tiling` (its unrolling and order) from its program with
/// the tile choices fixed: never above what evaluate_tiling says of it; infinite for an order
/// outside sim::kFastOrders, which the program does not hold.
[[nodiscard]] double program_bound(const sim::PartLayer& layer, const sim::NodeSpec& node,
                                   const sim::Tiling& tiling, const sim::IntraNodeEnergyCoefficients& k,
                                   NodeObjective objective);

/// The program's lower bounds of the row activations of each tensor (input, weight, output)
/// under `tiling`: never above what evaluate_tiling counts; infinite when it does not fit.
[[nodiscard]] std::array<double, 3> program_activations(const sim::PartLayer& layer,
                                                        const sim::NodeSpec& node, const sim::Tiling& tiling,
                                                        const sim::IntraNodeEnergyCoefficients& k);

/// mip_search behind the IntraNodeMapper seam, memoised per (layer, node, layouts). One per thread.
class MipIntraNodeMapper final : public sim::IntraNodeMapper {
public:
    MipIntraNodeMapper(const MipNodeOptions& options, const sim::IntraNodeEnergyCoefficients& k)
        : options_(options), energy_(k) {}
    [[nodiscard]] sim::IntraNodeCost map(const sim::PartLayer& layer, const sim::NodeSpec& node,
                                         sim::DataLayout in, sim::DataLayout out) override;
    /// Searches the work limit stopped, not proven optimal.
    [[nodiscard]] std::int64_t unproven() const noexcept { return unproven_; }

private:
    MipNodeOptions options_;
    sim::IntraNodeEnergyCoefficients energy_;
    std::unordered_map<sim::NodeSearchKey, sim::IntraNodeCost, sim::NodeSearchKeyHash> memo_;
    std::int64_t unproven_ = 0;
};

/// The node model `options` names (sim::make_node_model), with the MIP when the exact model's
/// solver is `mip`: what every user builds its node model with.
[[nodiscard]] std::unique_ptr<sim::IntraNodeMapper> make_node_model(
    const ModelOptions& options, const sim::IntraNodeEnergyCoefficients& energy);

}  // namespace pimdse::nodemip
