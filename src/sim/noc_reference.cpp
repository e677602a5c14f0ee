#include "pimdse/sim/noc_reference.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

namespace {

void check_nodes(const Mesh& mesh, std::span<const Transfer> transfers) {
    for (const Transfer& t : transfers) {
        if (!mesh.contains(t.src) || !mesh.contains(t.dst)) {
            throw ModelError("simulate_transfers: transfer node outside the " + std::to_string(mesh.rows()) +
                             " x " + std::to_string(mesh.cols()) + " mesh");
        }
    }
}

/// The channels a transfer's flits cross: injection port, XY links, ejection port.
std::vector<ChannelId> channel_path(const Mesh& mesh, NodeId src, NodeId dst) {
    std::vector<ChannelId> path{mesh.injection_port(src)};
    for (ChannelId l : mesh.route(src, dst)) path.push_back(l);
    path.push_back(mesh.ejection_port(dst));
    return path;
}

/// A "stage" is one (transfer, channel) pair of a route; it owns the FIFO of the transfer's
/// flits waiting for that channel, each entry the cycle from which the flit may cross it.
struct Stage {
    std::size_t transfer;
    ChannelId channel;
    bool last;           // the ejection port: crossing it delivers the flit
    std::int64_t delay;  // cycles from crossing this channel to competing for the next
    std::deque<std::int64_t> waiting;
};

/// The stages of every transfer's route (consecutive per transfer, the injection stage first,
/// holding all its flits) and per channel its stages in transfer order; returns the flits.
std::int64_t build_stages(const Mesh& mesh, std::span<const Transfer> transfers, const NocParams& params,
                          std::vector<Stage>& stages, std::vector<std::vector<std::size_t>>& users) {
    std::int64_t total_flits = 0;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const Transfer& t = transfers[i];
        const std::int64_t flits = flits_of(t.bytes, params.flit_bits);
        if (t.src == t.dst || flits == 0) continue;
        const std::vector<ChannelId> path = channel_path(mesh, t.src, t.dst);
        for (std::size_t s = 0; s < path.size(); ++s) {
            const bool injection = s == 0;
            const bool last = s + 1 == path.size();
            users[static_cast<std::size_t>(path[s])].push_back(stages.size());
            stages.push_back({i, path[s], last, injection ? 0 : params.hop_cycles, {}});
        }
        stages[stages.size() - path.size()].waiting.assign(static_cast<std::size_t>(flits), 0);
        total_flits += flits;
    }
    return total_flits;
}

/// The order channels are served in within a cycle: injection ports, links, ejection ports.
std::vector<std::size_t> service_order(const Mesh& mesh) {
    std::vector<std::size_t> order;
    order.reserve(static_cast<std::size_t>(mesh.channel_count()));
    for (NodeId n = 0; n < mesh.node_count(); ++n)
        order.push_back(static_cast<std::size_t>(mesh.injection_port(n)));
    for (ChannelId l = 0; l < mesh.link_count(); ++l) order.push_back(static_cast<std::size_t>(l));
    for (NodeId n = 0; n < mesh.node_count(); ++n)
        order.push_back(static_cast<std::size_t>(mesh.ejection_port(n)));
    return order;
}

}  // namespace

ReferenceResult simulate_transfers(const Mesh& mesh, std::span<const Transfer> transfers,
                                   const NocParams& params) {
    validate(params);
    check_nodes(mesh, transfers);
    const auto n_channels = static_cast<std::size_t>(mesh.channel_count());

    std::vector<Stage> stages;
    std::vector<std::vector<std::size_t>> users(n_channels);  // stages of each channel, in transfer order
    const std::int64_t total_flits = build_stages(mesh, transfers, params, stages, users);

    ReferenceResult result;
    result.channel_flits.assign(n_channels, 0);
    result.transfer_done.assign(transfers.size(), 0);
    std::vector<std::int64_t> queued(n_channels, 0);    // flits waiting for each channel
    std::vector<std::size_t> next_user(n_channels, 0);  // round-robin pointer into users[c]
    for (const Stage& s : stages)
        queued[static_cast<std::size_t>(s.channel)] += static_cast<std::int64_t>(s.waiting.size());

    // Injection ports are served first in a cycle so that a flit injected in cycle t can
    // take its first link in cycle t; every other hand-over lands at least one cycle later,
    // so the order among links and ejection ports within a cycle does not matter.
    const std::vector<std::size_t> order = service_order(mesh);

    std::int64_t delivered = 0;
    std::int64_t now = 0;
    std::int64_t last_arrival = 0;
    while (delivered < total_flits) {
        bool served_any = false;
        for (std::size_t c : order) {
            if (queued[c] == 0) continue;
            const std::vector<std::size_t>& u = users[c];
            for (std::size_t k = 0; k < u.size(); ++k) {
                const std::size_t pick = (next_user[c] + k) % u.size();
                Stage& s = stages[u[pick]];
                if (s.waiting.empty() || s.waiting.front() > now) continue;
                s.waiting.pop_front();
                --queued[c];
                ++result.channel_flits[c];
                next_user[c] = (pick + 1) % u.size();
                served_any = true;
                if (s.last) {
                    ++delivered;
                    last_arrival = now + 1;
                    result.transfer_done[s.transfer] = now + 1;
                } else {
                    Stage& following = stages[u[pick] + 1];
                    following.waiting.push_back(now + s.delay);
                    ++queued[static_cast<std::size_t>(following.channel)];
                }
                break;
            }
        }
        if (served_any) {
            ++now;
            continue;
        }
        // Nothing was eligible: jump to the next cycle at which some flit becomes eligible.
        std::int64_t wake = std::numeric_limits<std::int64_t>::max();
        for (const Stage& s : stages) {
            if (!s.waiting.empty()) wake = std::min(wake, s.waiting.front());
        }
        if (wake <= now) throw InternalError("simulate_transfers: no progress");  // cannot happen
        now = wake;
    }
    result.latency = Cycles(static_cast<double>(last_arrival));
    return result;
}

Cycles reference_lower_bound(const Mesh& mesh, std::span<const Transfer> transfers, const NocParams& params) {
    validate(params);
    check_nodes(mesh, transfers);
    const auto n = static_cast<std::size_t>(mesh.channel_count());
    constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> load(n, 0);
    std::vector<std::int64_t> earliest(n, kInf);   // earliest cycle a flit can compete for c
    std::vector<std::int64_t> remaining(n, kInf);  // fewest cycles from crossing c to arrival - 1
    std::int64_t bound = 0;
    for (const Transfer& t : transfers) {
        const std::int64_t flits = flits_of(t.bytes, params.flit_bits);
        if (t.src == t.dst || flits == 0) continue;
        const std::vector<ChannelId> path = channel_path(mesh, t.src, t.dst);
        const auto h = static_cast<std::int64_t>(path.size()) - 2;
        bound = std::max(bound, flits + h * params.hop_cycles);
        for (std::size_t s = 0; s < path.size(); ++s) {
            // Stage s >= 1 is the (s-1)-th link or, for s = h + 1, the ejection port.
            const std::int64_t before = s == 0 ? 0 : static_cast<std::int64_t>(s - 1) * params.hop_cycles;
            const std::int64_t after =
                s == 0 ? h * params.hop_cycles : (h - static_cast<std::int64_t>(s - 1)) * params.hop_cycles;
            const auto c = static_cast<std::size_t>(path[s]);
            load[c] += flits;
            earliest[c] = std::min(earliest[c], before);
            remaining[c] = std::min(remaining[c], after);
        }
    }
    // The last of load(c) flits crosses c no earlier than earliest(c) + load(c) - 1 and
    // arrives remaining(c) + 1 cycles later.
    for (std::size_t c = 0; c < n; ++c) {
        if (load[c] > 0) bound = std::max(bound, earliest[c] + load[c] + remaining[c]);
    }
    return Cycles(static_cast<double>(bound));
}

}  // namespace pimdse::sim
