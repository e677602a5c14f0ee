// The sweep's one mapping decision (include/pimdse/eval/evaluate.hpp): the PIM-Mapper
// (NicePIM VI, docs/mapper.md), its search costing data sharing with the snake ring and its
// returned mapping with the Data-Scheduler the evaluation costs with.

#include <memory>

#include "pimdse/eval/evaluate.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/nodemip/node_mip.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/sim/node_model.hpp"
#include "pimdse/sim/overlap_timeline.hpp"

namespace pimdse::eval {

sim::NetworkMapping map_network(const workload::Network& network, const workload::Segmentation& seg,
                                const sim::System& system, const sim::ModelOptions& model,
                                sim::SharingScheduler& scheduler, const Deadline& deadline, StepBudget& steps,
                                std::int32_t rounds) {
    if (deadline.expired()) throw DeadlineExpired();
    // Fresh memo tables per network keep the evaluation a pure function of its inputs.
    const std::unique_ptr<sim::IntraNodeMapper> intra = nodemip::make_node_model(model, system.energy);
    sim::SnakeRingScheduler search;
    mapper::MapperOptions options;
    options.max_optim_iter = rounds;
    // Called between rounds, segments, layouts and baselines: each call is one step of the
    // work limit, and the wall-clock safety net is honoured within one such step.
    options.cancelled = [&deadline, &steps] {
        steps.step();
        if (deadline.expired()) throw DeadlineExpired();
        return false;
    };
    // Ranked by the timeline the candidate is judged by (overlapped when model.overlap is on).
    mapper::Mapper m(system, options, *intra, search, scheduler, sim::timeline_of(model));
    return m.map(network, seg).mapping;
}

}  // namespace pimdse::eval
