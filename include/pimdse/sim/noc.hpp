#pragma once
// The analytic network-on-chip model: a 2-D mesh of PIM-node routers with dimension-order
// (XY) routing (NicePIM VIII-B), the flit loads a set of simultaneous transfers puts on
// every channel, and the latency and energy of such a set. It sits in the mapper's inner
// loop, so the hot path works on one contiguous load array and never allocates per route.
// docs/model.md, section "Network-on-chip", states the model and its validation.

#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/hw/technology.hpp"

namespace pimdse::sim {

/// Index of a PIM-node: row * cols + col (row-major over the node array).
using NodeId = std::int32_t;
/// Index of a channel: a directional mesh link, or a node's injection or ejection port.
using ChannelId = std::int32_t;

inline constexpr ChannelId kNoChannel = -1;

/// Where a node sits in the array; row 0 is the north edge, col 0 the west edge.
struct NodeCoord {
    std::int32_t row = 0;
    std::int32_t col = 0;
    friend constexpr bool operator==(NodeCoord, NodeCoord) = default;
};

/// The four directions a mesh link can point: east = col + 1, west = col - 1,
/// south = row + 1, north = row - 1.
enum class Direction : std::uint8_t { east, west, south, north };

/// A rows x cols mesh of routers, one per PIM-node (NicePIM Fig. 3: routers in a mesh).
///
/// Channels are numbered densely, so that loads live in one std::vector without holes:
///   [0, H)              east links   (r, c) -> (r, c+1):  r*(cols-1) + c
///   [H, 2H)             west links   (r, c) -> (r, c-1):  H + r*(cols-1) + (c-1)
///   [2H, 2H+V)          south links  (r, c) -> (r+1, c):  2H + r*cols + c
///   [2H+V, 2H+2V)       north links  (r, c) -> (r-1, c):  2H + V + (r-1)*cols + c
///   [L, L+N)            injection port of node n:        L + n
///   [L+N, L+2N)         ejection port of node n:         L + N + n
/// with H = rows*(cols-1), V = (rows-1)*cols, L = 2H + 2V links and N = rows*cols nodes.
/// A route along a row therefore touches a contiguous range of channel ids, and a route
/// along a column a range with stride cols.
class Mesh {
public:
    /// Throws ModelError unless 1 <= rows, cols <= 4096.
    Mesh(std::int32_t rows, std::int32_t cols);

    [[nodiscard]] std::int32_t rows() const noexcept { return rows_; }
    [[nodiscard]] std::int32_t cols() const noexcept { return cols_; }
    [[nodiscard]] std::int32_t node_count() const noexcept { return rows_ * cols_; }
    /// Directional mesh links (the links of NicePIM Eq. 4).
    [[nodiscard]] std::int32_t link_count() const noexcept { return 2 * (h_ + v_); }
    /// Links plus one injection and one ejection port per node.
    [[nodiscard]] std::int32_t channel_count() const noexcept { return link_count() + 2 * node_count(); }

    [[nodiscard]] NodeId node(std::int32_t row, std::int32_t col) const noexcept { return row * cols_ + col; }
    [[nodiscard]] NodeId node(NodeCoord c) const noexcept { return node(c.row, c.col); }
    [[nodiscard]] NodeCoord coord(NodeId n) const noexcept { return {n / cols_, n % cols_}; }
    [[nodiscard]] bool contains(NodeId n) const noexcept { return n >= 0 && n < node_count(); }

    /// The link leaving `n` towards `d`, or kNoChannel at the mesh edge.
    [[nodiscard]] ChannelId link(NodeId n, Direction d) const noexcept;
    [[nodiscard]] ChannelId injection_port(NodeId n) const noexcept { return link_count() + n; }
    [[nodiscard]] ChannelId ejection_port(NodeId n) const noexcept { return link_count() + node_count() + n; }
    [[nodiscard]] bool is_link(ChannelId c) const noexcept { return c >= 0 && c < link_count(); }

    /// For a link: the node it leaves, the node it enters and its direction.
    /// Preconditions: is_link(l).
    [[nodiscard]] NodeId link_source(ChannelId l) const noexcept;
    [[nodiscard]] NodeId link_target(ChannelId l) const noexcept;
    [[nodiscard]] Direction link_direction(ChannelId l) const noexcept;

    /// Manhattan distance: the hop count of the XY route (and of any minimal route).
    [[nodiscard]] std::int32_t hops(NodeId src, NodeId dst) const noexcept;

    /// The links of the XY route from src to dst in traversal order: first along the row
    /// (X = column index) to dst's column, then along the column (Y = row index) to dst's
    /// row. Empty when src == dst. Allocates; the hot path uses for_each_route_link.
    [[nodiscard]] std::vector<ChannelId> route(NodeId src, NodeId dst) const;

    /// Calls f(link) for every link of the XY route from src to dst, in traversal order.
    template <class F>
    void for_each_route_link(NodeId src, NodeId dst, F&& f) const {
        for_each_route_link(coord(src), coord(dst), f);
    }
    /// The same from coordinates (saves the divisions when the caller has them).
    template <class F>
    void for_each_route_link(NodeCoord src, NodeCoord dst, F&& f) const;

private:
    std::int32_t rows_;
    std::int32_t cols_;
    std::int32_t h_;  // east links = west links = rows * (cols - 1)
    std::int32_t v_;  // south links = north links = (rows - 1) * cols
};

/// NoC parameters of one hardware point.
struct NocParams {
    /// Flit width in bits. NicePIM VIII-B sets it to half the total DRAM bank width of a
    /// node; hw derives that value, the NoC takes it as given. 64 is the Fig. 12 setup.
    std::int32_t flit_bits = 64;
    /// Cycles from a flit leaving one router's output to it competing for the next
    /// router's output: router pipeline plus link traversal (hw::kDefaultNocHopCycles, which
    /// says where its value comes from). Must be >= 1.
    std::int32_t hop_cycles = hw::kDefaultNocHopCycles;
    /// Energy per bit per hop (router + link), NicePIM VIII-B citing [47].
    double pj_per_bit_hop = 1.1;
};

/// Throws ModelError if a parameter is out of range (flit_bits >= 1,
/// hop_cycles >= 1, pj_per_bit_hop >= 0).
void validate(const NocParams& params);

/// One message of a set of simultaneous transfers.
struct Transfer {
    NodeId src = 0;
    NodeId dst = 0;
    Bytes bytes{0};
};

/// Flits of a message: the payload is cut into whole flits, the last one padded.
[[nodiscard]] constexpr std::int64_t flits_of(Bytes bytes, std::int32_t flit_bits) noexcept {
    return bytes.value() <= 0 ? 0 : (bytes.value() * 8 + flit_bits - 1) / flit_bits;
}

/// What a set of simultaneous transfers costs on the NoC.
struct TransferCost {
    /// Heaviest directional mesh link, in flits: the objective of NicePIM Eq. 4.
    std::int64_t max_link_flits = 0;
    /// Heaviest channel including injection and ejection ports: the serialisation bound
    /// the latency uses (an all-to-one pattern is limited by the sink's ejection port).
    std::int64_t max_channel_flits = 0;
    /// Longest route among transfers that cross the NoC.
    std::int32_t max_hops = 0;
    /// Sum over transfers of flits x hops (= sum of all link loads).
    std::int64_t flit_hops = 0;
    /// Cycles until the last flit has arrived: the worst channel's
    /// load + (min_hops_before + max_hops_after) x hop_cycles (docs/model.md). Never more
    /// than max_channel_flits + max_hops x hop_cycles, the plain bottleneck bound.
    Cycles latency{0};
    /// flit_hops x flit_bits x pj_per_bit_hop.
    Picojoules energy{0};
};

/// Per-channel scratch of the analytic model, reused across evaluations so that the hot
/// path does not allocate. After an evaluation it holds that evaluation's loads.
class ChannelLoads {
public:
    ChannelLoads() = default;
    explicit ChannelLoads(const Mesh& mesh) { reset(mesh); }

    /// Sizes the arrays for `mesh` and zeroes them (only the channels loaded since the last
    /// reset, when the mesh has as many channels as before).
    void reset(const Mesh& mesh);

    /// Flits per channel, indexed by ChannelId.
    [[nodiscard]] std::span<const std::int64_t> flits() const noexcept { return flits_; }
    [[nodiscard]] std::int64_t operator[](ChannelId c) const noexcept {
        return flits_[static_cast<std::size_t>(c)];
    }
    /// Per channel, the fewest hops any of its flows has made before reaching it
    /// (0 for an injection port); meaningful where flits() > 0.
    [[nodiscard]] std::span<const std::int32_t> min_hops_before() const noexcept { return before_; }
    /// Per channel, the most hops any of its flows still makes from it (counting the link
    /// itself; 0 for an ejection port); meaningful where flits() > 0.
    [[nodiscard]] std::span<const std::int32_t> max_hops_after() const noexcept { return after_; }
    /// The channels with flits > 0, each once, in the order they were first loaded.
    [[nodiscard]] std::span<const std::int32_t> loaded() const noexcept { return {loaded_.data(), count_}; }

    /// Adds `flits` flits on every channel of the route src -> dst (injection port, links,
    /// ejection port); returns the route's hop count. Nothing is added when src == dst.
    /// Preconditions: reset() for this mesh, both nodes in range.
    std::int32_t add_route(const Mesh& mesh, NodeId src, NodeId dst, std::int64_t flits) noexcept;

private:
    std::vector<std::int64_t> flits_;
    std::vector<std::int32_t> before_;
    std::vector<std::int32_t> after_;
    std::vector<std::int32_t> loaded_;  // channels + 1 slots; the first count_ are loaded
    std::size_t count_ = 0;
};

/// Cost of a set of simultaneous transfers; `loads` is reset and left holding the loads.
/// Node-local transfers (src == dst) cost nothing. Throws std::out_of_range for a node
/// outside the mesh, ModelError for parameters validate() rejects.
[[nodiscard]] TransferCost evaluate_transfers(const Mesh& mesh, std::span<const Transfer> transfers,
                                              const NocParams& params, ChannelLoads& loads);

/// As above with a temporary scratch (allocates; for tools and tests).
[[nodiscard]] TransferCost evaluate_transfers(const Mesh& mesh, std::span<const Transfer> transfers,
                                              const NocParams& params);

/// Summarises loads already accumulated in `loads` (by ChannelLoads::add_route) into a
/// TransferCost; `flit_hops` and `max_hops` come from the caller's accumulation.
[[nodiscard]] TransferCost summarise_loads(const Mesh& mesh, const ChannelLoads& loads,
                                           std::int64_t flit_hops, std::int32_t max_hops,
                                           const NocParams& params) noexcept;

// ---- implementation of the template -------------------------------------------------

template <class F>
void Mesh::for_each_route_link(NodeCoord src, NodeCoord dst, F&& f) const {
    const std::int32_t row_base = src.row * (cols_ - 1);
    // X first: along row src.row to column dst.col.
    for (std::int32_t c = src.col; c < dst.col; ++c) f(row_base + c);             // east
    for (std::int32_t c = src.col; c > dst.col; --c) f(h_ + row_base + (c - 1));  // west
    // Then Y: along column dst.col to row dst.row.
    for (std::int32_t r = src.row; r < dst.row; ++r) f(2 * h_ + r * cols_ + dst.col);             // south
    for (std::int32_t r = src.row; r > dst.row; --r) f(2 * h_ + v_ + (r - 1) * cols_ + dst.col);  // north
}

}  // namespace pimdse::sim
