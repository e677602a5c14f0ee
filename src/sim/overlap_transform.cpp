// The overlap-friendly transformation of a node's steps (include/pimdse/sim/overlap_transform.hpp).

#include "pimdse/sim/overlap_transform.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>

namespace pimdse::sim {

void transformed_order(const NodeSteps& ns, std::span<const double> ready, std::vector<std::int64_t>& order) {
    const auto n = static_cast<std::size_t>(ns.steps);
    order.resize(n);
    std::iota(order.begin(), order.end(), std::int64_t{0});
    // Each kept block's earliest ready time, per level.
    std::array<std::vector<double>, 2> first;
    for (std::size_t lv = 0; lv < ns.keep.size(); ++lv) {
        if (ns.keep[lv] <= 0) continue;
        first[lv].assign(static_cast<std::size_t>(ns.steps / ns.keep[lv]) + 1,
                         std::numeric_limits<double>::infinity());
        for (std::size_t s = 0; s < n; ++s) {
            double& f = first[lv][s / static_cast<std::size_t>(ns.keep[lv])];
            f = std::min(f, ready[s]);
        }
    }
    // Pixels first among equally ready steps: B, P, Q, then K (indices into the step grid).
    const auto pixel_key = [&](std::int64_t s) {
        std::array<std::int64_t, 4> k{};
        static constexpr std::array<std::size_t, 4> kDims{0, 2, 3, 1};
        for (std::size_t i = 0; i < kDims.size(); ++i) k[i] = s / ns.stride[kDims[i]] % ns.count[kDims[i]];
        return k;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        for (std::size_t lv = 0; lv < ns.keep.size(); ++lv) {
            if (ns.keep[lv] <= 0) continue;
            const std::int64_t ba = a / ns.keep[lv], bb = b / ns.keep[lv];
            if (ba == bb) continue;
            const double fa = first[lv][static_cast<std::size_t>(ba)];
            const double fb = first[lv][static_cast<std::size_t>(bb)];
            return fa != fb ? fa < fb : ba < bb;
        }
        const double ra = ready[static_cast<std::size_t>(a)], rb = ready[static_cast<std::size_t>(b)];
        if (ra != rb) return ra < rb;
        return pixel_key(a) < pixel_key(b);
    });
}

}  // namespace pimdse::sim
