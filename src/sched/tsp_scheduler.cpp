#include "pimdse/sched/tsp_scheduler.hpp"

#include "hamilton.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include "pimdse/core/error.hpp"

namespace pimdse::sched {
namespace {

using Dist = std::vector<std::int64_t>;  // n x n Manhattan distances, row-major

std::vector<std::size_t> nearest_neighbour_two_opt(const Dist& d, std::size_t n) {
    std::vector<std::size_t> tour{0};
    std::vector<bool> used(n, false);
    used[0] = true;
    for (std::size_t step = 1; step < n; ++step) {
        const std::size_t cur = tour.back();
        std::size_t pick = n;
        for (std::size_t k = 0; k < n; ++k) {
            if (!used[k] && (pick == n || d[cur * n + k] < d[cur * n + pick])) pick = k;
        }
        used[pick] = true;
        tour.push_back(pick);
    }
    // 2-opt: reverse tour[i..j] while that shortens the (symmetric) tour; first improvement.
    bool improved = true;
    while (improved) {
        improved = false;
        for (std::size_t i = 1; i + 1 < n && !improved; ++i) {
            for (std::size_t j = i + 1; j < n && !improved; ++j) {
                const std::size_t a = tour[i - 1], b = tour[i], c = tour[j], e = tour[(j + 1) % n];
                if (d[a * n + c] + d[b * n + e] < d[a * n + b] + d[c * n + e]) {
                    std::reverse(tour.begin() + static_cast<std::ptrdiff_t>(i),
                                 tour.begin() + static_cast<std::ptrdiff_t>(j) + 1);
                    improved = true;
                }
            }
        }
    }
    return tour;
}

}  // namespace

std::vector<sim::NodeId> min_hop_cycle(const sim::Mesh& mesh, std::span<const sim::NodeId> members) {
    std::vector<sim::NodeId> sorted(members.begin(), members.end());
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        throw ModelError("min_hop_cycle: repeated member");
    }
    for (const sim::NodeId m : sorted) {
        if (!mesh.contains(m)) throw ModelError("min_hop_cycle: member outside the mesh");
    }
    const std::size_t n = sorted.size();
    if (n <= 3) return sorted;  // every cycle through three nodes has the same hops
    Dist d(n * n);
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) d[a * n + b] = mesh.hops(sorted[a], sorted[b]);
    }
    std::vector<sim::NodeId> order;
    order.reserve(n);
    if (n <= kTspExactMaxMembers) {
        for (const std::size_t i : detail::held_karp(std::span<const std::int64_t>(d), n).tour)
            order.push_back(sorted[i]);
    } else {
        for (const std::size_t i : nearest_neighbour_two_opt(d, n)) order.push_back(sorted[i]);
    }
    return order;
}

std::vector<sim::NodeId> TspCycleScheduler::cycle(const sim::Mesh& mesh,
                                                  std::span<const sim::NodeId> members) {
    std::vector<sim::NodeId> sorted(members.begin(), members.end());
    std::sort(sorted.begin(), sorted.end());
    if (sorted.size() <= 3) return min_hop_cycle(mesh, sorted);  // checks the members too
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        throw ModelError("min_hop_cycle: repeated member");
    }
    for (const sim::NodeId m : sorted) {
        if (!mesh.contains(m)) throw ModelError("min_hop_cycle: member outside the mesh");
    }
    auto key = detail::shape_key(mesh, sorted);
    auto it = shapes_.find(key);
    if (it == shapes_.end()) {
        // Solve once per shape: translates have the same distances, hence the same tour.
        const std::vector<sim::NodeId> order = min_hop_cycle(mesh, sorted);
        std::vector<std::uint16_t> tour;
        tour.reserve(order.size());
        for (const sim::NodeId v : order) {
            tour.push_back(static_cast<std::uint16_t>(std::lower_bound(sorted.begin(), sorted.end(), v) -
                                                      sorted.begin()));
        }
        if (shapes_.size() >= kMaxCachedShapes) shapes_.clear();
        it = shapes_.emplace(std::move(key), std::move(tour)).first;
    }
    std::vector<sim::NodeId> order;
    order.reserve(sorted.size());
    for (const std::uint16_t i : it->second) order.push_back(sorted[i]);
    return order;
}

std::vector<sim::SharingCycle> TspCycleScheduler::schedule(const sim::Mesh& mesh,
                                                           std::span<const sim::SharingSet> sets) {
    std::vector<sim::SharingCycle> cycles;
    cycles.reserve(sets.size());
    for (const auto& s : sets) cycles.push_back({cycle(mesh, s.members), s.bytes_per_node});
    return cycles;
}

}  // namespace pimdse::sched
