#pragma once
// The overlapped timeline (OverlaPIM III-B, III-C): a layer's node starts a temporal step of
// its output as soon as the producer steps whose outputs its input space overlaps have
// finished and the step's share of the redistribution has arrived; layers with data-sharing
// events stay barriers. It composes the whole network at once, across segments, from the
// layers' data spaces (data_space.hpp), and is never slower than SequentialTimeline on the
// same costs. docs/model.md, "Overlapped layers", states the model and the argument.

#include <cstddef>
#include <span>
#include <vector>

#include "pimdse/core/model_options.hpp"
#include "pimdse/sim/timeline.hpp"

namespace pimdse::sim {

/// OverlaPIM's overlap of consecutive layers at the granularity node x output tile. Every
/// layer it composes must carry its spaces (TimelineLayer::spaces; ModelError otherwise).
class OverlapTimeline final : public Timeline {
public:
    /// With `transform`, the overlap-friendly transformation (overlap_transform.hpp): each
    /// streamed layer's nodes run their steps in the loop order or reordered by ready time,
    /// whichever ends the layer first, and the network keeps the loop orders throughout when
    /// that finishes no later.
    explicit OverlapTimeline(bool transform = false) noexcept : transform_(transform) {}
    /// One segment alone: its layers overlapped, earlier segments' outputs complete at 0.
    [[nodiscard]] Cycles segment(std::span<const TimelineLayer> layers, std::size_t regions,
                                 std::span<LayerTiming> timing) const override;
    [[nodiscard]] bool wants_spaces() const noexcept override { return true; }
    /// Whether it composes with the overlap-friendly transformation.
    [[nodiscard]] bool transform() const noexcept { return transform_; }
    [[nodiscard]] Cycles network(std::span<const TimelineSegment> segments,
                                 std::span<std::vector<LayerTiming>> timing,
                                 std::span<Cycles> segment_latency) const override;

private:
    bool transform_ = false;
};

/// The overlapped timeline: what evaluate_mapping uses when the model's overlap is on.
[[nodiscard]] const Timeline& overlap_timeline() noexcept;

/// The overlapped timeline with the overlap-friendly transformation (`model.overlap_transform`).
[[nodiscard]] const Timeline& overlap_transform_timeline() noexcept;

/// The timeline `model.overlap` and `model.overlap_transform` select:
/// overlap_transform_timeline(), overlap_timeline() or sequential_timeline().
[[nodiscard]] const Timeline& timeline_of(const ModelOptions& model) noexcept;

}  // namespace pimdse::sim
