#pragma once
// The filter's second level in the engine (internal; docs/tuner.md, "Cheap fidelity"): a
// point's Eq. 1 cost at the cheap fidelity, and the hand-over through which a proposal gets
// the cheap costs of its pool. The proposal runs on rank 0's proposal thread and calls costs()
// (ProposerContext::cheap_costs) with all its points; with workers the call posts them as one
// request and waits, while rank 0's message loop, the only thread that speaks MPI, takes the
// request, spreads its points over the workers as the second kind of work (wire.hpp) and
// delivers each cost as it comes back. Alone (one rank, or an MPI library without threads
// beside it) the call evaluates the points itself, in order. A cost depends on its point
// alone, so both give the same proposal, bit for bit.

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "pimdse/core/design_point.hpp"
#include "pimdse/core/proposer_options.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/family/family.hpp"

namespace pimdse::engine::detail {

/// Thrown into a proposal waiting for cheap costs when the loop stops (wall time, a stop
/// request): the proposal is dropped, and a resumed sweep proposes it again.
class CheapAbandoned final : public std::exception {
public:
    [[nodiscard]] const char* what() const noexcept override {
        return "the sweep stopped while a proposal waited for its cheap evaluations";
    }
};

/// A proposal's request: its serial number and its points, the index of each being its place.
struct CheapRequest {
    std::int64_t serial = 0;
    std::vector<DesignPoint> points;
};

class CheapLevel {
public:
    /// `full`: the sweep's evaluation context, of which the cheap fidelity's is derived.
    CheapLevel(const family::Family& family, const eval::EvalContext& full, CheapFidelity fidelity);

    /// Eq. 1's cost of `point` at the cheap fidelity, +inf unless that evaluation is ok, with no
    /// wall-clock limit (a pure function of the point): what a worker computes for CheapWork.
    [[nodiscard]] double cost(const DesignPoint& point) const;

    /// The proposer's cheap_costs (proposal thread): every point's cost, in order. After
    /// use_workers() the points go to the loop as one request and the call waits for all their
    /// costs; throws CheapAbandoned once abandon() was called.
    [[nodiscard]] std::vector<double> costs(std::span<const DesignPoint> points);

    /// Rank 0's loop, before the first proposal: from now on costs() waits for the workers.
    void use_workers();
    /// Whether a request waits to be taken (the loop's wake-up condition).
    [[nodiscard]] bool request_waiting() const;
    /// The waiting request, once; nothing when none waits.
    [[nodiscard]] std::optional<CheapRequest> take_request();
    /// One point's cost from a worker; a cost of another request than the current one (one
    /// abandoned), or one delivered already, is ignored.
    void deliver(std::int64_t serial, std::int64_t index, double cost);
    /// The loop stops: a waiting costs() and every later one throw CheapAbandoned.
    void abandon();
    /// The cheap evaluations costs() made itself (rank 0 alone).
    [[nodiscard]] std::int64_t evaluated_here() const;

private:
    const family::Family& family_;
    const eval::EvalContext ctx_;
    mutable std::mutex mutex_;
    std::condition_variable answered_;
    bool workers_ = false;
    bool abandoned_ = false;
    bool taken_ = true;  // the current request's points are with the loop (or there is none)
    std::int64_t serial_ = 0;
    std::vector<DesignPoint> points_;
    std::vector<double> costs_;
    std::vector<bool> delivered_;
    std::size_t missing_ = 0;  // costs of the current request not delivered yet
    std::int64_t here_ = 0;
};

}  // namespace pimdse::engine::detail
