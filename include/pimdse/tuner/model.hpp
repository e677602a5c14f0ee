#pragma once
// The surrogate models of the Bayesian proposers (docs/tuner.md, "Models"): a deep-kernel GP,
// an MLP feature extractor (ReLU hidden layers, linear output) feeding a GP kernel, trained
// jointly by maximising the log marginal likelihood with Adam, the gradient flowing
// analytically from the kernel into the network (Wilson et al. 2016, "Deep Kernel Learning").
// With no hidden layers the features are the inputs: the plain GP of proposer "gp".

#include <cstdint>
#include <optional>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/gp.hpp"

namespace pimdse::tuner {

/// A fully connected ReLU network; the last layer is linear.
class Mlp {
public:
    /// layer widths after the input, e.g. {256, 64, 16}; He-normal weights from rng, zero biases.
    Mlp(int inputs, const std::vector<int>& widths, Rng& rng);

    [[nodiscard]] int inputs() const { return inputs_; }
    [[nodiscard]] int outputs() const;
    [[nodiscard]] bool empty() const { return weights_.empty(); }
    [[nodiscard]] Eigen::Index parameter_count() const;
    /// Weights (row-major per layer) then biases, layer by layer.
    [[nodiscard]] Vector parameters() const;
    void set_parameters(const Vector& p);

    /// Rows of x through the network.
    [[nodiscard]] Matrix forward(const Matrix& x) const;
    /// x and every layer's output (the last is forward(x)): what backward() needs.
    [[nodiscard]] std::vector<Matrix> activations(const Matrix& x) const;
    /// The gradient of a scalar with respect to the parameters, given its gradient with
    /// respect to forward(x) (backpropagation), in parameters() order.
    [[nodiscard]] Vector backward(const Matrix& x, const Matrix& d_out) const;
    /// The same from activations(x), so that a fit step runs the network forward once.
    [[nodiscard]] Vector backward(const std::vector<Matrix>& acts, const Matrix& d_out) const;

private:
    int inputs_;
    std::vector<Matrix> weights_;  // out x in
    std::vector<Vector> biases_;
};

struct ModelOptions {
    KernelKind kernel = KernelKind::matern52;
    std::vector<int> hidden;  ///< empty: a plain GP on the inputs
    int steps = 150;          ///< Adam steps
    double kernel_learning_rate = 0.05;
    double network_learning_rate = 0.005;
};

/// A GP on learned features, trained by maximising its log marginal likelihood.
class DeepKernelGp {
public:
    /// Deterministic initialisation from rng (network weights) and fixed kernel values.
    DeepKernelGp(int inputs, const ModelOptions& options, Rng& rng);

    [[nodiscard]] const Kernel& kernel() const { return kernel_; }
    [[nodiscard]] const Mlp& network() const { return network_; }
    /// Kernel theta, then the network's parameters.
    [[nodiscard]] Vector parameters() const;
    void set_parameters(const Vector& p);

    [[nodiscard]] Matrix features(const Matrix& x) const;
    /// The LML of y at inputs x and, if `gradient` is given, its gradient in parameters() order.
    [[nodiscard]] double log_marginal_likelihood(const Matrix& x, const Vector& y, Vector* gradient) const;

    /// Adam ascent of the LML from the current parameters; keeps the parameters with the best
    /// LML seen, then conditions the posterior on (x, y). Returns the LML per step.
    std::vector<double> fit(const Matrix& x, const Vector& y);
    /// The posterior on (x, y) with the current parameters.
    void condition(const Matrix& x, const Vector& y);
    /// The FITC posterior on every row of (x, y) through the inducing inputs z (rows of the
    /// model's inputs, mapped to features like x), with the current parameters.
    void condition_fitc(const Matrix& z, const Matrix& x, const Vector& y);

    [[nodiscard]] bool has_posterior() const { return posterior_.has_value(); }
    /// The posterior, after fit() or condition().
    [[nodiscard]] const GpPosterior& posterior() const;
    void predict(const Matrix& xs, Vector& mean, Vector& variance) const;

private:
    ModelOptions options_;
    Mlp network_;
    Kernel kernel_;
    std::optional<GpPosterior> posterior_;
};

}  // namespace pimdse::tuner
