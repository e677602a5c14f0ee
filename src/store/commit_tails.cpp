// The committed rows a later batch rewrites, kept twice (src/store/store_impl.hpp, "commit
// tails"; docs/output.md, "What a commit guarantees"): whole-chunk writes, the slot a commit
// writes before its record, and the repair that puts a damaged tail chunk back.

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "store_impl.hpp"

namespace pimdse::store {

void write_whole_chunks(Table& table, hsize_t chunk, hsize_t first, hsize_t from, hsize_t added,
                        std::span<const Table::Run> runs, std::span<const std::byte> bytes,
                        std::span<const std::byte> lead, std::span<const std::byte> fill, bool root) {
    const std::size_t row = table.row_size();
    const hsize_t last = from + added;
    if (last == first) return;
    const hsize_t end = round_up_to_chunk(last, chunk);
    const hsize_t shift = from - first;
    std::vector<Table::Run> all;
    all.reserve(runs.size() + 2);
    if (root) {
        if (lead.size() != shift * row) throw IoError("a tail of the wrong length (a bug)");
        if (shift > 0) all.push_back({0, shift});
    }
    for (const Table::Run& r : runs) all.push_back({r.offset + shift, r.count});
    if (!root) {
        table.write_at(first, end - first, all, bytes);
        return;
    }
    // Rank 0 writes the lead, its own rows and the fill rows after the last: one buffer in
    // file order (rank 0 of a parallel sweep has no rows of its own, so this copies little).
    if (fill.size() != row) throw IoError("a fill row of the wrong length (a bug)");
    std::vector<std::byte> mine;
    mine.reserve(lead.size() + bytes.size() + (end - last) * row);
    mine.insert(mine.end(), lead.begin(), lead.end());
    mine.insert(mine.end(), bytes.begin(), bytes.end());
    if (end > last) {
        all.push_back({last - first, end - last});
        for (hsize_t i = last; i < end; ++i) mine.insert(mine.end(), fill.begin(), fill.end());
    }
    table.write_at(first, end - first, all, mine);
}

void Store::Impl::load_tails() {
    const bool root = rank_of(file.comm()) == 0;
    const std::int64_t slot = slot_of(commit[0]);
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        const Table& tail = tail_tables[slot][t];
        const hsize_t n = tail_rows(t);
        if (tail.rows() < n) {
            throw IoError(file.name() + ": " + tail_path(slot, kTables[t]) +
                          " has fewer rows than its commit record");
        }
        std::vector<std::byte> bytes(root ? n * tail.row_size() : 0);
        tail.read(0, root ? n : 0, bytes);
        tails[t] = std::move(bytes);
    }
}

void Store::Impl::write_tails(const std::array<hsize_t, kTables.size()>& counts,
                              std::span<const std::byte> pareto) {
    const bool root = rank_of(file.comm()) == 0;
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        const hsize_t stable = stable_rows(t, static_cast<std::int64_t>(counts[t]));
        const hsize_t n = counts[t] - stable;
        if (t == kPareto) {
            tails[t].assign(pareto.begin(), pareto.end());
        } else if (counts[t] != static_cast<hsize_t>(commit[1 + t])) {
            // The new tail as the batch left it in the table (rank 0 reads, the others help
            // the collective read with nothing).
            std::vector<std::byte> bytes(root ? n * tables[t].row_size() : 0);
            tables[t].read(root ? stable : 0, root ? n : 0, bytes);
            tails[t] = std::move(bytes);
        }
        Table& slot = tail_tables[slot_of(commit[0] + 1)][t];
        const hsize_t chunk = kTables[t].chunk;
        (void)slot.reserve(round_up_to_chunk(std::max<hsize_t>(n, 1), chunk));
        const std::span<const std::byte> lead =
            root ? std::span<const std::byte>(tails[t]) : std::span<const std::byte>();
        write_whole_chunks(slot, chunk, 0, n, 0, {}, {}, lead, fills[t], root);
    }
}

bool Store::Impl::restore_tails() {
    load_tails();
    bool wrote = false;
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        const hsize_t n = tail_rows(t);
        if (n == 0) continue;
        const hsize_t stable = stable_rows(t, commit[1 + t]);
        std::vector<std::byte> now(n * tables[t].row_size());
        bool same = false;
        try {
            tables[t].read(stable, n, now);
            same = now == tails[t];
        } catch (const IoError&) {
            // A chunk the interrupted batch left damaged: rewritten whole below.
        }
        if (same) continue;
        const hsize_t chunk = kTables[t].chunk;
        (void)tables[t].reserve(round_up_to_chunk(stable + n, chunk));
        write_whole_chunks(tables[t], chunk, stable, stable + n, 0, {}, {}, tails[t], fills[t], true);
        wrote = true;
    }
    return wrote;
}

}  // namespace pimdse::store
