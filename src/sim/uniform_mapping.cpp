#include "pimdse/sim/uniform_mapping.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <vector>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

using workload::Layer;

namespace {

/// Prime factors of n, largest first.
std::vector<std::int32_t> prime_factors(std::int32_t n) {
    std::vector<std::int32_t> f;
    for (std::int32_t p = 2; p * p <= n; ++p)
        while (n % p == 0) {
            f.push_back(p);
            n /= p;
        }
    if (n > 1) f.push_back(n);
    std::sort(f.rbegin(), f.rend());
    return f;
}

// The loops in the order the generator fills them.
constexpr std::array<PartDim, kPartDims> kFillOrder{PartDim::k, PartDim::p, PartDim::q, PartDim::b,
                                                    PartDim::c};

// Bounds the backtracking: an assignment that is not found within this many placements is
// given up, and the caller tries a smaller region.
constexpr std::int64_t kMaxPlacements = 20000;

}  // namespace

std::optional<LayerMapping> uniform_layer_mapping(const Layer& layer, std::int32_t region_rows,
                                                  std::int32_t region_cols) {
    struct Factor {
        std::int32_t prime;
        bool along_rows;
    };
    std::vector<Factor> factors;
    for (std::int32_t p : prime_factors(region_rows)) factors.push_back({p, true});
    for (std::int32_t p : prime_factors(region_cols)) factors.push_back({p, false});

    std::array<std::int64_t, kPartDims> bound{};
    for (PartDim d : kAllPartDims) bound[static_cast<std::size_t>(d)] = loop_bound(layer, d);
    if (layer.groups > 1) bound[static_cast<std::size_t>(PartDim::c)] = 1;  // grouped: split K only

    LayerMapping m;
    std::vector<std::size_t> choice(factors.size(), 0);  // index into kFillOrder per factor
    std::int64_t placements = 0;
    // Depth-first over the factors; equal consecutive factors on the same axis take
    // non-decreasing loop positions, so permutations of equal primes are tried once.
    std::function<bool(std::size_t)> place = [&](std::size_t i) -> bool {
        if (i == factors.size()) return true;
        const Factor f = factors[i];
        std::size_t first = 0;
        if (i > 0 && factors[i - 1].prime == f.prime && factors[i - 1].along_rows == f.along_rows)
            first = choice[i - 1];
        for (std::size_t j = first; j < kFillOrder.size(); ++j) {
            if (++placements > kMaxPlacements) return false;
            Partition& p = m.part(kFillOrder[j]);
            if (static_cast<std::int64_t>(p.count()) * f.prime >
                bound[static_cast<std::size_t>(kFillOrder[j])])
                continue;
            (f.along_rows ? p.h : p.w) *= f.prime;
            choice[i] = j;
            if (place(i + 1)) return true;
            (f.along_rows ? p.h : p.w) /= f.prime;
        }
        return false;
    };
    if (!place(0)) return std::nullopt;
    m.wr = layer.has_weights() ? nodes_sharing_weights(m) : 1;  // III-D: full replication
    return m;
}

NetworkMapping uniform_mapping(const workload::Network& network, const workload::Segmentation& seg,
                               std::int32_t node_rows, std::int32_t node_cols) {
    if (node_rows < 1 || node_cols < 1) throw ModelError("uniform_mapping: empty node array");
    NetworkMapping mapping;
    mapping.layers.resize(static_cast<std::size_t>(network.size()));
    // Region shapes from the whole array down: most nodes first, then most rows.
    std::vector<std::pair<std::int32_t, std::int32_t>> shapes;
    for (std::int32_t r = node_rows; r >= 1; --r)
        for (std::int32_t c = node_cols; c >= 1; --c) shapes.emplace_back(r, c);
    std::stable_sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) {
        return a.first * a.second != b.first * b.second ? a.first * a.second > b.first * b.second
                                                        : a.first > b.first;
    });
    for (const workload::Segment& s : seg.segments) {
        bool placed = false;
        for (const auto& [rows, cols] : shapes) {
            std::vector<std::pair<workload::LayerIndex, LayerMapping>> layers;
            bool ok = true;
            for (const workload::Branch& b : s.branches) {
                for (workload::LayerIndex l : b.layers) {
                    std::optional<LayerMapping> m = uniform_layer_mapping(network.layer(l), rows, cols);
                    if (!m) {
                        ok = false;
                        break;
                    }
                    layers.emplace_back(l, *m);
                }
                if (!ok) break;
            }
            if (!ok) continue;
            for (auto& [l, m] : layers) mapping.layers[static_cast<std::size_t>(l)] = m;
            mapping.segments.push_back(
                SegmentMapping{{Region{0, 0, rows, cols}}, std::vector<std::int32_t>(s.branches.size(), 0)});
            placed = true;
            break;
        }
        // A 1 x 1 region always works (every partition is 1), so this cannot happen.
        if (!placed) throw InternalError("uniform_mapping: no region fits a segment");
    }
    return mapping;
}

}  // namespace pimdse::sim
