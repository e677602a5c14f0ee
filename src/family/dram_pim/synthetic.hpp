#pragma once
// The dram_pim family's synthetic evaluator (`sweep.evaluator: synthetic`, docs/config.md;
// private to src/family): a test facility of the engine, not a model. It measures rank 0's
// dispatch, proposal and write path with many ranks on a small machine: a worker sleeps for a seeded,
// heavy-tailed time (log-normal, the shape of the real evaluation times of the default sweep: the 95th
// percentile 3.5 x the median) and returns rows shaped like a real evaluation's: every workload's uniform
// mapping (sim::uniform_mapping) with per-layer numbers from a smooth function of the hardware point, so that
// the tuner has a landscape to learn and the file's tables have realistic sizes. A sleeping worker costs no
// CPU. Deterministic: the sleep and the numbers depend only on (seed, candidate id, hardware point); only
// `seconds` is timing.

#include <cstdint>

#include "pimdse/eval/evaluate.hpp"

namespace pimdse::family {

/// The seeded sleep of candidate `id`, in seconds: median `median_seconds`, log-normal with
/// sigma 0.76, capped at 20 x the median.
[[nodiscard]] double synthetic_seconds(std::uint64_t seed, std::int64_t id, double median_seconds);

/// Sleeps for synthetic_seconds() and returns the synthetic evaluation of `candidate`.
[[nodiscard]] eval::Evaluation synthetic_evaluate(const eval::EvalContext& ctx,
                                                  const eval::Candidate& candidate, std::uint64_t seed,
                                                  double median_seconds);

}  // namespace pimdse::family
