// The DDAM pipeline's cuts (src/mapper/pipeline_cuts.hpp): two dynamic programmes over
// (segments, units).
#include "pipeline_cuts.hpp"

#include <algorithm>

namespace pimdse::mapper::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A part's estimate in O(1): sum[w][s] adds the estimates of segments [0, s) on a band of
/// w units that fit it, misfits[w][s] counts those that do not. A part with a misfit is
/// infinite; differences of sums that include infinities would be NaN, which every
/// comparison, std::max included, would take for a free part.
struct Prefix {
    std::vector<std::vector<double>> sum;
    std::vector<std::vector<std::size_t>> misfits;

    Prefix(const BandEstimates& estimate, std::size_t units)
        : sum(units + 1, std::vector<double>(estimate.size() + 1, 0.0)),
          misfits(units + 1, std::vector<std::size_t>(estimate.size() + 1, 0)) {
        for (std::size_t w = 1; w <= units; ++w)
            for (std::size_t s = 0; s < estimate.size(); ++s) {
                const bool fits = estimate[s][w] < kInf;
                sum[w][s + 1] = sum[w][s] + (fits ? estimate[s][w] : 0.0);
                misfits[w][s + 1] = misfits[w][s] + (fits ? 0 : 1);
            }
    }
    /// Segments [j, k) on one band of w units.
    [[nodiscard]] double part(std::size_t w, std::size_t j, std::size_t k) const {
        return misfits[w][k] > misfits[w][j] ? kInf : sum[w][k] - sum[w][j];
    }
};

/// Load balance (DDAM's dynamic programme): best[k][u] is the least possible slowest part
/// when the first k segments run on parts using u units of the array; the least over u.
double least_interval(const Prefix& prefix, std::size_t S, std::size_t U) {
    std::vector<std::vector<double>> best(S + 1, std::vector<double>(U + 1, kInf));
    best[0][0] = 0;
    for (std::size_t k = 1; k <= S; ++k)
        for (std::size_t u = 1; u <= U; ++u)
            for (std::size_t j = 0; j < k; ++j)
                for (std::size_t w = 1; w <= u; ++w)
                    if (best[j][u - w] < kInf)
                        best[k][u] = std::min(best[k][u], std::max(best[j][u - w], prefix.part(w, j, k)));
    double least = kInf;
    for (std::size_t u = 1; u <= U; ++u) least = std::min(least, best[S][u]);
    return least;
}

/// Among the cuts whose every part is at most `interval`, the one with the least sum of
/// parts (one sample's latency through the pipeline): sum[k][u] over the first k segments on
/// u units. Ties go to the first cut found and then to the fewest units. A second programme
/// rather than a (max, sum) pair in the first: the pair's order is not optimal-substructure
/// (a prefix with a higher slowest part can have the lower sum that wins once a slower part
/// follows), while the sum under a fixed cap is.
Cuts least_sum_within(const Prefix& prefix, std::size_t S, std::size_t U, double interval) {
    std::vector<std::vector<double>> sum(S + 1, std::vector<double>(U + 1, kInf));
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> from(
        S + 1, std::vector<std::pair<std::size_t, std::size_t>>(U + 1));
    sum[0][0] = 0;
    for (std::size_t k = 1; k <= S; ++k)
        for (std::size_t u = 1; u <= U; ++u)
            for (std::size_t j = 0; j < k; ++j)
                for (std::size_t w = 1; w <= u; ++w) {
                    const double part = prefix.part(w, j, k);
                    if (sum[j][u - w] == kInf || part > interval) continue;
                    if (sum[j][u - w] + part < sum[k][u]) {
                        sum[k][u] = sum[j][u - w] + part;
                        from[k][u] = {j, w};
                    }
                }
    std::size_t used = 0;
    for (std::size_t u = 1; u <= U; ++u)
        if (sum[S][u] < (used == 0 ? kInf : sum[S][used])) used = u;
    Cuts out;
    if (used == 0) return out;
    out.interval = interval;
    out.sum = sum[S][used];
    for (std::size_t k = S, u = used; k > 0;) {
        const auto [j, w] = from[k][u];
        out.parts.emplace_back(j, w);
        k = j;
        u -= w;
    }
    std::reverse(out.parts.begin(), out.parts.end());
    return out;
}

}  // namespace

/// DDAM's load balance first (the least slowest part sets the throughput), then, among the
/// cuts that reach it, the least time for one sample through all parts.
Cuts balance(const BandEstimates& estimate, std::size_t units) {
    const Prefix prefix(estimate, units);
    const double interval = least_interval(prefix, estimate.size(), units);
    if (interval == kInf) return {};
    return least_sum_within(prefix, estimate.size(), units, interval);
}

}  // namespace pimdse::mapper::detail
