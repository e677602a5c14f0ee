// The FITC posterior (docs/tuner.md, "Scale: every observation"): a GP conditioned on all n
// observations through m inducing inputs, Quinonero-Candela & Rasmussen (2005), "A Unifying
// View of Sparse Approximate Gaussian Process Regression", Eq. 21 and 24b.

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "pimdse/tuner/gp.hpp"

namespace pimdse::tuner {

namespace {

// Rows of x per pass: K(Z, x) of a pass is m x kChunk doubles (4 MB at m = 256), whatever n.
constexpr Eigen::Index kChunk = 2048;

}  // namespace

// With Kuu = Lu Lu^T and V = Lu^-1 Kuf (so Q_ff = V^T V):
//   Lambda = diag(K_ff - Q_ff) + sn2 I,     A = I + V Lambda^-1 V^T
//   mean(x)   = k_u(x)^T Lu^-T A^-1 V Lambda^-1 y
//   var(x)    = k(x, x) - w^T w + w^T A^-1 w = k(x, x) - w^T (I - A^-1) w,   w = Lu^-1 k_u(x)
// since Sigma = (Kuu + Kuf Lambda^-1 Kfu)^-1 = Lu^-T A^-1 Lu^-1. A = Q D Q^T with D >= 1, so
// I - A^-1 = Q (1 - 1/D) Q^T is positive semi-definite and P = (1 - 1/D)^(1/2) Q^T Lu^-1 gives
// the covariance in the exact posterior's form k(a, b) - (P k_u(a))^T (P k_u(b)).
GpPosterior GpPosterior::fitc(const Kernel& kernel, Matrix z, const Matrix& x, const Vector& y) {
    const Eigen::Index m = z.rows();
    const double sf2 = kernel.signal_variance();
    const double sn2 = kernel.noise_variance();
    Matrix kuu = kernel.cross(z, z);
    // The noise floor keeps the factor of K(Z, Z) well conditioned, as it does for K.
    kuu.diagonal().array() += Kernel::kNoiseFloor;
    const Eigen::LLT<Matrix> lu(kuu);
    if (lu.info() != Eigen::Success) {
        throw std::runtime_error("tuner: FITC inducing covariance matrix is not positive definite");
    }
    const Matrix lu_inv = lower_inverse(lu.matrixL());
    Matrix a = Matrix::Identity(m, m);
    Vector b = Vector::Zero(m);
    for (Eigen::Index at = 0; at < x.rows(); at += kChunk) {
        const Eigen::Index len = std::min(kChunk, x.rows() - at);
        Matrix v(m, len);
        v.noalias() = lu_inv.triangularView<Eigen::Lower>() * kernel.cross(z, x.middleRows(at, len));
        // Lambda_i = k(x_i, x_i) - Q_ii + sn2: the Nystrom error of x_i counts as its noise.
        const Eigen::ArrayXd lambda =
            (sf2 - v.colwise().squaredNorm().transpose().array()).cwiseMax(0.0) + sn2;
        b.noalias() += v * (y.segment(at, len).array() / lambda).matrix();
        v = v * lambda.rsqrt().matrix().asDiagonal();
        a.selfadjointView<Eigen::Lower>().rankUpdate(v);
    }
    a.triangularView<Eigen::StrictlyUpper>() = a.transpose();
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(a);
    if (eig.info() != Eigen::Success) throw std::runtime_error("tuner: FITC eigendecomposition failed");
    const Vector& d = eig.eigenvalues();
    const Matrix& q = eig.eigenvectors();
    const Vector a_inv_b = q * (q.transpose() * b).cwiseQuotient(d);
    Vector alpha = lu_inv.transpose().triangularView<Eigen::Upper>() * a_inv_b;
    const Vector shrink = (1.0 - d.cwiseInverse().array()).cwiseMax(0.0).sqrt();
    Matrix whiten(m, m);
    whiten.noalias() = q.transpose() * lu_inv.triangularView<Eigen::Lower>();
    whiten = shrink.asDiagonal() * whiten;
    return GpPosterior(kernel, std::move(z), std::move(whiten), false, std::move(alpha));
}

}  // namespace pimdse::tuner
