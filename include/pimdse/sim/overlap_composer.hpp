#pragma once
// The overlapped composition one layer at a time (OverlaPIM III-B, III-C): the state the
// overlapped timeline (overlap_timeline.hpp) builds as it walks a network's layers in
// execution order, namely when every step of every composed layer finishes and when each
// node is free. It can also say when a further layer would run without composing it, which
// is what a greedy choice of the next layer's mapping given the earlier ones needs
// (OverlaPIM III-E; mapper/overlap_greedy.hpp). docs/model.md, "Overlapped layers".

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "pimdse/sim/data_space.hpp"
#include "pimdse/sim/timeline.hpp"

namespace pimdse::sim {

/// Composes layers in execution order; every layer must carry its spaces
/// (TimelineLayer::spaces; ModelError otherwise), which must outlive the composer.
class OverlapComposer {
public:
    /// With `transform`, each streamed layer runs its nodes' steps in the loop order or
    /// transformed (overlap_transform.hpp), whichever finishes the layer first.
    OverlapComposer(std::size_t layers, bool transform);

    /// Composes the next layer; returns when it runs, from the network's start.
    LayerTiming add(const TimelineLayer& t);
    /// When `t` would run if it were the next layer; the state is left as it is.
    [[nodiscard]] LayerTiming peek(const TimelineLayer& t) const;

private:
    /// When the steps of one composed layer finish.
    struct LayerRun {
        bool barrier = false;
        bool reordered = false;                   ///< its nodes ran their steps transformed
        double end = 0;                           ///< its last step's finish
        std::vector<std::vector<double>> finish;  ///< per node, per step (non-barrier layers)
    };
    /// One way of running a layer: its run, when it runs, and its nodes' last finishes.
    struct Play {
        LayerRun run;
        LayerTiming timing;
        std::vector<double> free;  ///< per node of the layer's spaces
    };

    [[nodiscard]] double free_at(NodeId n) const;
    [[nodiscard]] std::vector<std::int32_t> producers(const LayerSpaces& sp) const;
    [[nodiscard]] Play play(const TimelineLayer& t, const std::vector<std::int32_t>& prods) const;
    [[nodiscard]] Play block(const TimelineLayer& t, const std::vector<std::int32_t>& prods) const;
    [[nodiscard]] double ready_of(std::int32_t p, const Box& box) const;
    [[nodiscard]] static double latest_in(const NodeSteps& ns, const std::vector<double>& finish,
                                          const Box& box);
    [[nodiscard]] Play steps(const TimelineLayer& t, const std::vector<std::int32_t>& prods,
                             bool transform) const;

    bool transform_ = false;
    std::vector<LayerRun> runs_;
    std::vector<const LayerSpaces*> spaces_;  ///< per run
    std::unordered_map<workload::LayerIndex, std::int32_t> position_;
    std::unordered_map<NodeId, double> free_;
};

}  // namespace pimdse::sim
