#include "pimdse/mapper/selection.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "pimdse/core/error.hpp"

namespace pimdse::mapper {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Knapsack table of one region: best[c] = least latency of its layers within c units, and
/// per layer and c the option taken.
struct RegionTable {
    std::vector<double> best;
    std::vector<std::vector<std::int32_t>> choice;  // [layer][c]
};

RegionTable region_table(const std::vector<LayerChoices>& layers, std::size_t cap) {
    RegionTable t;
    t.best.assign(cap + 1, 0.0);
    std::vector<double> next(cap + 1);
    for (const LayerChoices& l : layers) {
        if (l.latency.size() != l.units.size())
            throw ModelError("select_mappings: latency and units differ in size");
        std::vector<std::int32_t> choice(cap + 1, -1);
        for (std::size_t c = 0; c <= cap; ++c) {
            double v = kInf;
            for (std::size_t j = 0; j < l.latency.size(); ++j) {
                const std::int64_t u = l.units[j];
                if (u < 0 || static_cast<std::size_t>(u) > c) continue;
                const double cand = t.best[c - static_cast<std::size_t>(u)] + l.latency[j];
                if (cand < v) {
                    v = cand;
                    choice[c] = static_cast<std::int32_t>(j);
                }
            }
            next[c] = v;
        }
        t.best.swap(next);
        t.choice.push_back(std::move(choice));
    }
    return t;
}

/// The options the tables chose for an SM given `u` units: per region, per layer, written to
/// `regions`; returns the units the SM uses (the largest region's footprint).
std::int64_t pick_options(const SmChoices& sm, const std::vector<RegionTable>& tables, std::size_t u,
                          std::vector<std::vector<std::int32_t>>& regions) {
    regions.resize(sm.regions.size());
    std::int64_t seg_used = 0;
    for (std::size_t r = 0; r < sm.regions.size(); ++r) {
        const RegionTable& t = tables[r];
        const auto& layers = sm.regions[r];
        regions[r].assign(layers.size(), 0);
        std::size_t rc = u;
        std::int64_t used = 0;
        for (std::size_t l = layers.size(); l-- > 0;) {
            const std::int32_t j = t.choice[l][rc];
            regions[r][l] = j;
            const auto uj = static_cast<std::size_t>(layers[l].units[static_cast<std::size_t>(j)]);
            rc -= uj;
            used += static_cast<std::int64_t>(uj);
        }
        seg_used = std::max(seg_used, used);
    }
    return seg_used;
}

}  // namespace

Selection select_mappings(const std::vector<SegmentChoices>& segments, std::int64_t capacity) {
    if (capacity < 0) throw ModelError("select_mappings: negative capacity");
    const auto cap = static_cast<std::size_t>(capacity);
    // Per segment: its tables, its best latency per capacity (h) and the SM achieving it.
    std::vector<std::vector<std::vector<RegionTable>>> tables(segments.size());
    std::vector<std::vector<std::int32_t>> seg_sm(segments.size());
    // Across segments: total[c] and the units given to segment s at c.
    std::vector<double> total(cap + 1, 0.0);
    std::vector<std::vector<std::int64_t>> seg_units(segments.size());
    std::vector<double> h(cap + 1);
    std::vector<double> next(cap + 1);
    for (std::size_t s = 0; s < segments.size(); ++s) {
        std::fill(h.begin(), h.end(), kInf);
        seg_sm[s].assign(cap + 1, -1);
        for (std::size_t k = 0; k < segments[s].sms.size(); ++k) {
            const SmChoices& sm = segments[s].sms[k];
            std::vector<RegionTable> regions;
            for (const auto& layers : sm.regions) regions.push_back(region_table(layers, cap));
            for (std::size_t c = 0; c <= cap; ++c) {
                double g = 0;  // regions run in parallel on different nodes
                for (const RegionTable& r : regions) g = std::max(g, r.best[c]);
                if (g < h[c]) {
                    h[c] = g;
                    seg_sm[s][c] = static_cast<std::int32_t>(k);
                }
            }
            tables[s].push_back(std::move(regions));
        }
        seg_units[s].assign(cap + 1, 0);
        if (h[0] == h[cap]) {  // no footprint matters: the segment takes nothing
            for (std::size_t c = 0; c <= cap; ++c) next[c] = total[c] + h[0];
        } else {
            for (std::size_t c = 0; c <= cap; ++c) {
                double v = kInf;
                for (std::size_t u = 0; u <= c; ++u) {
                    const double cand = total[c - u] + h[u];
                    if (cand < v) {
                        v = cand;
                        seg_units[s][c] = static_cast<std::int64_t>(u);
                    }
                }
                next[c] = v;
            }
        }
        total.swap(next);
    }
    Selection out;
    out.latency = segments.empty() ? 0.0 : total[cap];
    out.feasible = out.latency < kInf;
    if (!out.feasible) return out;
    out.sm.assign(segments.size(), 0);
    out.option.resize(segments.size());
    std::size_t c = cap;
    for (std::size_t s = segments.size(); s-- > 0;) {
        const auto u = static_cast<std::size_t>(seg_units[s][c]);
        c -= u;
        const std::int32_t k = seg_sm[s][u];
        out.sm[s] = k;
        out.units += pick_options(segments[s].sms[static_cast<std::size_t>(k)],
                                  tables[s][static_cast<std::size_t>(k)], u, out.option[s]);
    }
    return out;
}

}  // namespace pimdse::mapper
