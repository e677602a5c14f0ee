#include "pimdse/mapper/selection.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "pimdse/core/error.hpp"

namespace pimdse::mapper {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Knapsack table of one region: best[c] = least latency of its layers within c units, and
/// per layer and c the option taken; same[c] when the options taken within c units are those
/// taken within c - 1 (so the timeline need not be asked again).
struct RegionTable {
    std::vector<double> best;
    std::vector<std::vector<std::int32_t>> choice;  // [layer][c]
    std::vector<std::uint8_t> same;
};

/// The next layer's `same` from the previous layers' and the next layer's choices: at c the
/// layer takes option j and the layers before it what they take within c - units[j].
void update_same(const LayerChoices& l, const std::vector<std::int32_t>& choice,
                 std::vector<std::uint8_t>& same, std::vector<std::uint8_t>& next) {
    next[0] = 0;
    for (std::size_t c = 1; c < choice.size(); ++c) {
        const std::int32_t j = choice[c];
        if (j != choice[c - 1]) {
            next[c] = 0;
        } else {
            next[c] = j < 0 ? 1 : same[c - static_cast<std::size_t>(l.units[static_cast<std::size_t>(j)])];
        }
    }
    same.swap(next);
}

RegionTable region_table(const std::vector<LayerChoices>& layers, std::size_t cap) {
    RegionTable t;
    t.best.assign(cap + 1, 0.0);
    t.same.assign(cap + 1, 1);  // no layers: nothing is chosen at any capacity
    t.same[0] = 0;
    std::vector<double> next(cap + 1);
    std::vector<std::uint8_t> next_same(cap + 1);
    for (const LayerChoices& l : layers) {
        if (l.latency.size() != l.units.size())
            throw ModelError("select_mappings: latency and units differ in size");
        std::vector<std::int32_t> choice(cap + 1, -1);
        std::fill(next.begin(), next.end(), kInf);
        // best[] is +inf below its first finite entry `lo` (too little room for the layers
        // before) and equal to best[cap] from `hi` on (they have all they can use). An option
        // of u units sums +inf below lo + u, which never wins, and a constant from hi + u on.
        // So every c at or above hi + the widest u sees the same sums in the same order as
        // `end`: the same minimum and option, copied instead of recomputed (exact).
        std::size_t lo = 0;
        while (lo <= cap && t.best[lo] == kInf) ++lo;
        std::size_t hi = cap;
        while (hi > lo && t.best[hi - 1] == t.best[cap]) --hi;
        std::size_t widest = 0;
        for (const std::int64_t u : l.units)
            if (u >= 0 && static_cast<std::size_t>(u) <= cap)
                widest = std::max(widest, static_cast<std::size_t>(u));
        const std::size_t end = std::min(cap, hi + widest);
        // Options outermost so the inner loop runs over contiguous capacities; each c still
        // sees the options in index order and keeps the first strict minimum.
        for (std::size_t j = 0; j < l.latency.size() && lo <= cap; ++j) {
            const std::int64_t u = l.units[j];
            if (u < 0 || static_cast<std::size_t>(u) > cap) continue;
            const auto du = static_cast<std::size_t>(u);
            const double lat = l.latency[j];
            const auto jj = static_cast<std::int32_t>(j);
            for (std::size_t c = du + lo; c <= end; ++c) {
                const double cand = t.best[c - du] + lat;
                if (cand < next[c]) {
                    next[c] = cand;
                    choice[c] = jj;
                }
            }
        }
        std::fill(next.begin() + static_cast<std::ptrdiff_t>(end) + 1, next.end(), next[end]);
        std::fill(choice.begin() + static_cast<std::ptrdiff_t>(end) + 1, choice.end(), choice[end]);
        t.best.swap(next);
        update_same(l, choice, t.same, next_same);
        t.choice.push_back(std::move(choice));
    }
    return t;
}

/// Walks the options a region's table chose at capacity `c`, last layer first, calling
/// f(layer, option); returns the units they use.
template <class F>
std::size_t walk_choices(const std::vector<LayerChoices>& layers, const RegionTable& t, std::size_t c,
                         F&& f) {
    std::size_t rc = c;
    for (std::size_t l = layers.size(); l-- > 0;) {
        const std::int32_t j = t.choice[l][rc];
        f(l, j);
        rc -= static_cast<std::size_t>(layers[l].units[static_cast<std::size_t>(j)]);
    }
    return c - rc;
}

/// The options the tables chose for an SM given `u` units: per region, per layer, written to
/// `regions`; returns the units the SM uses (the largest region's footprint).
std::int64_t pick_options(const SmChoices& sm, const std::vector<RegionTable>& tables, std::size_t u,
                          std::vector<std::vector<std::int32_t>>& regions) {
    regions.resize(sm.regions.size());
    std::int64_t seg_used = 0;
    for (std::size_t r = 0; r < sm.regions.size(); ++r) {
        regions[r].assign(sm.regions[r].size(), 0);
        const std::size_t used = walk_choices(sm.regions[r], tables[r], u,
                                              [&](std::size_t l, std::int32_t j) { regions[r][l] = j; });
        seg_used = std::max(seg_used, static_cast<std::int64_t>(used));
    }
    return seg_used;
}

/// One SM as the timeline sees it: its layers region by region, each with its region and
/// producers; the options the tables choose at a capacity fill in their cycles (an option's
/// latency is the search's compute and sharing, given as compute).
class SmTimeline {
public:
    explicit SmTimeline(const SmChoices& sm) : sm_(sm) {
        for (std::size_t r = 0; r < sm.regions.size(); ++r)
            for (const LayerChoices& l : sm.regions[r]) {
                sim::TimelineLayer& t = layers_.emplace_back();
                t.region = static_cast<std::int32_t>(r);
                t.producers = l.producers;
            }
        timing_.resize(layers_.size());
    }

    /// The segment's latency with the options `tables` chose at capacity `c`; +inf when a
    /// region has no choice there. Called for c = 0, 1, 2, ... in turn.
    double latency(const std::vector<RegionTable>& tables, std::size_t c, const sim::Timeline& timeline) {
        if (c > 0 &&
            std::all_of(tables.begin(), tables.end(), [c](const RegionTable& t) { return t.same[c]; }))
            return last_;  // the options of c - 1: the timeline's answer is the same
        last_ = compose(tables, c, timeline);
        return last_;
    }

private:
    double compose(const std::vector<RegionTable>& tables, std::size_t c, const sim::Timeline& timeline) {
        std::size_t at = layers_.size();
        for (std::size_t r = sm_.regions.size(); r-- > 0;) {
            if (tables[r].best[c] == kInf) return kInf;
            const std::vector<LayerChoices>& layers = sm_.regions[r];
            at -= layers.size();
            (void)walk_choices(layers, tables[r], c, [&](std::size_t l, std::int32_t j) {
                layers_[at + l].compute = Cycles(layers[l].latency[static_cast<std::size_t>(j)]);
            });
        }
        return timeline.segment(layers_, sm_.regions.size(), timing_).value();
    }

    const SmChoices& sm_;
    double last_ = kInf;
    std::vector<sim::TimelineLayer> layers_;
    std::vector<sim::LayerTiming> timing_;
};

}  // namespace

Selection select_mappings(const std::vector<SegmentChoices>& segments, std::int64_t capacity,
                          const sim::Timeline& timeline) {
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
    std::vector<std::size_t> drops;  // the units at which a segment's h drops
    for (std::size_t s = 0; s < segments.size(); ++s) {
        std::fill(h.begin(), h.end(), kInf);
        seg_sm[s].assign(cap + 1, -1);
        for (std::size_t k = 0; k < segments[s].sms.size(); ++k) {
            const SmChoices& sm = segments[s].sms[k];
            std::vector<RegionTable> regions;
            for (const auto& layers : sm.regions) regions.push_back(region_table(layers, cap));
            SmTimeline composed(sm);
            for (std::size_t c = 0; c <= cap; ++c) {
                const double g = composed.latency(regions, c, timeline);
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
            // total never increases with c (true of the zeros it starts as, and kept by the
            // min over u below, rounding being monotone), so a u whose h is no lower than
            // h[u - 1] gives a sum no lower than u - 1's and, tried later under a strict <,
            // never wins: only the u where h drops are tried (and u = 0).
            drops.assign(1, 0);
            for (std::size_t u = 1; u <= cap; ++u)
                if (!(h[u] >= h[u - 1])) drops.push_back(u);
            for (std::size_t c = 0; c <= cap; ++c) {
                double v = kInf;
                for (const std::size_t u : drops) {
                    if (u > c) break;
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
