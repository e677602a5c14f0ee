// The one factory of node models (include/pimdse/sim/node_model.hpp).

#include "pimdse/sim/node_model.hpp"

#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/exact_intra_node.hpp"

namespace pimdse::sim {

std::unique_ptr<IntraNodeMapper> make_node_model(const ModelOptions& options,
                                                 const IntraNodeEnergyCoefficients& energy) {
    switch (options.intra_node) {
        case IntraNodeModel::analytic:
            return std::make_unique<AnalyticIntraNodeMapper>(energy);
        case IntraNodeModel::exact:
            return std::make_unique<ExactIntraNodeMapper>(options.exact, energy);
    }
    throw ModelError("make_node_model: unknown intra-node model " +
                     std::to_string(static_cast<int>(options.intra_node)));
}

}  // namespace pimdse::sim
