#include "pimdse/mapper/layer_search.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <utility>

namespace pimdse::mapper {

using sim::kPartDims;
using sim::PartDim;
using Counts = std::array<std::int32_t, kPartDims>;

namespace {

constexpr std::size_t at(PartDim d) noexcept {
    return static_cast<std::size_t>(d);
}

bool dominated(const std::vector<LayerOption>& front, double latency, std::int64_t bytes) {
    return std::any_of(front.begin(), front.end(),
                       [&](const LayerOption& o) { return o.latency <= latency && o.bytes <= bytes; });
}

void insert(std::vector<LayerOption>& front, LayerOption o) {
    if (dominated(front, o.latency, o.bytes)) return;
    std::erase_if(front, [&](const LayerOption& f) { return o.latency <= f.latency && o.bytes <= f.bytes; });
    front.push_back(std::move(o));
}

/// The loops a layer may split: C only for ungrouped compute layers (NicePIM III-C; the
/// partial sums of auxiliary layers do not exist).
std::array<std::int64_t, kPartDims> bounds(const workload::Layer& l) {
    std::array<std::int64_t, kPartDims> b{};
    for (PartDim d : sim::kAllPartDims) b[at(d)] = sim::loop_bound(l, d);
    if (l.groups > 1 || !l.is_compute()) b[at(PartDim::c)] = 1;
    return b;
}

}  // namespace

std::vector<Counts> factorisations(std::int32_t n) {
    std::vector<Counts> out;
    Counts cur{};
    std::function<void(std::size_t, std::int32_t)> rec = [&](std::size_t i, std::int32_t rest) {
        if (i + 1 == kPartDims) {
            cur[i] = rest;
            out.push_back(cur);
            return;
        }
        for (std::int32_t f = 1; f <= rest; ++f) {
            if (rest % f != 0) continue;
            cur[i] = f;
            rec(i + 1, rest / f);
        }
    };
    if (n >= 1) rec(0, n);
    return out;
}

std::vector<std::array<PartDim, kPartDims>> distinct_orders(const Counts& ph, const Counts& pw) {
    std::vector<PartDim> split;
    std::vector<PartDim> rest;
    for (PartDim d : sim::kAllPartDims) (ph[at(d)] > 1 || pw[at(d)] > 1 ? split : rest).push_back(d);
    std::vector<std::array<PartDim, kPartDims>> out;
    std::set<std::pair<std::vector<PartDim>, std::vector<PartDim>>> seen;
    std::vector<PartDim> perm = split;  // kAllPartDims order is ascending, so perm starts sorted
    do {
        std::pair<std::vector<PartDim>, std::vector<PartDim>> key;
        for (PartDim d : perm) {
            if (ph[at(d)] > 1) key.first.push_back(d);
            if (pw[at(d)] > 1) key.second.push_back(d);
        }
        if (!seen.insert(key).second) continue;
        std::array<PartDim, kPartDims> order{};
        std::size_t i = 0;
        for (PartDim d : perm) order[i++] = d;
        for (PartDim d : rest) order[i++] = d;
        out.push_back(order);
    } while (std::next_permutation(perm.begin(), perm.end()));
    return out;
}

std::vector<std::int32_t> distinct_wr(std::int32_t n_node) {
    std::vector<std::int32_t> out;
    std::int32_t last_shards = 0;
    for (std::int32_t wr = n_node; wr >= 1; --wr) {
        const std::int32_t shards = (n_node + wr - 1) / wr;
        if (shards != last_shards) out.push_back(wr);
        last_shards = shards;
    }
    return out;
}

std::size_t LayerSearch::KeyHash::operator()(const Key& k) const noexcept {
    std::size_t h = 0x9E3779B97F4A7C15ULL;
    const auto mix = [&](std::uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
    for (std::int64_t d : k.dims) mix(static_cast<std::uint64_t>(d));
    mix(static_cast<std::uint64_t>(k.rows) << 32 | static_cast<std::uint32_t>(k.cols));
    mix(sim::hash_value(k.in));
    mix(sim::hash_value(k.out));
    mix(k.full ? 1U : 0U);
    return h;
}

LayerSearch::LayerSearch(const sim::System& system, sim::IntraNodeMapper& intra,
                         sim::CycleScheduler& scheduler, std::int64_t max_arrangements)
    : system_(system),
      intra_(intra),
      scheduler_(scheduler),
      loads_(system.mesh),
      max_arrangements_(max_arrangements) {}

LayerSearch::Key LayerSearch::key_of(const workload::Layer& l, std::int32_t rows, std::int32_t cols,
                                     sim::DataLayout in, sim::DataLayout out, bool full) {
    Key key;
    key.dims = {static_cast<std::int64_t>(l.kind),
                l.B,
                l.K,
                l.C,
                l.P,
                l.Q,
                l.R,
                l.S,
                l.H,
                l.W,
                l.stride_h,
                l.stride_w,
                l.pad_h,
                l.pad_w,
                l.groups,
                l.weights_are_activations,
                l.transpose_b,
                l.flatten,
                l.bias,
                static_cast<std::int64_t>(l.inputs.size())};
    key.rows = rows;
    key.cols = cols;
    key.in = in;
    key.out = out;
    key.full = full;
    return key;
}

std::size_t LayerSearch::ComputeKeyHash::operator()(const ComputeKey& k) const noexcept {
    std::size_t h = KeyHash{}(k.layer);
    for (std::int32_t n : k.counts)
        h ^= static_cast<std::size_t>(n) + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h;
}

double LayerSearch::compute_cycles(const workload::Layer& l, const sim::LayerMapping& m, std::int32_t rows,
                                   std::int32_t cols) {
    // The part-layers depend on each loop's partition count only (not on the split or the
    // order), so the compute of a count vector is shared by every region of its node count.
    ComputeKey key{key_of(l, rows * cols, 0, m.dl_in, m.dl_out, false), {}};
    for (std::size_t d = 0; d < kPartDims; ++d) key.counts[d] = m.parts[d].count();
    if (const auto it = compute_.find(key); it != compute_.end()) return it->second;
    sim::LayerCost c;
    sim::add_compute_cost(l, m, rows, cols, system_, intra_, c);
    const double cycles =
        c.status == sim::EvalStatus::ok ? c.compute.value() : std::numeric_limits<double>::infinity();
    compute_.emplace(key, cycles);
    return cycles;
}

const std::vector<LayerOption>& LayerSearch::options(const workload::Layer& l, std::int32_t rows,
                                                     std::int32_t cols, sim::DataLayout in,
                                                     sim::DataLayout out, bool full_replication) {
    const Key key = key_of(l, rows, cols, in, out, full_replication);
    if (const auto it = memo_.find(key); it != memo_.end()) {
        ++stats_.memo_hits;
        return it->second;
    }
    ++stats_.searches;
    return memo_.emplace(key, search(l, rows, cols, in, out, full_replication, true)).first->second;
}

std::vector<LayerOption> LayerSearch::enumerate_all(const workload::Layer& l, std::int32_t rows,
                                                    std::int32_t cols, sim::DataLayout in,
                                                    sim::DataLayout out) {
    return search(l, rows, cols, in, out, false, false);
}

double LayerSearch::latency(const workload::Layer& l, const sim::LayerMapping& m) {
    const auto [rows, cols] = m.shape();
    sim::LayerCost c;
    sim::add_compute_cost(l, m, rows, cols, system_, intra_, c);
    if (c.status != sim::EvalStatus::ok) return std::numeric_limits<double>::infinity();
    return c.compute.value() + sharing_latency(l, m);
}

std::size_t LayerSearch::GeoKeyHash::operator()(const GeoKey& k) const noexcept {
    std::size_t h = 0x9E3779B97F4A7C15ULL;
    const auto mix = [&](std::uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
    mix(static_cast<std::uint64_t>(k.rows) << 32 | static_cast<std::uint32_t>(k.cols));
    for (std::size_t d = 0; d < kPartDims; ++d) {
        mix(static_cast<std::uint64_t>(k.ph[d]) << 32 | static_cast<std::uint32_t>(k.pw[d]));
        mix(static_cast<std::uint64_t>(k.order[d]));
    }
    mix(static_cast<std::uint64_t>(k.shards) << 8 | static_cast<std::uint32_t>(k.kind));
    return h;
}

namespace {

/// The sets of one event of sim::sharing_events (0 inputs, 1 weights, 2 partial sums) for an
/// ungrouped compute layer, from the part indices alone (the channel range of an input set
/// is a function of its C part there): the member lists of the sets with two or more
/// members, in node order. `shard`: the weight groups' size, ceil(N_node / WR).
std::vector<std::vector<sim::NodeId>> event_sets(const sim::LayerMapping& m, std::int32_t rows,
                                                 std::int32_t cols, const sim::Mesh& mesh, std::size_t event,
                                                 std::int32_t shard) {
    std::array<std::int32_t, kPartDims> n{};
    for (PartDim d : sim::kAllPartDims) n[at(d)] = m.part(d).count();
    const std::int32_t n_b = n[at(PartDim::b)], n_p = n[at(PartDim::p)], n_q = n[at(PartDim::q)];
    const std::int32_t n_k = n[at(PartDim::k)], n_c = n[at(PartDim::c)];
    const std::int32_t n_node = n_b * n_p * n_q;
    const std::int32_t replicas = (n_node + shard - 1) / shard;
    std::vector<std::vector<sim::NodeId>> groups(static_cast<std::size_t>(event == 0   ? n_node * n_c
                                                                          : event == 1 ? n_k * n_c * replicas
                                                                                       : n_node * n_k));
    std::vector<std::int32_t> rank(static_cast<std::size_t>(n_k * n_c), 0);
    // A part index is (row digit) x Pw + (column digit): the row's and the column's
    // contributions, computed once each.
    std::vector<std::array<std::int32_t, kPartDims>> by_row(static_cast<std::size_t>(rows));
    std::vector<std::array<std::int32_t, kPartDims>> by_col(static_cast<std::size_t>(cols));
    for (std::int32_t y = 0; y < rows; ++y) by_row[static_cast<std::size_t>(y)] = sim::part_indices(m, y, 0);
    for (std::int32_t x = 0; x < cols; ++x) by_col[static_cast<std::size_t>(x)] = sim::part_indices(m, 0, x);
    for (std::int32_t y = 0; y < rows; ++y)
        for (std::int32_t x = 0; x < cols; ++x) {
            std::array<std::int32_t, kPartDims> idx{};
            for (std::size_t d = 0; d < kPartDims; ++d)
                idx[d] = by_row[static_cast<std::size_t>(y)][d] + by_col[static_cast<std::size_t>(x)][d];
            const std::int32_t bpq =
                (idx[at(PartDim::b)] * n_p + idx[at(PartDim::p)]) * n_q + idx[at(PartDim::q)];
            const std::int32_t k = idx[at(PartDim::k)];
            const std::int32_t c = idx[at(PartDim::c)];
            const sim::NodeId node = mesh.node(y, x);
            std::size_t group = 0;
            if (event == 0) {
                group = static_cast<std::size_t>(bpq * n_c + c);
            } else if (event == 1) {
                const std::int32_t kc = k * n_c + c;
                const std::int32_t r = rank[static_cast<std::size_t>(kc)]++;
                group = static_cast<std::size_t>(kc * replicas + r / shard);
            } else {
                group = static_cast<std::size_t>(bpq * n_k + k);
            }
            groups[group].push_back(node);
        }
    std::erase_if(groups, [](const auto& members) { return members.size() < 2; });
    return groups;
}

}  // namespace

const LayerSearch::EventGeometry& LayerSearch::event_geometry(const sim::LayerMapping& m, std::int32_t rows,
                                                              std::int32_t cols, std::size_t e,
                                                              std::int32_t shard) {
    // The inputs and partial-sum events do not depend on WR: one geometry per arrangement
    // serves every WR; the weight event's also depends on the group size.
    GeoKey key;
    key.rows = rows;
    key.cols = cols;
    for (std::size_t d = 0; d < kPartDims; ++d) {
        key.ph[d] = m.parts[d].h;
        key.pw[d] = m.parts[d].w;
    }
    key.order = m.order;
    key.shards = e == 1 ? shard : 0;
    key.kind = static_cast<std::int32_t>(e);
    if (const auto it = geometry_.find(key); it != geometry_.end()) return it->second;
    ++stats_.geometries;
    EventGeometry eg;
    const auto sets = event_sets(m, rows, cols, system_.mesh, e, shard);
    std::vector<sim::SharingSet> event;
    {
        if (sets.empty()) return geometry_.emplace(key, std::move(eg)).first->second;
        eg.present = true;
        for (const auto& members : sets) event.push_back(sim::SharingSet{members, Bytes(0)});
        const std::vector<sim::SharingCycle> cycles = scheduler_.schedule(system_.mesh, event);
        // Size classes: class 0 the largest sets, class 1 the smaller ones.
        for (const sim::SharingCycle& c : cycles) {
            const auto size = static_cast<std::int32_t>(c.order.size());
            if (eg.size[0] == 0 || size == eg.size[0]) {
                eg.size[0] = size;
            } else if (size > eg.size[0]) {
                eg.size[1] = eg.size[0];
                eg.size[0] = size;
            } else {
                eg.size[1] = size;
            }
        }
        const auto class_of = [&](std::size_t size) {
            return static_cast<std::int32_t>(size) == eg.size[0] ? 0 : 1;
        };
        // Phase 1: every set moves for (smallest size - 1) steps; phase 2: the larger class
        // alone for the remaining steps.
        const std::int32_t small = eg.size[1] > 0 ? eg.size[1] : eg.size[0];
        for (std::int32_t phase = 0; phase < (eg.size[1] > 0 ? 2 : 1); ++phase) {
            Phase ph;
            ph.repeats = phase == 0 ? small - 1 : eg.size[0] - small;
            std::array<std::vector<std::int64_t>, 2> cross;
            loads_.reset(system_.mesh);
            for (std::int32_t cls = 0; cls < 2; ++cls) {
                if (eg.size[cls] == 0 || (phase == 1 && cls == 1)) continue;
                class_loads_.reset(system_.mesh);
                for (const sim::SharingCycle& c : cycles) {
                    if (class_of(c.order.size()) != cls) continue;
                    for (std::size_t i = 0; i < c.order.size(); ++i) {
                        const sim::NodeId from = c.order[i];
                        const sim::NodeId to = c.order[(i + 1) % c.order.size()];
                        (void)class_loads_.add_route(system_.mesh, from, to, 1);
                        (void)loads_.add_route(system_.mesh, from, to, 1);
                    }
                }
                const auto f = class_loads_.flits();
                cross[static_cast<std::size_t>(cls)].assign(f.begin(), f.end());
            }
            const auto all = loads_.flits();
            const auto before = loads_.min_hops_before();
            const auto after = loads_.max_hops_after();
            const auto crossings = [&](std::size_t cls, std::size_t c) {
                return cross[cls].empty() ? std::int64_t{0} : cross[cls][c];
            };
            // Per distinct (c0, c1), the longest pipeline; then keep the lines no other line
            // dominates in all three coordinates: only those can be the maximum for
            // non-negative chunk sizes. Few distinct crossing pairs exist, so linear scans.
            std::vector<std::array<std::int64_t, 3>> lines;
            for (std::size_t c = 0; c < all.size(); ++c) {
                if (all[c] == 0) continue;
                const std::array<std::int64_t, 3> line{crossings(0, c), crossings(1, c),
                                                       std::int64_t{before[c]} + after[c]};
                const auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& o) {
                    return o[0] == line[0] && o[1] == line[1];
                });
                if (same == lines.end())
                    lines.push_back(line);
                else
                    (*same)[2] = std::max((*same)[2], line[2]);
            }
            std::sort(lines.begin(), lines.end(), std::greater<>());
            for (const auto& line : lines) {
                const bool beaten = std::any_of(ph.lines.begin(), ph.lines.end(), [&](const auto& o) {
                    return o[0] >= line[0] && o[1] >= line[1] && o[2] >= line[2];
                });
                if (!beaten) ph.lines.push_back(line);
            }
            if (ph.repeats > 0) eg.phases.push_back(std::move(ph));
        }
    }
    return geometry_.emplace(key, std::move(eg)).first->second;
}

std::array<std::int64_t, 3> LayerSearch::largest_chunks(const workload::Layer& l,
                                                        const sim::LayerMapping& m) const {
    // sim::sharing_events' bytes of a set, maximised over the parts.
    const auto largest = [&](PartDim d) {
        return sim::split(sim::loop_bound(l, d), m.part(d).count(), 0).size();
    };
    const auto extent = [&](PartDim d, std::int64_t stride, std::int64_t pad, std::int64_t kernel,
                            std::int64_t size) {
        std::int64_t most = 0;
        const std::int64_t len = sim::loop_bound(l, d);
        for (std::int32_t i = 0; i < m.part(d).count(); ++i) {
            const sim::Range r = sim::split(len, m.part(d).count(), i);
            const std::int64_t lo = std::max<std::int64_t>(0, r.begin * stride - pad);
            const std::int64_t hi = std::min<std::int64_t>(size, (r.end - 1) * stride - pad + kernel);
            most = std::max(most, std::max<std::int64_t>(0, hi - lo));
        }
        return most;
    };
    const std::int64_t b = largest(PartDim::b);
    const std::int64_t k = largest(PartDim::k);
    const std::int64_t c = largest(PartDim::c);
    return {b * c * extent(PartDim::p, l.stride_h, l.pad_h, l.R, l.H) *
                extent(PartDim::q, l.stride_w, l.pad_w, l.S, l.W) * system_.data_bytes(),
            (l.has_weights() ? k * c * l.R * l.S : k * c * b) * system_.data_bytes(),
            b * k * largest(PartDim::p) * largest(PartDim::q) * system_.psum_bytes()};
}

double LayerSearch::sharing_lower_bound(const workload::Layer& l, const sim::LayerMapping& m) const {
    // Every member of a set ejects one chunk per step through its own port, N - 1 steps; the
    // set with the largest chunk bounds the event. Grouped and auxiliary layers: 0.
    if (!l.is_compute() || (l.kind == workload::LayerKind::conv && l.groups > 1)) return 0;
    const std::array<std::int64_t, 3> bytes = largest_chunks(l, m);
    const auto bound = [&](std::int64_t group_bytes, std::int64_t members) {
        const std::int64_t per_node = (group_bytes + members - 1) / members;
        return static_cast<double>(members - 1) *
               static_cast<double>(sim::flits_of(Bytes(per_node), system_.noc.flit_bits));
    };
    double total = 0;
    const std::int32_t n_k = m.part(PartDim::k).count();
    const std::int32_t n_c = m.part(PartDim::c).count();
    if (n_k > 1) total += bound(bytes[0], n_k);
    const std::int32_t n_node = sim::nodes_sharing_weights(m);
    const std::int32_t wr = l.has_weights() ? m.wr : 1;
    const std::int32_t shards = (n_node + wr - 1) / wr;
    // Sets of unequal size (shards not dividing N_node) run in phases: bounded by 0.
    if (n_node > 1 && wr < n_node && n_node % shards == 0) total += bound(bytes[1], shards);
    if (n_c > 1) total += bound(bytes[2], n_c);
    return total;
}

double LayerSearch::sharing_latency(const workload::Layer& l, const sim::LayerMapping& m) {
    const auto [rows, cols] = m.shape();
    if (!l.is_compute() || (l.kind == workload::LayerKind::conv && l.groups > 1)) {
        sim::LayerCost c;
        sim::add_sharing_cost(l, m, sim::Region{0, 0, rows, cols}, system_, scheduler_, loads_, c);
        return c.sharing.value();
    }
    const std::int32_t n_node = sim::nodes_sharing_weights(m);
    const bool weighted = l.has_weights();
    const bool gathers = weighted || (l.kind == workload::LayerKind::matmul && l.weights_are_activations);
    const std::int32_t wr = weighted ? m.wr : 1;
    const std::array<bool, 3> happens{m.part(PartDim::k).count() > 1,
                                      gathers && n_node > 1 && wr<n_node, m.part(PartDim::c).count()> 1};
    const std::array<std::int64_t, 3> bytes = largest_chunks(l, m);
    const double hop = system_.noc.hop_cycles;
    double total = 0;
    for (std::size_t e = 0; e < 3; ++e) {
        if (!happens[e]) continue;
        const EventGeometry& g = event_geometry(m, rows, cols, e, (n_node + wr - 1) / wr);
        if (!g.present) continue;
        std::array<double, 2> flits{};
        for (std::size_t cls = 0; cls < 2; ++cls) {
            const std::int64_t members = g.size[cls];
            if (members == 0) continue;
            flits[cls] = static_cast<double>(
                sim::flits_of(Bytes((bytes[e] + members - 1) / members), system_.noc.flit_bits));
        }
        for (const Phase& ph : g.phases) {
            double step = 0;
            for (const auto& [c0, c1, pipe] : ph.lines)
                step =
                    std::max(step, flits[0] * static_cast<double>(c0) + flits[1] * static_cast<double>(c1) +
                                       static_cast<double>(pipe) * hop);
            total += step * ph.repeats;
        }
    }
    return total;
}

std::map<Counts, std::vector<std::pair<std::size_t, std::size_t>>> LayerSearch::count_vectors(
    const workload::Layer& l, const std::vector<Counts>& hs, const std::vector<Counts>& ws) const {
    const std::array<std::int64_t, kPartDims> bound = bounds(l);
    std::map<Counts, std::vector<std::pair<std::size_t, std::size_t>>> by_counts;
    for (std::size_t i = 0; i < hs.size(); ++i)
        for (std::size_t j = 0; j < ws.size(); ++j) {
            Counts n{};
            bool fits = true;
            for (std::size_t d = 0; d < kPartDims && fits; ++d) {
                n[d] = hs[i][d] * ws[j][d];
                fits = n[d] <= bound[d];
            }
            if (fits) by_counts[n].emplace_back(i, j);
        }
    return by_counts;
}

std::pair<double, std::vector<const Counts*>> LayerSearch::fastest_vectors(
    const workload::Layer& l, std::int32_t rows, std::int32_t cols, sim::DataLayout in, sim::DataLayout out,
    const std::vector<Counts>& hs, const std::vector<Counts>& ws, const CountSplits& by_counts) {
    // Compute depends on the counts only: one probe split per vector.
    double best = std::numeric_limits<double>::infinity();
    std::vector<const Counts*> fastest;
    sim::LayerMapping m;
    m.dl_in = in;
    m.dl_out = out;
    for (const auto& [n, splits] : by_counts) {
        for (std::size_t d = 0; d < kPartDims; ++d)
            m.parts[d] = {hs[splits[0].first][d], ws[splits[0].second][d]};
        const double c = compute_cycles(l, m, rows, cols);
        if (c < best) {
            best = c;
            fastest.clear();
        }
        if (c == best && !std::isinf(c)) fastest.push_back(&n);
    }
    return {best, std::move(fastest)};
}

const std::vector<LayerOption>& LayerSearch::fastest_compute(const workload::Layer& l, std::int32_t rows,
                                                             std::int32_t cols, sim::DataLayout in,
                                                             sim::DataLayout out) {
    const Key key = key_of(l, rows, cols, in, out, true);
    if (const auto it = compute_first_.find(key); it != compute_first_.end()) return it->second;
    const std::vector<Counts> hs = factorisations(rows);
    const std::vector<Counts> ws = factorisations(cols);
    const auto by_counts = count_vectors(l, hs, ws);
    const auto [best, fastest] = fastest_vectors(l, rows, cols, in, out, hs, ws, by_counts);
    sim::LayerMapping m;
    m.dl_in = in;
    m.dl_out = out;
    std::vector<LayerOption> result;
    // The first option of the least latency wins; one without sharing (latency = compute,
    // as for most elementwise layers) cannot be beaten, so the search stops there.
    [&] {
        for (const Counts* n : fastest) {
            const auto& splits = by_counts.at(*n);
            std::int64_t arrangements = 0;  // capped as in search()
            for (const auto& [i, j] : splits) {
                if (max_arrangements_ > 0 && arrangements >= max_arrangements_) break;
                for (std::size_t d = 0; d < kPartDims; ++d) m.parts[d] = {hs[i][d], ws[j][d]};
                m.wr = l.has_weights() ? sim::nodes_sharing_weights(m) : 1;
                for (const auto& order : distinct_orders(hs[i], ws[j])) {
                    if (max_arrangements_ > 0 && arrangements++ >= max_arrangements_) break;
                    m.order = order;
                    const double latency = best + sharing_latency(l, m);
                    if (result.empty() || latency < result.front().latency) {
                        result.assign(
                            1, LayerOption{latency, sim::stored_weights_per_node(l, m) * system_.data_bytes(),
                                           m});
                    }
                    if (result.front().latency <= best) return;
                }
            }
        }
    }();
    return compute_first_.emplace(key, std::move(result)).first->second;
}

const std::vector<LayerOption>& LayerSearch::fastest_compute_blind(const workload::Layer& l,
                                                                   std::int32_t rows, std::int32_t cols,
                                                                   sim::DataLayout in, sim::DataLayout out) {
    const Key key = key_of(l, rows, cols, in, out, true);
    if (const auto it = compute_blind_.find(key); it != compute_blind_.end()) return it->second;
    const std::vector<Counts> hs = factorisations(rows);
    const std::vector<Counts> ws = factorisations(cols);
    const auto by_counts = count_vectors(l, hs, ws);
    // Tie-break priority of the partitioned loops: K, P, Q, B, C (most partitions first).
    const auto rank = [](const Counts& n) {
        using D = sim::PartDim;
        const auto at = [&](D d) { return n[static_cast<std::size_t>(d)]; };
        return std::array<std::int32_t, sim::kPartDims>{at(D::k), at(D::p), at(D::q), at(D::b), at(D::c)};
    };
    const auto [best, fastest] = fastest_vectors(l, rows, cols, in, out, hs, ws, by_counts);
    const Counts* pick = nullptr;
    for (const Counts* n : fastest)
        if (pick == nullptr || rank(*n) > rank(*pick)) pick = n;
    sim::LayerMapping m;
    m.dl_in = in;
    m.dl_out = out;
    std::vector<LayerOption> result;
    if (pick != nullptr) {
        const auto [i, j] = by_counts.at(*pick).front();
        for (std::size_t d = 0; d < kPartDims; ++d) m.parts[d] = {hs[i][d], ws[j][d]};
        m.order = distinct_orders(hs[i], ws[j]).front();
        m.wr = l.has_weights() ? sim::nodes_sharing_weights(m) : 1;
        // The latency is reported for the mapper's use; it took no part in the choice.
        result.push_back(LayerOption{best + sharing_latency(l, m),
                                     sim::stored_weights_per_node(l, m) * system_.data_bytes(), m});
    }
    return compute_blind_.emplace(key, std::move(result)).first->second;
}

std::vector<LayerOption> LayerSearch::search(const workload::Layer& l, std::int32_t rows, std::int32_t cols,
                                             sim::DataLayout in, sim::DataLayout out, bool full, bool prune) {
    const std::vector<Counts> hs = factorisations(rows);
    const std::vector<Counts> ws = factorisations(cols);
    const auto by_counts = count_vectors(l, hs, ws);
    // Lower bound of the compute cycles: the largest part-layer (every loop's first, longest
    // part) on the PE array with every lane busy (sim::compute_cycles_lower_bound), and at
    // least its MACs at one MAC per PE per cycle.
    const double pes = static_cast<double>(system_.node.pe_rows) * system_.node.pe_cols;
    const auto lower_bound_of = [&](const Counts& n) {
        if (!l.is_compute()) return 0.0;
        std::array<sim::Range, kPartDims> largest{};
        for (PartDim d : sim::kAllPartDims) largest[at(d)] = sim::split(sim::loop_bound(l, d), n[at(d)], 0);
        const sim::PartLayer p = sim::part_layer_of(l, largest, system_);
        return std::max(static_cast<double>(p.macs()) / pes,
                        sim::compute_cycles_lower_bound(p, system_.node).value());
    };
    // Cheapest bound first, so that good options are found early and prune the rest.
    std::vector<std::pair<double, const Counts*>> vectors;
    for (const auto& [n, splits] : by_counts) vectors.emplace_back(lower_bound_of(n), &n);
    std::stable_sort(vectors.begin(), vectors.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });

    std::vector<LayerOption> front;
    for (const auto& [lower_bound, counts] : vectors) {
        ++stats_.count_vectors;
        const Counts& n = *counts;
        const std::int32_t n_node = n[at(PartDim::b)] * n[at(PartDim::p)] * n[at(PartDim::q)];
        const std::vector<std::int32_t> wrs =
            !l.has_weights() ? std::vector<std::int32_t>{1}
                             : (full ? std::vector<std::int32_t>{n_node} : distinct_wr(n_node));
        const auto& splits = by_counts.at(n);
        sim::LayerMapping m;
        m.dl_in = in;
        m.dl_out = out;
        for (std::size_t d = 0; d < kPartDims; ++d)
            m.parts[d] = {hs[splits[0].first][d], ws[splits[0].second][d]};
        m.wr = wrs.back();
        const std::int64_t min_bytes = sim::stored_weights_per_node(l, m) * system_.data_bytes();
        if (prune && dominated(front, lower_bound, min_bytes)) {
            ++stats_.pruned_vectors;
            continue;
        }
        const double c = compute_cycles(l, m, rows, cols);
        if (std::isinf(c)) continue;
        if (prune && dominated(front, c, min_bytes)) {
            ++stats_.pruned_vectors;
            continue;
        }
        // Pruning 4: the sharing sets' sizes and bytes do not depend on the split or the order,
        // only their placement does; each set of N members needs N - 1 steps that each eject
        // one chunk per member, so sum over events of max (N - 1) x chunk flits bounds the
        // sharing latency of every arrangement of this count vector and WR.
        std::vector<double> share_bound(wrs.size(), 0.0);
        if (prune)
            for (std::size_t w = 0; w < wrs.size(); ++w) {
                m.wr = wrs[w];
                share_bound[w] = sharing_lower_bound(l, m);
            }
        std::int64_t arrangements = 0;
        for (const auto& [i, j] : splits) {
            if (prune && max_arrangements_ > 0 && arrangements >= max_arrangements_) break;
            for (std::size_t d = 0; d < kPartDims; ++d) m.parts[d] = {hs[i][d], ws[j][d]};
            for (const auto& order : distinct_orders(hs[i], ws[j])) {
                if (prune && max_arrangements_ > 0 && arrangements++ >= max_arrangements_) break;
                m.order = order;
                for (std::size_t w = 0; w < wrs.size(); ++w) {
                    const std::int32_t wr = wrs[w];
                    m.wr = wr;
                    const std::int64_t bytes = sim::stored_weights_per_node(l, m) * system_.data_bytes();
                    if (prune && dominated(front, c + share_bound[w], bytes)) continue;
                    ++stats_.options_costed;
                    LayerOption o{c + sharing_latency(l, m), bytes, m};
                    if (prune)
                        insert(front, std::move(o));
                    else
                        front.push_back(std::move(o));
                }
            }
        }
    }
    if (prune)
        std::sort(front.begin(), front.end(), [](const LayerOption& a, const LayerOption& b) {
            return a.bytes != b.bytes ? a.bytes < b.bytes : a.latency < b.latency;
        });
    return front;
}

}  // namespace pimdse::mapper
