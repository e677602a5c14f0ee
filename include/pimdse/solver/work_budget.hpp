#pragma once
// The deterministic work limit of the solves that share it (solver/mip.hpp): simplex
// iterations, the same count on any machine, unlike a wall-clock limit.

#include <cstdint>
#include <limits>

namespace pimdse::solver {

/// A deterministic work limit shared by every LP of the solves handed it: Clp's simplex
/// iterations, counted in Clp's own loop (those of the LPs inside CBC, strong branching
/// included, too). Once it is spent every LP stops at its next iteration, as at a time limit,
/// but at the same point on any machine: single-threaded Clp and CBC with fixed seeds follow
/// the same path for the same model and the same count.
struct WorkBudget {
    std::int64_t limit = std::numeric_limits<std::int64_t>::max();
    std::int64_t used = 0;
    [[nodiscard]] bool spent() const noexcept { return used >= limit; }
    [[nodiscard]] std::int64_t left() const noexcept { return spent() ? 0 : limit - used; }
};

}  // namespace pimdse::solver
