// One rank's rows of a batch: order, bytes for the wire, kept mappings
// (include/pimdse/store/store.hpp).

#include <cstring>
#include <span>
#include <string>
#include <utility>

#include "batch_rows.hpp"
#include "pimdse/core/error.hpp"

namespace pimdse::store {

BatchRows::BatchRows() : impl_(std::make_unique<Impl>()) {}
BatchRows::BatchRows(BatchRows&&) noexcept = default;
BatchRows& BatchRows::operator=(BatchRows&&) noexcept = default;
BatchRows::~BatchRows() = default;

std::size_t BatchRows::candidates() const {
    return impl_->cand_rows.size();
}

void BatchRows::clear() {
    impl_->clear();
}

void BatchRows::sort_by_id() {
    Impl& b = *impl_;
    if (b.in_id_order()) return;
    if (!scratch_) scratch_ = std::make_unique<Impl>();
    scratch_->clear();
    b.sorted_into(*scratch_);
    std::swap(impl_, scratch_);  // both keep their memory for the next batch
}

namespace {

template <class Row>
void put_rows(std::vector<char>& out, const std::vector<Row>& rows) {
    const std::uint64_t n = rows.size();
    const std::size_t at = out.size();
    out.resize(at + sizeof n + n * sizeof(Row));
    std::memcpy(out.data() + at, &n, sizeof n);
    if (n > 0)
        std::memcpy(out.data() + at + sizeof n, static_cast<const void*>(rows.data()), n * sizeof(Row));
}

template <class Row>
void take_rows(std::span<const char>& in, std::vector<Row>& rows) {
    std::uint64_t n = 0;
    if (in.size() < sizeof n) throw IoError("BatchRows::append_bytes: a truncated message");
    std::memcpy(&n, in.data(), sizeof n);
    in = in.subspan(sizeof n);
    if (in.size() / sizeof(Row) < n) throw IoError("BatchRows::append_bytes: a truncated message");
    if (n == 0) return;  // memcpy must not see the null data() of an empty vector or span
    const std::size_t at = rows.size();
    rows.resize(at + n);
    std::memcpy(static_cast<void*>(rows.data() + at), in.data(), n * sizeof(Row));
    in = in.subspan(n * sizeof(Row));
}

}  // namespace

std::vector<char> BatchRows::to_bytes() const {
    const Impl& b = *impl_;
    std::vector<char> out;
    put_rows(out, b.cand_rows);
    put_rows(out, b.metric_rows);
    put_rows(out, b.layer_rows);
    put_rows(out, b.segment_rows);
    put_rows(out, b.schedule_rows);
    return out;
}

void BatchRows::append_bytes(std::span<const char> bytes) {
    Impl& b = *impl_;
    const std::size_t first = b.cand_rows.size();
    take_rows(bytes, b.cand_rows);
    take_rows(bytes, b.metric_rows);
    take_rows(bytes, b.layer_rows);
    take_rows(bytes, b.segment_rows);
    take_rows(bytes, b.schedule_rows);
    if (!bytes.empty()) throw IoError("BatchRows::append_bytes: bytes past the rows");
    for (std::size_t i = first; i < b.cand_rows.size(); ++i) {
        const std::int64_t id = b.cand_rows[i].candidate;
        for (std::size_t j = 0; j < first; ++j) {
            if (b.cand_rows[j].candidate == id)
                throw IoError("BatchRows::append_bytes: candidate " + std::to_string(id) + " added twice");
        }
    }
}

namespace {

// Appends rows [at, at + n) of `from` to `to`.
template <class Row>
void keep_rows(const std::vector<Row>& from, std::size_t at, std::size_t n, std::vector<Row>& to) {
    const auto first = from.begin() + static_cast<std::ptrdiff_t>(at);
    to.insert(to.end(), first, first + static_cast<std::ptrdiff_t>(n));
}

}  // namespace

void BatchRows::drop_mappings_except(std::span<const std::int64_t> keep) {
    Impl& b = *impl_;
    std::vector<LayerRow> layers;
    std::vector<SegmentRow> segments;
    std::vector<ScheduleRow> schedules;
    std::size_t layer_at = 0;
    std::size_t segment_at = 0;
    std::size_t schedule_at = 0;
    for (CandidateRow& r : b.cand_rows) {
        const auto nl = static_cast<std::size_t>(r.layer_rows);
        const auto ns = static_cast<std::size_t>(r.segment_rows);
        const auto ne = static_cast<std::size_t>(r.schedule_rows);
        if (std::binary_search(keep.begin(), keep.end(), r.candidate)) {
            keep_rows(b.layer_rows, layer_at, nl, layers);
            keep_rows(b.segment_rows, segment_at, ns, segments);
            keep_rows(b.schedule_rows, schedule_at, ne, schedules);
        } else {
            r.layer_rows = 0;
            r.segment_rows = 0;
            r.schedule_rows = 0;
        }
        layer_at += nl;
        segment_at += ns;
        schedule_at += ne;
    }
    b.layer_rows = std::move(layers);
    b.segment_rows = std::move(segments);
    b.schedule_rows = std::move(schedules);
}

}  // namespace pimdse::store
