// LM enumeration (include/pimdse/mapper/lm_enumeration.hpp; docs/mapper.md, "LM search").

#include "pimdse/mapper/lm_enumeration.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace pimdse::mapper {

using sim::kPartDims;
using sim::PartDim;

std::vector<Counts> factorisations(std::int32_t n) {
    std::vector<Counts> out;
    Counts cur{};
    std::function<void(std::size_t, std::int32_t)> rec = [&](std::size_t i, std::int32_t rest) {
        if (i + 1 == kPartDims) {
            cur[i] = rest;
            out.push_back(cur);
            return;
        }
        for (std::int32_t f = 1; f <= rest; ++f) {
            if (rest % f != 0) continue;
            cur[i] = f;
            rec(i + 1, rest / f);
        }
    };
    if (n >= 1) rec(0, n);
    return out;
}

std::vector<std::array<PartDim, kPartDims>> distinct_orders(const Counts& ph, const Counts& pw) {
    std::vector<PartDim> split;
    std::vector<PartDim> rest;
    for (PartDim d : sim::kAllPartDims)
        (ph[index_of(d)] > 1 || pw[index_of(d)] > 1 ? split : rest).push_back(d);
    std::vector<std::array<PartDim, kPartDims>> out;
    std::set<std::pair<std::vector<PartDim>, std::vector<PartDim>>> seen;
    std::vector<PartDim> perm = split;  // kAllPartDims order is ascending, so perm starts sorted
    do {
        std::pair<std::vector<PartDim>, std::vector<PartDim>> key;
        for (PartDim d : perm) {
            if (ph[index_of(d)] > 1) key.first.push_back(d);
            if (pw[index_of(d)] > 1) key.second.push_back(d);
        }
        if (!seen.insert(key).second) continue;
        std::array<PartDim, kPartDims> order{};
        std::size_t i = 0;
        for (PartDim d : perm) order[i++] = d;
        for (PartDim d : rest) order[i++] = d;
        out.push_back(order);
    } while (std::next_permutation(perm.begin(), perm.end()));
    return out;
}

std::vector<std::int32_t> distinct_wr(std::int32_t n_node) {
    std::vector<std::int32_t> out;
    std::int32_t last_shards = 0;
    for (std::int32_t wr = n_node; wr >= 1; --wr) {
        const std::int32_t shards = (n_node + wr - 1) / wr;
        if (shards != last_shards) out.push_back(wr);
        last_shards = shards;
    }
    return out;
}

std::array<std::int64_t, kPartDims> partition_bounds(const workload::Layer& l) {
    std::array<std::int64_t, kPartDims> b{};
    for (PartDim d : sim::kAllPartDims) b[index_of(d)] = sim::loop_bound(l, d);
    if (l.groups > 1 || !l.is_compute()) b[index_of(PartDim::c)] = 1;
    return b;
}

std::int64_t most_nodes(const workload::Layer& l) {
    // Regions hold at most 4096 x 4096 nodes (sim::Mesh): saturate far above that.
    constexpr std::int64_t kCap = std::int64_t{1} << 40;
    std::int64_t product = 1;
    for (std::int64_t b : partition_bounds(l)) product = std::min(kCap, product * std::min(kCap, b));
    return product;
}

void RegionSplits::apply(std::size_t i, std::size_t j, sim::LayerMapping& m) const {
    for (std::size_t d = 0; d < kPartDims; ++d) m.parts[d] = {hs[i][d], ws[j][d]};
}

RegionSplits region_splits(const workload::Layer& l, std::int32_t rows, std::int32_t cols) {
    RegionSplits out{factorisations(rows), factorisations(cols), {}};
    const std::array<std::int64_t, kPartDims> bound = partition_bounds(l);
    for (std::size_t i = 0; i < out.hs.size(); ++i)
        for (std::size_t j = 0; j < out.ws.size(); ++j) {
            Counts n{};
            bool fits = true;
            for (std::size_t d = 0; d < kPartDims && fits; ++d) {
                n[d] = out.hs[i][d] * out.ws[j][d];
                fits = n[d] <= bound[d];
            }
            if (fits) out.by_counts[n].emplace_back(i, j);
        }
    return out;
}

}  // namespace pimdse::mapper
