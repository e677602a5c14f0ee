#pragma once
// The NoC cost of a data-sharing event (NicePIM VII, Definition 1): every member of a
// sharing set holds one chunk and must end up with all of them. Two strategies are costed
// with the analytic model of noc.hpp:
//  - Hamilton cycle: N - 1 identical steps; in each, every member forwards the chunk it
//    received last to its successor on the cycle;
//  - shortest paths (SHP, the NicePIM Fig. 12 baseline): every member sends its own chunk
//    straight to every other member along its XY route, all at once.
// The cycle order is the scheduler's choice (sched's ILP, NicePIM Eq. 2-4, or the cheap
// SnakeRingScheduler); every strategy sits behind SharingScheduler.

#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/noc.hpp"

namespace pimdse::sim {

/// Nodes that share one piece of data, each holding `bytes_per_node` of it.
/// Members are distinct; their order carries no meaning.
struct SharingSet {
    std::vector<NodeId> members;
    Bytes bytes_per_node{0};
};

/// A sharing set with a Hamilton cycle chosen: order[i] sends to order[(i + 1) % N].
struct SharingCycle {
    std::vector<NodeId> order;
    Bytes bytes_per_node{0};
};

/// Cost of one data-sharing event (possibly several sharing sets at once).
struct ShareCost {
    /// Heaviest mesh link in the busiest step, flits (NicePIM Eq. 4 objective); for SHP the
    /// heaviest link of the single all-at-once step.
    std::int64_t max_link_flits = 0;
    /// Heaviest channel including injection/ejection ports in the busiest step, flits.
    std::int64_t max_channel_flits = 0;
    /// Steps of the event: N - 1 of the largest set for cycles, 1 for SHP (0 if nothing moves).
    std::int32_t steps = 0;
    /// Longest route of any transfer of the event.
    std::int32_t max_hops = 0;
    /// Sum over all steps and transfers of flits x hops.
    std::int64_t flit_hops = 0;
    /// Latency of the whole event; steps follow one another (a step starts when the
    /// previous one has delivered its last flit).
    Cycles latency{0};
    Picojoules energy{0};
};

/// Hamilton-cycle sharing (NicePIM VII). A set of N members runs N - 1 steps; when all sets
/// have the same size every step is identical and latency = (N - 1) x step latency. Sets of
/// different sizes are handled phase by phase: while a set still has steps to do it takes
/// part in the step pattern. Sets with fewer than two members cost nothing. Throws
/// std::out_of_range for a member outside the mesh, ModelError for bad params.
[[nodiscard]] ShareCost share_along_cycles(const Mesh& mesh, std::span<const SharingCycle> cycles,
                                           const NocParams& params, ChannelLoads& loads);
[[nodiscard]] ShareCost share_along_cycles(const Mesh& mesh, std::span<const SharingCycle> cycles,
                                           const NocParams& params);

/// Shortest-path sharing (SHP): every member sends its chunk to every other member of its
/// set at once; one step, costed by the same latency model.
[[nodiscard]] ShareCost share_shortest_paths(const Mesh& mesh, std::span<const SharingSet> sets,
                                             const NocParams& params, ChannelLoads& loads);
[[nodiscard]] ShareCost share_shortest_paths(const Mesh& mesh, std::span<const SharingSet> sets,
                                             const NocParams& params);

/// The transfers of one step of Hamilton-cycle sharing for the sets that have more than
/// `step` steps, i.e. at least step + 2 members (for tests and the reference simulator).
[[nodiscard]] std::vector<Transfer> cycle_step_transfers(std::span<const SharingCycle> cycles,
                                                         std::int32_t step = 0);
/// All transfers of SHP sharing.
[[nodiscard]] std::vector<Transfer> shortest_path_transfers(std::span<const SharingSet> sets);

/// Decides how the data of one data-sharing event moves and returns what that costs: the
/// one seam the network timeline calls. Hamilton-cycle schedulers (CycleScheduler below,
/// the ILP of NicePIM Eq. 2-4 in sched) and shortest-path sharing (SHP) implement it.
class SharingScheduler {
public:
    virtual ~SharingScheduler() = default;
    /// Cost of sharing `sets` at once on `mesh`; `loads` is scratch (left holding a step's
    /// loads). Throws std::out_of_range for a member outside the mesh.
    [[nodiscard]] virtual ShareCost share(const Mesh& mesh, std::span<const SharingSet> sets,
                                          const NocParams& params, ChannelLoads& loads) = 0;
};

/// Chooses a Hamilton cycle for each sharing set of one data-sharing event, independent of
/// the NoC parameters; costed by share_along_cycles. The cheap cycle choosers (snake ring,
/// sched's TSP) implement it.
class CycleScheduler : public SharingScheduler {
public:
    /// One cycle per set, in the same order as `sets`.
    [[nodiscard]] virtual std::vector<SharingCycle> schedule(const Mesh& mesh,
                                                             std::span<const SharingSet> sets) = 0;
    [[nodiscard]] ShareCost share(const Mesh& mesh, std::span<const SharingSet> sets, const NocParams& params,
                                  ChannelLoads& loads) final {
        return share_along_cycles(mesh, schedule(mesh, sets), params, loads);
    }
};

/// SHP (NicePIM Fig. 12): share_shortest_paths behind the SharingScheduler seam.
class ShortestPathScheduler final : public SharingScheduler {
public:
    [[nodiscard]] ShareCost share(const Mesh& mesh, std::span<const SharingSet> sets, const NocParams& params,
                                  ChannelLoads& loads) override {
        return share_shortest_paths(mesh, sets, params, loads);
    }
};

/// The default ring: each set's members in boustrophedon order over the rows they occupy
/// (first occupied row west to east, next occupied row east to west, ...), closed back to
/// the first member. Ignores link loads; the cheapest cycle chooser (no search at all).
class SnakeRingScheduler final : public CycleScheduler {
public:
    [[nodiscard]] std::vector<SharingCycle> schedule(const Mesh& mesh,
                                                     std::span<const SharingSet> sets) override;
};

/// Sharing sets of side x side nodes interleaved over the whole mesh (NicePIM VIII-E,
/// Fig. 12): members of a set are rows/side apart vertically and cols/side apart
/// horizontally, so 4 x 4 sets give one set on 4 x 4, four on 8 x 8 (members 2 apart) and
/// sixteen on 16 x 16 (4 apart). Throws ModelError unless side divides both
/// mesh dimensions.
[[nodiscard]] std::vector<SharingSet> interleaved_sets(const Mesh& mesh, std::int32_t side,
                                                       Bytes bytes_per_node);

/// Node ids of `members` sorted into the snake order described above.
[[nodiscard]] std::vector<NodeId> snake_order(const Mesh& mesh, std::span<const NodeId> members);

}  // namespace pimdse::sim
