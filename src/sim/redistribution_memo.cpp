// The memo of layers' redistribution (include/pimdse/sim/redistribution_memo.hpp).

#include "pimdse/sim/redistribution_memo.hpp"

#include <cstdint>
#include <utility>

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

namespace {

/// FNV-1a over the fields that tell mappings and regions apart; equality compares every
/// field.
struct Fnv {
    std::uint64_t h = 14695981039346656037ull;
    void mix(std::int64_t v) noexcept {
        h ^= static_cast<std::uint64_t>(v);
        h *= 1099511628211ull;
    }
    void mix(const LayerMapping& m) noexcept {
        for (const Partition& p : m.parts) {
            mix(p.h);
            mix(p.w);
        }
        for (const PartDim d : m.order) mix(static_cast<std::int64_t>(d));
        mix(m.wr);
    }
    void mix(const Region& r) noexcept {
        mix(r.row);
        mix(r.col);
        mix(r.rows);
        mix(r.cols);
    }
};

}  // namespace

std::size_t RedistributionMemo::Hash::operator()(const RedistributionKey& key) const noexcept {
    Fnv f;
    f.mix(key.layer);
    for (const LayerMapping& m : key.mappings) f.mix(m);
    for (const Region& r : key.regions) f.mix(r);
    return static_cast<std::size_t>(f.h);
}

std::size_t RedistributionMemo::Hash::operator()(const SharingKey& key) const noexcept {
    Fnv f;
    f.mix(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(key.scheduler)));
    f.mix(key.layer);
    f.mix(key.mapping);
    f.mix(key.region);
    return static_cast<std::size_t>(f.h);
}

const Redistribution* RedistributionMemo::find(const RedistributionKey& key) const {
    const auto it = known_.find(key);
    return it == known_.end() ? nullptr : &it->second;
}

void RedistributionMemo::store(const RedistributionKey& key, const Redistribution& r) {
    known_.try_emplace(key, r);
}

const SharingCosts* RedistributionMemo::find(const SharingKey& key) const {
    const auto it = sharing_.find(key);
    return it == sharing_.end() ? nullptr : &it->second;
}

void RedistributionMemo::store(const SharingKey& key, SharingCosts s) {
    sharing_.try_emplace(key, std::move(s));
}

}  // namespace pimdse::sim
