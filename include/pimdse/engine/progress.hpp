#pragma once
// Rank 0's progress lines on a cluster log (docs/cli.md, "Progress"): each line carries a UTC
// timestamp, the evaluations done against the budget, the rate, the time left at that rate,
// the best cost so far and the size of the Pareto front. A line is printed when a batch is
// written and, within a batch, when `interval_seconds` have passed since the last one. As
// text for people, as JSON lines for scripts, or not at all (quiet).

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace pimdse::engine {

enum class ProgressFormat : std::uint8_t { text, json, quiet };

struct ProgressOptions {
    ProgressFormat format = ProgressFormat::text;
    /// Within a batch, a line at most this often (seconds); 0: only when batches are written.
    double interval_seconds = 60;
};

/// What a progress line reports; the sweep fills it.
struct ProgressState {
    std::int64_t evaluations = 0;  ///< done, over all runs of the sweep
    std::int64_t budget = 0;
    std::int64_t done_now = 0;  ///< done by this run (the rate's numerator)
    double seconds = 0;         ///< this run's wall time so far
    double best_cost = 0;       ///< +inf before the first ok candidate
    std::int64_t best_candidate = -1;
    std::size_t front = 0;
};

class Progress {
public:
    Progress(std::ostream* out, ProgressOptions options) : out_(out), options_(options) {}

    /// A batch was written (always reported unless quiet).
    void batch(std::int64_t batch, const ProgressState& s);
    /// A result arrived inside a batch: reported when the interval has passed.
    void tick(std::int64_t batch, const ProgressState& s);
    /// Free text (start and end of a run): as is in text, as a "message" event in JSON.
    void message(const std::string& event, const std::string& text);

    [[nodiscard]] bool enabled() const noexcept {
        return out_ != nullptr && options_.format != ProgressFormat::quiet;
    }

private:
    void line(const char* event, std::int64_t batch, const ProgressState& s);

    std::ostream* out_;
    ProgressOptions options_;
    double last_ = 0;  ///< seconds of the last line
};

/// Seconds as a person reads them: "42 s", "3.5 min", "2.1 h"; "?" when not finite.
[[nodiscard]] std::string seconds_text(double s);

}  // namespace pimdse::engine
