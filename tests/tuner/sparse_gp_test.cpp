// The FITC posterior against its textbook equations evaluated directly with dense inverses
// (Quinonero-Candela & Rasmussen 2005, Eq. 24b), against the exact posterior when every
// observation is an inducing point, and against the exact posterior of its inducing points
// alone: conditioning on all observations must predict held-out points better.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include <Eigen/LU>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/gp.hpp"

namespace pimdse::tuner {
namespace {

double truth(double a, double b) {
    return std::sin(6 * a) * std::cos(4 * b) + 0.5 * a * b;
}

// n points uniform in the unit square and the function above at them.
void draw(Rng& rng, Eigen::Index n, Matrix& x, Vector& y) {
    x.resize(n, 2);
    y.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        x(i, 0) = rng.uniform01();
        x(i, 1) = rng.uniform01();
        y(i) = truth(x(i, 0), x(i, 1));
    }
}

// n training and m held-out points from one seed.
struct Sample {
    Matrix x, xt;
    Vector y, yt;
};
Sample sample(std::uint64_t seed, Eigen::Index n, Eigen::Index m) {
    Rng rng(seed, 1);
    Sample s;
    draw(rng, n, s.x, s.y);
    draw(rng, m, s.xt, s.yt);
    return s;
}

Kernel kernel_of(KernelKind kind, double l, double sf2, double sn2) {
    Kernel k(kind, 2);
    k.theta() << std::log(l), std::log(l), std::log(sf2), std::log(sn2);
    return k;
}

class Fitc : public ::testing::TestWithParam<KernelKind> {};

// 3000 observations (two passes of 2048 rows), 9 inducing points among them.
TEST_P(Fitc, MatchesTheDenseEquations) {
    const auto [x, xt, y, yt] = sample(7, 3000, 5);
    const Matrix z = x.topRows(9);
    const Kernel kernel = kernel_of(GetParam(), 0.3, 1.4, 0.05);
    const GpPosterior post = GpPosterior::fitc(kernel, z, x, y);

    // Sigma = (Kuu + Kuf Lambda^-1 Kfu)^-1, Lambda = diag(Kff - Qff) + sn2.
    Matrix kuu = kernel.cross(z, z);
    kuu.diagonal().array() += Kernel::kNoiseFloor;
    const Matrix kuu_inv = kuu.inverse();
    const Matrix kuf = kernel.cross(z, x);
    Vector lambda(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        lambda(i) = kernel.signal_variance() - kuf.col(i).dot(kuu_inv * kuf.col(i)) + kernel.noise_variance();
    const Matrix sigma = (kuu + kuf * lambda.cwiseInverse().asDiagonal() * kuf.transpose()).inverse();
    const Matrix kus = kernel.cross(z, xt);
    const Vector mean = kus.transpose() * sigma * kuf * lambda.cwiseInverse().asDiagonal() * y;
    const Matrix cov = kernel.cross(xt, xt) - kus.transpose() * kuu_inv * kus + kus.transpose() * sigma * kus;

    Vector m, v;
    post.predict(xt, m, v);
    const Matrix w = post.whitened_cross(xt);
    const Matrix cov_post = kernel.cross(xt, xt) - w.transpose() * w;
    for (Eigen::Index i = 0; i < xt.rows(); ++i) {
        EXPECT_NEAR(m(i), mean(i), 1e-7) << i;
        EXPECT_NEAR(v(i), cov(i, i), 1e-7) << i;
        for (Eigen::Index j = 0; j < xt.rows(); ++j) EXPECT_NEAR(cov_post(i, j), cov(i, j), 1e-7) << i << j;
    }
}

// Every observation an inducing point: Q = K, Lambda = sn2, and FITC is the exact GP (up to the
// noise floor, which FITC adds to K(Z, Z) instead of to the diagonal of the noisy K).
TEST_P(Fitc, IsExactWhenEveryObservationIsInducing) {
    const auto [x, xt, y, yt] = sample(11, 30, 20);
    const Kernel kernel = kernel_of(GetParam(), 0.4, 1.0, 0.01);
    const GpPosterior exact(kernel, x, y);
    const GpPosterior sparse = GpPosterior::fitc(kernel, x, x, y);
    Vector me, ve, ms, vs;
    exact.predict(xt, me, ve);
    sparse.predict(xt, ms, vs);
    for (Eigen::Index i = 0; i < xt.rows(); ++i) {
        EXPECT_NEAR(ms(i), me(i), 1e-4) << i;
        EXPECT_NEAR(vs(i), ve(i), 1e-4) << i;
    }
}

// 25 inducing points in 2000 observations: the exact GP on those 25 alone predicts 500 held-out
// points worse than FITC through the same 25 on all 2000, and the variance stays in [0, sf2].
TEST_P(Fitc, LearnsFromObservationsBeyondTheInducingPoints) {
    const auto [x, xt, y, yt] = sample(3, 2000, 500);
    const Matrix z = x.topRows(25);
    const Kernel kernel = kernel_of(GetParam(), 0.2, 1.0, 1e-3);
    const GpPosterior subset(kernel, z, y.head(25));
    const GpPosterior sparse = GpPosterior::fitc(kernel, z, x, y);
    Vector m1, v1, m2, v2;
    subset.predict(xt, m1, v1);
    sparse.predict(xt, m2, v2);
    const double rmse_subset = std::sqrt((m1 - yt).squaredNorm() / 500.0);
    const double rmse_sparse = std::sqrt((m2 - yt).squaredNorm() / 500.0);
    EXPECT_LT(rmse_sparse, rmse_subset) << rmse_sparse << " vs " << rmse_subset;
    EXPECT_GE(v2.minCoeff(), 0.0);
    EXPECT_LE(v2.maxCoeff(), kernel.signal_variance());
}

INSTANTIATE_TEST_SUITE_P(Kernels, Fitc, ::testing::Values(KernelKind::rbf, KernelKind::matern52));

}  // namespace
}  // namespace pimdse::tuner
