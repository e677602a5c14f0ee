// The memo of layers' redistribution (include/pimdse/sim/redistribution_memo.hpp).

#include "pimdse/sim/redistribution_memo.hpp"

namespace pimdse::sim {

void redistribution_key(const workload::Network& network, const workload::Segmentation& seg,
                        const NetworkMapping& mapping, workload::LayerIndex li, RedistributionKey& key) {
    key.layer = li;
    key.mappings.clear();
    key.regions.clear();
    const auto add = [&](workload::LayerIndex x) {
        // Layouts set the compute only, not who holds which outputs or what a node needs.
        LayerMapping& m = key.mappings.emplace_back(mapping.layers[static_cast<std::size_t>(x)]);
        m.dl_in = DataLayout{};
        m.dl_out = DataLayout{};
        key.regions.push_back(layer_region(seg, mapping, x));
    };
    add(li);
    for (const workload::LayerIndex p : network.layer(li).inputs)
        if (p != workload::kNetworkInput) add(p);
}

std::size_t RedistributionMemo::Hash::operator()(const RedistributionKey& key) const noexcept {
    // FNV-1a over the fields that tell mappings apart; equality compares every field.
    std::uint64_t h = 14695981039346656037ull;
    const auto mix = [&](std::int64_t v) {
        h ^= static_cast<std::uint64_t>(v);
        h *= 1099511628211ull;
    };
    mix(key.layer);
    for (const LayerMapping& m : key.mappings) {
        for (const Partition& p : m.parts) {
            mix(p.h);
            mix(p.w);
        }
        for (const PartDim d : m.order) mix(static_cast<std::int64_t>(d));
        mix(m.wr);
    }
    for (const Region& r : key.regions) {
        mix(r.row);
        mix(r.col);
        mix(r.rows);
        mix(r.cols);
    }
    return static_cast<std::size_t>(h);
}

const Redistribution* RedistributionMemo::find(const RedistributionKey& key) const {
    const auto it = known_.find(key);
    return it == known_.end() ? nullptr : &it->second;
}

void RedistributionMemo::store(const RedistributionKey& key, const Redistribution& r) {
    known_.try_emplace(key, r);
}

}  // namespace pimdse::sim
