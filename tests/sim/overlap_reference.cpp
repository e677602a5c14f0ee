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
                                      : r[index_of(PartDim::c)].size();
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
};

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
    start = -1;
    finish = 0;
    for (std::int32_t y = 0; y < region.rows; ++y)
        for (std::int32_t x = 0; x < region.cols; ++x) {
            const NodeId node = sys.mesh.node(region.row + y, region.col + x);
            const auto r = part_ranges(l, m, y, x);
            const std::vector<Step> steps = walk(r, lc.part);
            std::vector<std::pair<double, std::int64_t>> in;
            std::int64_t total = 0, outputs = 0;
            for (const Step& s : steps) {
                in.push_back(inputs(l, r, s));
                total += in.back().second;
                outputs += s.outputs;
            }
            double arrive = 0;
            double f = node_free(node);
            for (std::size_t i = 0; i < steps.size(); ++i) {
                const double share = total > 0
                                         ? lc.redistribution.value() * static_cast<double>(in[i].second) /
                                               static_cast<double>(total)
                                         : 0.0;
                arrive = std::max(arrive, in[i].first) + share;
                const double s0 = std::max(f, arrive);
                if (i == 0 && (start < 0 || s0 < start)) start = s0;
                f = s0 +
                    lc.compute.value() * static_cast<double>(steps[i].outputs) / static_cast<double>(outputs);
                for (const auto& t : steps[i].tiles)
                    for (std::int64_t b = t[0].begin; b < t[0].end; ++b)
                        for (std::int64_t k = t[1].begin; k < t[1].end; ++k)
                            for (std::int64_t p = t[2].begin; p < t[2].end; ++p)
                                for (std::int64_t q = t[3].begin; q < t[3].end; ++q)
                                    out.t[out.at(b, k, p, q)] = f;
            }
            free[node] = f;
            finish = std::max(finish, f);
        }
}

}  // namespace

OverlapRun overlap_reference(const workload::Network& network, const workload::Segmentation& seg,
                             const NetworkMapping& mapping, const System& system, const NetworkCost& cost) {
    OverlapRun run;
    run.start.assign(static_cast<std::size_t>(network.size()), 0.0);
    run.finish.assign(static_cast<std::size_t>(network.size()), 0.0);
    Player player{network, cost, {}, {}, {}, 0};
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
