// The event-driven reference of the overlapped timeline (tests/sim/overlap_reference.hpp).

#include "overlap_reference.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace pimdse::sim::reference {

using workload::Layer;
using workload::LayerIndex;
using workload::LayerKind;

namespace {

/// A stamp per output element of a layer: when the step that wrote it finished.
struct Stamps {
    std::int64_t K = 1, P = 1, Q = 1;
    std::vector<double> t;
    [[nodiscard]] std::size_t at(std::int64_t b, std::int64_t k, std::int64_t p, std::int64_t q) const {
        return static_cast<std::size_t>(((b * K + k) * P + p) * Q + q);
    }
};

/// One step as the walk found it: the output tiles it completed.
struct Step {
    std::vector<std::array<Range, 4>> tiles;  // B, K, P, Q
    std::int64_t outputs = 0;
};

/// Walks the node's tile loops in order, C included; a step is one iteration of the loops
/// outside C, and collects the output tiles of its first C iteration.
std::vector<Step> walk(const std::array<Range, kPartDims>& r, const PartTiling& part) {
    const std::array<Range, 4> out{r[index_of(PartDim::b)], r[index_of(PartDim::k)], r[index_of(PartDim::p)],
                                   r[index_of(PartDim::q)]};
    if (!part.tiled) {
        Step s;
        s.tiles.push_back(out);
        s.outputs = out[0].size() * out[1].size() * out[2].size() * out[3].size();
        return {s};
    }
    const auto loops = loops_of(part.tiling.order);
    std::array<std::int64_t, kLoopDims> extent{}, tile{}, count{}, it{};
    for (std::size_t i = 0; i < kLoopDims; ++i) {
        const LoopDim d = loops[i];
        extent[i] = d == LoopDim::B   ? out[0].size()
                    : d == LoopDim::K ? out[1].size()
                    : d == LoopDim::P ? out[2].size()
                    : d == LoopDim::Q ? out[3].size()
                    : d == LoopDim::C ? r[index_of(PartDim::c)].size()
                                      : part.tiling[d];  // R, S: whole, one tile
        tile[i] = std::clamp<std::int64_t>(part.tiling[d], 1, extent[i]);
        count[i] = (extent[i] + tile[i] - 1) / tile[i];
    }
    const std::size_t c_at =
        static_cast<std::size_t>(std::find(loops.begin(), loops.end(), LoopDim::C) - loops.begin());
    std::vector<Step> steps;
    std::vector<std::int64_t> key, last_key;
    for (bool more = true; more;) {
        key.assign(it.begin(), it.begin() + static_cast<std::ptrdiff_t>(c_at));
        if (steps.empty() || key != last_key) steps.emplace_back();
        last_key = key;
        if (it[c_at] == 0) {
            std::array<Range, 4> t = out;
            for (std::size_t i = 0; i < kLoopDims; ++i) {
                if (loops[i] == LoopDim::C) continue;
                const std::size_t o = loops[i] == LoopDim::B   ? 0
                                      : loops[i] == LoopDim::K ? 1
                                      : loops[i] == LoopDim::P ? 2
                                                               : 3;
                const std::int64_t lo = out[o].begin + it[i] * tile[i];
                t[o] = {lo, std::min(lo + tile[i], out[o].end)};
            }
            steps.back().tiles.push_back(t);
            steps.back().outputs += t[0].size() * t[1].size() * t[2].size() * t[3].size();
        }
        std::size_t i = kLoopDims;  // the odometer, innermost loop fastest
        while (i-- > 0) {
            if (++it[i] < count[i]) break;
            it[i] = 0;
            if (i == 0) more = false;
        }
    }
    return steps;
}

/// Calls f(c, h, w) for every element of operand j (producer output shape `ps`) that output
/// element (k, p, q) of a node with loop ranges r reads; h and w clipped to the producer.
template <typename F>
void reads(const workload::Network& net, const Layer& l, const std::array<Range, kPartDims>& r, std::size_t j,
           std::int64_t k, std::int64_t p, std::int64_t q, F&& f) {
    const workload::TensorShape ps = net.output_shape(l.inputs[j]);
    const auto one = [&](std::int64_t c, std::int64_t h, std::int64_t w) {
        if (c >= 0 && c < ps.channels && h >= 0 && h < ps.height && w >= 0 && w < ps.width) f(c, h, w);
    };
    const auto window = [&](std::int64_t c) {
        const auto [h0, h1] = l.input_rows(p, p + 1, false);
        const auto [w0, w1] = l.input_rows(q, q + 1, true);
        for (std::int64_t h = h0; h < h1; ++h)
            for (std::int64_t w = w0; w < w1; ++w) one(c, h, w);
    };
    const Range cr = r[index_of(PartDim::c)];
    switch (l.kind) {
        case LayerKind::conv:
        case LayerKind::deconv:
            if (l.groups > 1) {
                const std::int64_t g = k / (l.K / l.groups);
                const std::int64_t cg = l.C / l.groups;
                for (std::int64_t c = g * cg; c < (g + 1) * cg; ++c) window(c);
            } else {
                for (std::int64_t c = cr.begin; c < cr.end; ++c) window(c);
            }
            return;
        case LayerKind::pool:
        case LayerKind::upsample:
            window(k);
            return;
        case LayerKind::matmul:
            for (std::int64_t c = cr.begin; c < cr.end; ++c) {
                if (l.weights_are_activations && j == 1) {
                    for (std::int64_t w = 0; w < ps.width; ++w) l.transpose_b ? one(c, k, w) : one(k, c, w);
                } else if (l.flatten) {
                    const std::int64_t hw = ps.height * ps.width;
                    one(c / hw, c % hw / ps.width, c % ps.width);
                } else {
                    one(c, p, q);
                }
            }
            return;
        case LayerKind::mul:
            l.broadcast&& j == 1 ? one(k, 0, 0) : one(k, p, q);
            return;
        case LayerKind::concat: {
            std::int64_t offset = 0;
            for (std::size_t i = 0; i < j; ++i) offset += net.output_shape(l.inputs[i]).channels;
            one(k - offset, p, q);
            return;
        }
        default:
            one(k, p, q);
            return;
    }
}

/// Whether every output element's reads depend on its channel (else one k stands for all).
bool reads_depend_on_k(const Layer& l) {
    if (l.kind == LayerKind::conv || l.kind == LayerKind::deconv) return l.groups > 1;
    if (l.kind == LayerKind::matmul) return l.weights_are_activations;
    return true;
}

struct Player {
    const workload::Network& net;
    const NetworkCost& cost;
    std::map<LayerIndex, Stamps> stamps;
    std::map<NodeId, double> free;
    std::vector<std::int64_t> mark;  // per producer element: the last step that counted it
    std::int64_t step_id = 0;

    double node_free(NodeId n) const {
        const auto it = free.find(n);
        return it == free.end() ? 0.0 : it->second;
    }

    /// Ready time and distinct input elements of one step of a node.
    std::pair<double, std::int64_t> inputs(const Layer& l, const std::array<Range, kPartDims>& r,
                                           const Step& s) {
        double ready = 0;
        std::int64_t elems = 0;
        for (std::size_t j = 0; j < l.inputs.size(); ++j) {
            if (l.inputs[j] == workload::kNetworkInput) continue;
            const auto found = stamps.find(l.inputs[j]);
            const Stamps* st = found == stamps.end() ? nullptr : &found->second;
            const workload::Layer& pl = net.layer(l.inputs[j]);
            mark.assign(static_cast<std::size_t>(pl.B * pl.K * pl.P * pl.Q), -1);
            ++step_id;
            const bool per_k = reads_depend_on_k(l);
            for (const auto& t : s.tiles)
                for (std::int64_t b = t[0].begin; b < t[0].end; ++b)
                    for (std::int64_t k = t[1].begin; k < (per_k ? t[1].end : t[1].begin + 1); ++k)
                        for (std::int64_t p = t[2].begin; p < t[2].end; ++p)
                            for (std::int64_t q = t[3].begin; q < t[3].end; ++q)
                                reads(net, l, r, j, k, p, q,
                                      [&](std::int64_t c, std::int64_t h, std::int64_t w) {
                                          const std::size_t i = static_cast<std::size_t>(
                                              ((b * pl.K + c) * pl.P + h) * pl.Q + w);
                                          if (mark[i] == step_id) return;
                                          mark[i] = step_id;
                                          ++elems;
                                          if (st != nullptr) ready = std::max(ready, st->t[i]);
                                      });
        }
        return {ready, elems};
    }

    void play(LayerIndex li, const LayerMapping& m, const Region& region, const System& sys, double& start,
              double& finish);
    /// The streamed layer's nodes in the walk's order or transformed, into `out` and `frees`.
    double stream(LayerIndex li, const LayerMapping& m, const Region& region, const System& sys,
                  bool transform, Stamps& out, std::map<NodeId, double>& frees, double& start);

    bool transform = false;
};

/// The product of the walk's loop counts strictly inside loop `from` and outside C.
std::int64_t inside(const std::vector<std::int64_t>& count, int from, std::size_t c_at) {
    std::int64_t p = 1;
    for (std::size_t i = static_cast<std::size_t>(from) + 1; i < c_at; ++i) p *= count[i];
    return p;
}

/// The transformed order of a node's walked steps: blocks of steps that reuse an input or
/// weight tile (a loop the tensor depends on, outside C, with a multi-tile loop it does not
/// depend on inside it) stay together, by their earliest ready time, coarsest first; inside,
/// by ready time, then pixels first (B, P, Q, K of the step's tile), then walk order.
std::vector<std::size_t> transformed(const Layer& l, const std::array<Range, kPartDims>& r,
                                     const PartTiling& part, const std::vector<Step>& steps,
                                     const std::vector<double>& ready) {
    std::vector<std::size_t> order(steps.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::vector<std::int64_t> divisors;
    if (part.tiled) {
        const auto loops = loops_of(part.tiling.order);
        std::vector<std::int64_t> count(kLoopDims);
        std::size_t c_at = 0;
        const bool grouped = l.groups > 1;
        for (std::size_t i = 0; i < kLoopDims; ++i) {
            const LoopDim d = loops[i];
            const Range e = d == LoopDim::B   ? r[index_of(PartDim::b)]
                            : d == LoopDim::K ? r[index_of(PartDim::k)]
                            : d == LoopDim::P ? r[index_of(PartDim::p)]
                            : d == LoopDim::Q ? r[index_of(PartDim::q)]
                                              : r[index_of(PartDim::c)];
            const std::int64_t t =
                std::clamp<std::int64_t>(part.tiling[d], 1, std::max<std::int64_t>(1, e.size()));
            count[i] = d == LoopDim::C && grouped ? 1 : (std::max<std::int64_t>(1, e.size()) + t - 1) / t;
            if (d == LoopDim::C) c_at = i;
        }
        int last = -1;  // the innermost step loop of more than one tile
        for (std::size_t i = 0; i < c_at; ++i)
            if (count[i] > 1) last = static_cast<int>(i);
        const auto input = [&](LoopDim d) { return d != LoopDim::K || grouped; };
        const auto weight = [&](LoopDim d) {
            return d == LoopDim::K || d == LoopDim::C || (d == LoopDim::B && l.weights_are_activations);
        };
        for (int tensor = 0; tensor < 2; ++tensor) {
            int inner = -1;
            for (std::size_t i = 0; i < kLoopDims; ++i)
                if (count[i] > 1 && (tensor == 0 ? input(loops[i]) : weight(loops[i])))
                    inner = static_cast<int>(i);
            if (inner >= 0 && inner < static_cast<int>(c_at) && inner != last)
                divisors.push_back(inside(count, inner, c_at));
        }
        std::sort(divisors.rbegin(), divisors.rend());
    }
    std::vector<std::map<std::int64_t, double>> first(divisors.size());
    for (std::size_t lv = 0; lv < divisors.size(); ++lv)
        for (std::size_t s = 0; s < steps.size(); ++s) {
            const std::int64_t b = static_cast<std::int64_t>(s) / divisors[lv];
            const auto it = first[lv].find(b);
            first[lv][b] = it == first[lv].end() ? ready[s] : std::min(it->second, ready[s]);
        }
    const auto pixel = [&](std::size_t s) {
        const auto& t = steps[s].tiles.front();
        return std::array<std::int64_t, 4>{t[0].begin, t[2].begin, t[3].begin, t[1].begin};
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        for (std::size_t lv = 0; lv < divisors.size(); ++lv) {
            const std::int64_t ba = static_cast<std::int64_t>(a) / divisors[lv];
            const std::int64_t bb = static_cast<std::int64_t>(b) / divisors[lv];
            if (ba == bb) continue;
            const double fa = first[lv].at(ba), fb = first[lv].at(bb);
            return fa != fb ? fa < fb : ba < bb;
        }
        if (ready[a] != ready[b]) return ready[a] < ready[b];
        return pixel(a) < pixel(b);
    });
    return order;
}

void Player::play(LayerIndex li, const LayerMapping& m, const Region& region, const System& sys,
                  double& start, double& finish) {
    const Layer& l = net.layer(li);
    const LayerCost& lc = cost.layers[static_cast<std::size_t>(li)];
    Stamps& out = stamps[li];
    out.K = l.K;
    out.P = l.P;
    out.Q = l.Q;
    out.t.assign(static_cast<std::size_t>(l.B * l.K * l.P * l.Q), 0.0);
    const bool barrier = m.part(PartDim::c).count() > 1 || lc.sharing.value() > 0;
    if (barrier) {
        double ready = 0;
        for (LayerIndex p : l.inputs) {
            const auto it = stamps.find(p);
            if (it != stamps.end())
                ready = std::max(ready, *std::max_element(it->second.t.begin(), it->second.t.end()));
        }
        start = ready + lc.redistribution.value();
        for (std::int32_t y = 0; y < region.rows; ++y)
            for (std::int32_t x = 0; x < region.cols; ++x)
                start = std::max(start, node_free(sys.mesh.node(region.row + y, region.col + x)));
        finish = start + lc.sharing.value() + lc.compute.value();
        std::fill(out.t.begin(), out.t.end(), finish);
        for (std::int32_t y = 0; y < region.rows; ++y)
            for (std::int32_t x = 0; x < region.cols; ++x)
                free[sys.mesh.node(region.row + y, region.col + x)] = finish;
        return;
    }
    // Both orders with the transformation, the earlier finish kept (the transformed on a tie).
    Stamps loop_out = out, moved_out = out;
    std::map<NodeId, double> loop_free = free, moved_free = free;
    double loop_start = 0, moved_start = 0;
    finish = stream(li, m, region, sys, false, loop_out, loop_free, loop_start);
    start = loop_start;
    if (transform) {
        const double moved = stream(li, m, region, sys, true, moved_out, moved_free, moved_start);
        if (moved <= finish) {
            out = std::move(moved_out);
            free = std::move(moved_free);
            start = moved_start;
            finish = moved;
            return;
        }
    }
    out = std::move(loop_out);
    free = std::move(loop_free);
}

double Player::stream(LayerIndex li, const LayerMapping& m, const Region& region, const System& sys,
                      bool transformed_order, Stamps& out, std::map<NodeId, double>& frees, double& start) {
    const Layer& l = net.layer(li);
    const LayerCost& lc = cost.layers[static_cast<std::size_t>(li)];
    start = -1;
    double finish = 0;
    for (std::int32_t y = 0; y < region.rows; ++y)
        for (std::int32_t x = 0; x < region.cols; ++x) {
            const NodeId node = sys.mesh.node(region.row + y, region.col + x);
            const auto r = part_ranges(l, m, y, x);
            const std::vector<Step> steps = walk(r, lc.part);
            std::vector<std::pair<double, std::int64_t>> in;
            std::vector<double> ready;
            std::int64_t total = 0, outputs = 0;
            for (const Step& s : steps) {
                in.push_back(inputs(l, r, s));
                ready.push_back(in.back().first);
                total += in.back().second;
                outputs += s.outputs;
            }
            std::vector<std::size_t> order(steps.size());
            for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
            if (transformed_order) order = transformed(l, r, lc.part, steps, ready);
            double arrive = 0;
            const auto fr = frees.find(node);
            double f = fr == frees.end() ? 0.0 : fr->second;
            for (std::size_t k = 0; k < steps.size(); ++k) {
                const std::size_t i = order[k];
                const double share = total > 0
                                         ? lc.redistribution.value() * static_cast<double>(in[i].second) /
                                               static_cast<double>(total)
                                         : 0.0;
                arrive = std::max(arrive, in[i].first) + share;
                const double s0 = std::max(f, arrive);
                if (k == 0 && (start < 0 || s0 < start)) start = s0;
                f = s0 +
                    lc.compute.value() * static_cast<double>(steps[i].outputs) / static_cast<double>(outputs);
                for (const auto& t : steps[i].tiles)
                    for (std::int64_t b = t[0].begin; b < t[0].end; ++b)
                        for (std::int64_t k2 = t[1].begin; k2 < t[1].end; ++k2)
                            for (std::int64_t p = t[2].begin; p < t[2].end; ++p)
                                for (std::int64_t q = t[3].begin; q < t[3].end; ++q)
                                    out.t[out.at(b, k2, p, q)] = f;
            }
            frees[node] = f;
            finish = std::max(finish, f);
        }
    return finish;
}

}  // namespace

OverlapRun overlap_reference(const workload::Network& network, const workload::Segmentation& seg,
                             const NetworkMapping& mapping, const System& system, const NetworkCost& cost,
                             bool transform) {
    if (transform) {  // the transformed run, unless the loop orders finish no later
        OverlapRun loop = overlap_reference(network, seg, mapping, system, cost, false);
        OverlapRun moved = play_all(network, seg, mapping, system, cost, true);
        return moved.latency < loop.latency ? moved : loop;
    }
    return play_all(network, seg, mapping, system, cost, false);
}

OverlapRun play_all(const workload::Network& network, const workload::Segmentation& seg,
                    const NetworkMapping& mapping, const System& system, const NetworkCost& cost,
                    bool transform) {
    OverlapRun run;
    run.start.assign(static_cast<std::size_t>(network.size()), 0.0);
    run.finish.assign(static_cast<std::size_t>(network.size()), 0.0);
    Player player{network, cost, {}, {}, {}, 0, transform};
    for (const workload::Segment& s : seg.segments)
        for (const workload::Branch& b : s.branches)
            for (LayerIndex li : b.layers) {
                const std::size_t i = static_cast<std::size_t>(li);
                player.play(li, mapping.layers[i], layer_region(seg, mapping, li), system, run.start[i],
                            run.finish[i]);
                run.latency = std::max(run.latency, run.finish[i]);
            }
    return run;
}

}  // namespace pimdse::sim::reference
