#pragma once
// The two lines a sweep prints on rank 0 (docs/cli.md, "Progress"): what it is about to do,
// and what this run did, with the rates that docs/engine.md and
// benchmarks/parallel_efficiency.sh read.

#include <filesystem>
#include <string>

#include "pimdse/engine/explore.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/store.hpp"

namespace pimdse::engine::detail {

/// "pimdse explore: N evaluations in batches of B (lag L), proposer P, ..." and, when
/// resuming, how much the file holds already.
[[nodiscard]] std::string start_message(const io::Config& config, int ranks, const std::filesystem::path& out,
                                        const store::StoredSweep* resumed);

/// Why the sweep ended, and "this run: ..." with evaluations per second, the workers' busy
/// share, HDF5 write time, rank 0's CPU time and proposal time; with the filter's cheap level,
/// "cheap evaluations: N (rank 0: a, rank 1: b, ...)", who made them.
[[nodiscard]] std::string end_message(const ExploreResult& result, const std::filesystem::path& out);

}  // namespace pimdse::engine::detail
