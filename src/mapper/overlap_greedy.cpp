// The greedy step of OverlaPIM III-E (include/pimdse/mapper/overlap_greedy.hpp).

#include "pimdse/mapper/overlap_greedy.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>

#include "pimdse/sim/data_space.hpp"
#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/overlap_composer.hpp"

namespace pimdse::mapper {

using workload::LayerIndex;

namespace {

/// Weights stored per node (NicePIM III-D), as the timeline's capacity check counts them.
class NodeStore {
public:
    NodeStore(const GreedyContext& ctx, const sim::NetworkMapping& m)
        : ctx_(ctx), stored_(static_cast<std::size_t>(ctx.system.mesh.node_count()), 0) {
        for (LayerIndex li = 0; li < ctx.network.size(); ++li)
            add(li, m, m.layers[static_cast<std::size_t>(li)], 1);
    }
    [[nodiscard]] std::int64_t bytes(LayerIndex li, const sim::LayerMapping& x) const {
        return ctx_.system.data_bytes(sim::stored_weights_per_node(ctx_.network.layer(li), x));
    }
    /// Adds (sign 1) or removes (-1) layer li's weights under `x` on its region's nodes.
    void add(LayerIndex li, const sim::NetworkMapping& m, const sim::LayerMapping& x, std::int64_t sign) {
        const std::int64_t b = sign * bytes(li, x);
        for_nodes(li, m, [&](std::size_t n) { stored_[n] += b; });
    }
    /// The most any node of li's region stores.
    [[nodiscard]] std::int64_t most(LayerIndex li, const sim::NetworkMapping& m) const {
        std::int64_t out = 0;
        for_nodes(li, m, [&](std::size_t n) { out = std::max(out, stored_[n]); });
        return out;
    }

private:
    template <class F>
    void for_nodes(LayerIndex li, const sim::NetworkMapping& m, F&& f) const {
        const sim::Region& r = sim::layer_region(ctx_.seg, m, li);
        for (std::int32_t y = 0; y < r.rows; ++y)
            for (std::int32_t x = 0; x < r.cols; ++x)
                f(static_cast<std::size_t>(ctx_.system.mesh.node(r.row + y, r.col + x)));
    }
    const GreedyContext& ctx_;
    std::vector<std::int64_t> stored_;
};

/// One costed way of running a layer: its timeline entry and its data spaces.
struct Costed {
    sim::TimelineLayer layer;
    sim::LayerSpaces spaces;
    double end = 0;
};

}  // namespace

GreedyResult overlap_greedy(const GreedyContext& ctx, const sim::NetworkMapping& start,
                            const std::vector<std::vector<sim::LayerMapping>>& candidates,
                            const sim::NetworkCost* start_cost) {
    GreedyResult out{start, 0};
    sim::NetworkMapping& m = out.mapping;
    sim::LayerCoster coster(ctx.network, ctx.seg, m, ctx.system, ctx.intra, ctx.scheduler, ctx.memo);
    sim::OverlapComposer composer(static_cast<std::size_t>(ctx.network.size()), ctx.transform);
    NodeStore store(ctx, m);
    std::deque<sim::LayerSpaces> kept;  // the composer refers to them
    const std::int64_t capacity = ctx.system.dram_capacity.value();
    // Layers whose mapping differs from start's: a layer's cost reads its producers' owners.
    std::vector<bool> moved(static_cast<std::size_t>(ctx.network.size()), false);
    const auto as_started = [&](LayerIndex li, const sim::LayerMapping& x) {
        const auto l = static_cast<std::size_t>(li);
        if (start_cost == nullptr || l >= start_cost->layers.size() || !(x == start.layers[l])) return false;
        for (const LayerIndex p : ctx.network.layer(li).inputs)
            if (p != workload::kNetworkInput && moved[static_cast<std::size_t>(p)]) return false;
        return true;
    };

    // Layer li costed under x (set into m) as the next layer of the composition.
    const auto cost = [&](LayerIndex li, const sim::LayerMapping& x) -> std::optional<Costed> {
        // The spaces refer to the layer's mapping: m's, which holds the chosen one at the end.
        const sim::LayerMapping& at = m.layers[static_cast<std::size_t>(li)] = x;
        sim::LayerCost lc;
        if (as_started(li, x))
            lc = start_cost->layers[static_cast<std::size_t>(li)];
        else
            coster.cost(li, lc);
        if (lc.status != sim::EvalStatus::ok) return std::nullopt;
        Costed c{
            {lc.redistribution, lc.sharing, lc.compute, 0, {}, nullptr},
            sim::layer_spaces(ctx.network, li, at, sim::layer_region(ctx.seg, m, li), ctx.system.mesh, lc),
            0};
        c.layer.spaces = &c.spaces;
        const sim::LayerTiming t = composer.peek(c.layer);
        c.end = (t.start + t.latency).value();
        return c;
    };

    for (const workload::Segment& segment : ctx.seg.segments)
        for (const workload::Branch& branch : segment.branches)
            for (const LayerIndex li : branch.layers) {
                const auto l = static_cast<std::size_t>(li);
                const sim::LayerMapping current = m.layers[l];
                store.add(li, m, current, -1);
                const std::int64_t base = store.most(li, m);
                sim::LayerMapping best = current;
                std::optional<Costed> chosen = cost(li, current);
                if (l < candidates.size())
                    for (sim::LayerMapping x : candidates[l]) {
                        x.dl_in = current.dl_in;
                        x.dl_out = current.dl_out;
                        if (x == current || base + store.bytes(li, x) > capacity) continue;
                        std::optional<Costed> c = cost(li, x);
                        if (c && (!chosen || c->end < chosen->end)) {
                            chosen = std::move(c);
                            best = x;
                        }
                    }
                m.layers[l] = best;
                coster.remapped(li);
                store.add(li, m, best, 1);
                if (!(best == current)) ++out.changed;
                moved[l] = !(best == start.layers[l]);
                if (!chosen) return GreedyResult{start, 0};  // infeasible as it was: nothing to improve
                kept.push_back(std::move(chosen->spaces));
                chosen->layer.spaces = &kept.back();
                (void)composer.add(chosen->layer);
            }
    return out;
}

}  // namespace pimdse::mapper
