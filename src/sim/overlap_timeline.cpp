// The overlapped timeline: ready times of the layers' steps from their data spaces
// (include/pimdse/sim/overlap_timeline.hpp; docs/model.md, "Overlapped layers").

#include "pimdse/sim/overlap_timeline.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/overlap_composer.hpp"

namespace pimdse::sim {

using workload::LayerIndex;

Cycles OverlapTimeline::segment(std::span<const TimelineLayer> layers, std::size_t regions,
                                std::span<LayerTiming> timing) const {
    std::vector<LayerTiming> t(layers.size());
    std::array<TimelineSegment, 1> one{TimelineSegment{layers, regions}};
    std::array<std::vector<LayerTiming>, 1> timings{std::move(t)};
    std::array<Cycles, 1> latency{};
    if (timing.size() != layers.size()) throw ModelError("OverlapTimeline: one timing per layer");
    const Cycles total = network(one, timings, latency);
    std::copy(timings[0].begin(), timings[0].end(), timing.begin());
    return total;
}

namespace {

/// The segments composed by one Composer; see OverlapTimeline::network.
Cycles compose(std::span<const TimelineSegment> segments, std::span<std::vector<LayerTiming>> timing,
               std::span<Cycles> segment_latency, bool transform) {
    std::size_t count = 0;
    for (const TimelineSegment& s : segments) count += s.layers.size();
    OverlapComposer c(count, transform);
    double running = 0;
    for (std::size_t k = 0; k < segments.size(); ++k) {
        const double before = running;
        for (std::size_t i = 0; i < segments[k].layers.size(); ++i) {
            const LayerTiming lt = c.add(segments[k].layers[i]);
            timing[k][i] = lt;
            running = std::max(running, (lt.start + lt.latency).value());
        }
        segment_latency[k] = Cycles(running - before);
    }
    return Cycles(running);
}

}  // namespace

Cycles OverlapTimeline::network(std::span<const TimelineSegment> segments,
                                std::span<std::vector<LayerTiming>> timing,
                                std::span<Cycles> segment_latency) const {
    if (timing.size() != segments.size() || segment_latency.size() != segments.size())
        throw ModelError("OverlapTimeline: one timing list and one latency per segment");
    const Cycles loop = compose(segments, timing, segment_latency, false);
    if (!transform_) return loop;
    // Each layer's choice is greedy (OverlaPIM III-E); the network keeps the loop orders
    // when those choices together do not finish earlier.
    std::vector<std::vector<LayerTiming>> moved(timing.begin(), timing.end());
    std::vector<Cycles> moved_latency(segment_latency.size());
    const Cycles transformed = compose(segments, moved, moved_latency, true);
    if (transformed >= loop) return loop;
    std::move(moved.begin(), moved.end(), timing.begin());
    std::copy(moved_latency.begin(), moved_latency.end(), segment_latency.begin());
    return transformed;
}

const Timeline& overlap_timeline() noexcept {
    static const OverlapTimeline timeline;
    return timeline;
}

const Timeline& overlap_transform_timeline() noexcept {
    static const OverlapTimeline timeline(true);
    return timeline;
}

const Timeline& timeline_of(const ModelOptions& model) noexcept {
    if (!model.overlap) return sequential_timeline();
    return model.overlap_transform ? overlap_transform_timeline() : overlap_timeline();
}

}  // namespace pimdse::sim
