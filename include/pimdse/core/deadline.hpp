#pragma once
// A cooperative time limit on the steady clock: long computations (one candidate's
// evaluation, the mapper's search) ask expired() between units of work and stop with a
// `timeout` status; nothing is interrupted from outside.

#include <chrono>
#include <limits>
#include <optional>

namespace pimdse {

class Deadline {
public:
    using Clock = std::chrono::steady_clock;

    /// A deadline that never expires.
    Deadline() = default;
    /// Expires `limit` after now; an empty limit never expires.
    [[nodiscard]] static Deadline after(std::optional<std::chrono::duration<double>> limit) {
        Deadline d;
        if (limit) d.at_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(*limit);
        return d;
    }

    [[nodiscard]] bool limited() const noexcept { return at_.has_value(); }
    [[nodiscard]] bool expired() const { return at_ && Clock::now() >= *at_; }
    /// Seconds left (negative once expired); +infinity without a limit.
    [[nodiscard]] double remaining_seconds() const {
        if (!at_) return std::numeric_limits<double>::infinity();
        return std::chrono::duration<double>(*at_ - Clock::now()).count();
    }

private:
    std::optional<Clock::time_point> at_;
};

}  // namespace pimdse
