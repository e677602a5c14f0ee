#include "pimdse/sim/noc.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

Mesh::Mesh(std::int32_t rows, std::int32_t cols) : rows_(rows), cols_(cols), h_(0), v_(0) {
    // 4096 keeps every channel id, and rows * cols, far inside int32.
    if (rows < 1 || cols < 1 || rows > 4096 || cols > 4096) {
        throw ModelError("Mesh: rows and cols must be in [1, 4096], got " + std::to_string(rows) + " x " +
                         std::to_string(cols));
    }
    h_ = rows * (cols - 1);
    v_ = (rows - 1) * cols;
}

ChannelId Mesh::link(NodeId n, Direction d) const noexcept {
    const NodeCoord p = coord(n);
    switch (d) {
        case Direction::east:
            return p.col + 1 < cols_ ? p.row * (cols_ - 1) + p.col : kNoChannel;
        case Direction::west:
            return p.col > 0 ? h_ + p.row * (cols_ - 1) + (p.col - 1) : kNoChannel;
        case Direction::south:
            return p.row + 1 < rows_ ? 2 * h_ + p.row * cols_ + p.col : kNoChannel;
        case Direction::north:
            return p.row > 0 ? 2 * h_ + v_ + (p.row - 1) * cols_ + p.col : kNoChannel;
    }
    return kNoChannel;
}

Direction Mesh::link_direction(ChannelId l) const noexcept {
    if (l < h_) return Direction::east;
    if (l < 2 * h_) return Direction::west;
    if (l < 2 * h_ + v_) return Direction::south;
    return Direction::north;
}

NodeId Mesh::link_source(ChannelId l) const noexcept {
    const std::int32_t w = cols_ - 1;  // links per row in one horizontal direction
    switch (link_direction(l)) {
        case Direction::east:
            return node(l / w, l % w);
        case Direction::west: {
            const std::int32_t i = l - h_;
            return node(i / w, i % w + 1);
        }
        case Direction::south: {
            const std::int32_t i = l - 2 * h_;
            return node(i / cols_, i % cols_);
        }
        case Direction::north: {
            const std::int32_t i = l - 2 * h_ - v_;
            return node(i / cols_ + 1, i % cols_);
        }
    }
    return 0;
}

NodeId Mesh::link_target(ChannelId l) const noexcept {
    const NodeId s = link_source(l);
    switch (link_direction(l)) {
        case Direction::east:
            return s + 1;
        case Direction::west:
            return s - 1;
        case Direction::south:
            return s + cols_;
        case Direction::north:
            return s - cols_;
    }
    return s;
}

std::int32_t Mesh::hops(NodeId src, NodeId dst) const noexcept {
    const NodeCoord a = coord(src);
    const NodeCoord b = coord(dst);
    return std::abs(a.row - b.row) + std::abs(a.col - b.col);
}

std::vector<ChannelId> Mesh::route(NodeId src, NodeId dst) const {
    std::vector<ChannelId> links;
    links.reserve(static_cast<std::size_t>(hops(src, dst)));
    for_each_route_link(src, dst, [&](ChannelId l) { links.push_back(l); });
    return links;
}

void validate(const NocParams& params) {
    if (params.flit_bits < 1) throw ModelError("NocParams: flit_bits must be >= 1");
    // The reference simulator needs a positive hop latency to order events within a cycle.
    if (params.hop_cycles < 1) throw ModelError("NocParams: hop_cycles must be >= 1");
    if (!(params.pj_per_bit_hop >= 0)) throw ModelError("NocParams: pj_per_bit_hop must be >= 0");
}

void ChannelLoads::reset(const Mesh& mesh) {
    const auto n = static_cast<std::size_t>(mesh.channel_count());
    if (flits_.size() == n) {
        // A transfer loads a few of a mesh's channels; clearing only those is most of the
        // difference to clearing all (the NoC costings of `pimdse map` reset loads often).
        for (const std::int32_t c : loaded()) {
            const auto i = static_cast<std::size_t>(c);
            flits_[i] = 0;
            before_[i] = std::numeric_limits<std::int32_t>::max();
            after_[i] = 0;
        }
    } else {
        flits_.assign(n, 0);
        before_.assign(n, std::numeric_limits<std::int32_t>::max());
        after_.assign(n, 0);
        loaded_.assign(n + 1, 0);  // a spare slot: add_route writes one past the last loaded
    }
    count_ = 0;
}

std::int32_t ChannelLoads::add_route(const Mesh& mesh, NodeId src, NodeId dst, std::int64_t flits) noexcept {
    if (src == dst || flits <= 0) return 0;
    const NodeCoord a = mesh.coord(src);
    const NodeCoord b = mesh.coord(dst);
    const std::int32_t h = std::abs(a.row - b.row) + std::abs(a.col - b.col);
    auto add = [&](ChannelId c, std::int32_t done) {
        const auto i = static_cast<std::size_t>(c);
        loaded_[count_] = c;  // kept only if the channel had no flits yet (no branch)
        count_ += flits_[i] == 0 ? 1 : 0;
        flits_[i] += flits;
        before_[i] = std::min(before_[i], done);
        after_[i] = std::max(after_[i], h - done);
    };
    add(mesh.injection_port(src), 0);
    std::int32_t done = 0;
    mesh.for_each_route_link(a, b, [&](ChannelId l) { add(l, done++); });
    add(mesh.ejection_port(dst), h);
    return h;
}

TransferCost summarise_loads(const Mesh& mesh, const ChannelLoads& loads, std::int64_t flit_hops,
                             std::int32_t max_hops, const NocParams& params) noexcept {
    TransferCost cost;
    cost.flit_hops = flit_hops;
    cost.max_hops = max_hops;
    const auto flits = loads.flits();
    const auto before = loads.min_hops_before();
    const auto after = loads.max_hops_after();
    const auto links = static_cast<std::size_t>(mesh.link_count());
    // Channel c forwards one flit per cycle (wormhole, NicePIM VII: the heaviest link sets
    // the transfer time). It cannot start before its nearest flow's first flit has made
    // min_hops_before(c) hops, needs load(c) cycles to serialise its flits, and its last
    // flit may still have max_hops_after(c) hops to go. The worst channel sets the latency.
    std::int64_t latency = 0;
    for (const std::int32_t id : loads.loaded()) {  // the maxima do not depend on the order
        const auto c = static_cast<std::size_t>(id);
        if (c < links) cost.max_link_flits = std::max(cost.max_link_flits, flits[c]);
        cost.max_channel_flits = std::max(cost.max_channel_flits, flits[c]);
        const std::int64_t pipeline = std::int64_t{before[c]} + after[c];
        latency = std::max(latency, flits[c] + pipeline * params.hop_cycles);
    }
    cost.latency = Cycles(static_cast<double>(latency));
    cost.energy = Picojoules(static_cast<double>(flit_hops) * params.flit_bits * params.pj_per_bit_hop);
    return cost;
}

TransferCost evaluate_transfers(const Mesh& mesh, std::span<const Transfer> transfers,
                                const NocParams& params, ChannelLoads& loads) {
    validate(params);
    loads.reset(mesh);
    std::int64_t flit_hops = 0;
    std::int32_t max_hops = 0;
    for (const Transfer& t : transfers) {
        if (!mesh.contains(t.src) || !mesh.contains(t.dst)) {
            throw ModelError("evaluate_transfers: node " +
                             std::to_string(mesh.contains(t.src) ? t.dst : t.src) + " outside the " +
                             std::to_string(mesh.rows()) + " x " + std::to_string(mesh.cols()) + " mesh");
        }
        const std::int64_t f = flits_of(t.bytes, params.flit_bits);
        const std::int32_t h = loads.add_route(mesh, t.src, t.dst, f);
        if (h > 0) {
            flit_hops += f * h;
            max_hops = std::max(max_hops, h);
        }
    }
    return summarise_loads(mesh, loads, flit_hops, max_hops, params);
}

TransferCost evaluate_transfers(const Mesh& mesh, std::span<const Transfer> transfers,
                                const NocParams& params) {
    ChannelLoads loads;
    return evaluate_transfers(mesh, transfers, params, loads);
}

}  // namespace pimdse::sim
