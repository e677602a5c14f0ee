// The overlapped composition one layer at a time (include/pimdse/sim/overlap_composer.hpp;
// docs/model.md, "Overlapped layers").

#include "pimdse/sim/overlap_composer.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/overlap_transform.hpp"

namespace pimdse::sim {

using workload::LayerIndex;

OverlapComposer::OverlapComposer(std::size_t layers, bool transform) : transform_(transform) {
    runs_.reserve(layers);
    spaces_.reserve(layers);
}

double OverlapComposer::free_at(NodeId n) const {
    const auto it = free_.find(n);
    return it == free_.end() ? 0.0 : it->second;
}

/// Per input of the layer: the run that produced it, or -1 (the network input, or a layer
/// not composed: complete at 0).
std::vector<std::int32_t> OverlapComposer::producers(const LayerSpaces& sp) const {
    std::vector<std::int32_t> prods;
    for (LayerIndex p : sp.net->layer(sp.layer).inputs) {
        const auto it = position_.find(p);
        prods.push_back(it == position_.end() ? -1 : it->second);
    }
    return prods;
}

LayerTiming OverlapComposer::peek(const TimelineLayer& t) const {
    if (t.spaces == nullptr) throw ModelError("OverlapTimeline: a layer without its data spaces");
    return play(t, producers(*t.spaces)).timing;
}

LayerTiming OverlapComposer::add(const TimelineLayer& t) {
    if (t.spaces == nullptr) throw ModelError("OverlapTimeline: a layer without its data spaces");
    const LayerSpaces& sp = *t.spaces;
    Play p = play(t, producers(sp));
    for (std::size_t n = 0; n < p.free.size(); ++n) free_[sp.nodes[n].node] = p.free[n];
    position_[sp.layer] = static_cast<std::int32_t>(runs_.size());
    runs_.push_back(std::move(p.run));
    spaces_.push_back(&sp);
    return p.timing;
}

/// A barrier layer, or a streamed one in the loop order or, with transform_, the better of it
/// and the transformed order (the earlier finish; the transformed on a tie).
OverlapComposer::Play OverlapComposer::play(const TimelineLayer& t,
                                            const std::vector<std::int32_t>& prods) const {
    if (t.spaces->barrier) return block(t, prods);
    Play loop = steps(t, prods, false);
    if (transform_) {
        Play moved = steps(t, prods, true);
        if (moved.run.end <= loop.run.end) return moved;
    }
    return loop;
}

/// A barrier layer: all inputs complete and gathered, then its sharing and compute.
OverlapComposer::Play OverlapComposer::block(const TimelineLayer& t,
                                             const std::vector<std::int32_t>& prods) const {
    Play p;
    p.run.barrier = true;
    double ready = 0;
    for (std::int32_t q : prods)
        if (q >= 0) ready = std::max(ready, runs_[static_cast<std::size_t>(q)].end);
    double t0 = ready + t.redistribution.value();
    for (const NodeSteps& ns : t.spaces->nodes) t0 = std::max(t0, free_at(ns.node));
    p.run.end = t0 + t.sharing.value() + t.compute.value();
    p.free.assign(t.spaces->nodes.size(), p.run.end);
    p.timing = {Cycles(t0), Cycles(p.run.end - t0)};
    return p;
}

/// The latest finish among the steps of producer run `p` whose outputs overlap `box`.
double OverlapComposer::ready_of(std::int32_t p, const Box& box) const {
    if (p < 0) return 0;
    const LayerRun& run = runs_[static_cast<std::size_t>(p)];
    if (run.barrier) return run.end;
    const LayerSpaces& sp = *spaces_[static_cast<std::size_t>(p)];
    const workload::Layer& pl = sp.net->layer(sp.layer);
    const std::array<std::int64_t, kBoxDims> len{pl.B, pl.K, pl.P, pl.Q};
    std::array<std::int32_t, kBoxDims> lo{}, hi{}, b{};
    for (std::size_t d = 0; d < kBoxDims; ++d) {
        lo[d] = part_of(len[d], sp.parts[d], box[d].begin);
        hi[d] = part_of(len[d], sp.parts[d], box[d].end - 1);
    }
    double f = 0;
    for (b[0] = lo[0]; b[0] <= hi[0]; ++b[0])
        for (b[1] = lo[1]; b[1] <= hi[1]; ++b[1])
            for (b[2] = lo[2]; b[2] <= hi[2]; ++b[2])
                for (b[3] = lo[3]; b[3] <= hi[3]; ++b[3]) {
                    const auto m = static_cast<std::size_t>(sp.owner_of(b));
                    const NodeSteps& ns = sp.nodes[m];
                    if (run.reordered) {
                        f = std::max(f, latest_in(ns, run.finish[m], box));
                        continue;
                    }
                    std::array<std::int64_t, kBoxDims> corner{};  // the overlap's upper corner
                    for (std::size_t d = 0; d < kBoxDims; ++d)
                        corner[d] = std::min(box[d].end, ns.out[d].end) - 1;
                    f = std::max(f, run.finish[m][static_cast<std::size_t>(ns.step_of(corner))]);
                }
    return f;
}

/// The latest finish among the steps of node `ns` whose outputs overlap `box`, in any
/// order of the steps: the maximum over the sub-grid of steps the box covers.
double OverlapComposer::latest_in(const NodeSteps& ns, const std::vector<double>& finish, const Box& box) {
    std::array<std::int64_t, kBoxDims> lo{}, hi{}, i{};
    for (std::size_t d = 0; d < kBoxDims; ++d) {
        lo[d] = (std::max(box[d].begin, ns.out[d].begin) - ns.out[d].begin) / ns.tile[d] % ns.count[d];
        hi[d] = (std::min(box[d].end, ns.out[d].end) - 1 - ns.out[d].begin) / ns.tile[d] % ns.count[d];
    }
    double f = 0;
    for (i[0] = lo[0]; i[0] <= hi[0]; ++i[0])
        for (i[1] = lo[1]; i[1] <= hi[1]; ++i[1])
            for (i[2] = lo[2]; i[2] <= hi[2]; ++i[2])
                for (i[3] = lo[3]; i[3] <= hi[3]; ++i[3]) {
                    std::int64_t s = 0;
                    for (std::size_t d = 0; d < kBoxDims; ++d) s += i[d] * ns.stride[d];
                    f = std::max(f, finish[static_cast<std::size_t>(s)]);
                }
    return f;
}

/// A streamed layer: each node's steps through its input pipe and its compute, in the loop
/// order or transformed.
OverlapComposer::Play OverlapComposer::steps(const TimelineLayer& t, const std::vector<std::int32_t>& prods,
                                             bool transform) const {
    Play play;
    LayerRun& run = play.run;
    run.barrier = false;
    run.reordered = transform;
    play.free.resize(t.spaces->nodes.size());
    const LayerSpaces& sp = *t.spaces;
    const double redis = t.redistribution.value();
    const double compute = t.compute.value();
    double first = -1;
    run.finish.resize(sp.nodes.size());
    std::vector<double> ready;
    std::vector<std::int64_t> vol, order;
    for (std::size_t n = 0; n < sp.nodes.size(); ++n) {
        const NodeSteps& ns = sp.nodes[n];
        ready.assign(static_cast<std::size_t>(ns.steps), 0.0);
        vol.assign(static_cast<std::size_t>(ns.steps), 0);
        std::int64_t total_vol = 0;
        for (std::int64_t s = 0; s < ns.steps; ++s)
            for (std::size_t j = 0; j < prods.size(); ++j) {
                if (sp.net->layer(sp.layer).inputs[j] == workload::kNetworkInput) continue;
                const std::optional<Box> in = sp.step_input(n, s, j);
                if (!in) continue;
                ready[static_cast<std::size_t>(s)] =
                    std::max(ready[static_cast<std::size_t>(s)], ready_of(prods[j], *in));
                vol[static_cast<std::size_t>(s)] += volume(*in);
            }
        for (std::int64_t v : vol) total_vol += v;
        const double out_vol = static_cast<double>(volume(ns.out));
        if (transform) transformed_order(ns, ready, order);
        double arrive = 0;
        double f = free_at(ns.node);
        std::vector<double>& fin = run.finish[n];
        fin.resize(static_cast<std::size_t>(ns.steps));
        for (std::int64_t k = 0; k < ns.steps; ++k) {
            const std::int64_t s = transform ? order[static_cast<std::size_t>(k)] : k;
            const std::size_t i = static_cast<std::size_t>(s);
            const double share =
                total_vol > 0 ? redis * static_cast<double>(vol[i]) / static_cast<double>(total_vol) : 0.0;
            arrive = std::max(arrive, ready[i]) + share;
            const double start = std::max(f, arrive);
            if (k == 0 && (first < 0 || start < first)) first = start;
            f = start + compute * static_cast<double>(volume(ns.step_box(s))) / out_vol;
            fin[i] = f;
        }
        play.free[n] = f;
        run.end = std::max(run.end, f);
    }
    play.timing = {Cycles(first), Cycles(run.end - first)};
    return play;
}

}  // namespace pimdse::sim
