// Writing a batch and committing it (include/pimdse/store/store.hpp, docs/output.md
// "What a commit guarantees"): rows placed in candidate order whichever rank made them, in
// whole chunks, tables grown ahead of their rows, the new tails in the other slot, a flush,
// then the commit record; and the Pareto rewrite and the final trim.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <span>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "batch_rows.hpp"
#include "store_impl.hpp"

namespace pimdse::store {

namespace {

std::vector<ParetoRow> pareto_rows(std::span<const ParetoRecord> pareto) {
    std::vector<ParetoRow> rows;
    rows.reserve(pareto.size());
    for (const ParetoRecord& p : pareto) {
        rows.push_back({p.candidate, p.joined_batch, p.left_batch, p.latency_seconds, p.energy_joules,
                        p.area_mm2, p.cost});
    }
    return rows;
}

// A barrier that sleeps while it waits: ranks that arrive early (rank 0, with no rows to
// build) must not spin in the first collective call and take a core from the ranks still
// building their rows (MPI's blocking collectives busy-poll).
void polite_barrier(MPI_Comm comm) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm, &request);
    int done = 0;
    auto pause = std::chrono::microseconds(20);
    for (;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done != 0) return;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
}

// The whole /pareto history from row 0 (rank 0's rows; `count` on every rank), in whole
// chunks like every other write; returns rank 0's rows as bytes (the slot keeps them).
template <class Impl>
std::vector<std::byte> write_pareto(Impl& s, const std::vector<ParetoRow>& rows, hsize_t count) {
    const bool root = !rows.empty();
    const std::array<h5::Table::Run, 1> all{{{0, count}}};
    const std::span<const h5::Table::Run> run(all.data(), root ? 1 : 0);
    const std::span<const std::byte> bytes = std::as_bytes(std::span<const ParetoRow>(rows));
    write_whole_chunks(s.tables[kPareto], kTables[kPareto].chunk, 0, 0, count, run, bytes, {},
                       s.fills[kPareto], rank_of(s.file.comm()) == 0);
    return {bytes.begin(), bytes.end()};
}

// The history's length, from rank 0 to every rank (a collective write needs it everywhere).
hsize_t broadcast_rows(std::size_t rows, MPI_Comm comm) {
    auto n = static_cast<std::uint64_t>(rows);
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    return n;
}

}  // namespace

namespace {

constexpr std::size_t kPerCandidate = 5;  // candidates, metrics, layers, segments, schedules

// Where a batch's rows go: for each per-candidate table, the rows the batch adds and this
// rank's runs among them, in candidate-id order whichever rank computed them.
struct Placement {
    std::array<hsize_t, kPerCandidate> added{};
    std::array<std::vector<h5::Table::Run>, kPerCandidate> runs;
};

// A candidate's /schedules rows go with its mapping rows (output.mappings): a layout entry
// whose layer rows were dropped has none (BatchRows::drop_mappings_except drops them all).
std::int64_t kept_schedule_rows(const CandidateRecord& c) {
    return c.layer_rows == 0 ? 0 : c.schedule_rows;
}

// `mine` holds this rank's rows sorted by id; throws IoError (naming `file`) when they are
// not exactly this rank's candidates of `layout` with the layout's row counts.
Placement place(const std::vector<CandidateRow>& mine, std::span<const CandidateRecord> layout, int rank,
                const std::string& file) {
    Placement p;
    std::size_t k = 0;
    for (const CandidateRecord& c : layout) {
        const std::int64_t schedule_rows = kept_schedule_rows(c);
        const std::array<hsize_t, kPerCandidate> counts{
            1, static_cast<hsize_t>(c.metric_rows), static_cast<hsize_t>(c.layer_rows),
            static_cast<hsize_t>(c.segment_rows), static_cast<hsize_t>(schedule_rows)};
        if (c.rank == rank) {
            if (k >= mine.size() || mine[k].candidate != c.id) {
                throw IoError(file + ": rank " + std::to_string(rank) + " lacks the rows of candidate " +
                              std::to_string(c.id));
            }
            const CandidateRow& r = mine[k];
            if (r.metric_rows != c.metric_rows || r.layer_rows != c.layer_rows ||
                r.segment_rows != c.segment_rows || r.schedule_rows != schedule_rows) {
                throw IoError(file + ": the row counts of candidate " + std::to_string(c.id) +
                              " differ from the batch's layout");
            }
            ++k;
            for (std::size_t t = 0; t < kPerCandidate; ++t) {
                if (counts[t] > 0) p.runs[t].push_back({p.added[t], counts[t]});
            }
        }
        for (std::size_t t = 0; t < kPerCandidate; ++t) p.added[t] += counts[t];
    }
    if (k != mine.size()) throw IoError(file + ": rows of candidates not in the batch");
    return p;
}

// HDF5 1.10 does not always survive a write that runs out of space part way through: the
// file's close (or HDF5's own at MPI_Finalize) can then crash. So a batch starts only when
// the file system has room for all of its rows uncompressed (an upper bound of what the
// batch adds); otherwise the run stops before any HDF5 call of the batch, with the file
// consistent at its last commit. The same answer on every rank (rank 0's).
void check_room(const std::string& file, std::uintmax_t bytes, MPI_Comm comm) {
    std::uintmax_t available = 0;
    if (rank_of(comm) == 0) {
        std::error_code ec;
        const std::filesystem::path dir = std::filesystem::path(file).parent_path();
        const std::filesystem::space_info space = std::filesystem::space(dir.empty() ? "." : dir, ec);
        available = ec ? std::numeric_limits<std::uintmax_t>::max() : space.available;
    }
    auto room = static_cast<std::uint64_t>(available);
    MPI_Bcast(&room, 1, MPI_UINT64_T, 0, comm);
    if (room < bytes) {
        throw IoError(file + ": the next batch's rows need up to " + std::to_string(bytes / 1024) +
                      " KiB, and " + std::to_string(room / 1024) + " KiB are free");
    }
}

BatchRow batch_row(const BatchRecord& tuner, double write_seconds) {
    BatchRow b{};
    b.batch = tuner.batch;
    b.proposer = static_cast<std::int32_t>(tuner.proposer);
    b.candidates = tuner.candidates;
    b.evaluations = tuner.evaluations;
    b.ok = tuner.ok;
    b.best_cost = tuner.best_cost;
    b.best_candidate = tuner.best_candidate;
    b.hypervolume = tuner.hypervolume;
    b.front_size = tuner.front_size;
    b.hv_reference_1 = tuner.reference[0];
    b.hv_reference_2 = tuner.reference[1];
    b.hv_reference_3 = tuner.reference[2];
    b.samples = tuner.samples;
    b.predicted_tau = tuner.predicted_tau;
    b.predicted_error = tuner.predicted_error;
    b.cheap_tau = tuner.cheap_tau;
    b.fit_seconds = tuner.fit_seconds;
    b.propose_seconds = tuner.propose_seconds;
    b.evaluate_seconds = tuner.evaluate_seconds;
    b.write_seconds = write_seconds;
    b.wall_seconds = tuner.wall_seconds;
    return b;
}

}  // namespace

// Rows go at the committed ends. Tables grow ahead of their rows, all at once, by a quarter
// of what they hold or four batches' rows, whichever is more, to whole chunks: growths are
// O(log batches), and a finished file's unused (sparse) space stays under a quarter.
// Returns whether they grew.
bool Store::Impl::grow_for(const std::array<hsize_t, kTables.size()>& this_batch, hsize_t pareto_rows) {
    std::array<hsize_t, kTables.size()> needed{};
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        needed[t] = static_cast<hsize_t>(commit[1 + t]) + this_batch[t];
    }
    needed[kPareto] = pareto_rows;
    // Every write ends at a chunk's end (write_whole_chunks).
    for (std::size_t t = 0; t < kTables.size(); ++t)
        needed[t] = round_up_to_chunk(needed[t], kTables[t].chunk);
    bool grow = false;
    for (std::size_t t = 0; t < kTables.size(); ++t) grow |= tables[t].rows() < needed[t];
    if (grow) {
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            const hsize_t ahead = needed[t] + std::max(needed[t] / 4, 4 * this_batch[t]);
            (void)tables[t].reserve(round_up_to_chunk(ahead, kTables[t].chunk));
        }
    }
    return grow;
}

void Store::write_batch(BatchRows& mine, std::span<const CandidateRecord> layout, const BatchRecord& tuner,
                        std::span<const ParetoRecord> pareto) {
    Impl& s = *impl_;
    const auto start = std::chrono::steady_clock::now();
    mine.sort_by_id();
    const BatchRows::Impl& m = *mine.impl_;
    const int rank = rank_of(s.file.comm());
    const Placement p = place(m.cand_rows, layout, rank, s.file.name());
    polite_barrier(s.file.comm());

    const hsize_t pareto_count = broadcast_rows(pareto.size(), s.file.comm());
    std::array<hsize_t, kTables.size()> this_batch{};
    for (std::size_t t = 0; t < kPerCandidate; ++t) this_batch[t] = p.added[t];
    this_batch[kBatches] = 1;
    this_batch[kPareto] = pareto_count - std::min(pareto_count, static_cast<hsize_t>(s.commit[1 + kPareto]));
    // The batch's rows, and at most the chunk they start in and its copy in the slot.
    std::uintmax_t bytes = 0;
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        bytes += (this_batch[t] + 2 * kTables[t].chunk) * kTables[t].schema().row_size;
    }
    check_room(s.file.name(), bytes, s.file.comm());
    check_memory_headroom(2 * bytes);
    // From the first write on, a failure leaves the file as a kill would: never closed, so that
    // nothing of the interrupted batch is flushed (hdf5.hpp, File::abandon); the commit record
    // still stands.
    try {
        (void)s.grow_for(this_batch, pareto_count);

        // Whole chunks from the one holding each table's first new row: rank 0 adds the committed
        // rows before it (its tail, also in the committed slot) and fill rows after the last.
        const auto write = [&](TableIndex t, std::span<const h5::Table::Run> runs,
                               std::span<const std::byte> rows) {
            const auto from = static_cast<hsize_t>(s.commit[1 + t]);
            if (this_batch[t] == 0) return;
            write_whole_chunks(
                s.tables[t], kTables[t].chunk, stable_rows(t, s.commit[1 + t]), from, this_batch[t], runs,
                rows, rank == 0 ? std::span<const std::byte>(s.tails[t]) : std::span<const std::byte>(),
                s.fills[t], rank == 0);
        };
        write(kCandidates, p.runs[0], std::as_bytes(std::span<const CandidateRow>(m.cand_rows)));
        write(kMetrics, p.runs[1], std::as_bytes(std::span<const MetricRow>(m.metric_rows)));
        write(kLayers, p.runs[2], std::as_bytes(std::span<const LayerRow>(m.layer_rows)));
        write(kSegments, p.runs[3], std::as_bytes(std::span<const SegmentRow>(m.segment_rows)));
        write(kSchedules, p.runs[4], std::as_bytes(std::span<const ScheduleRow>(m.schedule_rows)));
        // The rows reach the disk while the next batch evaluates, so that the next flush is short.
        if (!m.cand_rows.empty()) s.file.start_writeback();

        std::vector<BatchRow> batch_rows;
        if (rank == 0) {
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            batch_rows.push_back(batch_row(tuner, seconds));
        }
        const std::array<h5::Table::Run, 1> one{{{0, 1}}};
        write(kBatches, std::span<const h5::Table::Run>(one.data(), rank == 0 ? 1 : 0),
              std::as_bytes(std::span<const BatchRow>(batch_rows)));
        const std::vector<std::byte> pareto_bytes =
            write_pareto(s, rank == 0 ? pareto_rows(pareto) : std::vector<ParetoRow>{}, pareto_count);

        // The tails this commit will name, into the slot its record names; then every write of
        // the batch is made durable before the commit record points past it.
        std::array<hsize_t, kTables.size()> counts{};
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            counts[t] = static_cast<hsize_t>(s.commit[1 + t]) + this_batch[t];
        }
        counts[kPareto] = pareto_count;
        s.write_tails(counts, pareto_bytes);
        s.sync();

        s.commit[0] += 1;
        for (std::size_t t = 0; t < kTables.size(); ++t)
            s.commit[1 + t] = static_cast<std::int64_t>(counts[t]);
        s.write_commit();
    } catch (...) {
        impl_->abandon();
        throw;
    }
}

void Store::rewrite_pareto(std::span<const ParetoRecord> pareto) {
    try {
        rewrite_pareto_rows(pareto);
    } catch (...) {
        impl_->abandon();
        throw;
    }
}

void Store::rewrite_pareto_rows(std::span<const ParetoRecord> pareto) {
    Impl& s = *impl_;
    const hsize_t count = broadcast_rows(pareto.size(), s.file.comm());
    if (count != static_cast<hsize_t>(s.commit[1 + kPareto])) {
        throw IoError(s.file.name() +
                      ": the replayed Pareto history disagrees with the committed /pareto rows");
    }
    (void)s.tables[kPareto].reserve(round_up_to_chunk(count, kTables[kPareto].chunk));
    (void)write_pareto(s, rank_of(s.file.comm()) == 0 ? pareto_rows(pareto) : std::vector<ParetoRow>{},
                       count);
    s.sync();
}

void Store::close_and_trim() {
    const std::filesystem::path path = impl_->path;
    const bool root = rank_of(impl_->file.comm()) == 0;
    impl_.reset();  // collective close
    if (!root) return;
    Impl s(path, File::Mode::read_write, MPI_COMM_SELF);
    s.check_sweep_file();
    s.open_tables();
    s.cut_to_commit();
}

}  // namespace pimdse::store
