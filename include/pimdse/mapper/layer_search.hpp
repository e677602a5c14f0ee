#pragma once
// LM search with WR candidates (NicePIM VI-A, Algorithm 1 lines 12-14): for one layer on one
// region shape and one pair of data layouts, the (LM, WR) pairs that are Pareto-optimal in
// (latency, weight bytes stored per node). The DP (selection.hpp) only ever picks such a
// pair, so dropping the dominated ones loses nothing.
//
// The search is exhaustive in effect: every partition bi-tuple (Ph, Pw) of B, P, Q, K, C that
// fills the region, every spatial order that changes where the parts land, every distinct
// WR, with three exact prunings (docs/mapper.md, "LM search"):
//  1. compute cost depends only on the per-loop partition counts Ph * Pw (the part-layers
//     are the same multiset), so it is computed once per count vector;
//  2. a count vector whose compute lower bound (MACs / (nodes x PEs)) or exact compute
//     cost is already dominated, at its smallest possible footprint, by a found option is
//     skipped: sharing only adds latency;
//  3. orders that permute loops split along different axes give identical node indices,
//     so only orders distinct in the per-axis sequence of split loops are tried;
//  4. the sharing sets' sizes and bytes do not depend on the arrangement, which bounds the
//     sharing latency from below; arrangements that cannot beat the front are skipped.
// On large arrays one count vector has many arrangements; an optional cap (max_arrangements)
// bounds them and the search is then no longer exhaustive (docs/mapper.md).
// A layer's latency here is its compute plus its data sharing; the inter-layer
// redistribution depends on the neighbours and is costed by the full timeline.
//
// Three parts, one file each: the LMs (lm_enumeration.hpp), the memo keys (search_keys.hpp)
// and the sharing model's types (search_sharing.hpp, its costing in search_sharing.cpp).

#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "pimdse/mapper/lm_enumeration.hpp"
#include "pimdse/mapper/search_keys.hpp"
#include "pimdse/mapper/search_sharing.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/workload/layer.hpp"

namespace pimdse::mapper {

/// One (LM, WR) candidate of a layer on a region shape.
struct LayerOption {
    double latency = 0;      ///< compute + sharing, cycles
    std::int64_t bytes = 0;  ///< weight bytes stored per node (NicePIM III-D)
    sim::LayerMapping mapping;
};

struct SearchStats {
    std::int64_t searches = 0;        ///< (layer, shape, layouts) searched (memo misses)
    std::int64_t memo_hits = 0;       ///< searches answered from the memo table
    std::int64_t count_vectors = 0;   ///< partition-count vectors considered
    std::int64_t pruned_vectors = 0;  ///< ... skipped by the compute bound (pruning 2)
    std::int64_t options_costed = 0;  ///< (split, order, WR) whose sharing was costed
    std::int64_t geometries = 0;      ///< sharing geometries computed (cache misses)
};

/// Searches options, memoised by (layer dimensions, region shape, layouts). Not
/// synchronised: one instance per thread.
class LayerSearch {
public:
    /// `max_arrangements` > 0 caps the (split, order) arrangements costed per partition-count
    /// vector (in enumeration order); 0 searches them all (exhaustive, the default).
    LayerSearch(const sim::System& system, sim::IntraNodeMapper& intra, sim::CycleScheduler& scheduler,
                std::int64_t max_arrangements = 0);

    /// The Pareto options, ascending in bytes (and so descending in latency); empty when no
    /// partition fills the region (too few iterations) or no part-layer fits a tiling.
    /// With `full_replication`, only WR = N_node (the baseline's starting point).
    [[nodiscard]] const std::vector<LayerOption>& options(const workload::Layer& layer, std::int32_t rows,
                                                          std::int32_t cols, sim::DataLayout in,
                                                          sim::DataLayout out, bool full_replication = false);

    /// A stronger variant of the baseline's LM: at full replication, the mapping with the
    /// fewest compute cycles; among those, the least sharing (in the search's model). Empty
    /// when none is feasible. Memoised.
    [[nodiscard]] const std::vector<LayerOption>& fastest_compute(const workload::Layer& layer,
                                                                  std::int32_t rows, std::int32_t cols,
                                                                  sim::DataLayout in, sim::DataLayout out);

    /// The baseline's LM as NicePIM VIII-D chooses it (Timeloop for "Delay", whose model has no
    /// inter-node data sharing): at full replication, a mapping with the fewest compute cycles,
    /// blind to sharing and redistribution. Ties go to the count vector that partitions K most,
    /// then P, Q, B, C (the priority of the uniform mapping), then to the first (Ph, Pw) split
    /// and spatial order in enumeration order; the cost the mapper optimises is never looked
    /// at. Empty when none is feasible. Memoised.
    [[nodiscard]] const std::vector<LayerOption>& fastest_compute_blind(const workload::Layer& layer,
                                                                        std::int32_t rows, std::int32_t cols,
                                                                        sim::DataLayout in,
                                                                        sim::DataLayout out);

    /// Every (split, order, WR) without pruning or dominance filtering, in enumeration order;
    /// for tests of the pruning's claim.
    [[nodiscard]] std::vector<LayerOption> enumerate_all(const workload::Layer& layer, std::int32_t rows,
                                                         std::int32_t cols, sim::DataLayout in,
                                                         sim::DataLayout out);

    /// The search's latency of one mapping on a region of its shape at (0, 0): its exact
    /// compute plus sharing_latency().
    [[nodiscard]] double latency(const workload::Layer& layer, const sim::LayerMapping& m);

    /// The search's sharing model (docs/mapper.md, "Sharing in the search"): per event,
    /// (N - 1) steps of max over channels (F x routes crossing + pipeline hops x hop cycles),
    /// with F the event's largest chunk in flits. The crossings depend only on the
    /// arrangement, so they are computed once per (shape, split, order, shards) and reused
    /// across layers; sets of two sizes run in two phases as in sim::share_along_cycles.
    /// Equal to the timeline's sharing latency when the sets of a size class have equal
    /// chunks, an upper bound otherwise. Grouped convolutions and auxiliary layers use the
    /// timeline's exact costing.
    [[nodiscard]] double sharing_latency(const workload::Layer& layer, const sim::LayerMapping& m);

    [[nodiscard]] const SearchStats& stats() const noexcept { return stats_; }
    [[nodiscard]] const sim::System& system() const noexcept { return system_; }

private:
    /// What one search is asked: a layer on a region between two layouts.
    struct Request {
        const workload::Layer& layer;
        std::int32_t rows, cols;
        sim::DataLayout in, out;
        bool full;   ///< full replication only (the baseline's WR)
        bool prune;  ///< prune and keep the Pareto front, else every option (enumerate_all)
    };
    [[nodiscard]] static SearchKey key_of(const workload::Layer& layer, std::int32_t rows, std::int32_t cols,
                                          sim::DataLayout in, sim::DataLayout out, bool full);
    /// The exact compute cycles of m's count vector (infinity when infeasible), memoised.
    double compute_cycles(const workload::Layer& layer, const sim::LayerMapping& m, std::int32_t rows,
                          std::int32_t cols);
    /// The geometry of event `kind` of arrangement m; `shard` (the weight groups' size) only
    /// matters for the weights.
    const EventGeometry& event_geometry(const sim::LayerMapping& m, std::int32_t rows, std::int32_t cols,
                                        sim::SharingKind kind, std::int32_t shard);
    /// The phases of an event scheduled as `cycles`, its sets' size classes known.
    [[nodiscard]] std::vector<SharingPhase> phases_of(const std::vector<sim::SharingCycle>& cycles,
                                                      const std::array<std::int32_t, 2>& size);

    /// Per event: the largest set's bytes.
    [[nodiscard]] PerSharingKind<std::int64_t> largest_chunks(const workload::Layer& layer,
                                                              const sim::LayerMapping& m) const;
    /// A lower bound of sharing_latency() and of the timeline's sharing for every arrangement
    /// with m's partition counts and WR (pruning 4).
    [[nodiscard]] double sharing_lower_bound(const workload::Layer& layer, const sim::LayerMapping& m) const;

    std::vector<LayerOption> search(const Request& request);
    /// The options of one count vector `n` of `splits` added to `front` (search()'s body).
    void search_vector(const Request& request, const RegionSplits& splits, const Counts& n,
                       double lower_bound, std::vector<LayerOption>& front);
    /// The count vectors with the fewest compute cycles (in ascending order), and those
    /// cycles; none when no vector has a feasible part-layer.
    [[nodiscard]] std::pair<double, std::vector<const Counts*>> fastest_vectors(
        const workload::Layer& layer, std::int32_t rows, std::int32_t cols, sim::DataLayout in,
        sim::DataLayout out, const RegionSplits& splits);

    const sim::System& system_;
    sim::IntraNodeMapper& intra_;
    sim::CycleScheduler& scheduler_;
    sim::ChannelLoads loads_;
    std::array<sim::ChannelLoads, 2> class_loads_;  ///< per size class, for phases_of
    std::unordered_map<SearchKey, std::vector<LayerOption>, KeyHash> memo_;
    std::unordered_map<SearchKey, std::vector<LayerOption>, KeyHash> compute_first_;
    std::unordered_map<SearchKey, std::vector<LayerOption>, KeyHash> compute_blind_;
    // Geometries are stored once, by their sets; each arrangement points at its sets' entry
    // (unordered_map nodes do not move on rehash).
    std::unordered_map<SetsKey, EventGeometry, KeyHash> geometry_by_sets_;
    std::unordered_map<GeometryKey, const EventGeometry*, KeyHash> geometry_;
    SetsScratch sets_scratch_;  // event_geometry's buffers
    SetsKey sets_key_;
    std::unordered_map<ComputeKey, double, KeyHash> compute_;
    SearchStats stats_;
    std::int64_t max_arrangements_ = 0;
};

}  // namespace pimdse::mapper
