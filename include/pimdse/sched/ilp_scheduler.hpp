#pragma once
// The Data-Scheduler of NicePIM VII: one ILP (Eq. 2-4) chooses the Hamilton cycles of all
// sharing sets of a data-sharing event at once so that the heaviest mesh link of a step is
// as light as possible. Solved with COIN-OR CBC; the Coin headers stay in src/sched.
// docs/model.md, section "Data-Scheduler", states the formulation and measurements.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sched {

struct IlpOptions {
    /// Wall-clock limit of one CBC solve, seconds (> 0).
    double time_limit_seconds = 1.0;
    /// Stop once (incumbent - bound) / incumbent <= this; 0 asks for proven optimality.
    double relative_gap = 0.0;
    /// Flit width used to turn bytes into link load (the scheduler interface has no NoC
    /// parameters); 64 is the Fig. 12 setup.
    std::int32_t flit_bits = 64;
    /// Let CBC print its log to stdout (off: library code stays quiet).
    bool log = false;
};

/// Throws std::invalid_argument for a non-positive time limit or flit width, or a gap < 0.
void validate(const IlpOptions& options);

enum class IlpStatus : std::uint8_t {
    optimal,               ///< proven optimal (also: no ILP needed, every set trivial)
    gap_reached,           ///< stopped with relative gap <= IlpOptions::relative_gap
    time_limit_incumbent,  ///< time limit hit; the best cycles found (at worst the warm start)
    failed,                ///< CBC gave up or an unknown status; the warm start is returned
};

[[nodiscard]] const char* to_string(IlpStatus status) noexcept;

struct IlpResult {
    /// One cycle per input set, same order; always valid (validate_cycles).
    std::vector<sim::SharingCycle> cycles;
    /// Heaviest mesh link of one step for `cycles`, flits (NicePIM Eq. 4).
    std::int64_t max_link_flits = 0;
    /// Lower bound on that value proven by the solver, flits.
    double best_bound_flits = 0.0;
    /// (max_link_flits - best_bound_flits) / max_link_flits, 0 when proven optimal.
    double gap = 0.0;
    IlpStatus status = IlpStatus::optimal;
    /// Why the status is `failed` (or what CBC reported otherwise); empty when all went well.
    std::string reason;
    /// Wall-clock time of model building plus CBC, seconds (0 for a cache hit).
    double solve_seconds = 0.0;
    /// Max link load of the warm start (best of snake ring and TSP), flits.
    std::int64_t warm_start_flits = 0;
    bool from_cache = false;
};

/// NicePIM Eq. 2-4 solved by CBC, warm-started with the better of the snake ring and the
/// TSP cycles. Sets with fewer than three members have one cycle only and enter the model as
/// constant link loads. Identical events (same mesh, members, flits) are solved once: the
/// scheduler keeps a small cache of results. The cache makes an instance NOT thread-safe;
/// use one scheduler per thread.
class IlpCycleScheduler final : public sim::CycleScheduler {
public:
    explicit IlpCycleScheduler(IlpOptions options = {});

    [[nodiscard]] std::vector<sim::SharingCycle> schedule(const sim::Mesh& mesh,
                                                          std::span<const sim::SharingSet> sets) override;

    /// As schedule(), with the solver's status, bound and timing. Throws std::out_of_range
    /// for a member outside the mesh, std::invalid_argument for repeated members.
    [[nodiscard]] IlpResult solve(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets);

    [[nodiscard]] const IlpOptions& options() const noexcept { return options_; }
    [[nodiscard]] std::size_t cache_size() const noexcept { return cache_.size(); }
    void clear_cache() noexcept { cache_.clear(); }

private:
    IlpOptions options_;
    // Key: rows, cols, then per set its flits, size and sorted members (see solve()).
    std::map<std::vector<std::int64_t>, IlpResult> cache_;
};

}  // namespace pimdse::sched
