#pragma once
// One rank's rows of a batch (BatchRows, include/pimdse/store/store.hpp), private to store:
// row vectors per table, candidate by candidate.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "pimdse/store/store.hpp"
#include "rows.hpp"

namespace pimdse::store {

struct BatchRows::Impl {
    // Kept between batches: reusing the memory spares the page faults of fresh
    // multi-megabyte buffers, which once dominated the time to write a batch.
    // In the order the evaluations finished (the engine hands a batch's slowest candidates
    // out first); each candidate row says how many rows it has in the other tables.
    // sort_by_id() puts them in id order.
    std::vector<CandidateRow> cand_rows;
    std::vector<MetricRow> metric_rows;
    std::vector<LayerRow> layer_rows;
    std::vector<SegmentRow> segment_rows;
    std::vector<ScheduleRow> schedule_rows;

    static std::array<std::size_t, 4> counts(const CandidateRow& r) {
        return {static_cast<std::size_t>(r.metric_rows), static_cast<std::size_t>(r.layer_rows),
                static_cast<std::size_t>(r.segment_rows), static_cast<std::size_t>(r.schedule_rows)};
    }
    [[nodiscard]] bool has(std::int64_t id) const {
        return std::any_of(cand_rows.begin(), cand_rows.end(),
                           [&](const CandidateRow& r) { return r.candidate == id; });
    }
    [[nodiscard]] bool in_id_order() const {
        return std::is_sorted(
            cand_rows.begin(), cand_rows.end(),
            [](const CandidateRow& a, const CandidateRow& b) { return a.candidate < b.candidate; });
    }

    // Candidate by candidate, rows copied into `out` in id order: one pass over the rows.
    void sorted_into(Impl& out) const {
        const std::size_t n = cand_rows.size();
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return cand_rows[a].candidate < cand_rows[b].candidate;
        });
        std::vector<std::array<std::size_t, 4>> start(n);
        std::array<std::size_t, 4> at{};
        for (std::size_t k = 0; k < n; ++k) {
            start[k] = at;
            const auto c = counts(cand_rows[k]);
            for (std::size_t t = 0; t < at.size(); ++t) at[t] += c[t];
        }
        const auto block = [](const auto& from, auto& to, std::size_t first, std::size_t count) {
            const auto begin = from.begin() + static_cast<std::ptrdiff_t>(first);
            to.insert(to.end(), begin, begin + static_cast<std::ptrdiff_t>(count));
        };
        for (std::size_t k : order) {
            const auto c = counts(cand_rows[k]);
            out.cand_rows.push_back(cand_rows[k]);
            block(metric_rows, out.metric_rows, start[k][0], c[0]);
            block(layer_rows, out.layer_rows, start[k][1], c[1]);
            block(segment_rows, out.segment_rows, start[k][2], c[2]);
            block(schedule_rows, out.schedule_rows, start[k][3], c[3]);
        }
    }

    void clear() {
        cand_rows.clear(), metric_rows.clear(), layer_rows.clear(), segment_rows.clear(),
            schedule_rows.clear();
    }
};

}  // namespace pimdse::store
