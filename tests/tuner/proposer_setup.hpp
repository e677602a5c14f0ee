#pragma once
// What the proposer tests hand a proposer: a context (a space, its legality, a seed, fewer
// scored samples per batch than the default so that the tests stay fast) and small options
// for the model-based proposers. The dram_pim context is the family's default space under
// its legality (dram_pim_points.hpp).

#include <cstdint>
#include <utility>
#include <vector>

#include "dram_pim_points.hpp"
#include "pimdse/core/proposer_options.hpp"
#include "pimdse/tuner/proposer.hpp"

namespace pimdse::tuner {

/// `space` under `legal`, seeded, scoring `samples_per_round` legal points per batch.
[[nodiscard]] inline ProposerContext test_context(DesignSpace space, LegalityTest legal, std::uint64_t seed,
                                                  int samples_per_round) {
    ProposerContext ctx;
    ctx.space = std::move(space);
    ctx.legal = std::move(legal);
    ctx.seed = seed;
    ctx.samples_per_round = samples_per_round;
    return ctx;
}

/// The dram_pim family's default space (NicePIM Table I) under its default constraints.
[[nodiscard]] inline ProposerContext dram_pim_context(std::uint64_t seed, int samples_per_round) {
    return test_context(hw::default_space(hw::Constraints{}), dram_pim_legality(hw::Constraints{}), seed,
                        samples_per_round);
}

/// Small options for the model-based proposers: `initial_random` uniform points, an MLP of
/// the widths `hidden`, fits of at most `fit_max` observations (half of them the best) in
/// `steps` Adam steps, plain GP and deep kernel alike.
[[nodiscard]] inline ProposerOptions small_options(int initial_random, std::vector<int> hidden, int fit_max,
                                                   int steps) {
    ProposerOptions o;
    o.initial_random = initial_random;
    o.hidden = std::move(hidden);
    o.fit_max = fit_max;
    o.fit_best = fit_max / 2;
    o.gp_steps = steps;
    o.dkl_steps = steps;
    return o;
}

}  // namespace pimdse::tuner
