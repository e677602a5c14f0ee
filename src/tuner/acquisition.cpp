#include "pimdse/tuner/acquisition.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <numeric>
#include <unordered_set>
#include <utility>

namespace pimdse::tuner {

double expected_improvement(double mean, double sd, double best) {
    const double gain = best - mean;
    if (!(sd > 0)) return std::max(gain, 0.0);
    const double z = gain / sd;
    const double cdf = 0.5 * std::erfc(-z / std::numbers::sqrt2);
    const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi);
    return gain * cdf + sd * pdf;
}

double acquisition(AcquisitionKind kind, double mean, double sd, double best, double kappa) {
    if (kind == AcquisitionKind::expected_improvement) return expected_improvement(mean, sd, best);
    return -(mean - kappa * sd);
}

Scores score_candidates(const GpPosterior& posterior, const Matrix& candidates, double best,
                        const BatchOptions& options) {
    Vector mean(candidates.rows()), variance(candidates.rows());
    // In chunks: L^-1 K(X, xs) for all candidates at once would be n x S doubles.
    constexpr Eigen::Index chunk = 2048;
    for (Eigen::Index at = 0; at < candidates.rows(); at += chunk) {
        const Eigen::Index len = std::min(chunk, candidates.rows() - at);
        Vector m, v;
        posterior.predict(candidates.middleRows(at, len), m, v);
        mean.segment(at, len) = m;
        variance.segment(at, len) = v;
    }
    return scores_from(std::move(mean), std::move(variance), best, options);
}

Scores scores_from(Vector mean, Vector variance, double best, const BatchOptions& options) {
    Scores out;
    out.score.resize(static_cast<std::size_t>(mean.size()));
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
        out.score[static_cast<std::size_t>(i)] =
            acquisition(options.kind, mean(i), std::sqrt(variance(i)), best, options.kappa);
    }
    out.mean = std::move(mean);
    out.variance = std::move(variance);
    return out;
}

std::vector<std::size_t> kriging_believer(const GpPosterior& posterior, const Matrix& candidates, double best,
                                          int q, const BatchOptions& options) {
    if (q <= 0 || candidates.rows() == 0) return {};
    return kriging_believer(posterior, candidates, score_candidates(posterior, candidates, best, options),
                            best, q, options);
}

std::vector<std::size_t> kriging_believer(const GpPosterior& posterior, const Matrix& candidates,
                                          const Scores& scores, double best, int q,
                                          const BatchOptions& options) {
    const auto s = static_cast<std::size_t>(candidates.rows());
    if (q <= 0 || s == 0) return {};
    const Vector& mean = scores.mean;
    const Vector& var = scores.variance;
    const std::vector<double>& score = scores.score;
    std::vector<std::size_t> order(s);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const std::size_t pool = std::min(s, static_cast<std::size_t>(std::max(options.pool, 64 * q)));
    std::partial_sort(
        order.begin(), order.begin() + static_cast<std::ptrdiff_t>(pool), order.end(),
        [&](std::size_t a, std::size_t b) { return score[a] > score[b] || (score[a] == score[b] && a < b); });
    order.resize(pool);

    const auto p = static_cast<Eigen::Index>(pool);
    Matrix xp(p, candidates.cols());
    Vector pm(p), pv(p);
    for (Eigen::Index i = 0; i < p; ++i) {
        const auto c = static_cast<Eigen::Index>(order[static_cast<std::size_t>(i)]);
        xp.row(i) = candidates.row(c);
        pm(i) = mean(c);
        pv(i) = var(c);
    }
    const Matrix v = posterior.whitened_cross(xp);  // n x pool
    const double noise = posterior.kernel().noise_variance();
    Matrix believed(p, 0);  // column t: the covariance update of choice t, scaled (rank-one terms)
    std::vector<bool> taken(pool, false);
    std::vector<std::size_t> out;
    for (int t = 0; t < q && static_cast<std::size_t>(t) < pool; ++t) {
        Eigen::Index pick = -1;
        double top = 0;
        for (Eigen::Index i = 0; i < p; ++i) {
            if (taken[static_cast<std::size_t>(i)]) continue;
            const double a =
                acquisition(options.kind, pm(i), std::sqrt(std::max(pv(i), 0.0)), best, options.kappa);
            if (pick < 0 || a > top) {
                pick = i;
                top = a;
            }
        }
        taken[static_cast<std::size_t>(pick)] = true;
        out.push_back(order[static_cast<std::size_t>(pick)]);
        if (t + 1 == q) break;
        // The posterior covariance of every pool point with the pick, given the data and the
        // earlier fantasies: k(x, x_t) - v_x . v_t - sum_s c_s(x) c_s(x_t).
        Vector cov = posterior.kernel().cross(xp, xp.row(pick)) - v.transpose() * v.col(pick);
        if (believed.cols() > 0) cov -= believed * believed.row(pick).transpose();
        const double denom = std::max(pv(pick), 0.0) + noise;
        const Vector c = cov / std::sqrt(denom);
        pv -= c.cwiseAbs2();
        believed.conservativeResize(Eigen::NoChange, believed.cols() + 1);
        believed.col(believed.cols() - 1) = c;
        best = std::min(best, pm(pick));  // the believed observation is the mean itself
    }
    return out;
}

std::vector<std::size_t> fill_by_exclusion(std::vector<std::size_t> picks, std::span<const double> score,
                                           std::span<const DesignSpace::Index> grid, const DesignSpace& space,
                                           int q) {
    const std::size_t want = static_cast<std::size_t>(std::max(q, 0));
    if (picks.size() >= want || grid.empty()) return picks;
    // A point's key in the mixed radix of the range sizes (the space has < 2^63 points).
    std::array<std::int64_t, kMaxDesignParams> stride{};
    std::int64_t radix = 1;
    for (std::size_t k = space.dimensions(); k-- > 0;) {
        stride[k] = radix;
        radix *= static_cast<std::int64_t>(space.range(k).size());
    }
    const auto key = [&](const DesignSpace::Index& idx) {
        std::int64_t v = 0;
        for (std::size_t k = 0; k < space.dimensions(); ++k)
            v += static_cast<std::int64_t>(idx[k]) * stride[k];
        return v;
    };
    std::unordered_set<std::int64_t> picked;
    picked.reserve(want * 2);
    std::vector<bool> taken(grid.size(), false);
    for (std::size_t i : picks) {
        picked.insert(key(grid[i]));
        taken[i] = true;
    }
    // Excluded: the point itself or one of its neighbours one index step away in one parameter.
    const auto excluded = [&](const DesignSpace::Index& idx) {
        const std::int64_t k0 = key(idx);
        if (picked.contains(k0)) return true;
        for (std::size_t k = 0; k < space.dimensions(); ++k) {
            if (idx[k] > 0 && picked.contains(k0 - stride[k])) return true;
            if (idx[k] + 1 < space.range(k).size() && picked.contains(k0 + stride[k])) return true;
        }
        return false;
    };
    std::vector<std::size_t> order(grid.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
    std::vector<std::size_t> skipped;
    for (std::size_t i : order) {
        if (picks.size() >= want) break;
        if (taken[i]) continue;
        if (excluded(grid[i])) {
            skipped.push_back(i);
            continue;
        }
        picked.insert(key(grid[i]));
        taken[i] = true;
        picks.push_back(i);
    }
    for (std::size_t i : skipped) {
        if (picks.size() >= want) break;
        picks.push_back(i);
    }
    return picks;
}

}  // namespace pimdse::tuner
