// The targets of the Bayesian proposers' fits and which observations a fit uses
// (docs/tuner.md, "Training" and "Scale").

#include "pimdse/tuner/targets.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pimdse::tuner {

std::vector<double> log_cost_targets(std::span<const Observation> history, double failure_margin) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    std::vector<double> t(history.size());
    for (std::size_t i = 0; i < history.size(); ++i) {
        const Observation& o = history[i];
        const bool ok = o.outcome == Outcome::ok && std::isfinite(o.cost) && o.cost > 0;
        t[i] = ok ? std::log(o.cost) : std::numeric_limits<double>::quiet_NaN();
        if (ok) {
            lo = std::min(lo, t[i]);
            hi = std::max(hi, t[i]);
        }
    }
    // A failure is worse than anything seen, by a margin relative to the observed spread.
    const double worst = std::isfinite(hi) ? hi : 0.0;
    const double spread = std::isfinite(hi) && hi > lo ? hi - lo : 1.0;
    for (double& v : t) {
        if (std::isnan(v)) v = worst + failure_margin * spread;
    }
    return t;
}

std::vector<std::size_t> fit_subset(const std::vector<double>& targets, int fit_max, int fit_best, Rng& rng) {
    const std::size_t n = targets.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (n <= static_cast<std::size_t>(fit_max)) return order;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return targets[a] < targets[b]; });
    const auto best = static_cast<std::size_t>(std::clamp(fit_best, 0, fit_max));
    std::vector<std::size_t> out(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(best));
    // The rest: uniform without replacement over the others, in history order for determinism.
    std::vector<std::size_t> rest(order.begin() + static_cast<std::ptrdiff_t>(best), order.end());
    std::sort(rest.begin(), rest.end());
    const std::size_t want = static_cast<std::size_t>(fit_max) - best;
    for (std::size_t i = 0; i < want; ++i) {
        const auto j = static_cast<std::size_t>(
            rng.uniform_int(static_cast<std::int64_t>(i), static_cast<std::int64_t>(rest.size()) - 1));
        std::swap(rest[i], rest[j]);
        out.push_back(rest[i]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::size_t training_prefix(std::size_t n, std::size_t first, double growth) {
    if (n < first) return n;
    std::size_t at = first;
    for (;;) {
        const auto next =
            std::max(at + 1, static_cast<std::size_t>(std::floor(static_cast<double>(at) * growth)));
        if (next > n) return at;
        at = next;
    }
}

}  // namespace pimdse::tuner
