#include "hamilton.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <utility>

namespace pimdse::sched::detail {

namespace {

template <class T>
struct HeldKarpTables {
    std::vector<T> into, best;
    std::vector<std::int8_t> parent;
};

template <class T>
HeldKarpTables<T>& held_karp_tables() {
    thread_local HeldKarpTables<T> tables;
    return tables;
}

// The j in `prev` minimising from[j] + cost[j] (the smallest such j on a tie), and that
// sum; {inf, -1} when no sum is below inf. The members alternate between two running
// minima, so the two compare-and-select chains overlap; each keeps its first minimum, and
// the merge takes the smaller sum or, on a tie, the smaller index: the same pair as one
// ascending scan with a strict <.
template <class T>
std::pair<T, std::int8_t> cheapest_predecessor(const T* from, const T* cost, std::size_t prev, T inf) {
    T top0 = inf, top1 = inf;
    std::int8_t arg0 = -1, arg1 = -1;
    for (std::size_t bits = prev; bits != 0;) {
        const auto j0 = static_cast<std::size_t>(std::countr_zero(bits));
        bits &= bits - 1;
        const T cand0 = from[j0] + cost[j0];
        if (cand0 < top0) {
            top0 = cand0;
            arg0 = static_cast<std::int8_t>(j0);
        }
        if (bits == 0) break;
        const auto j1 = static_cast<std::size_t>(std::countr_zero(bits));
        bits &= bits - 1;
        const T cand1 = from[j1] + cost[j1];
        if (cand1 < top1) {
            top1 = cand1;
            arg1 = static_cast<std::int8_t>(j1);
        }
    }
    if (top1 < top0 || (top1 == top0 && arg1 < arg0)) return {top1, arg1};
    return {top0, arg0};
}

// Held-Karp: best[mask][j] = cheapest path from point 0 through the points of `mask`
// (over points 1..n-1) ending at j. Computed by pulling from mask without j, whose row is
// contiguous (the push form scatters writes over a table of several MiB). Predecessors are
// tried in ascending order with a strict <, so ties keep the smaller index.
template <class T>
HeldKarpResult<T> held_karp_impl(std::span<const T> d, std::size_t n) {
    const std::size_t m = n - 1;  // points 1..n-1 are bits 0..m-1
    const std::size_t full = std::size_t{1} << m;
    const T inf = std::numeric_limits<T>::max() / 4;
    // The tables live in per-thread buffers kept across calls: at 16 points they take about
    // 4.5 MiB, which a fresh allocation would fill and fault in on every pricing call. No
    // entry is read before this call writes it: best[mask][j] and parent[mask][j] are read
    // only for j in mask, and those are set below (single points) or in the DP (the rest).
    HeldKarpTables<T>& tables = held_karp_tables<T>();
    std::vector<T>& into = tables.into;  // into[k*m + j] = d(j+1 -> k+1)
    std::vector<T>& best = tables.best;
    std::vector<std::int8_t>& parent = tables.parent;
    if (into.size() < m * m) into.resize(m * m);
    if (best.size() < full * m) best.resize(full * m);
    if (parent.size() < full * m) parent.resize(full * m);
    for (std::size_t k = 0; k < m; ++k)
        for (std::size_t j = 0; j < m; ++j) into[k * m + j] = d[(j + 1) * n + k + 1];
    for (std::size_t j = 0; j < m; ++j) {
        best[(std::size_t{1} << j) * m + j] = d[j + 1];
        parent[(std::size_t{1} << j) * m + j] = -1;
    }
    for (std::size_t mask = 1; mask < full; ++mask) {
        if ((mask & (mask - 1)) == 0) continue;  // single points: set above
        for (std::size_t rest = mask; rest != 0; rest &= rest - 1) {
            const auto k = static_cast<std::size_t>(std::countr_zero(rest));
            const std::size_t prev = mask & ~(std::size_t{1} << k);
            const T* from = best.data() + prev * m;
            const T* cost = into.data() + k * m;
            const auto [top, arg] = cheapest_predecessor(from, cost, prev, inf);
            best[mask * m + k] = top;
            parent[mask * m + k] = arg;
        }
    }
    std::size_t last = 0;
    T total = inf;
    for (std::size_t j = 0; j < m; ++j) {
        const T t = best[(full - 1) * m + j] + d[(j + 1) * n];
        if (t < total) {
            total = t;
            last = j;
        }
    }
    Tour rev;
    std::size_t mask = full - 1;
    std::size_t j = last;
    while (true) {
        rev.push_back(static_cast<std::uint16_t>(j + 1));
        const std::int8_t p = parent[mask * m + j];
        mask &= ~(std::size_t{1} << j);
        if (p < 0) break;
        j = static_cast<std::size_t>(p);
    }
    HeldKarpResult<T> out;
    out.tour.push_back(0);
    out.tour.insert(out.tour.end(), rev.rbegin(), rev.rend());
    out.cost = total;
    return out;
}

// The last kRemembered cost matrices Held-Karp solved on this thread, with their answers.
// The column generation prices every set of an event under the links' duals, and most
// sets see the same matrix again (where no route crosses a priced link it is all zeros):
// ResNet-152 on 16 x 16 solved 8 distinct matrices in 64 calls. The matrices are compared
// bit for bit, so a repeat gets exactly the answer a new solve would.
template <class T>
struct HeldKarpMemo {
    static constexpr std::size_t kRemembered = 16;
    std::vector<std::pair<std::vector<T>, HeldKarpResult<T>>> entries;
    std::size_t next = 0;  // the entry to replace once full
};

template <class T>
HeldKarpResult<T> held_karp_memoised(std::span<const T> d, std::size_t n) {
    thread_local HeldKarpMemo<T> memo;
    const std::size_t bytes = n * n * sizeof(T);
    for (const auto& [cost, result] : memo.entries)
        if (cost.size() == n * n && std::memcmp(cost.data(), d.data(), bytes) == 0) return result;
    HeldKarpResult<T> result = held_karp_impl(d, n);
    std::vector<T> cost(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n * n));
    if (memo.entries.size() < HeldKarpMemo<T>::kRemembered) {
        memo.entries.emplace_back(std::move(cost), result);
    } else {
        memo.entries[memo.next] = {std::move(cost), result};
        memo.next = (memo.next + 1) % HeldKarpMemo<T>::kRemembered;
    }
    return result;
}

}  // namespace

HeldKarpResult<std::int64_t> held_karp(std::span<const std::int64_t> cost, std::size_t n) {
    return held_karp_memoised(cost, n);
}

HeldKarpResult<double> held_karp(std::span<const double> cost, std::size_t n) {
    return held_karp_memoised(cost, n);
}

CycleList enumerate_short_cycles(std::span<const std::int64_t> dist, std::size_t n, std::int64_t max_length,
                                 std::size_t max_cycles, std::size_t max_steps) {
    CycleList out;
    if (n < 2) return out;
    // Every point still to leave needs at least its shortest outgoing edge: a valid bound
    // on the rest of the cycle, which prunes hard when max_length is the minimum.
    std::vector<std::int64_t> min_out(n, std::numeric_limits<std::int64_t>::max());
    for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
            if (a != b) min_out[a] = std::min(min_out[a], dist[a * n + b]);
        }
    }
    std::int64_t rest_bound = 0;  // sum of min_out over unvisited points
    for (std::size_t a = 1; a < n; ++a) rest_bound += min_out[a];
    Tour path{0};
    std::vector<char> used(n, 0);
    used[0] = 1;
    std::size_t steps = 0;
    bool stop = false;
    auto rec = [&](auto&& self, std::int64_t length) -> void {
        if (stop) return;
        if (++steps > max_steps) {
            out.complete = false;
            stop = true;
            return;
        }
        const std::size_t a = path.back();
        if (path.size() == n) {
            if (length + dist[a * n] <= max_length) {
                out.tours.push_back(path);
                if (out.tours.size() >= max_cycles) {
                    out.complete = false;
                    stop = true;
                }
            }
            return;
        }
        for (std::size_t b = 1; b < n && !stop; ++b) {
            if (used[b]) continue;
            const std::int64_t next = length + dist[a * n + b];
            // b's own outgoing edge is in rest_bound until b is visited.
            if (next + rest_bound > max_length) continue;
            used[b] = 1;
            rest_bound -= min_out[b];
            path.push_back(static_cast<std::uint16_t>(b));
            self(self, next);
            path.pop_back();
            rest_bound += min_out[b];
            used[b] = 0;
        }
    };
    rec(rec, 0);
    return out;
}

std::vector<std::int32_t> shape_key(const sim::Mesh& mesh, std::span<const sim::NodeId> sorted_members) {
    std::int32_t r0 = std::numeric_limits<std::int32_t>::max();
    std::int32_t c0 = r0;
    for (const sim::NodeId v : sorted_members) {
        r0 = std::min(r0, mesh.coord(v).row);
        c0 = std::min(c0, mesh.coord(v).col);
    }
    std::vector<std::int32_t> key;
    key.reserve(2 * sorted_members.size());
    for (const sim::NodeId v : sorted_members) {
        key.push_back(mesh.coord(v).row - r0);
        key.push_back(mesh.coord(v).col - c0);
    }
    return key;
}

}  // namespace pimdse::sched::detail
