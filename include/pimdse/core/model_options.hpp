#pragma once
// Which node model costs a part-layer behind the sim::IntraNodeMapper seam
// (sim/node_model.hpp), what the exact one optimises and how long it may search, and which
// timeline composes the layers (sequential or overlapped, sim/overlap_timeline.hpp): the
// `model:` section of a sweep configuration or hardware file (docs/config.md). Plain values
// with no behaviour: sim::make_node_model builds the model they name, and the configuration
// reader (io) fills them in without depending on sim (docs/architecture.md, "Dependencies").

#include <cstdint>
#include <string_view>

#include "pimdse/core/enum_names.hpp"

namespace pimdse {

/// How a node's cost of one part-layer is found.
enum class IntraNodeModel : std::uint8_t {
    analytic,  ///< the analytic mapper: a small fixed search with the analytic DRAM model
    exact,     ///< every tiling the analytic model can cost, the optimum of an objective
};
/// The `model.intra_node` choices, declared once.
inline constexpr EnumNames<IntraNodeModel, 2> kIntraNodeModelNames{
    {{IntraNodeModel::analytic, "analytic"}, {IntraNodeModel::exact, "exact"}}};

[[nodiscard]] inline std::string_view to_string(IntraNodeModel m) noexcept {
    return name_of(kIntraNodeModelNames, m);
}

/// What the exact node model minimises, each from the analytic model's own counts.
enum class NodeObjective : std::uint8_t {
    latency,  ///< total cycles
    energy,   ///< intra-node energy (counts x the technology's coefficients)
    edp,      ///< energy x total cycles
};
/// The `model.exact.objective` choices, declared once.
inline constexpr EnumNames<NodeObjective, 3> kNodeObjectiveNames{
    {{NodeObjective::latency, "latency"}, {NodeObjective::energy, "energy"}, {NodeObjective::edp, "edp"}}};

[[nodiscard]] inline std::string_view to_string(NodeObjective o) noexcept {
    return name_of(kNodeObjectiveNames, o);
}

/// How the exact node model finds its optimum; both find the same tiling.
enum class ExactSolver : std::uint8_t {
    enumerate,  ///< every fitting tiling costed (sim/exact_intra_node.hpp)
    mip,        ///< mixed-integer programs on CBC, re-costed and cut until proven (nodemip/node_mip.hpp)
};
/// The `model.exact.solver` choices, declared once.
inline constexpr EnumNames<ExactSolver, 2> kExactSolverNames{
    {{ExactSolver::enumerate, "enumerate"}, {ExactSolver::mip, "mip"}}};

[[nodiscard]] inline std::string_view to_string(ExactSolver s) noexcept {
    return name_of(kExactSolverNames, s);
}

/// Default work limit of the exact node model: tilings costed per part-layer (docs/config.md).
inline constexpr std::int64_t kDefaultNodeWorkLimit = 2000000;

/// The `model.exact:` subsection: what the exact node model minimises and its work limit.
struct ExactNodeOptions {
    NodeObjective objective = NodeObjective::latency;
    /// Fitting tilings costed (enumerate) or MIP solves (mip) per part-layer (>= 1); past it
    /// the best so far is returned, not proven optimal. Deterministic: a count, the same on
    /// any machine.
    std::int64_t work_limit = kDefaultNodeWorkLimit;
    ExactSolver solver = ExactSolver::enumerate;

    friend bool operator==(const ExactNodeOptions&, const ExactNodeOptions&) = default;
};

/// The `model:` configuration section.
struct ModelOptions {
    IntraNodeModel intra_node = IntraNodeModel::analytic;
    /// Read and used when intra_node is exact.
    ExactNodeOptions exact;
    /// Consecutive layers overlap (OverlaPIM; docs/model.md, "Overlapped layers"): the
    /// network's cost is composed by the overlapped timeline instead of the sequential one.
    bool overlap = false;
    /// With overlap: the overlap-friendly transformation (OverlaPIM III-D; docs/model.md,
    /// "The overlap-friendly transformation") reorders each node's steps by input ready time.
    bool overlap_transform = false;

    friend bool operator==(const ModelOptions&, const ModelOptions&) = default;
};

}  // namespace pimdse
