#include "pimdse/sim/noc_sharing.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

namespace {

void check_member(const Mesh& mesh, NodeId n, const char* what) {
    if (!mesh.contains(n)) {
        throw ModelError(std::string(what) + ": member " + std::to_string(n) + " outside the " +
                         std::to_string(mesh.rows()) + " x " + std::to_string(mesh.cols()) + " mesh");
    }
}

std::int32_t steps_of(const SharingCycle& c) {
    return c.order.size() < 2 ? 0 : static_cast<std::int32_t>(c.order.size()) - 1;
}

}  // namespace

ShareCost share_along_cycles(const Mesh& mesh, std::span<const SharingCycle> cycles, const NocParams& params,
                             ChannelLoads& loads) {
    validate(params);
    ShareCost cost;
    double latency = 0;
    // Steps are identical while the same sets are active, so the event is a few phases:
    // (done, next] are the steps in which exactly the sets with more than `done` steps move.
    std::int32_t done = 0;
    for (;;) {
        std::int32_t next = std::numeric_limits<std::int32_t>::max();
        for (const SharingCycle& c : cycles) {
            const std::int32_t s = steps_of(c);
            if (s > done) next = std::min(next, s);
        }
        if (next == std::numeric_limits<std::int32_t>::max()) break;

        loads.reset(mesh);
        std::int64_t flit_hops = 0;
        std::int32_t max_hops = 0;
        for (const SharingCycle& c : cycles) {
            if (steps_of(c) <= done) continue;
            const std::int64_t flits = flits_of(c.bytes_per_node, params.flit_bits);
            for (NodeId member : c.order) check_member(mesh, member, "share_along_cycles");
            const std::size_t n = c.order.size();
            for (std::size_t i = 0; i < n; ++i) {
                const NodeId from = c.order[i];
                const NodeId to = c.order[i + 1 == n ? 0 : i + 1];
                // One step of NicePIM VII: every member forwards one chunk to its successor.
                const std::int32_t h = loads.add_route(mesh, from, to, flits);
                flit_hops += flits * h;
                max_hops = std::max(max_hops, h);
            }
        }
        const TransferCost step = summarise_loads(mesh, loads, flit_hops, max_hops, params);
        const std::int32_t repeats = next - done;
        if (done == 0) {  // the first phase has every set active, so the heaviest loads
            cost.max_link_flits = step.max_link_flits;
            cost.max_channel_flits = step.max_channel_flits;
            cost.max_hops = step.max_hops;
        }
        cost.flit_hops += step.flit_hops * repeats;
        latency += step.latency.value() * repeats;
        cost.steps = next;
        done = next;
    }
    cost.latency = Cycles(latency);
    cost.energy = Picojoules(static_cast<double>(cost.flit_hops) * params.flit_bits * params.pj_per_bit_hop);
    return cost;
}

ShareCost share_along_cycles(const Mesh& mesh, std::span<const SharingCycle> cycles,
                             const NocParams& params) {
    ChannelLoads loads;
    return share_along_cycles(mesh, cycles, params, loads);
}

ShareCost share_shortest_paths(const Mesh& mesh, std::span<const SharingSet> sets, const NocParams& params,
                               ChannelLoads& loads) {
    validate(params);
    loads.reset(mesh);
    std::int64_t flit_hops = 0;
    std::int32_t max_hops = 0;
    bool moves = false;
    for (const SharingSet& s : sets) {
        const std::int64_t flits = flits_of(s.bytes_per_node, params.flit_bits);
        for (NodeId n : s.members) check_member(mesh, n, "share_shortest_paths");
        for (NodeId from : s.members) {
            for (NodeId to : s.members) {
                const std::int32_t h = loads.add_route(mesh, from, to, flits);
                flit_hops += flits * h;
                max_hops = std::max(max_hops, h);
                moves = moves || h > 0;
            }
        }
    }
    const TransferCost all = summarise_loads(mesh, loads, flit_hops, max_hops, params);
    ShareCost cost;
    cost.max_link_flits = all.max_link_flits;
    cost.max_channel_flits = all.max_channel_flits;
    cost.steps = moves ? 1 : 0;
    cost.max_hops = all.max_hops;
    cost.flit_hops = all.flit_hops;
    cost.latency = all.latency;
    cost.energy = all.energy;
    return cost;
}

ShareCost share_shortest_paths(const Mesh& mesh, std::span<const SharingSet> sets, const NocParams& params) {
    ChannelLoads loads;
    return share_shortest_paths(mesh, sets, params, loads);
}

std::vector<Transfer> cycle_step_transfers(std::span<const SharingCycle> cycles, std::int32_t step) {
    std::vector<Transfer> transfers;
    for (const SharingCycle& c : cycles) {
        if (steps_of(c) <= step) continue;
        const std::size_t n = c.order.size();
        for (std::size_t i = 0; i < n; ++i)
            transfers.push_back({c.order[i], c.order[(i + 1) % n], c.bytes_per_node});
    }
    return transfers;
}

std::vector<Transfer> shortest_path_transfers(std::span<const SharingSet> sets) {
    std::vector<Transfer> transfers;
    for (const SharingSet& s : sets) {
        for (NodeId from : s.members) {
            for (NodeId to : s.members) {
                if (from != to) transfers.push_back({from, to, s.bytes_per_node});
            }
        }
    }
    return transfers;
}

std::vector<NodeId> snake_order(const Mesh& mesh, std::span<const NodeId> members) {
    std::vector<NodeId> order(members.begin(), members.end());
    for (NodeId n : order) check_member(mesh, n, "snake_order");
    // Node ids are row-major, so sorting them sorts by (row, col).
    std::sort(order.begin(), order.end());
    // Reverse every second run of equal rows: the ring sweeps west-east, then east-west.
    bool reverse = false;
    for (auto first = order.begin(); first != order.end();) {
        const std::int32_t row = mesh.coord(*first).row;
        auto last = std::find_if(first, order.end(), [&](NodeId n) { return mesh.coord(n).row != row; });
        if (reverse) std::reverse(first, last);
        reverse = !reverse;
        first = last;
    }
    return order;
}

std::vector<SharingCycle> SnakeRingScheduler::schedule(const Mesh& mesh, std::span<const SharingSet> sets) {
    std::vector<SharingCycle> cycles;
    cycles.reserve(sets.size());
    for (const SharingSet& s : sets) cycles.push_back({snake_order(mesh, s.members), s.bytes_per_node});
    return cycles;
}

std::vector<SharingSet> interleaved_sets(const Mesh& mesh, std::int32_t side, Bytes bytes_per_node) {
    if (side < 1 || mesh.rows() % side != 0 || mesh.cols() % side != 0)
        throw ModelError("interleaved_sets: the set side must divide both mesh dimensions");
    const std::int32_t sr = mesh.rows() / side;
    const std::int32_t sc = mesh.cols() / side;
    std::vector<SharingSet> sets;
    sets.reserve(static_cast<std::size_t>(sr * sc));
    for (std::int32_t row0 = 0; row0 < sr; ++row0) {
        for (std::int32_t col0 = 0; col0 < sc; ++col0) {
            SharingSet s{{}, bytes_per_node};
            s.members.reserve(static_cast<std::size_t>(side * side));
            for (std::int32_t i = 0; i < side; ++i)
                for (std::int32_t j = 0; j < side; ++j)
                    s.members.push_back(mesh.node(row0 + i * sr, col0 + j * sc));
            sets.push_back(std::move(s));
        }
    }
    return sets;
}

}  // namespace pimdse::sim
