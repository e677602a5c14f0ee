#pragma once
// The analytic DRAM model of one PIM-node: how many port-wide accesses and row activations
// the tile fetches and write-backs of a tiled part-layer cause under given data layouts.
// docs/model.md, section "DRAM", states the model; dram_reference.hpp replays the same
// fetches element by element to validate it.
//
// Access rule (shared with the reference): a tile is fetched in address order; an access
// moves one aligned port-wide word; a new access starts whenever the next element is not
// the next address or lies in another word (one burst per contiguous run, so a word split
// between two runs is read twice). Row rule: open-row policy over the node's one logical
// bank; every tensor region starts at a row boundary, and a fetch begins with a miss unless
// it directly follows a fetch of the same region that left its first row open.

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/intra_node_tiling.hpp"

namespace pimdse::sim {

/// The DRAM facts the model needs, in elements of one width.
struct DramGeometry {
    std::int64_t elements_per_access = 8;  ///< port bits / element bits
    std::int64_t elements_per_row = 512;   ///< row-buffer bits / element bits
};

/// Geometry of `node` for elements of `bits` bits. Precondition: validate(node) and
/// bits divides the port width and the row buffer.
[[nodiscard]] DramGeometry geometry(const NodeSpec& node, std::int32_t bits) noexcept;

/// A box of a 4-D tensor: [b0, b0+nb) x [c0, c0+nc) x [h0, h0+nh) x [w0, w0+nw).
struct TensorBox {
    std::int64_t b0 = 0, nb = 1;
    std::int64_t c0 = 0, nc = 1;
    std::int64_t h0 = 0, nh = 1;
    std::int64_t w0 = 0, nw = 1;
};

/// Accesses and row activations of one fetch.
struct FetchCount {
    std::int64_t accesses = 0;
    std::int64_t activations = 0;
    friend bool operator==(const FetchCount&, const FetchCount&) = default;
};

/// Analytic count of fetching one box of a tensor stored at a row boundary (the run and
/// gcd analysis of docs/model.md; exact for the accesses of a single box whose runs start
/// at every residue alike, an estimate otherwise). Used for NicePIM Fig. 6.
[[nodiscard]] FetchCount box_fetch(const TensorDims& dims, DataLayout layout, const TensorBox& box,
                                   const DramGeometry& g) noexcept;

/// The most column accesses of a row that the DRAM models count by length (TensorTraffic::
/// short_rows): a row with more keeps its precharge after tRAS wherever tRAS - tRCD - tRTP
/// is at most this many tCCD_L (HBM: one).
inline constexpr std::size_t kShortRowAccesses = 4;

/// DRAM traffic of one tensor over a whole part-layer.
struct TensorTraffic {
    std::int64_t read_elements = 0;  ///< useful elements read (SRAM fills)
    std::int64_t write_elements = 0;
    std::int64_t read_accesses = 0;  ///< port-wide accesses
    std::int64_t write_accesses = 0;
    std::int64_t activations = 0;        ///< row activations (reads and writes)
    std::int64_t write_activations = 0;  ///< those of them opened by a write (write-backs, spills)
    /// Direction switches inside an open row (a fetch that continues the previous fetch's row
    /// the other way), each costing a read-to-write or write-to-read turnaround. The analytic
    /// model counts the spills that continue their reload's row (read to write); the trace
    /// counts every one.
    std::int64_t read_write_turns = 0;
    std::int64_t write_read_turns = 0;
    std::int64_t fetches = 0;  ///< tile reads + tile writes
    /// Rows with few column accesses, which tRAS may hold open beyond their columns:
    /// short_rows[w][a - 1] counts the rows with a accesses (1 <= a <= kShortRowAccesses)
    /// closed after a read (w = 0) or a write (w = 1) (docs/model.md, "DRAM timing").
    std::array<std::array<std::int64_t, kShortRowAccesses>, 2> short_rows{};

    friend bool operator==(const TensorTraffic&, const TensorTraffic&) = default;
};

struct DramTraffic {
    std::array<TensorTraffic, kTensors> tensor{};

    [[nodiscard]] const TensorTraffic& operator[](Tensor t) const noexcept {
        return tensor[static_cast<std::size_t>(t)];
    }
    [[nodiscard]] TensorTraffic& operator[](Tensor t) noexcept { return tensor[static_cast<std::size_t>(t)]; }
    [[nodiscard]] std::int64_t accesses() const noexcept;
    [[nodiscard]] std::int64_t activations() const noexcept;
    /// Port cycles, all tensors sharing the one port (PIM Optimizer Eq. 33 with a single
    /// shared port, a sum over tensors): the sum over tensors of dram_cycles of its accesses
    /// and activations, plus the turnarounds inside open rows, less the stream's ends (no
    /// precharge before its first row, no write recovery after its last burst).
    [[nodiscard]] Cycles cycles(const NodeSpec& node) const noexcept;

    friend bool operator==(const DramTraffic&, const DramTraffic&) = default;
};

/// Cycles of `accesses` column accesses that open `activations` rows on `node`'s port, of
/// which `write_activations` close after a write: refresh_factor x (N tRP + max(N tRAS,
/// N tRCD + (A - N) tCCD_L + (N - W) tRTP + W tWP + S)) with N activations, W of them closed
/// by a write, A accesses and S the short rows' wait for tRAS (short_row_wait; docs/model.md,
/// "DRAM timing"). Each row is precharged, activated, accessed and
/// kept open at least tRAS; its last read waits tRTP, its last write tWP (write latency, burst
/// and recovery) before the precharge; refresh stretches the whole by tREFI/(tREFI - tRFC), and
/// each refresh inside an open row adds its precharge and re-activation (refresh_interruptions).
[[nodiscard]] Cycles dram_cycles(const NodeSpec& node, double accesses, double activations,
                                 double write_activations = 0, double short_row_wait = 0) noexcept;

/// What tRAS adds to the column time of `t`'s short rows, in node cycles before the refresh
/// stretch: the sum over its rows of a accesses (TensorTraffic::short_rows) of
/// max(0, tRAS - tRCD - (a - 1) tCCD_L - tRTP), tWP in place of tRTP for a row closed after
/// a write (docs/model.md, "DRAM timing").
[[nodiscard]] double short_row_wait(const NodeSpec& node, const TensorTraffic& t) noexcept;

/// What refreshes cost a stream of `accesses` column accesses in `activations` rows beyond
/// the stretch F = tREFI/(tREFI - tRFC), in node cycles: a refresh that falls inside an open
/// row precharges it and the stream re-activates it afterwards (docs/model.md, "DRAM timing").
[[nodiscard]] double refresh_interruptions(const NodeSpec& node, double accesses,
                                           double activations) noexcept;

/// Analytic DRAM traffic of `layer` under `tiling` with input layout `in` and output layout
/// `out` (the loop nest and fetch rules of docs/model.md, "DRAM"). Preconditions:
/// validate(layer), validate(node), layouts valid, tile sizes in [1, extent], the R and S
/// tiles whole (the kernel's R and S: this model does not cost kernel tiles yet).
[[nodiscard]] DramTraffic dram_traffic(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                       DataLayout in, DataLayout out) noexcept;

/// A tensor's sums over its distinct tiles (elements, accesses, activations, tile count):
/// what one tiling costs before the loop order says how often each tile is visited.
struct TileSums {
    double elements = 0;
    double accesses = 0;
    double activations = 0;
    double tiles = 0;
    /// Of the activations, the rows with a accesses (index a - 1, a <= kShortRowAccesses):
    /// each tile shape's rows spread over the two whole access counts nearest their mean.
    std::array<double, kShortRowAccesses> short_rows{};
};

/// Tile sums keyed by everything they depend on: the tensor's dims and layout (or a weight
/// block's size), the DRAM geometry and the tiles along each dim. Part-layers that differ
/// only in a dim a tensor does not span (a K split leaves the input alone, a C split the
/// output) share that tensor's sums, so one store may serve every search of a mapper.
class TileSumsStore {
public:
    /// 0 weight blocks, 1 a 4-D tensor; dims; layout; geometry; per dim the tile count
    /// before the last, the tile, the last tile and the step.
    using Key = std::array<std::int32_t, 25>;
    /// The sums stored under `k`, or null; valid until the next insert.
    [[nodiscard]] const TileSums* find(const Key& k) const noexcept;
    /// Stores `t` under `k`, which find() does not have.
    void insert(const Key& k, const TileSums& t);
    [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
    void clear() noexcept {
        entries_.clear();
        slots_.clear();
    }

private:
    // Open addressing with linear probing: a slot holds a key's hash and its entry's index + 1
    // (0: empty), so a probe reads the entries only on a full hash match.
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t entry = 0;
    };
    [[nodiscard]] static std::uint64_t hash_of(const Key& k) noexcept;
    void place(std::uint64_t hash, std::uint32_t entry) noexcept;
    std::vector<std::pair<Key, TileSums>> entries_;
    std::vector<Slot> slots_;  // a power of two in size, at most half full
};

/// The tile sums already computed for one part-layer on one node under one pair of layouts,
/// each tensor's keyed by the tile sizes it depends on (input: B, C, P, Q; weights: K, C;
/// output and psums: B, K, P, Q). The intra-node search costs many tilings of one part-layer
/// that share most of these; a cache must not be reused for another part-layer, node or
/// layout pair. Sums it lacks are looked up in `store` (when set), which any part-layer,
/// node and layouts may share, and computed only when neither has them.
struct TileSumsCache {
    using Key = std::array<std::int64_t, 4>;
    std::array<std::vector<std::pair<Key, TileSums>>, 4> entries;  ///< input, weight, output, psum
    /// Per order of kFastOrders, the psum spills per advance of the C loop that keep their reload's
    /// open row, keyed by the output tiles (docs/model.md, "Rows shared by consecutive
    /// fetches").
    std::vector<std::pair<Key, std::array<double, kFastOrderCount>>> open_row_spills;
    TileSumsStore* store = nullptr;
    /// Forgets every entry (keeps the store and the capacity): before the next part-layer.
    void clear() noexcept {
        for (auto& e : entries) e.clear();
        open_row_spills.clear();
    }
};

/// dram_traffic for each of the fast search's four orders (indexed as kFastOrders;
/// tiling.order is ignored): the per-tile sums are shared, so this costs little more than
/// one call. With `cache`, sums computed for an earlier tiling of the same part-layer are
/// reused (the result is the same).
/// Not noexcept: the cache and its store allocate, and an allocation that fails must reach
/// the caller (a sweep records the candidate and stops cleanly, exit code 8) as bad_alloc.
[[nodiscard]] std::array<DramTraffic, kFastOrderCount> dram_traffic_all_orders(
    const PartLayer& layer, const NodeSpec& node, const Tiling& tiling, DataLayout in, DataLayout out,
    TileSumsCache* cache = nullptr);

/// dram_traffic for each of `orders` (any permutations; tiling.order is ignored), each
/// equal to dram_traffic's, sharing the tile sums as dram_traffic_all_orders does.
[[nodiscard]] std::vector<DramTraffic> dram_traffic_orders(const PartLayer& layer, const NodeSpec& node,
                                                           const Tiling& tiling, DataLayout in,
                                                           DataLayout out, std::span<const LoopOrder> orders,
                                                           TileSumsCache* cache = nullptr);

}  // namespace pimdse::sim
