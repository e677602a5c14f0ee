#pragma once
// The types of the LM search's sharing model (docs/mapper.md, "Sharing in the search"). The
// events are sim::sharing_events' (sim::SharingKind: inputs, weights, partial sums) with the
// same sets; the search only summarises each event's channel crossings once per arrangement,
// so that costing it for a layer's chunk sizes is a few multiplications (LayerSearch::
// sharing_latency). Nothing here is a second sharing model: the sets come from the part
// indices exactly as sim::sharing_events forms them for an ungrouped compute layer.

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pimdse/mapper/search_keys.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/noc.hpp"

namespace pimdse::mapper {

/// The event kinds in sim::sharing_events' order.
inline constexpr std::array<sim::SharingKind, 3> kSharingKinds{
    sim::SharingKind::inputs, sim::SharingKind::weights, sim::SharingKind::partial_sums};

/// One value per event kind.
template <class T>
struct PerSharingKind {
    std::array<T, 3> values{};
    [[nodiscard]] T& operator[](sim::SharingKind k) noexcept { return values[static_cast<std::size_t>(k)]; }
    [[nodiscard]] const T& operator[](sim::SharingKind k) const noexcept {
        return values[static_cast<std::size_t>(k)];
    }
};

/// One channel of a phase: crossed by `class0` routes of the larger sets and `class1` of the
/// smaller ones, with `pipeline` hops before and after it on the longest route through it.
struct ChannelLine {
    std::int64_t class0 = 0;
    std::int64_t class1 = 0;
    std::int64_t pipeline = 0;
    friend auto operator<=>(const ChannelLine&, const ChannelLine&) = default;
};

/// The steps of an event during which the same sets move: `repeats` steps, each as slow as
/// its slowest line. Only lines no other line dominates are kept (the maximum is among them
/// for any non-negative chunk sizes).
struct SharingPhase {
    std::int32_t repeats = 0;
    std::vector<ChannelLine> lines;
};

/// The arrangement-only part of one event. Its sets fall into at most two size classes (the
/// weight groups of a WR that does not divide N_node leave one smaller group); the event runs
/// in phases, the first with every set moving, the next with only the larger class.
struct EventGeometry {
    bool present = false;                ///< some set has two or more members
    std::array<std::int32_t, 2> size{};  ///< members of a set of each class (0: unused)
    std::vector<SharingPhase> phases;
};

/// The sets of event `kind` of sim::sharing_events for an ungrouped compute layer mapped by
/// `m` on the rows x cols region at (0, 0) of `mesh`, from the part indices alone (the channel
/// range of an input set is a function of its C part there): the member lists of the sets with
/// two or more members, in node order, in sim::sharing_events' order of sets. `shard`: the
/// weight groups' size, ceil(N_node / WR). Equal to sim::sharing_events' sets (a test checks).
[[nodiscard]] std::vector<std::vector<sim::NodeId>> event_sets(const sim::LayerMapping& m, std::int32_t rows,
                                                               std::int32_t cols, const sim::Mesh& mesh,
                                                               sim::SharingKind kind, std::int32_t shard);

/// Reusable buffers of event_sets_key (so that building a key allocates nothing once warm).
struct SetsScratch {
    std::vector<std::array<std::int32_t, sim::kPartDims>> by_row, by_col;
    std::vector<std::int32_t> rank, count, next, group;
};

/// SetsKey::of(event_sets(m, rows, cols, mesh, kind, shard)) written into `key`, without
/// building the member lists.
void event_sets_key(const sim::LayerMapping& m, std::int32_t rows, std::int32_t cols, const sim::Mesh& mesh,
                    sim::SharingKind kind, std::int32_t shard, SetsScratch& scratch, SetsKey& key);

}  // namespace pimdse::mapper
