#pragma once
// A memo of layers' NoC costs across the whole-network costings of one mapper run. What a
// layer gathers from its producers' nodes (LayerCoster's redistribution: the transfers' NoC
// cost) depends on the layer, its mapping and region without the data layouts, and its
// producers' mappings and regions (who holds their outputs), for a fixed network and
// system; not on the data-sharing scheduler nor on the layouts. A layer's data sharing
// depends on the scheduler, the layer, and its mapping and region without the layouts. The
// PIM-Mapper's rounds, its costings under the search and the final scheduler, the overlap
// greedy step and the baselines cost the same layers many times; the memo returns the
// first result instead of routing the transfers or scheduling the events again. It holds
// no reference to the network: its owner keeps one memo per (network, system) and clears
// it when either changes (or when a scheduler it has seen is destroyed).

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/noc.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::sim {

/// What a layer's redistribution depends on within one network: the layer, then its own
/// mapping (layouts reset to the default) and region followed by those of each producer
/// that is not the network input, in input order.
struct RedistributionKey {
    workload::LayerIndex layer = 0;
    std::vector<LayerMapping> mappings;
    std::vector<Region> regions;
    friend bool operator==(const RedistributionKey&, const RedistributionKey&) = default;
};

/// Fills `key` (its buffers reused) for layer `li` of `network` under `mapping`.
void redistribution_key(const workload::Network& network, const workload::Segmentation& seg,
                        const NetworkMapping& mapping, workload::LayerIndex li, RedistributionKey& key);

/// One layer's redistribution: whether any input crosses the NoC, and then its cost.
struct Redistribution {
    bool moves = false;
    TransferCost cost;
};

/// What a layer's data sharing depends on within one network: the scheduler that costs
/// it, the layer, its mapping (layouts reset to the default) and its region.
struct SharingKey {
    const SharingScheduler* scheduler = nullptr;
    workload::LayerIndex layer = 0;
    LayerMapping mapping;
    Region region;
    friend bool operator==(const SharingKey&, const SharingKey&) = default;
};

class RedistributionMemo {
public:
    /// The redistribution stored for `key`, or null.
    [[nodiscard]] const Redistribution* find(const RedistributionKey& key) const;
    /// Stores `r` for `key` (a key already present keeps its first value).
    void store(const RedistributionKey& key, const Redistribution& r);
    /// The sharing stored for `key`, or null.
    [[nodiscard]] const SharingCosts* find(const SharingKey& key) const;
    /// Stores `s` for `key` (a key already present keeps its first value).
    void store(const SharingKey& key, SharingCosts s);
    void clear() noexcept {
        known_.clear();
        sharing_.clear();
    }
    /// Redistributions stored.
    [[nodiscard]] std::size_t size() const noexcept { return known_.size(); }
    /// Layers' sharings stored.
    [[nodiscard]] std::size_t sharing_size() const noexcept { return sharing_.size(); }

private:
    struct Hash {
        [[nodiscard]] std::size_t operator()(const RedistributionKey& key) const noexcept;
        [[nodiscard]] std::size_t operator()(const SharingKey& key) const noexcept;
    };
    std::unordered_map<RedistributionKey, Redistribution, Hash> known_;
    std::unordered_map<SharingKey, SharingCosts, Hash> sharing_;
};

}  // namespace pimdse::sim
