#pragma once
// Gaussian-process regression on Eigen (docs/tuner.md, "Models"): stationary kernels with ARD
// length scales, the log marginal likelihood with its analytic gradient through the Cholesky
// factor (Rasmussen & Williams 2006, Eq. 2.30 and 5.9), and the posterior used for the
// acquisition: exact on the data, or the FITC sparse approximation through inducing inputs
// (Quinonero-Candela & Rasmussen 2005) that conditions on every observation at O(n m^2).
// Inputs are rows of a matrix: the encoding for "gp", MLP features for "nicepim".

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "pimdse/tuner/proposers.hpp"

namespace pimdse::tuner {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

/// k(a, b) = sf2 * g(r^2), r^2 = sum_d (a_d - b_d)^2 / l_d^2, plus sn2 on the diagonal of the
/// training covariance. RBF: g = exp(-r^2 / 2); Matern-5/2: g = (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r).
/// Hyperparameters are held in log space: theta = [log l_1 .. log l_D, log sf2, log sn2].
class Kernel {
public:
    Kernel(KernelKind kind, int dim);

    [[nodiscard]] KernelKind kind() const { return kind_; }
    [[nodiscard]] int dim() const { return dim_; }
    [[nodiscard]] Vector& theta() { return theta_; }
    [[nodiscard]] const Vector& theta() const { return theta_; }
    [[nodiscard]] double signal_variance() const;
    /// sn2 plus the fixed floor kNoiseFloor that keeps the Cholesky factor well conditioned.
    [[nodiscard]] double noise_variance() const;

    /// The noise-free covariance sf2 * g between the rows of a and of b.
    [[nodiscard]] Matrix cross(const Matrix& a, const Matrix& b) const;

    /// g and dg/d(r^2) at r^2.
    [[nodiscard]] double shape(double r2) const;
    [[nodiscard]] double shape_derivative(double r2) const;
    /// Both at once, sharing one exp (a fit step evaluates them on n^2 pairs).
    void shape_and_derivative(double r2, double& g, double& dg) const;

    static constexpr double kNoiseFloor = 1e-6;

private:
    KernelKind kind_;
    int dim_;
    Vector theta_;
};

struct LmlGradient {
    double value = 0;
    Vector d_theta;   ///< d LML / d theta (log space)
    Matrix d_inputs;  ///< d LML / d X, when asked for (deep kernels backpropagate it)
};

/// log p(y | X, theta) = -1/2 y^T K^-1 y - 1/2 log|K| - n/2 log 2pi and its gradient:
/// dLML/dtheta_j = 1/2 tr((alpha alpha^T - K^-1) dK/dtheta_j), alpha = K^-1 y.
/// Throws std::runtime_error when K is not positive definite.
[[nodiscard]] LmlGradient log_marginal_likelihood(const Kernel& kernel, const Matrix& x, const Vector& y,
                                                  bool input_gradient);

/// L^-1 for a lower-triangular L, by recursive halving (LAPACK's trtri scheme): about n^3 / 6
/// multiply-adds, a third of a triangular solve against the identity.
[[nodiscard]] Matrix lower_inverse(const Matrix& l);
/// X^T X for a lower-triangular X, by recursive halving (LAPACK's lauum scheme): with
/// X = L^-1 this is K^-1 from the Cholesky factor of K, in about n^3 / 6 multiply-adds.
[[nodiscard]] Matrix lower_gram(const Matrix& x);

/// The posterior of a GP conditioned on (X, y) with fixed hyperparameters, exact or sparse. Both
/// have the form mean(x) = k(Z, x)^T alpha and latent covariance
/// k(a, b) - (P k(Z, a))^T (P k(Z, b)) for some inputs Z and an m x m matrix P: for the exact
/// posterior Z = X and P = L^-1 (K = L L^T); for FITC Z are the inducing inputs.
class GpPosterior {
public:
    /// The exact posterior. Throws std::runtime_error when K is not positive definite.
    GpPosterior(const Kernel& kernel, Matrix x, const Vector& y);
    /// The FITC posterior (Quinonero-Candela & Rasmussen 2005, Eq. 24b with Lambda of Eq. 21)
    /// conditioned on every row of x, through the inducing inputs z (docs/tuner.md, "Scale:
    /// every observation"). O(n m^2) time, O(m^2 + 2048 m) memory. Throws std::runtime_error
    /// when K(Z, Z) plus the noise floor is not positive definite.
    [[nodiscard]] static GpPosterior fitc(const Kernel& kernel, Matrix z, const Matrix& x, const Vector& y);

    /// Posterior mean and variance of the latent function (no noise) at the rows of xs.
    void predict(const Matrix& xs, Vector& mean, Vector& variance) const;
    /// P K(Z, xs): column j gives the variance reduction at xs_j and, by inner products,
    /// the posterior covariance between test points (the Kriging believer needs it).
    [[nodiscard]] Matrix whitened_cross(const Matrix& xs) const;

    [[nodiscard]] const Kernel& kernel() const { return kernel_; }
    /// Z: the training inputs (exact) or the inducing inputs (FITC).
    [[nodiscard]] const Matrix& inputs() const { return x_; }

private:
    GpPosterior(const Kernel& kernel, Matrix z, Matrix whiten, bool lower, Vector alpha);

    Kernel kernel_;
    Matrix x_;
    // P; lower triangular for the exact posterior (L^-1: scoring multiplies by it (TRMM), twice as
    // fast as solving), full for FITC.
    Matrix whiten_;
    bool lower_ = true;
    Vector alpha_;
};

}  // namespace pimdse::tuner
