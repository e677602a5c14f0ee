// The GP against closed forms computed here independently (3 x 3 systems solved by
// cofactors), the log marginal likelihood's analytic gradient against central finite
// differences for the kernel and the network parameters, and the deep-kernel GP learning a
// known 2-D function better than a constant.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/acquisition.hpp"
#include "pimdse/tuner/gp.hpp"
#include "pimdse/tuner/model.hpp"

namespace pimdse::tuner {
namespace {

using M3 = std::array<std::array<double, 3>, 3>;

double det3(const M3& a) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

// Cramer's rule.
std::array<double, 3> solve3(const M3& a, const std::array<double, 3>& b) {
    const double d = det3(a);
    std::array<double, 3> x{};
    for (int c = 0; c < 3; ++c) {
        M3 m = a;
        for (int r = 0; r < 3; ++r) m[r][c] = b[r];
        x[c] = det3(m) / d;
    }
    return x;
}

// The two kernels written out from their textbook forms (Rasmussen & Williams Eq. 4.9, 4.17).
double k_rbf(double a, double b, double l, double sf2) {
    return sf2 * std::exp(-(a - b) * (a - b) / (2 * l * l));
}
double k_matern(double a, double b, double l, double sf2) {
    const double r = std::abs(a - b) / l;
    return sf2 * (1 + std::sqrt(5.0) * r + 5.0 * r * r / 3.0) * std::exp(-std::sqrt(5.0) * r);
}

class OneDimensional : public ::testing::TestWithParam<KernelKind> {};

TEST_P(OneDimensional, PosteriorAndLmlMatchClosedForm) {
    const double l = 0.7, sf2 = 1.3, sn2 = 0.01;
    Kernel kernel(GetParam(), 1);
    kernel.theta() << std::log(l), std::log(sf2), std::log(sn2);
    const double noise = sn2 + Kernel::kNoiseFloor;
    const auto k = [&](double a, double b) {
        return GetParam() == KernelKind::rbf ? k_rbf(a, b, l, sf2) : k_matern(a, b, l, sf2);
    };
    const std::array<double, 3> xs{0.0, 0.5, 1.2};
    std::array<double, 3> ys{};
    M3 kk{};
    for (int i = 0; i < 3; ++i) {
        ys[i] = std::sin(3 * xs[i]);
        for (int j = 0; j < 3; ++j) kk[i][j] = k(xs[i], xs[j]) + (i == j ? noise : 0.0);
    }
    const std::array<double, 3> alpha = solve3(kk, ys);

    Matrix x(3, 1);
    x << xs[0], xs[1], xs[2];
    Vector y(3);
    y << ys[0], ys[1], ys[2];
    const GpPosterior post(kernel, x, y);
    for (double t : {-0.3, 0.25, 0.8, 2.0}) {
        std::array<double, 3> kt{};
        for (int i = 0; i < 3; ++i) kt[i] = k(xs[i], t);
        const std::array<double, 3> w = solve3(kk, kt);
        const double mean = kt[0] * alpha[0] + kt[1] * alpha[1] + kt[2] * alpha[2];
        const double var = sf2 - (kt[0] * w[0] + kt[1] * w[1] + kt[2] * w[2]);
        Matrix xt(1, 1);
        xt << t;
        Vector m, v;
        post.predict(xt, m, v);
        EXPECT_NEAR(m(0), mean, 1e-10) << "at " << t;
        EXPECT_NEAR(v(0), var, 1e-10) << "at " << t;
    }
    const double lml = -0.5 * (ys[0] * alpha[0] + ys[1] * alpha[1] + ys[2] * alpha[2]) -
                       0.5 * std::log(det3(kk)) - 1.5 * std::log(2 * std::numbers::pi);
    EXPECT_NEAR(log_marginal_likelihood(kernel, x, y, false).value, lml, 1e-10);
}

INSTANTIATE_TEST_SUITE_P(Gp, OneDimensional, ::testing::Values(KernelKind::rbf, KernelKind::matern52),
                         [](const auto& test_info) {
                             return std::string(test_info.param == KernelKind::rbf ? "Rbf" : "Matern52");
                         });

Matrix random_matrix(Rng& rng, Eigen::Index rows, Eigen::Index cols) {
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = rng.uniform01();
    }
    return m;
}

// The halving inverse and Gram product against Eigen's solves, on both sides of the block
// size where the halving starts (32) and at odd orders, where the halves differ.
TEST(Cholesky, HalvingInverseMatchesSolves) {
    Rng rng(5, 5);
    for (Eigen::Index n : {1, 2, 7, 32, 33, 64, 65, 100, 257}) {
        const Matrix a = random_matrix(rng, n, n);
        Matrix k = a * a.transpose();
        k.diagonal().array() += 0.1 * static_cast<double>(n);
        const Eigen::LLT<Matrix> llt(k);
        const Matrix l = llt.matrixL();
        const Matrix l_inv = lower_inverse(l);
        const Matrix want_l_inv = llt.matrixL().solve(Matrix::Identity(n, n));
        EXPECT_LT((l_inv - want_l_inv).cwiseAbs().maxCoeff(), 1e-12 * want_l_inv.cwiseAbs().maxCoeff()) << n;
        EXPECT_EQ(l_inv.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().cwiseAbs().maxCoeff(), 0.0)
            << n;
        const Matrix k_inv = lower_gram(l_inv);
        const Matrix want = llt.solve(Matrix::Identity(n, n));
        EXPECT_LT((k_inv - want).cwiseAbs().maxCoeff(), 1e-12 * want.cwiseAbs().maxCoeff()) << n;
        EXPECT_EQ((k_inv - k_inv.transpose()).cwiseAbs().maxCoeff(), 0.0) << n;  // exactly symmetric
    }
}

class Gradient : public ::testing::TestWithParam<KernelKind> {};

TEST_P(Gradient, KernelAndInputsMatchFiniteDifferences) {
    Rng rng(21, 0);
    const Matrix x = random_matrix(rng, 12, 3);
    Vector y(12);
    for (Eigen::Index i = 0; i < 12; ++i)
        y(i) = std::sin(3 * x(i, 0)) + x(i, 1) * x(i, 2) + 0.1 * rng.normal();
    Kernel kernel(GetParam(), 3);
    kernel.theta() << std::log(0.4), std::log(0.9), std::log(1.7), std::log(1.2), std::log(0.05);
    const LmlGradient g = log_marginal_likelihood(kernel, x, y, true);
    const double h = 1e-6;
    for (Eigen::Index j = 0; j < kernel.theta().size(); ++j) {
        Kernel kp = kernel, km = kernel;
        kp.theta()(j) += h;
        km.theta()(j) -= h;
        const double fd = (log_marginal_likelihood(kp, x, y, false).value -
                           log_marginal_likelihood(km, x, y, false).value) /
                          (2 * h);
        EXPECT_NEAR(g.d_theta(j), fd, 1e-6 * (1 + std::abs(fd))) << "theta " << j;
    }
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        for (Eigen::Index d = 0; d < x.cols(); ++d) {
            Matrix xp = x, xm = x;
            xp(i, d) += h;
            xm(i, d) -= h;
            const double fd = (log_marginal_likelihood(kernel, xp, y, false).value -
                               log_marginal_likelihood(kernel, xm, y, false).value) /
                              (2 * h);
            EXPECT_NEAR(g.d_inputs(i, d), fd, 1e-6 * (1 + std::abs(fd))) << "x " << i << "," << d;
        }
    }
}

TEST_P(Gradient, DeepKernelMatchesFiniteDifferences) {
    Rng rng(22, 0);
    const Matrix x = random_matrix(rng, 10, 3);
    Vector y(10);
    for (Eigen::Index i = 0; i < 10; ++i) y(i) = std::cos(2 * x(i, 0)) - x(i, 2);
    ModelOptions o;
    o.kernel = GetParam();
    o.hidden = {8, 6, 3};
    Rng init(23, 0);
    DeepKernelGp model(3, o, init);
    Vector p = model.parameters();
    p.head(model.kernel().theta().size()) << 0.1, -0.2, 0.3, 0.0, std::log(0.05);
    model.set_parameters(p);
    Vector g;
    (void)model.log_marginal_likelihood(x, y, &g);
    ASSERT_EQ(g.size(), p.size());
    const double h = 1e-6;
    int checked_network = 0;
    for (Eigen::Index j = 0; j < p.size(); ++j) {
        Vector pp = p, pm = p;
        pp(j) += h;
        pm(j) -= h;
        model.set_parameters(pp);
        const double up = model.log_marginal_likelihood(x, y, nullptr);
        model.set_parameters(pm);
        const double down = model.log_marginal_likelihood(x, y, nullptr);
        const double fd = (up - down) / (2 * h);
        EXPECT_NEAR(g(j), fd, 1e-5 * (1 + std::abs(fd))) << "parameter " << j;
        if (j >= model.kernel().theta().size() && std::abs(fd) > 1e-3) ++checked_network;
    }
    model.set_parameters(p);
    EXPECT_GT(checked_network, 20);  // the network's gradient is not trivially zero
}

INSTANTIATE_TEST_SUITE_P(Gp, Gradient, ::testing::Values(KernelKind::rbf, KernelKind::matern52),
                         [](const auto& test_info) {
                             return std::string(test_info.param == KernelKind::rbf ? "Rbf" : "Matern52");
                         });

double f2(double a, double b) {
    return std::sin(4 * a) + std::cos(3 * b) + 2 * a * b;
}

// Held-out mean squared error of the deep-kernel GP's mean on a known 2-D function, against
// the best constant (the training mean).
TEST(DeepKernelGp, FitsAKnown2DFunctionBetterThanAConstant) {
    Rng rng(31, 0);
    const Matrix x = random_matrix(rng, 120, 2);
    Vector y(120);
    for (Eigen::Index i = 0; i < 120; ++i) y(i) = f2(x(i, 0), x(i, 1));
    const Matrix xt = random_matrix(rng, 200, 2);
    Vector yt(200);
    for (Eigen::Index i = 0; i < 200; ++i) yt(i) = f2(xt(i, 0), xt(i, 1));

    ModelOptions o;
    o.hidden = {32, 16, 4};
    o.steps = 300;
    Rng init(32, 0);
    DeepKernelGp model(2, o, init);
    const std::vector<double> trace = model.fit(x, y);
    ASSERT_FALSE(trace.empty());
    EXPECT_GT(trace.back(), trace.front());  // training raised the marginal likelihood
    Vector m, v;
    model.predict(xt, m, v);
    const double mse = (m - yt).squaredNorm() / 200.0;
    const double constant = (yt.array() - y.mean()).square().mean();
    EXPECT_LT(mse, 0.1 * constant) << "mse " << mse << " constant " << constant;
}

TEST(Acquisition, ExpectedImprovementClosedForm) {
    const double phi0 = 1 / std::sqrt(2 * std::numbers::pi);
    EXPECT_NEAR(expected_improvement(0.0, 1.0, 0.0), phi0, 1e-15);
    // z = 1: (best - mean) Phi(1) + sd phi(1) with Phi(1) = 0.841344746068543.
    EXPECT_NEAR(expected_improvement(1.0, 2.0, 3.0), 2 * 0.841344746068543 + 2 * std::exp(-0.5) * phi0,
                1e-12);
    EXPECT_DOUBLE_EQ(expected_improvement(1.0, 0.0, 3.0), 2.0);
    EXPECT_DOUBLE_EQ(expected_improvement(4.0, 0.0, 3.0), 0.0);
    EXPECT_DOUBLE_EQ(acquisition(AcquisitionKind::ucb, 1.0, 0.5, 0.0, 2.0), 0.0);
}

// The believer against a GP conditioned afresh on the data plus the fantasy (the first pick
// observed at its own mean): the second pick must be the argmax of the acquisition under that
// GP. A copy of the first pick is among the candidates; scoring alone would take it second.
TEST(Acquisition, KrigingBelieverMatchesRefittedFantasyAndSpreadsTheBatch) {
    Kernel kernel(KernelKind::matern52, 1);
    kernel.theta() << std::log(0.2), 0.0, std::log(1e-3);
    Matrix x(3, 1);
    x << 0.0, 0.5, 1.0;
    Vector y(3);
    y << 1.0, 0.0, 1.0;
    const GpPosterior post(kernel, x, y);
    Matrix grid(41, 1);
    for (Eigen::Index i = 0; i < 41; ++i) grid(i, 0) = static_cast<double>(i) / 40.0;
    for (AcquisitionKind kind : {AcquisitionKind::expected_improvement, AcquisitionKind::ucb}) {
        BatchOptions b;
        b.kind = kind;
        // The top candidate of the grid, then the grid with a copy of it in front.
        const std::size_t top = kriging_believer(post, grid, 0.0, 1, b).at(0);
        Matrix cands(42, 1);
        cands(0, 0) = grid(static_cast<Eigen::Index>(top), 0);
        cands.bottomRows(41) = grid;
        const std::vector<std::size_t> picks = kriging_believer(post, cands, 0.0, 3, b);
        ASSERT_EQ(picks.size(), 3u);
        EXPECT_EQ(picks[0], 0u);       // ties go to the lower index
        EXPECT_NE(picks[1], top + 1);  // not the copy
        Vector m0, v0;
        post.predict(cands.topRows(1), m0, v0);
        Matrix xf(4, 1);
        xf << x, cands(0, 0);
        Vector yf(4);
        yf << y, m0(0);
        const GpPosterior fantasy(kernel, xf, yf);
        Vector m, v;
        fantasy.predict(cands, m, v);
        const double best = std::min(0.0, m0(0));
        std::size_t want = 1;
        double top_score = -1e300;
        for (std::size_t i = 1; i < 42; ++i) {
            const auto e = static_cast<Eigen::Index>(i);
            const double a = acquisition(kind, m(e), std::sqrt(std::max(v(e), 0.0)), best, b.kappa);
            if (a > top_score) {
                top_score = a;
                want = i;
            }
        }
        EXPECT_EQ(picks[1], want);
    }
}

}  // namespace
}  // namespace pimdse::tuner
