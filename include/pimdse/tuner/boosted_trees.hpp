#pragma once
// Boosted regression trees on XGBoost's C API (Chen & Guestrin 2016, "XGBoost: A Scalable
// Tree Boosting System"), the suggestion model of proposer "xgboost" (docs/tuner.md,
// "Boosted trees"): the owning wrappers of XGBoost's DMatrix and Booster handles, one
// squared-error booster, and an ensemble of boosters trained on bootstrap resamples whose
// spread over the members is the uncertainty the acquisition needs. Every booster is trained
// on one thread with the histogram tree method (deterministic on one thread), so that a fit is
// a function of its data, options and seed only: the same inputs give bit-identical predictions. A failing
// XGBoost call throws InternalError with XGBoost's own message. xgboost/c_api.h stays private to src/tuner:
// the handles are held as opaque pointers.

#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/gp.hpp"

namespace pimdse::tuner {

/// Rows of a matrix as an XGBoost DMatrix (float32, one thread), optionally with labels.
class XgbMatrix {
public:
    explicit XgbMatrix(const Matrix& x);
    /// With one label per row (float32).
    XgbMatrix(const Matrix& x, std::span<const double> labels);
    ~XgbMatrix();
    XgbMatrix(const XgbMatrix&) = delete;
    XgbMatrix& operator=(const XgbMatrix&) = delete;
    XgbMatrix(XgbMatrix&& other) noexcept;
    XgbMatrix& operator=(XgbMatrix&& other) noexcept;

    [[nodiscard]] Eigen::Index rows() const { return rows_; }
    [[nodiscard]] void* handle() const { return handle_; }

private:
    void* handle_ = nullptr;  // DMatrixHandle
    Eigen::Index rows_ = 0;
};

struct BoosterOptions {
    int trees = 100;         ///< boosting rounds
    int depth = 6;           ///< max_depth, XGBoost's default
    double eta = 0.3;        ///< learning rate (shrinkage), XGBoost's default
    std::uint64_t seed = 0;  ///< XGBoost's `seed` (nothing is subsampled, so it changes nothing today)
};

/// One squared-error booster of `options.trees` trees.
class Booster {
public:
    /// Trains on `data` (which has labels), starting from `base_score` (its labels' mean is a good start).
    Booster(const XgbMatrix& data, double base_score, const BoosterOptions& options);
    ~Booster();
    Booster(const Booster&) = delete;
    Booster& operator=(const Booster&) = delete;
    Booster(Booster&& other) noexcept;
    Booster& operator=(Booster&& other) noexcept;

    /// The prediction at every row of x.
    [[nodiscard]] Vector predict(const XgbMatrix& x) const;

private:
    void* handle_ = nullptr;  // BoosterHandle
};

/// `members` boosters, member m trained on a bootstrap resample of the rows (n draws with
/// replacement) drawn from rng, with XGBoost seed drawn from rng too, and base_score the
/// resample's mean target. Prediction: the mean over the members and their standard
/// deviation (population: divided by the member count), as SMAC takes the mean and spread of
/// a random forest's trees (Hutter, Hoos and Leyton-Brown 2011).
class BoostedEnsemble {
public:
    BoostedEnsemble(const Matrix& x, const Vector& y, const BoosterOptions& options, int members, Rng& rng);

    [[nodiscard]] std::size_t size() const { return members_.size(); }
    /// Mean and standard deviation over the members at every row of xs.
    void predict(const Matrix& xs, Vector& mean, Vector& sd) const;

private:
    std::vector<Booster> members_;
};

}  // namespace pimdse::tuner
