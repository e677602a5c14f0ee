// The one factory of node models (include/pimdse/sim/node_model.hpp).

#include "pimdse/sim/node_model.hpp"

#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

std::unique_ptr<IntraNodeMapper> make_node_model(const ModelOptions& options) {
    switch (options.intra_node) {
        case IntraNodeModel::analytic:
            return std::make_unique<AnalyticIntraNodeMapper>();
    }
    throw ModelError("make_node_model: unknown intra-node model " +
                     std::to_string(static_cast<int>(options.intra_node)));
}

}  // namespace pimdse::sim
