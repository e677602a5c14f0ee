#pragma once
// The messages between rank 0 and the workers (internal to the engine; docs/engine.md, "The
// protocol"): two kinds of work, a candidate's full evaluation and a point's cheap evaluation
// for a proposal that waits for it (docs/tuner.md, "Cheap fidelity"), their results, and the
// stop. Every message is plain bytes of trivially copyable structs; rank 0 and the workers
// wait for one without burning a core.

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/status.hpp>

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "pimdse/core/design_point.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/store/store.hpp"

namespace pimdse::engine::detail {

inline constexpr int kTagWork = 1;         ///< rank 0 -> worker: Work
inline constexpr int kTagResult = 2;       ///< worker -> rank 0: CandidateRecord, then its rows
inline constexpr int kTagStop = 4;         ///< rank 0 -> worker: an int, no more work
inline constexpr int kTagCheap = 5;        ///< rank 0 -> worker: CheapWork
inline constexpr int kTagCheapResult = 6;  ///< worker -> rank 0: CheapResult

/// One candidate handed to a worker for its full evaluation.
struct Work {
    std::int64_t id;
    std::int64_t batch;
    DesignPoint params;
};

/// One point of a proposal's cheap request (CheapLevel): the request's serial and the point's
/// index in it, which come back with the cost.
struct CheapWork {
    std::int64_t request;
    std::int64_t index;
    DesignPoint params;
};

/// A cheap evaluation's answer: Eq. 1's cost at the cheap fidelity (+inf unless ok) and the
/// worker's time for it.
struct CheapResult {
    std::int64_t request;
    std::int64_t index;
    double cost;
    double seconds;
};

static_assert(std::is_trivially_copyable_v<Work> && std::is_trivially_copyable_v<CheapWork> &&
              std::is_trivially_copyable_v<CheapResult> &&
              std::is_trivially_copyable_v<store::CandidateRecord>);

/// Waits for a message with one of `tags` from `source`: MPI's blocking receive busy-polls in
/// Open MPI, so it polls with iprobe and sleeps, backing off to 2 ms. Returns nothing as soon
/// as `also` holds (rank 0: a proposal running beside the loop is ready, or asks for work).
[[nodiscard]] std::optional<boost::mpi::status> wait_for(const boost::mpi::communicator& world, int source,
                                                         std::initializer_list<int> tags,
                                                         const std::function<bool()>& also = {});

/// A trivially copyable value as a message's bytes, and back (a malformed message throws).
template <class T>
[[nodiscard]] std::vector<char> to_bytes(const T& value) {
    std::vector<char> out(sizeof value);
    std::memcpy(out.data(), &value, sizeof value);
    return out;
}
template <class T>
[[nodiscard]] T from_bytes(const std::vector<char>& bytes, const char* what) {
    if (bytes.size() != sizeof(T)) throw Error(std::string("a malformed ") + what + " message");
    T value;
    std::memcpy(&value, bytes.data(), sizeof value);
    return value;
}

/// A full evaluation's result as one message: the record, then the rows (BatchRows::to_bytes).
[[nodiscard]] std::vector<char> result_message(const store::CandidateRecord& r, const store::BatchRows& rows);

}  // namespace pimdse::engine::detail
