// The data-sharing events of a costed mapping with their schedules (schedule_events,
// include/pimdse/eval/evaluate.hpp): what the /schedules table of a sweep file shows.

#include <vector>

#include "pimdse/eval/evaluate.hpp"

namespace pimdse::eval {

std::vector<EventSchedule> schedule_events(const workload::Network& network,
                                           const workload::Segmentation& seg,
                                           const sim::NetworkMapping& mapping, const sim::NetworkCost& cost,
                                           const sim::System& system, sched::DataScheduler& scheduler) {
    std::vector<EventSchedule> out;
    for (workload::LayerIndex i = 0; i < network.size(); ++i) {
        const auto li = static_cast<std::size_t>(i);
        // A layer the timeline could not cost had no sharing costed either.
        if (li >= cost.layers.size() || cost.layers[li].status != sim::EvalStatus::ok) continue;
        const std::vector<sim::SharingEvent> events =
            sim::sharing_events(network.layer(i), mapping.layers[li], sim::layer_region(seg, mapping, i),
                                system.mesh, system.data_bits, system.psum_bits);
        for (std::size_t k = 0; k < events.size(); ++k) {
            EventSchedule e;
            e.layer = i;
            e.event = static_cast<std::int32_t>(k);
            e.kind = events[k].kind;
            e.record = scheduler.schedule(system.mesh, events[k].sets, system.noc);
            out.push_back(std::move(e));
        }
    }
    return out;
}

}  // namespace pimdse::eval
