#include "pimdse/tuner/boosted_trees.hpp"

#include <xgboost/c_api.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"

namespace pimdse::tuner {

namespace {

// Every XGBoost call returns 0 on success and -1 on failure, its message in XGBGetLastError
// (per thread).
void check(int rc, const char* call) {
    if (rc == 0) return;
    std::string msg = "tuner::xgboost: ";
    msg += call;
    msg += " failed: ";
    const char* why = XGBGetLastError();
    msg += why != nullptr ? why : "(no message)";
    throw InternalError(msg);
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// x as XGBoost wants it: row-major float32.
std::vector<float> row_major(const Matrix& x) {
    std::vector<float> out(static_cast<std::size_t>(x.size()));
    std::size_t at = 0;
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        for (Eigen::Index c = 0; c < x.cols(); ++c) out[at++] = static_cast<float>(x(r, c));
    }
    return out;
}

}  // namespace

XgbMatrix::XgbMatrix(const Matrix& x) : rows_(x.rows()) {
    if (x.rows() == 0 || x.cols() == 0) throw ModelError("tuner::XgbMatrix: no rows or no columns");
    const std::vector<float> data = row_major(x);
    check(XGDMatrixCreateFromMat_omp(data.data(), static_cast<bst_ulong>(x.rows()),
                                     static_cast<bst_ulong>(x.cols()), std::nanf(""), &handle_, 1),
          "XGDMatrixCreateFromMat_omp");
}

XgbMatrix::XgbMatrix(const Matrix& x, std::span<const double> labels) : XgbMatrix(x) {
    if (std::ssize(labels) != x.rows()) throw ModelError("tuner::XgbMatrix: one label per row expected");
    std::vector<float> y(labels.begin(), labels.end());
    check(XGDMatrixSetFloatInfo(handle_, "label", y.data(), static_cast<bst_ulong>(y.size())),
          "XGDMatrixSetFloatInfo(label)");
}

XgbMatrix::~XgbMatrix() {
    if (handle_ != nullptr) (void)XGDMatrixFree(handle_);  // a destructor cannot throw
}

XgbMatrix::XgbMatrix(XgbMatrix&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), rows_(std::exchange(other.rows_, 0)) {}

XgbMatrix& XgbMatrix::operator=(XgbMatrix&& other) noexcept {
    if (this != &other) {
        if (handle_ != nullptr) (void)XGDMatrixFree(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        rows_ = std::exchange(other.rows_, 0);
    }
    return *this;
}

Booster::Booster(const XgbMatrix& data, double base_score, const BoosterOptions& options) {
    if (options.trees < 1 || options.depth < 1 || !(options.eta > 0)) {
        throw ModelError("tuner::Booster: trees >= 1, depth >= 1 and eta > 0 expected");
    }
    DMatrixHandle train = data.handle();
    check(XGBoosterCreate(&train, 1, &handle_), "XGBoosterCreate");
    // On failure below the constructor throws and no destructor runs: free the handle here.
    try {
        const std::pair<const char*, std::string> params[] = {
            {"verbosity", "0"},
            {"nthread", "1"},  // deterministic, and rank 0's second thread is one core
            // Histogram splits on at most 256 bins per feature: a parameter of at most 256
            // values (every range of the NicePIM space) gets a bin per value, so the splits are
            // the exact method's candidates, at a sixth of its time on 10^4 observations.
            {"tree_method", "hist"},
            {"max_bin", "256"},
            {"objective", "reg:squarederror"},
            {"max_depth", std::to_string(options.depth)},
            {"eta", number(options.eta)},
            {"base_score", number(base_score)},
            {"seed", std::to_string(options.seed & 0x7fffffff)},  // XGBoost reads an int
        };
        for (const auto& [name, value] : params)
            check(XGBoosterSetParam(handle_, name, value.c_str()), "XGBoosterSetParam");
        for (int iter = 0; iter < options.trees; ++iter)
            check(XGBoosterUpdateOneIter(handle_, iter, train), "XGBoosterUpdateOneIter");
    } catch (...) {
        (void)XGBoosterFree(handle_);
        handle_ = nullptr;
        throw;
    }
}

Booster::~Booster() {
    if (handle_ != nullptr) (void)XGBoosterFree(handle_);
}

Booster::Booster(Booster&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}

Booster& Booster::operator=(Booster&& other) noexcept {
    if (this != &other) {
        if (handle_ != nullptr) (void)XGBoosterFree(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
}

Vector Booster::predict(const XgbMatrix& x) const {
    static constexpr const char* kConfig =
        R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
    const bst_ulong* shape = nullptr;
    bst_ulong dim = 0;
    const float* result = nullptr;
    check(XGBoosterPredictFromDMatrix(handle_, x.handle(), kConfig, &shape, &dim, &result),
          "XGBoosterPredictFromDMatrix");
    if (dim != 1 || shape[0] != static_cast<bst_ulong>(x.rows())) {
        throw InternalError("tuner::Booster: XGBoost returned a prediction of another shape");
    }
    Vector out(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i) out(i) = static_cast<double>(result[i]);
    return out;
}

BoostedEnsemble::BoostedEnsemble(const Matrix& x, const Vector& y, const BoosterOptions& options, int members,
                                 Rng& rng) {
    const Eigen::Index n = x.rows();
    if (n == 0 || y.size() != n || members < 1) {
        throw ModelError(
            "tuner::BoostedEnsemble: one target per row, at least one row and one member expected");
    }
    members_.reserve(static_cast<std::size_t>(members));
    Matrix xb(n, x.cols());
    std::vector<double> yb(static_cast<std::size_t>(n));
    for (int m = 0; m < members; ++m) {
        double sum = 0;
        for (Eigen::Index i = 0; i < n; ++i) {
            const auto pick = static_cast<Eigen::Index>(rng.uniform_int(0, n - 1));
            xb.row(i) = x.row(pick);
            yb[static_cast<std::size_t>(i)] = y(pick);
            sum += y(pick);
        }
        BoosterOptions o = options;
        o.seed = rng();
        members_.emplace_back(XgbMatrix(xb, yb), sum / static_cast<double>(n), o);
    }
}

void BoostedEnsemble::predict(const Matrix& xs, Vector& mean, Vector& sd) const {
    mean = Vector::Zero(xs.rows());
    sd = Vector::Zero(xs.rows());
    if (xs.rows() == 0) return;
    const XgbMatrix data(xs);
    std::vector<Vector> p;
    p.reserve(members_.size());
    for (const Booster& b : members_) {
        p.push_back(b.predict(data));
        mean += p.back();
    }
    const auto m = static_cast<double>(members_.size());
    mean /= m;
    for (const Vector& v : p) sd.array() += (v - mean).array().square();
    sd = (sd / m).cwiseSqrt();
}

}  // namespace pimdse::tuner
