#pragma once
// The exact intra-node optimum over the space the analytic node model can cost: every
// ordered pair of distinct loop dims as the PE array's spatial unrolling, every tiling whose
// tile sizes are divisors, powers of two, PE-extent multiples of powers of two or the whole
// extent of their dim and fit the buffers (R and S whole, until the DRAM model costs kernel
// tiles), and all 5040 orders of the seven tile loops. Every
// candidate is costed by evaluate_tiling (intra_node.hpp), so the optimum it returns is
// exactly what the analytic model says of that tiling. The objective is latency, energy or
// EDP from the model's own counts and energy coefficients; ties are broken by the other
// measure and then by enumeration order, which is fixed. A work limit (fitting tilings
// costed) stops it deterministically; the status says whether the optimum is proven.
// docs/model.md, "The exact intra-node optimum".

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "pimdse/core/model_options.hpp"
#include "pimdse/sim/intra_node.hpp"

namespace pimdse::sim {

/// Whether an exact search covered its whole space.
enum class ExactStatus : std::uint8_t {
    optimal,     ///< every candidate was costed: no tiling of the space is better
    work_limit,  ///< the work limit stopped it: the best found (never worse than the fast search)
};

struct ExactNodeResult {
    IntraNodeCost cost;  ///< the optimum, as evaluate_tiling costs it
    ExactStatus status = ExactStatus::optimal;
    double objective = 0;             ///< cycles, pJ or pJ x cycles
    std::int64_t tilings_costed = 0;  ///< fitting tilings costed (the work count)
    std::int64_t tilings_pruned = 0;  ///< fitting tilings skipped by the compute bound (latency)
};

/// The candidate tile sizes of one dim, ascending and distinct: the divisors of `extent`,
/// the powers of two and `unit` x the powers of two below it, and `extent` itself.
[[nodiscard]] std::vector<std::int64_t> exact_tile_candidates(std::int64_t extent, std::int64_t unit);

/// The spatial unrollings of the exact space: every ordered pair of distinct loop dims of
/// B, K, C, P, Q (R and S are never unrolled), in a fixed order (rows major).
[[nodiscard]] std::vector<SpatialUnroll> exact_unrolls();

/// The objective of `cost` for `layer` (its MACs) under `k`.
[[nodiscard]] double node_objective(const IntraNodeCost& cost, const PartLayer& layer,
                                    const IntraNodeEnergyCoefficients& k, NodeObjective objective) noexcept;

/// True if `a` ranks before `b`: lower objective, then lower tie measure (energy for
/// latency, latency for energy and EDP). Equal on both: neither (enumeration order decides).
[[nodiscard]] bool exact_better(const IntraNodeCost& a, const IntraNodeCost& b, const PartLayer& layer,
                                const IntraNodeEnergyCoefficients& k, NodeObjective objective) noexcept;

/// The loop orders an exact search costs: all 120, or the fast search's four (kFastOrders),
/// the space of the node MIP (nodemip/node_mip.hpp), which is checked against it.
enum class ExactOrders : std::uint8_t { all, fast };

/// The exact search: starts from the fast search's choice under the same coefficients
/// (AnalyticIntraNodeMapper::search) and costs every fitting tiling of the space in a fixed
/// order until the work limit.
/// Infeasible (status in the cost) when no tiling fits.
[[nodiscard]] ExactNodeResult exact_search(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                           DataLayout out, const IntraNodeEnergyCoefficients& k,
                                           const ExactNodeOptions& options,
                                           ExactOrders orders = ExactOrders::all);

/// exact_search behind the IntraNodeMapper seam, memoised per (layer, node, layouts); counts
/// the searches the work limit stopped. One per thread.
class ExactIntraNodeMapper final : public IntraNodeMapper {
public:
    ExactIntraNodeMapper(const ExactNodeOptions& options, const IntraNodeEnergyCoefficients& k)
        : options_(options), energy_(k) {}
    [[nodiscard]] IntraNodeCost map(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                    DataLayout out) override;

    [[nodiscard]] const ExactNodeOptions& options() const noexcept { return options_; }
    [[nodiscard]] std::size_t searches() const noexcept { return memo_.size(); }
    /// Searches that ended at the work limit, not proven optimal.
    [[nodiscard]] std::int64_t unproven() const noexcept { return unproven_; }

private:
    ExactNodeOptions options_;
    IntraNodeEnergyCoefficients energy_;
    std::unordered_map<NodeSearchKey, IntraNodeCost, NodeSearchKeyHash> memo_;
    std::int64_t unproven_ = 0;
};

}  // namespace pimdse::sim
