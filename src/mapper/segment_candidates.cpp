#include "pimdse/mapper/segment_candidates.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace pimdse::mapper {

std::vector<std::int32_t> balance_branches(const std::vector<std::int64_t>& branch_ops, std::int32_t groups) {
    std::vector<std::size_t> order(branch_ops.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return branch_ops[a] > branch_ops[b]; });
    std::vector<std::int64_t> load(static_cast<std::size_t>(groups), 0);
    std::vector<std::int32_t> count(static_cast<std::size_t>(groups), 0);
    std::vector<std::int32_t> out(branch_ops.size(), 0);
    std::size_t left = branch_ops.size();
    for (std::size_t b : order) {
        // While branches remain only for the empty groups, they must go there.
        const auto empty = static_cast<std::size_t>(std::count(count.begin(), count.end(), 0));
        std::size_t best = 0;
        bool found = false;
        for (std::size_t g = 0; g < load.size(); ++g) {
            if (left <= empty && count[g] != 0) continue;
            if (!found || load[g] < load[best]) {
                best = g;
                found = true;
            }
        }
        out[b] = static_cast<std::int32_t>(best);
        load[best] += std::max<std::int64_t>(branch_ops[b], 1);
        ++count[best];
        --left;
    }
    return out;
}

std::vector<sim::Region> slice_regions(const std::vector<std::int64_t>& work, std::int32_t rows,
                                       std::int32_t cols) {
    std::vector<sim::Region> out(work.size());
    bool ok = true;
    std::function<void(std::vector<std::size_t>, sim::Region)> place = [&](std::vector<std::size_t> ids,
                                                                           sim::Region r) {
        if (!ok) return;
        if (ids.size() == 1) {
            out[ids[0]] = r;
            return;
        }
        if (r.rows == 1 && r.cols == 1) {
            ok = false;
            return;
        }
        // Two sides of balanced work: heaviest first, each to the lighter side.
        std::stable_sort(ids.begin(), ids.end(),
                         [&](std::size_t a, std::size_t b) { return work[a] > work[b]; });
        std::vector<std::size_t> side[2];
        std::int64_t w[2] = {0, 0};
        for (std::size_t id : ids) {
            const int s = w[0] <= w[1] ? 0 : 1;
            side[s].push_back(id);
            w[s] += std::max<std::int64_t>(work[id], 1);
        }
        if (side[1].empty()) {  // cannot happen with >= 2 ids, kept for safety
            side[1].push_back(side[0].back());
            side[0].pop_back();
        }
        // Cut the longer side; each half gets at least as many lines as it has regions to
        // hold along that axis when possible (at least one).
        const bool cut_rows = r.rows > r.cols || (r.rows == r.cols && r.rows > 1);
        const std::int32_t extent = cut_rows ? r.rows : r.cols;
        if (extent < 2) {
            ok = false;
            return;
        }
        const double share = static_cast<double>(w[0]) / static_cast<double>(w[0] + w[1]);
        auto first = static_cast<std::int32_t>(std::lround(share * extent));
        first = std::clamp(first, 1, extent - 1);
        sim::Region a = r;
        sim::Region b = r;
        if (cut_rows) {
            a.rows = first;
            b.row = r.row + first;
            b.rows = r.rows - first;
        } else {
            a.cols = first;
            b.col = r.col + first;
            b.cols = r.cols - first;
        }
        place(side[0], a);
        place(side[1], b);
    };
    std::vector<std::size_t> ids(work.size());
    std::iota(ids.begin(), ids.end(), std::size_t{0});
    if (!ids.empty()) place(ids, sim::Region{0, 0, rows, cols});
    if (!ok) return {};
    return out;
}

std::vector<sim::SegmentMapping> segment_candidates(const workload::Network& network,
                                                    const workload::Segment& segment, std::int32_t rows,
                                                    std::int32_t cols) {
    std::vector<std::int64_t> ops;
    for (const workload::Branch& b : segment.branches) {
        std::int64_t sum = 0;
        for (workload::LayerIndex l : b.layers) sum += network.layer(l).ops();
        ops.push_back(sum);
    }
    const auto branches = static_cast<std::int32_t>(segment.branches.size());
    std::vector<sim::SegmentMapping> out;
    out.push_back(
        sim::SegmentMapping{{sim::Region{0, 0, rows, cols}}, std::vector<std::int32_t>(ops.size(), 0)});
    for (std::int32_t n = 2; n <= std::min(branches, rows * cols); ++n) {
        const std::vector<std::int32_t> group = balance_branches(ops, n);
        std::vector<std::int64_t> work(static_cast<std::size_t>(n), 0);
        for (std::size_t b = 0; b < ops.size(); ++b) work[static_cast<std::size_t>(group[b])] += ops[b];
        std::vector<sim::Region> regions = slice_regions(work, rows, cols);
        if (regions.empty()) continue;
        sim::SegmentMapping sm{std::move(regions), group};
        if (std::find(out.begin(), out.end(), sm) == out.end()) out.push_back(std::move(sm));
    }
    return out;
}

std::vector<std::pair<std::int32_t, std::int32_t>> shrinking_shapes(std::int32_t rows, std::int32_t cols) {
    std::vector<std::pair<std::int32_t, std::int32_t>> shapes;
    for (std::int32_t r = rows; r >= 1; --r)
        for (std::int32_t c = cols; c >= 1; --c) shapes.emplace_back(r, c);
    std::stable_sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) {
        return a.first * a.second != b.first * b.second ? a.first * a.second > b.first * b.second
                                                        : a.first > b.first;
    });
    return shapes;
}

}  // namespace pimdse::mapper
