#pragma once
// The node model: what a PIM-node costs for one part-layer with its input and output
// layouts (sim::IntraNodeMapper, intra_node.hpp), chosen by the configuration's
// `model.intra_node` (core/model_options.hpp) and built here, in one place, for every user:
// the evaluation, the PIM-Mapper's search and the command line.

#include <memory>

#include "pimdse/core/model_options.hpp"
#include "pimdse/sim/intra_node.hpp"

namespace pimdse::sim {

using pimdse::IntraNodeModel;
using pimdse::ModelOptions;

/// A fresh node model of the kind `options` names, with empty memo tables: one per thread,
/// and one per network where results must not depend on what was costed before. `energy`
/// is the system's intra-node energy coefficients (System::energy), which the exact model's
/// energy and EDP objectives weigh the counts with.
[[nodiscard]] std::unique_ptr<IntraNodeMapper> make_node_model(const ModelOptions& options,
                                                               const IntraNodeEnergyCoefficients& energy);

}  // namespace pimdse::sim
