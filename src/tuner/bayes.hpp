#pragma once
// The model fit of the Bayesian proposers. Private to src/tuner/.

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/model.hpp"
#include "pimdse/tuner/proposer.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "pimdse/tuner/targets.hpp"

namespace pimdse::tuner {

/// The trained parameters of the last training (network weights and kernel hyperparameters)
/// and the history prefix they were trained on: a cache that never changes a result, since a
/// training is a function of (seed, stream, prefix) only.
struct Training {
    std::size_t prefix = 0;
    Vector parameters;
};

struct FittedModel {
    std::unique_ptr<DeepKernelGp> model;
    double best_target = 0;                ///< lowest standardised target of the fit
    std::vector<DesignPoint> best_points;  ///< the 8 best observations, best first
};

/// The model of one batch: the parameters trained on the history's training prefix
/// (training_prefix; trained afresh, from a network initialised from (seed, stream), unless
/// `cache` holds that prefix's), conditioned on the fitted subset of the whole history.
[[nodiscard]] FittedModel fit_model(std::span<const Observation> history, const Encoding& encoding,
                                    const ProposerOptions& options, const std::vector<int>& hidden,
                                    std::uint64_t seed, std::uint64_t stream, std::optional<Training>& cache);

}  // namespace pimdse::tuner
