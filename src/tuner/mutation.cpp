#include "mutation.hpp"

#include <algorithm>
#include <cmath>

namespace pimdse::tuner {

DesignPoint mutate(const Encoding& encoding, const DesignPoint& from, Rng& rng, double step,
                   const ParamWeights& weights) {
    const DesignSpace& space = encoding.space();
    ParamWeights w{};
    double total = 0;
    for (std::size_t k = 0; k < space.dimensions(); ++k) {
        const bool movable = space.range(k).size() > 1;
        w[k] = movable ? std::max(weights[k], 0.0) : 0.0;
        total += w[k];
    }
    if (total <= 0) {
        for (std::size_t k = 0; k < space.dimensions(); ++k) {
            w[k] = space.range(k).size() > 1 ? 1.0 : 0.0;
            total += w[k];
        }
    }
    DesignPoint out = from;
    if (total <= 0) return out;  // a space of one point
    const auto index = space.index_of(from);
    DesignSpace::Index idx = index ? *index : DesignSpace::Index{};
    // The roulette ends at the last parameter that can move: fixed ones after it never catch
    // a rounding remainder.
    std::size_t last = 0;
    for (std::size_t k = 0; k < space.dimensions(); ++k)
        if (w[k] > 0) last = k;
    do {
        // Roulette over the remaining weights.
        double r = rng.uniform01() * total;
        std::size_t k = 0;
        while (k < last && (w[k] <= 0 || r >= w[k])) {
            if (w[k] > 0) r -= w[k];
            ++k;
        }
        if (w[k] <= 0) break;  // rounding left nothing to pick
        total -= w[k];
        w[k] = 0;
        const std::size_t p = k;
        const auto n = static_cast<std::int64_t>(space.range(p).size());
        const double u = encoding.coordinate(p, idx[k]);
        const double z = rng.normal();
        auto to = static_cast<std::int64_t>(encoding.nearest(p, u + step * z));
        if (to == static_cast<std::int64_t>(idx[k])) to += z >= 0 ? 1 : -1;  // at least one step
        if (to < 0 || to >= n)
            to = static_cast<std::int64_t>(idx[k]) - (z >= 0 ? 1 : -1);  // bounce off the edge
        idx[k] = static_cast<std::size_t>(std::clamp<std::int64_t>(to, 0, n - 1));
    } while (total > 0 && rng.uniform01() < 0.5);
    return space.at(idx);
}

std::vector<DesignPoint> mutants(const LegalSampler& sampler, const Encoding& encoding,
                                 const std::vector<DesignPoint>& parents, int count, Rng& rng, double step,
                                 const ParamWeights& weights, PointSet& exclude, int attempts) {
    std::vector<DesignPoint> out;
    if (parents.empty()) return out;
    for (int i = 0; i < count; ++i) {
        const DesignPoint& parent = parents[static_cast<std::size_t>(i) % parents.size()];
        for (int a = 0; a < attempts; ++a) {
            const DesignPoint child = mutate(encoding, parent, rng, step, weights);
            if (exclude.contains(child) || !sampler.legal(child)) continue;
            exclude.insert(child);
            out.push_back(child);
            break;
        }
    }
    return out;
}

}  // namespace pimdse::tuner
