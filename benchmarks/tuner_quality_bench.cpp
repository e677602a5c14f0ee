// Prediction quality of the GP-based proposers' models against the number of observations
// (docs/tuner.md, "Scale: every observation"): the posterior on the fitted subset (fit_max 256:
// the 128 best and 128 drawn) against FITC on every observation through that subset, with the
// hyperparameters (and for "nicepim" the network) trained on the subset as a proposer trains
// them. Held out: 2000 further uniform legal points of the default space, scored by the RMSE of
// the predicted log cost and by Kendall's tau (Gibbon Eq. 6) of the prediction against the
// truth. The costs are bench_tuner's synthetic ones (tuner_synthetic.hpp) without its failures,
// which strike at random (by id), not by region, and would be noise to any model. This
// measures a model, not a time: read the counters.
//
//   build/benchmarks/bench_tuner_quality
#include <benchmark/benchmark.h>

#include <cmath>
#include <span>
#include <vector>

#include "pimdse/tuner/model.hpp"
#include "pimdse/tuner/rank_correlation.hpp"
#include "pimdse/tuner/targets.hpp"
#include "tuner_synthetic.hpp"

namespace {

using namespace pimdse;
using pimdse::tuner::Matrix;
using pimdse::tuner::Vector;

constexpr int kHeldOut = 2000;

Matrix encoded(const tuner::Encoding& encoding, std::span<const tuner::Observation> obs) {
    const std::vector<std::size_t>& f = encoding.features();
    Matrix x(std::ssize(obs), std::ssize(f));
    for (std::size_t i = 0; i < obs.size(); ++i) {
        const tuner::Unit u = encoding.encode(obs[i].params);
        for (std::size_t j = 0; j < f.size(); ++j)
            x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = u[f[j]];
    }
    return x;
}

// RMSE of the predicted log cost and Kendall's tau against the held-out truth.
void score(benchmark::State& state, const char* tag, const tuner::DeepKernelGp& model, const Matrix& xt,
           const Vector& truth, double mean, double sd) {
    Vector m, v;
    model.predict(xt, m, v);
    const Vector predicted = (m.array() * sd + mean).matrix();
    state.counters[std::string("rmse_") + tag] = std::sqrt((predicted - truth).squaredNorm() / truth.size());
    state.counters[std::string("tau_") + tag] =
        tuner::kendall_tau({truth.data(), static_cast<std::size_t>(truth.size())},
                           {predicted.data(), static_cast<std::size_t>(predicted.size())});
}

// range(0): observations; range(1): 0 for "gp" (no network), 1 for "nicepim" (256-64-16).
void BM_ModelQuality(benchmark::State& state) {
    const auto n = static_cast<int>(state.range(0));
    const bench::Setup setup = bench::make_setup(n, 0, false);
    const tuner::Encoding encoding(setup.ctx.space);
    const tuner::LegalSampler sampler(setup.ctx.space, setup.ctx.legal);
    Rng test_rng(7, 2);
    std::vector<tuner::Observation> test;
    for (const DesignPoint& p : sampler.sample(test_rng, kHeldOut, {}))
        test.push_back(bench::synthetic_observation(encoding, std::ssize(test), p, false));
    const Matrix xt = encoded(encoding, test);
    Vector truth(kHeldOut);
    for (int i = 0; i < kHeldOut; ++i) truth(i) = std::log(test[static_cast<std::size_t>(i)].cost);

    const tuner::ProposerOptions o;
    const std::vector<double> targets = tuner::log_cost_targets(setup.history, o.failure_margin);
    Vector y = Eigen::Map<const Vector>(targets.data(), std::ssize(targets));
    const double mean = y.mean();
    const double sd = std::sqrt((y.array() - mean).square().mean());
    y = (y.array() - mean) / sd;
    Rng subset_rng(1, 1);
    const std::vector<std::size_t> subset = tuner::fit_subset(targets, o.fit_max, o.fit_best, subset_rng);
    const Matrix x = encoded(encoding, setup.history);
    Matrix z(std::ssize(subset), x.cols());
    Vector yz(std::ssize(subset));
    for (std::size_t i = 0; i < subset.size(); ++i) {
        z.row(static_cast<Eigen::Index>(i)) = x.row(static_cast<Eigen::Index>(subset[i]));
        yz(static_cast<Eigen::Index>(i)) = targets[subset[i]];
    }
    // Standardised over the subset, as a proposer trains and conditions on it.
    const double mean_z = yz.mean();
    const double sd_z = std::sqrt((yz.array() - mean_z).square().mean());
    yz = (yz.array() - mean_z) / sd_z;
    tuner::ModelOptions m;
    m.kernel = o.kernel;
    if (state.range(1) == 1) m.hidden = o.hidden;
    m.steps = m.hidden.empty() ? o.gp_steps : o.dkl_steps;
    m.kernel_learning_rate = o.gp_learning_rate;
    m.network_learning_rate = o.dkl_learning_rate;
    for (auto _ : state) {
        Rng init(1, 2);
        tuner::DeepKernelGp model(static_cast<int>(x.cols()), m, init);
        (void)model.fit(z, yz);  // trains on the subset and conditions on it
        score(state, "subset", model, xt, truth, mean_z, sd_z);
        model.condition_fitc(z, x, y);
        score(state, "fitc", model, xt, truth, mean, sd);
    }
}
BENCHMARK(BM_ModelQuality)
    ->ArgsProduct({{256, 1000, 4000, 16000, 64000}, {0, 1}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

}  // namespace
