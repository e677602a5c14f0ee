#pragma once
// The inter-tile network of the crossbar family: where a network's tiles sit on a 2-D mesh
// of routers, what moves between them, and the energy and time it costs. It applies the
// mesh model of noc.hpp (XY routes, hops = Manhattan distance, messages cut into flits,
// energy = flit-hops x flit bits x energy per bit and hop, a transfer set bounded by its
// busiest channel) to one traffic pattern, in closed form so that it stays cheap for
// networks of tens of thousands of tiles; the tests check it against evaluate_transfers.
// docs/model.md ("ReRAM crossbars: latency, energy and area", its part "The inter-tile
// network") states the model and the constants' sources.
//
// Placement: the tiles form a near-square mesh (cols = ceil(sqrt(T)), rows = ceil(T /
// cols)) and are taken in snake order (row 0 west to east, row 1 east to west, ...), layer
// after layer in network order, each layer's replicas after its own tiles. Consecutive
// tiles are always neighbours, as in MNSIM 2.0's default placement.
//
// Traffic (MNSIM's tile connection graph: a layer's tiles meet at one aggregate tile, which
// forwards to the next layers): every tile of a layer but its aggregate (the middle one of
// its range) sends its equal share of the layer's partial results, one per output and row
// block at the activation width, to the aggregate; the aggregate sends the layer's output
// to each weighted layer that reads it (through any layers without weights, which run in
// the tiles' digital units), in equal shares to that layer's tiles. The network's input and
// output do not cross the mesh.

#include <cstdint>
#include <span>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/crossbar_technology.hpp"
#include "pimdse/sim/noc.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::sim {

/// The mesh a network's tiles form (see the header comment).
struct TileMesh {
    std::int32_t rows = 1;
    std::int32_t cols = 1;
};

/// The near-square mesh of `tiles` tiles. Throws ModelError unless 1 <= tiles and the mesh
/// fits sim::Mesh (at most 4096 x 4096).
[[nodiscard]] TileMesh tile_mesh(std::int64_t tiles);

/// Where the tile of snake index `index` sits.
[[nodiscard]] NodeCoord snake_coord(const TileMesh& mesh, std::int64_t index) noexcept;

/// The hops (Manhattan distance) from `to` summed, and their maximum, over the tiles of
/// snake indices [first, first + count); O(rows the range spans).
struct HopSum {
    std::int64_t sum = 0;
    std::int32_t max = 0;
};
[[nodiscard]] HopSum snake_hops(const TileMesh& mesh, std::int64_t first, std::int64_t count,
                                NodeCoord to) noexcept;

/// One weighted layer's traffic.
struct CrossbarNocLayer {
    std::int64_t first_tile = 0;     ///< snake index of its first tile
    std::int64_t tiles = 0;          ///< its tiles, replicas included
    std::int64_t aggregate = 0;      ///< snake index where its results meet: first + tiles / 2
    std::int64_t gather_flits = 0;   ///< flits the other tiles send to the aggregate
    std::int64_t scatter_flits = 0;  ///< flits the aggregate sends to its consumers' tiles
    std::int64_t flit_hops = 0;      ///< sum over its messages of flits x hops
    std::int32_t max_hops = 0;       ///< longest route of its messages
    /// Time its traffic needs at the link rate: the aggregate's busier port (all its
    /// flits pass it) plus the longest route's hops (noc.hpp's plain bottleneck bound), ns.
    double ns = 0;
    Picojoules energy{0};  ///< flit_hops x flit bits x energy per bit and hop
};

struct CrossbarNocCost {
    TileMesh mesh;
    std::vector<CrossbarNocLayer> layers;  ///< one per weighted layer, in network order
    Picojoules energy{0};                  ///< the layers' sum
};

/// What the NoC needs to know of the weighted layers, one entry each, in network order.
struct CrossbarNocInput {
    std::span<const workload::LayerIndex> layers;  ///< the weighted layers' indices
    std::span<const std::int64_t> row_blocks;      ///< crossbars down each one's rows
    std::span<const std::int64_t> tiles;           ///< tiles each one occupies, replicas included
};

/// The NoC cost of `network`'s weighted layers placed as above, with activations of
/// `activation_bits` bits. Throws ModelError if the spans differ in length, a layer has
/// fewer than one tile, or the technology's NoC constants are out of range.
[[nodiscard]] CrossbarNocCost cost_crossbar_noc(const workload::Network& network,
                                                const CrossbarNocInput& input, int activation_bits,
                                                const CrossbarTechnology& tech);

}  // namespace pimdse::sim
