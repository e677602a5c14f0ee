#include "pimdse/tuner/model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include "pimdse/core/error.hpp"

namespace pimdse::tuner {

Mlp::Mlp(int inputs, const std::vector<int>& widths, Rng& rng) : inputs_(inputs) {
    int fan_in = inputs;
    for (int w : widths) {
        if (w <= 0) throw ModelError("tuner::Mlp: layer widths must be positive");
        Matrix weights(w, fan_in);
        const double sd = std::sqrt(2.0 / fan_in);  // He et al. 2015, for ReLU
        for (int r = 0; r < w; ++r) {
            for (int c = 0; c < fan_in; ++c) weights(r, c) = sd * rng.normal();
        }
        weights_.push_back(std::move(weights));
        biases_.push_back(Vector::Zero(w));
        fan_in = w;
    }
}

int Mlp::outputs() const {
    return weights_.empty() ? inputs_ : static_cast<int>(weights_.back().rows());
}

Eigen::Index Mlp::parameter_count() const {
    Eigen::Index n = 0;
    for (std::size_t l = 0; l < weights_.size(); ++l) n += weights_[l].size() + biases_[l].size();
    return n;
}

Vector Mlp::parameters() const {
    Vector p(parameter_count());
    Eigen::Index at = 0;
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        for (Eigen::Index r = 0; r < weights_[l].rows(); ++r) {
            p.segment(at, weights_[l].cols()) = weights_[l].row(r).transpose();
            at += weights_[l].cols();
        }
        p.segment(at, biases_[l].size()) = biases_[l];
        at += biases_[l].size();
    }
    return p;
}

void Mlp::set_parameters(const Vector& p) {
    if (p.size() != parameter_count()) throw ModelError("tuner::Mlp: wrong parameter count");
    Eigen::Index at = 0;
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        for (Eigen::Index r = 0; r < weights_[l].rows(); ++r) {
            weights_[l].row(r) = p.segment(at, weights_[l].cols()).transpose();
            at += weights_[l].cols();
        }
        biases_[l] = p.segment(at, biases_[l].size());
        at += biases_[l].size();
    }
}

Matrix Mlp::forward(const Matrix& x) const {
    Matrix h = x;
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        Matrix z = h * weights_[l].transpose();
        z.rowwise() += biases_[l].transpose();
        if (l + 1 < weights_.size()) z = z.cwiseMax(0.0);
        h = std::move(z);
    }
    return h;
}

std::vector<Matrix> Mlp::activations(const Matrix& x) const {
    std::vector<Matrix> acts{x};
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        Matrix z = acts.back() * weights_[l].transpose();
        z.rowwise() += biases_[l].transpose();
        if (l + 1 < weights_.size()) z = z.cwiseMax(0.0);
        acts.push_back(std::move(z));
    }
    return acts;
}

Vector Mlp::backward(const Matrix& x, const Matrix& d_out) const {
    return backward(activations(x), d_out);
}

Vector Mlp::backward(const std::vector<Matrix>& acts, const Matrix& d_out) const {
    std::vector<Matrix> d_w(weights_.size());
    std::vector<Vector> d_b(weights_.size());
    Matrix delta = d_out;
    for (std::size_t l = weights_.size(); l-- > 0;) {
        if (l + 1 < weights_.size()) {
            // ReLU: the gradient passes where the unit was active.
            delta = delta.cwiseProduct((acts[l + 1].array() > 0.0).cast<double>().matrix());
        }
        d_w[l] = delta.transpose() * acts[l];
        d_b[l] = delta.colwise().sum().transpose();
        if (l > 0) delta = delta * weights_[l];
    }
    Vector g(parameter_count());
    Eigen::Index at = 0;
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        for (Eigen::Index r = 0; r < d_w[l].rows(); ++r) {
            g.segment(at, d_w[l].cols()) = d_w[l].row(r).transpose();
            at += d_w[l].cols();
        }
        g.segment(at, d_b[l].size()) = d_b[l];
        at += d_b[l].size();
    }
    return g;
}

DeepKernelGp::DeepKernelGp(int inputs, const ModelOptions& options, Rng& rng)
    : options_(options), network_(inputs, options.hidden, rng), kernel_(options.kernel, network_.outputs()) {}

Vector DeepKernelGp::parameters() const {
    Vector p(kernel_.theta().size() + network_.parameter_count());
    p << kernel_.theta(), network_.parameters();
    return p;
}

void DeepKernelGp::set_parameters(const Vector& p) {
    const Eigen::Index k = kernel_.theta().size();
    if (p.size() != k + network_.parameter_count()) {
        throw ModelError("tuner::DeepKernelGp: wrong parameter count");
    }
    kernel_.theta() = p.head(k);
    network_.set_parameters(p.tail(p.size() - k));
}

Matrix DeepKernelGp::features(const Matrix& x) const {
    return network_.empty() ? x : network_.forward(x);
}

double DeepKernelGp::log_marginal_likelihood(const Matrix& x, const Vector& y, Vector* gradient) const {
    const bool deep = gradient != nullptr && !network_.empty();
    // The deep gradient needs every layer's output: run the network once and keep them.
    const std::vector<Matrix> acts = deep ? network_.activations(x) : std::vector<Matrix>{};
    const LmlGradient l = tuner::log_marginal_likelihood(kernel_, deep ? acts.back() : features(x), y, deep);
    if (gradient != nullptr) {
        gradient->resize(kernel_.theta().size() + network_.parameter_count());
        gradient->head(kernel_.theta().size()) = l.d_theta;
        if (deep) gradient->tail(network_.parameter_count()) = network_.backward(acts, l.d_inputs);
    }
    return l.value;
}

namespace {

// Box on the log hyperparameters: targets are standardised and inputs are in [0, 1] or
// He-scaled features, so these bounds are wide; they keep Adam out of degenerate corners. The
// noise stays at least 1e-4 (a 1 % standard deviation of the standardised target): the costs
// are deterministic and the noise would otherwise shrink until K is singular.
void clamp_theta(Vector& theta, int dim) {
    for (int j = 0; j < dim; ++j) theta(j) = std::clamp(theta(j), std::log(1e-3), std::log(1e3));
    theta(dim) = std::clamp(theta(dim), std::log(1e-3), std::log(1e3));
    theta(dim + 1) = std::clamp(theta(dim + 1), std::log(1e-4), std::log(10.0));
}

}  // namespace

std::vector<double> DeepKernelGp::fit(const Matrix& x, const Vector& y) {
    const int dim = kernel_.dim();
    // Length scales start at the spread of each feature (a data-dependent but deterministic
    // start), the signal variance at 1 (standardised targets), the noise at 1e-2.
    {
        const Matrix z = features(x);
        for (int j = 0; j < dim; ++j) {
            const double mean = z.col(j).mean();
            const double sd = std::sqrt((z.col(j).array() - mean).square().mean());
            kernel_.theta()(j) = std::log(std::max(sd, 1e-2));
        }
        kernel_.theta()(dim) = 0.0;
        kernel_.theta()(dim + 1) = std::log(1e-2);
    }
    Vector p = parameters();
    const Eigen::Index k = kernel_.theta().size();
    Vector lr(p.size());
    lr.head(k).setConstant(options_.kernel_learning_rate);
    lr.tail(p.size() - k).setConstant(options_.network_learning_rate);
    // Adam (Kingma & Ba 2015) on -LML.
    constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    Vector m = Vector::Zero(p.size()), v = Vector::Zero(p.size());
    Vector best = p;
    double best_lml = -std::numeric_limits<double>::infinity();
    std::vector<double> trace;
    Vector g;
    for (int step = 1; step <= options_.steps; ++step) {
        double lml = 0;
        try {
            lml = log_marginal_likelihood(x, y, &g);
        } catch (const std::runtime_error&) {
            break;  // not positive definite: keep the best parameters so far
        }
        if (!std::isfinite(lml) || !g.allFinite()) break;
        trace.push_back(lml);
        if (lml > best_lml) {
            best_lml = lml;
            best = p;
        }
        m = b1 * m - (1 - b1) * g;  // the gradient of -LML
        v = b2 * v + (1 - b2) * g.cwiseAbs2();
        const double c1 = 1 - std::pow(b1, step), c2 = 1 - std::pow(b2, step);
        p.array() -= lr.array() * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
        Vector theta = p.head(k);
        clamp_theta(theta, dim);
        p.head(k) = theta;
        set_parameters(p);
    }
    // The last step's parameters have not been scored: score them once more.
    try {
        const double lml = log_marginal_likelihood(x, y, nullptr);
        if (std::isfinite(lml) && lml > best_lml) best = p;
    } catch (const std::runtime_error&) {
    }
    set_parameters(best);
    condition(x, y);
    return trace;
}

void DeepKernelGp::condition(const Matrix& x, const Vector& y) {
    posterior_.emplace(kernel_, features(x), y);
}

void DeepKernelGp::condition_fitc(const Matrix& z, const Matrix& x, const Vector& y) {
    // The features of every observation in passes: the first hidden layer of 10^5 rows at once
    // would be 200 MB.
    constexpr Eigen::Index chunk = 4096;
    Matrix fx(x.rows(), kernel_.dim());
    for (Eigen::Index at = 0; at < x.rows(); at += chunk) {
        const Eigen::Index len = std::min(chunk, x.rows() - at);
        fx.middleRows(at, len) = features(x.middleRows(at, len));
    }
    posterior_.emplace(GpPosterior::fitc(kernel_, features(z), fx, y));
}

const GpPosterior& DeepKernelGp::posterior() const {
    if (!posterior_) throw InternalError("tuner::DeepKernelGp: no posterior before fit() or condition()");
    return *posterior_;
}

void DeepKernelGp::predict(const Matrix& xs, Vector& mean, Vector& variance) const {
    posterior().predict(features(xs), mean, variance);
}

}  // namespace pimdse::tuner
