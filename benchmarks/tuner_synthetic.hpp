#pragma once
// The synthetic history of the tuner's benchmarks (bench_tuner, bench_tuner_quality): legal
// points of the default (NicePIM Table II) space, uniformly drawn, with a smooth synthetic cost of
// the encoding and three conflicting objectives; one observation in twenty fails.

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/proposer.hpp"

namespace pimdse::bench {

// A smooth synthetic cost of the encoding and three conflicting objectives; with `failures`, one
// in twenty fails (by id).
inline tuner::Observation synthetic_observation(const tuner::Encoding& encoding, std::int64_t id,
                                                const DesignPoint& p, bool failures = true) {
    const tuner::Unit u = encoding.encode(p);
    double s = 0, big = 0, small = 0;
    for (std::size_t k = 0; k < encoding.space().dimensions(); ++k) {
        s += (k + 1.0) * (u[k] - 0.4) * (u[k] - 0.4);
        big += (k + 1.0) * u[k];
        small += (k + 1.0) * (1 - u[k]) * (1 - u[k]);
    }
    tuner::Observation o;
    o.candidate = id;
    o.params = p;
    if (failures && id % 20 == 19) {
        o.outcome = tuner::Outcome::failed;
        o.cost = INFINITY;
        o.objectives.assign(3, INFINITY);
    } else {
        o.cost = std::exp(3 * s + std::sin(7 * u[4]));
        o.objectives = {std::exp(small + 0.3 * std::sin(5 * u[2])), std::exp(0.5 * big + s), 1 + big};
    }
    return o;
}

struct Setup {
    tuner::ProposerContext ctx;
    std::vector<tuner::Observation> history;
};

inline Setup make_setup(int n, int samples_per_round = 0, bool failures = true) {
    Setup s;
    // The default sweep's family, as the engine gives it to the proposers.
    static const std::unique_ptr<family::Family> fam = family::make_family(io::Config{});
    s.ctx.space = fam->space();
    s.ctx.legal = [](const DesignPoint& p) { return fam->legal(p); };
    if (samples_per_round > 0) s.ctx.samples_per_round = samples_per_round;
    const tuner::LegalSampler sampler(s.ctx.space, s.ctx.legal);
    const tuner::Encoding encoding(s.ctx.space);
    Rng rng(99, 1);
    const std::vector<DesignPoint> points = sampler.sample(rng, n, {});
    for (std::size_t i = 0; i < points.size(); ++i)
        s.history.push_back(
            synthetic_observation(encoding, static_cast<std::int64_t>(i), points[i], failures));
    return s;
}

}  // namespace pimdse::bench
