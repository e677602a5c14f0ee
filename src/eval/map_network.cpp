// The sweep's one mapping decision (include/pimdse/eval/evaluate.hpp). Until the PIM-Mapper
// lands this is the uniform mapping (docs/model.md, "The uniform mapping").

#include "pimdse/eval/evaluate.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

namespace pimdse::eval {

sim::NetworkMapping map_network(const workload::Network& network, const workload::Segmentation& seg,
                                const sim::System& system, const Deadline& deadline) {
    if (deadline.expired()) throw DeadlineExpired();
    return sim::uniform_mapping(network, seg, system.node_rows(), system.node_cols());
}

}  // namespace pimdse::eval
