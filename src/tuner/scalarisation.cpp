// ParEGO's weight vectors, normalisation and augmented Tchebycheff targets
// (docs/tuner.md, "Multi-objective proposals").

#include "pimdse/tuner/scalarisation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::tuner {

std::vector<std::vector<double>> simplex_weights(Rng& rng, int count, std::size_t objectives) {
    std::vector<std::vector<double>> out;
    for (int i = 0; i < count; ++i) {
        std::vector<double> w(objectives);
        double sum = 0;
        for (double& v : w) {
            v = -std::log1p(-rng.uniform01());  // standard exponential; uniform01 < 1
            sum += v;
        }
        for (double& v : w) v = sum > 0 ? v / sum : 1.0 / static_cast<double>(objectives);
        out.push_back(std::move(w));
    }
    return out;
}

double augmented_tchebycheff(std::span<const double> f, std::span<const double> w, double rho) {
    if (f.size() != w.size())
        throw ModelError("tuner::augmented_tchebycheff: objectives and weights differ in size");
    double worst = -std::numeric_limits<double>::infinity(), sum = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
        worst = std::max(worst, w[i] * f[i]);
        sum += w[i] * f[i];
    }
    return worst + rho * sum;
}

namespace {

bool usable(const Observation& o) {
    return o.outcome == Outcome::ok && !o.objectives.empty() &&
           std::all_of(o.objectives.begin(), o.objectives.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

NormalisedObjectives::NormalisedObjectives(std::span<const Observation> history) : rows_(history.size()) {
    for (const Observation& o : history) {
        if (!usable(o)) continue;
        if (objectives_ == 0) objectives_ = o.objectives.size();
        if (o.objectives.size() != objectives_)
            throw ModelError("tuner::NormalisedObjectives: observations with " + std::to_string(objectives_) +
                             " and " + std::to_string(o.objectives.size()) + " objectives");
    }
    logged_.assign(objectives_, true);
    for (const Observation& o : history)
        for (std::size_t k = 0; usable(o) && k < objectives_; ++k)
            if (!(o.objectives[k] > 0)) logged_[k] = false;
    std::vector<double> lo(objectives_, std::numeric_limits<double>::infinity());
    std::vector<double> hi(objectives_, -std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < history.size(); ++i) {
        if (!usable(history[i])) continue;
        rows_[i] = history[i].objectives;
        for (std::size_t k = 0; k < objectives_; ++k) {
            double& v = rows_[i][k];
            if (logged_[k]) v = std::log(v);
            lo[k] = std::min(lo[k], v);
            hi[k] = std::max(hi[k], v);
        }
    }
    for (std::vector<double>& row : rows_)
        for (std::size_t k = 0; k < row.size(); ++k)
            row[k] = hi[k] > lo[k] ? (row[k] - lo[k]) / (hi[k] - lo[k]) : 0.0;
}

std::vector<double> NormalisedObjectives::targets(std::span<const double> weights,
                                                  double failure_margin) const {
    if (objectives_ == 0) return std::vector<double>(rows_.size(), 0.0);  // nothing to tell apart
    if (weights.size() != objectives_)
        throw ModelError("tuner::NormalisedObjectives::targets: " + std::to_string(weights.size()) +
                         " weights for " + std::to_string(objectives_) + " objectives");
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    std::vector<double> t(rows_.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].empty()) continue;
        t[i] = augmented_tchebycheff(rows_[i], weights);
        lo = std::min(lo, t[i]);
        hi = std::max(hi, t[i]);
    }
    const double spread = hi > lo ? hi - lo : 1.0;
    for (double& v : t)
        if (std::isnan(v)) v = hi + failure_margin * spread;
    return t;
}

}  // namespace pimdse::tuner
