// The committed rows of a sweep file checked against each other (store_impl.hpp, verify_rows;
// docs/output.md "Checks on opening"): each row is read once, which also tests every chunk's
// checksum, and what the later tables say about a candidate is checked against /candidates,
// so that a duplicate id, an enum value outside its enum, a NaN cost or a count that disagrees
// is refused with the table and the row named, before a reader or a resume uses it.

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rows.hpp"
#include "store_impl.hpp"

namespace pimdse::store {

namespace {

// ---- the committed rows ------------------------------------------------------------------

// What the later tables are checked against, per candidate.
struct CandidateFacts {
    std::int64_t batch = 0;
    bool ok = false;
    std::array<double, 4> values{};      // latency, energy, area, cost
    std::array<std::int64_t, 4> rows{};  // in /metrics, /mappings/layers, /mappings/segments, /schedules
};

std::int64_t integer_at(const std::byte* p, FieldKind kind) {
    switch (kind) {
        case FieldKind::int8: {
            std::int8_t v;
            std::memcpy(&v, p, 1);
            return v;
        }
        case FieldKind::int16: {
            std::int16_t v;
            std::memcpy(&v, p, 2);
            return v;
        }
        case FieldKind::int32: {
            std::int32_t v;
            std::memcpy(&v, p, 4);
            return v;
        }
        default: {
            std::int64_t v;
            std::memcpy(&v, p, 8);
            return v;
        }
    }
}

template <class Row>
Row row_at(std::span<const std::byte> rows, std::size_t i) {
    Row r;
    std::memcpy(&r, rows.data() + i * sizeof(Row), sizeof(Row));
    return r;
}

class RowChecker {
public:
    RowChecker(std::string file, std::int64_t batches, std::size_t params)
        : file_(std::move(file)), batches_(batches), params_(params) {}

    // Every enum field of every row holds one of its enum's values.
    void enums(const TableSchema& schema, hsize_t first, std::span<const std::byte> rows) const {
        const std::size_t n = rows.size() / schema.row_size;
        for (const Field& f : schema.fields) {
            if (f.enum_names.empty()) continue;
            for (std::size_t i = 0; i < n; ++i) {
                const std::int64_t v = integer_at(rows.data() + i * schema.row_size + f.offset, f.kind);
                if (f.unwritten && v == -1) {
                    fail(schema.path, first + i,
                         std::string(f.name) + " is -1 (" + std::string(kUnwritten) +
                             "): a row never written among the committed rows");
                }
                if (v < 0 || v >= static_cast<std::int64_t>(f.enum_names.size())) {
                    fail(schema.path, first + i,
                         std::string(f.name) + " is " + std::to_string(v) + ", not a value of its enum (" +
                             f.type_name() + ")");
                }
            }
        }
    }

    void candidates(hsize_t first, std::span<const std::byte> rows) {
        const std::string_view path = schema(TableId::candidates).path;
        for (std::size_t i = 0; i < rows.size() / sizeof(CandidateRow); ++i) {
            const auto r = row_at<CandidateRow>(rows, i);
            const std::int64_t at = static_cast<std::int64_t>(first + i);
            if (r.candidate != at) {
                fail(path, first + i,
                     "candidate id " + std::to_string(r.candidate) + ", expected " + std::to_string(at) +
                         " (ids are 0, 1, 2, ... in row order: a duplicate, missing or damaged id)");
            }
            const std::int64_t previous = facts_.empty() ? 0 : facts_.back().batch;
            if (r.batch < previous || r.batch >= batches_) {
                fail(path, first + i,
                     "batch " + std::to_string(r.batch) + ", expected " + std::to_string(previous) + " to " +
                         std::to_string(batches_ - 1) + " (committed batches, in row order)");
            }
            for (std::size_t k = 0; k < params_; ++k) {
                if (r.params[k] < 1)
                    fail(path, first + i,
                         "a design parameter is " + std::to_string(r.params[k]) + ", expected 1 or more");
            }
            const bool ok = r.status == static_cast<std::int32_t>(eval::Status::ok);
            const std::array<std::pair<const char*, double>, 4> costs{{{"latency_s", r.latency_s},
                                                                       {"energy_j", r.energy_j},
                                                                       {"area_mm2", r.area_mm2},
                                                                       {"cost", r.cost}}};
            for (const auto& [name, v] : costs) {
                if (std::isnan(v) || (ok && (!std::isfinite(v) || v < 0))) {
                    fail(path, first + i,
                         std::string(name) + " is " + std::to_string(v) +
                             (ok ? ", expected a finite number of 0 or more (status ok)"
                                 : ", expected a number or inf"));
                }
            }
            const std::array<std::int64_t, 4> counts{r.metric_rows, r.layer_rows, r.segment_rows,
                                                     r.schedule_rows};
            for (std::size_t t = 0; t < counts.size(); ++t) {
                if (counts[t] < 0)
                    fail(path, first + i, "a negative row count (" + std::to_string(counts[t]) + ")");
                sums_[t] += counts[t];
            }
            facts_.push_back({r.batch, ok, {r.latency_s, r.energy_j, r.area_mm2, r.cost}, counts});
        }
    }

    // The candidates' row counts against the commit record's.
    void row_sums(const std::vector<std::int64_t>& commit) const {
        for (std::size_t t = 0; t < sums_.size(); ++t) {
            if (sums_[t] != commit[2 + t]) {
                throw IoError(file_ + ":" + kTables[1 + t].path() + ": " + std::to_string(commit[2 + t]) +
                              " committed rows, but the committed candidates of /candidates count " +
                              std::to_string(sums_[t]) + " (the commit record or /candidates is damaged)");
            }
        }
    }

    // Table `t` (1 to 4: /metrics to /schedules) holds each candidate's rows, in id order.
    void per_candidate(std::size_t t, hsize_t first, std::span<const std::byte> rows) {
        const TableSchema& s = kTables[t].schema();
        for (std::size_t i = 0; i < rows.size() / s.row_size; ++i) {
            while (left_ == 0 && next_ < facts_.size()) left_ = facts_[next_++].rows[t - 1];
            const std::int64_t expected = static_cast<std::int64_t>(next_) - 1;
            std::int64_t id = 0;
            std::memcpy(&id, rows.data() + i * s.row_size, sizeof id);  // the field `candidate`
            if (left_ == 0 || id != expected) {
                fail(s.path, first + i,
                     "candidate " + std::to_string(id) + ", expected " + std::to_string(expected) +
                         " (by the row counts of /candidates)");
            }
            --left_;
        }
    }
    void start_table() { next_ = 0, left_ = 0; }

    void batches(hsize_t first, std::span<const std::byte> rows) {
        const std::string_view path = schema(TableId::batches).path;
        if (first == 0) per_batch_ = candidates_per_batch();
        for (std::size_t i = 0; i < rows.size() / sizeof(BatchRow); ++i) {
            const auto r = row_at<BatchRow>(rows, i);
            const auto b = static_cast<std::int64_t>(first + i);
            if (r.batch != b)
                fail(path, first + i, "batch " + std::to_string(r.batch) + ", expected " + std::to_string(b));
            if (r.candidates != per_batch_[first + i]) {
                fail(path, first + i,
                     std::to_string(r.candidates) + " candidates, but /candidates holds " +
                         std::to_string(per_batch_[first + i]) + " of batch " + std::to_string(b));
            }
            if (std::isnan(r.best_cost)) fail(path, first + i, "best_cost is NaN");
        }
    }

    void pareto(hsize_t first, std::span<const std::byte> rows) {
        const std::string_view path = schema(TableId::pareto).path;
        if (first == 0) on_front_.assign(facts_.size(), false);
        for (std::size_t i = 0; i < rows.size() / sizeof(ParetoRow); ++i) {
            const auto r = row_at<ParetoRow>(rows, i);
            if (r.candidate < 0 || r.candidate >= static_cast<std::int64_t>(facts_.size()))
                fail(path, first + i,
                     "candidate " + std::to_string(r.candidate) + " is not a committed candidate");
            const auto c = static_cast<std::size_t>(r.candidate);
            const CandidateFacts& f = facts_[c];
            if (on_front_[c])
                fail(path, first + i, "candidate " + std::to_string(c) + " joined the front twice");
            on_front_[c] = true;
            if (!f.ok) fail(path, first + i, "candidate " + std::to_string(c) + " is not ok in /candidates");
            if (r.joined_batch != f.batch || r.joined_batch < last_joined_ ||
                (r.left_batch != -1 && r.left_batch <= r.joined_batch)) {
                fail(path, first + i,
                     "joined_batch " + std::to_string(r.joined_batch) + ", left_batch " +
                         std::to_string(r.left_batch) + " disagree with the candidate's batch " +
                         std::to_string(f.batch) + " or the rows' order");
            }
            last_joined_ = r.joined_batch;
            if (std::array<double, 4>{r.latency_s, r.energy_j, r.area_mm2, r.cost} != f.values)
                fail(path, first + i,
                     "the costs differ from those of candidate " + std::to_string(c) + " in /candidates");
        }
    }

private:
    [[noreturn]] void fail(std::string_view table, hsize_t row, const std::string& what) const {
        throw IoError(file_ + ":" + std::string(table) + ": row " + std::to_string(row) + ": " + what +
                      "; the file is damaged or was edited");
    }

    [[nodiscard]] std::vector<std::int64_t> candidates_per_batch() const {
        std::vector<std::int64_t> n(static_cast<std::size_t>(batches_), 0);
        for (const CandidateFacts& f : facts_) n[static_cast<std::size_t>(f.batch)] += 1;
        return n;
    }

    std::string file_;
    std::int64_t batches_;
    std::size_t params_;  // the family's parameters in use
    std::vector<CandidateFacts> facts_;
    std::array<std::int64_t, 4> sums_{};
    std::size_t next_ = 0;
    std::int64_t left_ = 0;
    std::vector<std::int64_t> per_batch_;
    std::vector<bool> on_front_;
    std::int64_t last_joined_ = 0;
};

}  // namespace

void Store::Impl::verify_rows() const {
    RowChecker rows(file.name(), commit[0], columns.params.size());
    const auto enums = [&](std::size_t t) {
        return [this, &rows, t](hsize_t first, std::span<const std::byte> b) {
            rows.enums(schema_of(kTables[t]), first, b);
        };
    };
    verify_committed(kCandidates, [&](hsize_t first, std::span<const std::byte> b) {
        rows.enums(schema_of(kTables[kCandidates]), first, b);
        rows.candidates(first, b);
    });
    rows.row_sums(commit);
    for (std::size_t t = kMetrics; t <= kSchedules; ++t) {
        rows.start_table();
        verify_committed(t, [&, t](hsize_t first, std::span<const std::byte> b) {
            enums(t)(first, b);
            rows.per_candidate(t, first, b);
        });
    }
    verify_committed(kBatches, [&](hsize_t first, std::span<const std::byte> b) {
        enums(kBatches)(first, b);
        rows.batches(first, b);
    });
    verify_committed(kPareto, [&](hsize_t first, std::span<const std::byte> b) { rows.pareto(first, b); });
}

}  // namespace pimdse::store
