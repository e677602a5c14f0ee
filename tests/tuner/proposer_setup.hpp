#pragma once
// What the proposer tests hand a proposer: a context (a space, its legality, a seed, fewer
// scored samples per batch than the default so that the tests stay fast) and small options
// for the model-based proposers; what they keep of a run, its batches and the history it
// told, and the checks they share on it (legal and distinct points, resume at every
// batch). The dram_pim context is the family's default space under its legality
// (dram_pim_points.hpp).

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "dram_pim_points.hpp"
#include "pimdse/core/proposer_options.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/tuner/encoding.hpp"
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

/// A proposer's batches, in the order it proposed them, and the history it was told.
struct Trace {
    std::vector<std::vector<DesignPoint>> batches;
    std::vector<Observation> history;
};

/// Evaluates `points` with `evaluate(id, point)` (id: the point's index in the history), tells
/// `proposer` the batch and appends the batch and its observations to `trace`.
template <class Evaluate>
void tell_batch(Proposer& proposer, std::vector<DesignPoint> points, Trace& trace, Evaluate&& evaluate) {
    std::vector<Observation> obs;
    for (const auto& p : points) obs.push_back(evaluate(std::ssize(trace.history) + std::ssize(obs), p));
    proposer.observe(obs);
    trace.history.insert(trace.history.end(), obs.begin(), obs.end());
    trace.batches.push_back(std::move(points));
}

/// A filter test's step: the batch `kept` evaluated by synthetic_evaluation, told to the
/// unfiltered proposer `plain` (so its next pool is the filter's) and, through tell_batch, to
/// `filtered` and `trace`.
inline void tell_plain_and_filtered(Proposer& plain, Proposer& filtered, const std::vector<DesignPoint>& kept,
                                    Trace& trace, const Encoding& e);

/// Every batch of `trace` holds `size` points, each legal under the default constraints and
/// none proposed twice.
inline void expect_legal_and_distinct(const Trace& trace, std::size_t size) {
    PointSet seen;
    for (const auto& batch : trace.batches) {
        EXPECT_EQ(batch.size(), size);
        for (const auto& p : batch) {
            EXPECT_TRUE(hw::check(hw::from_point(p), hw::Constraints{}).legal()) << to_string(p);
            EXPECT_TRUE(seen.insert(p).second) << "repeated " << to_string(p);
        }
    }
}

/// The resume contract at every batch: a fresh proposer from `make_fresh()` told the first k
/// batches of `trace` (batches of `size`) proposes batch k as the uninterrupted run did.
template <class MakeFresh>
void expect_resumes_at_every_batch(const Trace& trace, int size, MakeFresh&& make_fresh) {
    for (std::size_t k = 1; k < trace.batches.size(); ++k) {
        auto fresh = make_fresh();
        fresh->observe(std::span<const Observation>(trace.history).first(static_cast<std::size_t>(size) * k));
        EXPECT_EQ(fresh->propose(static_cast<std::int64_t>(k), size), trace.batches[k]) << "batch " << k;
    }
}

/// A smooth synthetic cost of the encoding, minimal inside the cube at an interior point;
/// the points with 1 x 1 PEs "fail", so that every proposer sees failures.
[[nodiscard]] inline Observation synthetic_evaluation(const Encoding& e, std::int64_t id,
                                                      const DesignPoint& point) {
    const hw::HardwareParams p = hw::from_point(point);
    static constexpr Unit centre{0.7, 0.3, 0.6, 0.4, 0.2, 0.5, 0.3};
    const Unit u = e.encode(point);
    double s = 0;
    for (std::size_t k = 0; k < e.space().dimensions(); ++k)
        s += (1.0 + static_cast<double>(k)) * (u[k] - centre[k]) * (u[k] - centre[k]);
    Observation o;
    o.candidate = id;
    o.params = point;
    if (p.pe_rows == 1 && p.pe_cols == 1) {
        o.outcome = Outcome::failed;
        o.cost = std::numeric_limits<double>::infinity();
        return o;
    }
    o.cost = std::exp(3.0 * s);
    o.objectives = {o.cost, static_cast<double>(p.ibuf_kib)};
    return o;
}

inline void tell_plain_and_filtered(Proposer& plain, Proposer& filtered, const std::vector<DesignPoint>& kept,
                                    Trace& trace, const Encoding& e) {
    std::vector<Observation> obs;
    for (const DesignPoint& p : kept)
        obs.push_back(synthetic_evaluation(e, std::ssize(trace.history) + std::ssize(obs), p));
    plain.observe(obs);
    tell_batch(filtered, kept, trace,
               [&](std::int64_t id, const DesignPoint& p) { return synthetic_evaluation(e, id, p); });
}

}  // namespace pimdse::tuner
