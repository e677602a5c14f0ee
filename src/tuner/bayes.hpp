#pragma once
// The model fit of the Bayesian proposers. Private to src/tuner/.

#include <memory>
#include <span>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/model.hpp"
#include "pimdse/tuner/proposer.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "pimdse/tuner/targets.hpp"

namespace pimdse::tuner {

struct FittedModel {
    std::unique_ptr<DeepKernelGp> model;
    double best_target = 0;                       ///< lowest standardised target of the fit
    std::vector<hw::HardwareParams> best_points;  ///< the 8 best observations, best first
};

/// The model of one batch: standardised log-cost targets of the fitted subset, a network
/// initialised from (seed, stream) and trained from there.
[[nodiscard]] FittedModel fit_model(std::span<const Observation> history, const Encoding& encoding,
                                    const ProposerOptions& options, const std::vector<int>& hidden,
                                    std::uint64_t seed, std::uint64_t stream, Rng& rng);

}  // namespace pimdse::tuner
