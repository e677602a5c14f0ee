#include "pimdse/tuner/gp.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace pimdse::tuner {
namespace {

constexpr double kSqrt5 = 2.23606797749978969641;

// Squared scaled distances between the rows of a and b.
Matrix scaled_sq_dist(const Matrix& a, const Matrix& b, const Vector& inv_l) {
    const Matrix as = a * inv_l.asDiagonal();
    const Matrix bs = b * inv_l.asDiagonal();
    Matrix d = (-2.0 * as) * bs.transpose();
    d.colwise() += as.rowwise().squaredNorm();
    d.rowwise() += bs.rowwise().squaredNorm().transpose();
    return d.cwiseMax(0.0);  // cancellation may leave tiny negatives
}

Eigen::LLT<Matrix> factor(const Matrix& k) {
    Eigen::LLT<Matrix> llt(k);
    if (llt.info() != Eigen::Success) {
        throw std::runtime_error("tuner: GP covariance matrix is not positive definite");
    }
    return llt;
}

// Below this order the halving stops: Eigen's own triangular kernels are as fast there.
constexpr Eigen::Index kHalvingBlock = 32;

// [L11 0; L21 L22]^-1 = [X11 0; -X22 L21 X11, X22] with X11 = L11^-1, X22 = L22^-1.
void invert_lower(const Eigen::Ref<const Matrix>& l, Eigen::Ref<Matrix> x) {
    const Eigen::Index n = l.rows();
    if (n <= kHalvingBlock) {
        x.setIdentity();
        l.triangularView<Eigen::Lower>().solveInPlace(x);  // exact zeros above the diagonal
        return;
    }
    const Eigen::Index h = n / 2, r = n - h;
    invert_lower(l.topLeftCorner(h, h), x.topLeftCorner(h, h));
    invert_lower(l.bottomRightCorner(r, r), x.bottomRightCorner(r, r));
    x.topRightCorner(h, r).setZero();
    Matrix t(r, h);
    t.noalias() = l.bottomLeftCorner(r, h) * x.topLeftCorner(h, h).triangularView<Eigen::Lower>();
    Matrix low(r, h);
    low.noalias() = x.bottomRightCorner(r, r).triangularView<Eigen::Lower>() * t;
    x.bottomLeftCorner(r, h) = -low;
}

// [X11 0; X21 X22]^T [X11 0; X21 X22] = [X11^T X11 + X21^T X21, X21^T X22; X22^T X21, X22^T X22].
void gram_lower(const Eigen::Ref<const Matrix>& x, Eigen::Ref<Matrix> g) {
    const Eigen::Index n = x.rows();
    if (n <= kHalvingBlock) {
        Matrix p(n, n);
        p.noalias() = x.transpose().triangularView<Eigen::Upper>() * x;
        g = p;
        return;
    }
    const Eigen::Index h = n / 2, r = n - h;
    gram_lower(x.topLeftCorner(h, h), g.topLeftCorner(h, h));
    g.topLeftCorner(h, h).noalias() += x.bottomLeftCorner(r, h).transpose() * x.bottomLeftCorner(r, h);
    gram_lower(x.bottomRightCorner(r, r), g.bottomRightCorner(r, r));
    Matrix c(r, h);
    c.noalias() =
        x.bottomRightCorner(r, r).transpose().triangularView<Eigen::Upper>() * x.bottomLeftCorner(r, h);
    g.bottomLeftCorner(r, h) = c;
    g.topRightCorner(h, r) = c.transpose();
}

}  // namespace

Matrix lower_inverse(const Matrix& l) {
    Matrix x(l.rows(), l.rows());
    invert_lower(l, x);
    return x;
}

Matrix lower_gram(const Matrix& x) {
    Matrix g(x.rows(), x.rows());
    gram_lower(x, g);
    // Exactly symmetric: the lower triangle mirrored (the products round each side apart).
    const Matrix lower = g;
    g.triangularView<Eigen::StrictlyUpper>() = lower.transpose();
    return g;
}

Kernel::Kernel(KernelKind kind, int dim) : kind_(kind), dim_(dim), theta_(Vector::Zero(dim + 2)) {
    theta_(dim + 1) = std::log(1e-2);
}

double Kernel::signal_variance() const {
    return std::exp(theta_(dim_));
}
double Kernel::noise_variance() const {
    return std::exp(theta_(dim_ + 1)) + kNoiseFloor;
}

double Kernel::shape(double r2) const {
    if (kind_ == KernelKind::rbf) return std::exp(-0.5 * r2);
    const double r = std::sqrt(r2);
    return (1.0 + kSqrt5 * r + 5.0 / 3.0 * r2) * std::exp(-kSqrt5 * r);
}

double Kernel::shape_derivative(double r2) const {
    if (kind_ == KernelKind::rbf) return -0.5 * std::exp(-0.5 * r2);
    // dg/dr = -5/3 r (1 + sqrt5 r) exp(-sqrt5 r), and d(r^2) = 2 r dr: finite at r = 0.
    const double r = std::sqrt(r2);
    return -5.0 / 6.0 * (1.0 + kSqrt5 * r) * std::exp(-kSqrt5 * r);
}

void Kernel::shape_and_derivative(double r2, double& g, double& dg) const {
    if (kind_ == KernelKind::rbf) {
        const double e = std::exp(-0.5 * r2);
        g = e;
        dg = -0.5 * e;
        return;
    }
    const double r = std::sqrt(r2);
    const double e = std::exp(-kSqrt5 * r);
    g = (1.0 + kSqrt5 * r + 5.0 / 3.0 * r2) * e;
    dg = -5.0 / 6.0 * (1.0 + kSqrt5 * r) * e;
}

Matrix Kernel::cross(const Matrix& a, const Matrix& b) const {
    const Vector inv_l = (-theta_.head(dim_)).array().exp();
    Matrix k = scaled_sq_dist(a, b, inv_l);
    const double sf2 = signal_variance();
    k = k.unaryExpr([&](double r2) { return sf2 * shape(r2); });
    return k;
}

LmlGradient log_marginal_likelihood(const Kernel& kernel, const Matrix& x, const Vector& y,
                                    bool input_gradient) {
    const int d = kernel.dim();
    const auto n = x.rows();
    const Vector inv_l = (-kernel.theta().head(d)).array().exp();
    const Matrix r2 = scaled_sq_dist(x, x, inv_l);
    const double sf2 = kernel.signal_variance();
    // sf2 g and sf2 g' at every pair, from the lower triangle (one exp per pair, mirrored):
    // K is exactly symmetric, and the Cholesky factor reads only that triangle anyway.
    Matrix kf(n, n), dg(n, n);
    for (Eigen::Index j = 0; j < n; ++j) {
        for (Eigen::Index i = j; i < n; ++i) {
            double g = 0, slope = 0;
            kernel.shape_and_derivative(r2(i, j), g, slope);
            kf(i, j) = kf(j, i) = sf2 * g;
            dg(i, j) = dg(j, i) = sf2 * slope;
        }
    }
    Matrix k = kf;
    k.diagonal().array() += kernel.noise_variance();
    const Eigen::LLT<Matrix> llt = factor(k);
    const Vector alpha = llt.solve(y);
    // K^-1 = L^-T L^-1 by recursive halving: a third of the work of solving with L twice.
    const Matrix k_inv = lower_gram(lower_inverse(llt.matrixL()));
    const Matrix w = alpha * alpha.transpose() - k_inv;  // dLML/dK = w / 2

    LmlGradient out;
    out.value = -0.5 * y.dot(alpha) - llt.matrixLLT().diagonal().array().log().sum() -
                0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
    out.d_theta.resize(d + 2);
    // dK/dlog sf2 = Kf; dK/dlog sn2 = sn2 I (the floor is a constant).
    out.d_theta(d) = 0.5 * (w.array() * kf.array()).sum();
    out.d_theta(d + 1) = 0.5 * (kernel.noise_variance() - Kernel::kNoiseFloor) * w.trace();
    // dK_ij/dlog l_d = sf2 g'(r2_ij) * (-2 (x_id - x_jd)^2 / l_d^2); with M = W o (sf2 g'):
    // sum_ij M_ij (x_id - x_jd)^2 = 2 sum_i rowsum(M)_i x_id^2 - 2 x_d^T M x_d.
    const Matrix m = w.cwiseProduct(dg);
    const Vector row = m.rowwise().sum();
    const Matrix mx = m * x;
    for (int j = 0; j < d; ++j) {
        const double s = 2.0 * row.dot(x.col(j).cwiseAbs2()) - 2.0 * x.col(j).dot(mx.col(j));
        out.d_theta(j) = -s * inv_l(j) * inv_l(j);
    }
    if (input_gradient) {
        // dLML/dx_id = 2 sum_j M_ij (x_id - x_jd) / l_d^2.
        out.d_inputs = 2.0 * (row.asDiagonal() * x - mx) * inv_l.cwiseAbs2().asDiagonal();
    }
    return out;
}

GpPosterior::GpPosterior(const Kernel& kernel, Matrix x, const Vector& y)
    : kernel_(kernel), x_(std::move(x)) {
    Matrix k = kernel_.cross(x_, x_);
    k.diagonal().array() += kernel_.noise_variance();
    const Eigen::LLT<Matrix> llt = factor(k);
    alpha_ = llt.solve(y);
    whiten_ = lower_inverse(llt.matrixL());
}

GpPosterior::GpPosterior(const Kernel& kernel, Matrix z, Matrix whiten, bool lower, Vector alpha)
    : kernel_(kernel),
      x_(std::move(z)),
      whiten_(std::move(whiten)),
      lower_(lower),
      alpha_(std::move(alpha)) {}

void GpPosterior::predict(const Matrix& xs, Vector& mean, Vector& variance) const {
    const Matrix ks = kernel_.cross(x_, xs);
    mean = ks.transpose() * alpha_;
    Matrix v(ks.rows(), ks.cols());
    if (lower_)
        v.noalias() = whiten_.triangularView<Eigen::Lower>() * ks;
    else
        v.noalias() = whiten_ * ks;
    variance = (kernel_.signal_variance() - v.colwise().squaredNorm().transpose().array()).cwiseMax(0.0);
}

Matrix GpPosterior::whitened_cross(const Matrix& xs) const {
    Matrix v(x_.rows(), xs.rows());
    if (lower_)
        v.noalias() = whiten_.triangularView<Eigen::Lower>() * kernel_.cross(x_, xs);
    else
        v.noalias() = whiten_ * kernel_.cross(x_, xs);
    return v;
}

}  // namespace pimdse::tuner
