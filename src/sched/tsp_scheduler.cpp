#include "pimdse/sched/tsp_scheduler.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace pimdse::sched {
namespace {

using Dist = std::vector<std::int32_t>;  // n x n Manhattan distances, row-major

// Held-Karp: best[mask][j] = shortest path from member 0 through the members of `mask`
// (over members 1..n-1) ending at j. Ties keep the smaller predecessor index.
std::vector<std::size_t> held_karp(const Dist& d, std::size_t n) {
    const std::size_t m = n - 1;  // members 1..n-1 are bits 0..m-1
    const std::size_t full = (std::size_t{1} << m);
    constexpr std::int32_t kInf = std::numeric_limits<std::int32_t>::max() / 2;
    std::vector<std::int32_t> best(full * m, kInf);
    std::vector<std::int8_t> parent(full * m, -1);
    for (std::size_t j = 0; j < m; ++j) best[(std::size_t{1} << j) * m + j] = d[j + 1];
    for (std::size_t mask = 1; mask < full; ++mask) {
        for (std::size_t j = 0; j < m; ++j) {
            if (!(mask & (std::size_t{1} << j))) continue;
            const std::int32_t cur = best[mask * m + j];
            if (cur >= kInf) continue;
            for (std::size_t k = 0; k < m; ++k) {
                if (mask & (std::size_t{1} << k)) continue;
                const std::size_t next = mask | (std::size_t{1} << k);
                const std::int32_t cand = cur + d[(j + 1) * n + (k + 1)];
                if (cand < best[next * m + k]) {
                    best[next * m + k] = cand;
                    parent[next * m + k] = static_cast<std::int8_t>(j);
                }
            }
        }
    }
    std::size_t last = 0;
    std::int32_t best_total = kInf;
    for (std::size_t j = 0; j < m; ++j) {
        const std::int32_t total = best[(full - 1) * m + j] + d[(j + 1) * n];
        if (total < best_total) {
            best_total = total;
            last = j;
        }
    }
    std::vector<std::size_t> rev;
    std::size_t mask = full - 1;
    std::size_t j = last;
    while (true) {
        rev.push_back(j + 1);
        const std::int8_t p = parent[mask * m + j];
        mask &= ~(std::size_t{1} << j);
        if (p < 0) break;
        j = static_cast<std::size_t>(p);
    }
    std::vector<std::size_t> tour{0};
    tour.insert(tour.end(), rev.rbegin(), rev.rend());
    return tour;
}

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
        throw std::invalid_argument("min_hop_cycle: repeated member");
    }
    for (const sim::NodeId m : sorted) {
        if (!mesh.contains(m)) throw std::out_of_range("min_hop_cycle: member outside the mesh");
    }
    const std::size_t n = sorted.size();
    if (n <= 3) return sorted;  // every cycle through three nodes has the same hops
    Dist d(n * n);
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) d[a * n + b] = mesh.hops(sorted[a], sorted[b]);
    }
    const auto tour = n <= kTspExactMaxMembers ? held_karp(d, n) : nearest_neighbour_two_opt(d, n);
    std::vector<sim::NodeId> order;
    order.reserve(n);
    for (const std::size_t i : tour) order.push_back(sorted[i]);
    return order;
}

std::vector<sim::SharingCycle> TspCycleScheduler::schedule(const sim::Mesh& mesh,
                                                           std::span<const sim::SharingSet> sets) {
    std::vector<sim::SharingCycle> cycles;
    cycles.reserve(sets.size());
    for (const auto& s : sets) cycles.push_back({min_hop_cycle(mesh, s.members), s.bytes_per_node});
    return cycles;
}

}  // namespace pimdse::sched
