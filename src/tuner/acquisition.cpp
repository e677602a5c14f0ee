#include "pimdse/tuner/acquisition.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

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

std::vector<std::size_t> kriging_believer(const GpPosterior& posterior, const Matrix& candidates, double best,
                                          int q, const BatchOptions& options) {
    const auto s = static_cast<std::size_t>(candidates.rows());
    if (q <= 0 || s == 0) return {};
    Vector mean, var;
    // In chunks: L^-1 K(X, xs) for all candidates at once would be n x S doubles.
    mean.resize(candidates.rows());
    var.resize(candidates.rows());
    constexpr Eigen::Index chunk = 2048;
    for (Eigen::Index at = 0; at < candidates.rows(); at += chunk) {
        const Eigen::Index len = std::min(chunk, candidates.rows() - at);
        Vector m, v;
        posterior.predict(candidates.middleRows(at, len), m, v);
        mean.segment(at, len) = m;
        var.segment(at, len) = v;
    }
    std::vector<double> score(s);
    for (std::size_t i = 0; i < s; ++i) {
        const auto e = static_cast<Eigen::Index>(i);
        score[i] = acquisition(options.kind, mean(e), std::sqrt(var(e)), best, options.kappa);
    }
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

}  // namespace pimdse::tuner
