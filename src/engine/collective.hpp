#pragma once
// Setup steps every rank must agree on (src/engine/collective.cpp): a step that throws on any
// rank throws the same CollectiveError on every rank, so no rank waits in a collective call
// that another has left.

#include <boost/mpi/communicator.hpp>

#include <functional>

namespace pimdse::engine::detail {

/// Runs `step` on every rank (or on rank 0 only); if it throws anywhere, every rank throws the
/// same CollectiveError (the lowest failing rank's message and exit code).
void agree(const boost::mpi::communicator& world, bool root_only, const std::function<void()>& step);

}  // namespace pimdse::engine::detail
