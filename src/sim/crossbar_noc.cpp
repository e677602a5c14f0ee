// The crossbar family's inter-tile network (include/pimdse/sim/crossbar_noc.hpp).

#include "pimdse/sim/crossbar_noc.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

namespace {

/// Sum of |c - x| over the columns c of [a, b].
std::int64_t column_distance_sum(std::int64_t a, std::int64_t b, std::int64_t x) noexcept {
    const std::int64_t k = b - a + 1;
    if (b <= x) return k * x - (a + b) * k / 2;
    if (a >= x) return (a + b) * k / 2 - k * x;
    return (x - a) * (x - a + 1) / 2 + (b - x) * (b - x + 1) / 2;
}

/// Finds the weighted layers that read a layer's output, through any layers without
/// weights; its scratch is reused from layer to layer, so that a network allocates it once.
class ReaderSearch {
public:
    explicit ReaderSearch(const workload::Network& network)
        : network_(network), seen_(static_cast<std::size_t>(network.size()), -1) {}

    /// The readers of `from`, in no particular order; valid until the next call.
    const std::vector<workload::LayerIndex>& of(workload::LayerIndex from) {
        found_.clear();
        stack_.assign(network_.consumers(from).begin(), network_.consumers(from).end());
        while (!stack_.empty()) {
            const workload::LayerIndex j = stack_.back();
            stack_.pop_back();
            if (seen_[static_cast<std::size_t>(j)] == from) continue;
            seen_[static_cast<std::size_t>(j)] = from;
            if (network_.layer(j).has_weights()) {
                found_.push_back(j);
            } else {
                for (const workload::LayerIndex c : network_.consumers(j)) stack_.push_back(c);
            }
        }
        return found_;
    }

private:
    const workload::Network& network_;
    std::vector<workload::LayerIndex> seen_;  // the `from` that last reached each layer
    std::vector<workload::LayerIndex> stack_;
    std::vector<workload::LayerIndex> found_;
};

/// Flits of one of `parts` equal shares of `bits` bits (whole bytes, noc.hpp's flits_of).
std::int64_t share_flits(std::int64_t bits, std::int64_t parts, std::int32_t flit_bits) noexcept {
    return flits_of(Bytes(ceil_div(bits, 8 * parts)), flit_bits);
}

void check_input(const CrossbarNocInput& in, const CrossbarTechnology& tech) {
    if (in.row_blocks.size() != in.layers.size() || in.tiles.size() != in.layers.size()) {
        throw ModelError("cost_crossbar_noc: " + std::to_string(in.layers.size()) + " layers but " +
                         std::to_string(in.row_blocks.size()) + " row-block counts and " +
                         std::to_string(in.tiles.size()) + " tile counts");
    }
    for (const std::int64_t t : in.tiles) {
        if (t < 1)
            throw ModelError("cost_crossbar_noc: a layer needs at least one tile, got " + std::to_string(t));
    }
    validate(tech.noc);
    if (!(tech.noc_link_gbps > 0))
        throw ModelError("cost_crossbar_noc: noc_link_gbps must be > 0, got " +
                         std::to_string(tech.noc_link_gbps));
}

}  // namespace

TileMesh tile_mesh(std::int64_t tiles) {
    if (tiles < 1 || tiles > std::int64_t{4096} * 4096)
        throw ModelError("tile_mesh: tiles must be in [1, 4096 x 4096], got " + std::to_string(tiles));
    auto cols = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(tiles))));
    while (cols * cols < tiles) ++cols;  // guard the square root's rounding
    while ((cols - 1) * (cols - 1) >= tiles) --cols;
    return {static_cast<std::int32_t>(ceil_div(tiles, cols)), static_cast<std::int32_t>(cols)};
}

NodeCoord snake_coord(const TileMesh& mesh, std::int64_t index) noexcept {
    const auto row = static_cast<std::int32_t>(index / mesh.cols);
    const auto along = static_cast<std::int32_t>(index % mesh.cols);
    return {row, row % 2 == 0 ? along : mesh.cols - 1 - along};
}

HopSum snake_hops(const TileMesh& mesh, std::int64_t first, std::int64_t count, NodeCoord to) noexcept {
    HopSum h;
    if (count <= 0) return h;
    const std::int64_t last = first + count - 1;
    for (std::int64_t row = first / mesh.cols; row <= last / mesh.cols; ++row) {
        const std::int64_t base = row * mesh.cols;
        const std::int64_t lo = std::max(first, base) - base;
        const std::int64_t hi = std::min(last, base + mesh.cols - 1) - base;
        // Columns [a, b] of this row: along the snake, east on even rows, west on odd ones.
        const std::int64_t a = row % 2 == 0 ? lo : mesh.cols - 1 - hi;
        const std::int64_t b = row % 2 == 0 ? hi : mesh.cols - 1 - lo;
        const std::int64_t dy = std::abs(row - to.row);
        h.sum += (b - a + 1) * dy + column_distance_sum(a, b, to.col);
        const std::int64_t dx = std::max(std::abs(a - to.col), std::abs(b - to.col));
        h.max = std::max(h.max, static_cast<std::int32_t>(dy + dx));
    }
    return h;
}

CrossbarNocCost cost_crossbar_noc(const workload::Network& network, const CrossbarNocInput& in,
                                  int activation_bits, const CrossbarTechnology& tech) {
    check_input(in, tech);
    CrossbarNocCost n;
    std::vector<std::int64_t> first(in.layers.size(), 0);
    std::vector<std::int64_t> slot(static_cast<std::size_t>(network.size()), -1);
    std::int64_t total = 0;
    for (std::size_t k = 0; k < in.layers.size(); ++k) {
        first[k] = total;
        total += in.tiles[k];
        slot[static_cast<std::size_t>(in.layers[k])] = static_cast<std::int64_t>(k);
    }
    if (in.layers.empty()) return n;
    n.mesh = tile_mesh(total);
    const std::int32_t flit_bits = tech.noc.flit_bits;
    const std::int64_t a = activation_bits;
    ReaderSearch readers(network);
    for (std::size_t k = 0; k < in.layers.size(); ++k) {
        const workload::Layer& layer = network.layer(in.layers[k]);
        CrossbarNocLayer l;
        l.first_tile = first[k];
        l.tiles = in.tiles[k];
        l.aggregate = l.first_tile + l.tiles / 2;
        const NodeCoord agg = snake_coord(n.mesh, l.aggregate);
        if (l.tiles > 1) {  // the other tiles' partial results to the aggregate
            const std::int64_t f =
                share_flits(layer.output_elements() * in.row_blocks[k] * a, l.tiles, flit_bits);
            const HopSum h = snake_hops(n.mesh, l.first_tile, l.tiles, agg);
            l.gather_flits = f * (l.tiles - 1);
            l.flit_hops += f * h.sum;
            l.max_hops = std::max(l.max_hops, h.max);
        }
        for (const workload::LayerIndex r : readers.of(in.layers[k])) {
            if (slot[static_cast<std::size_t>(r)] < 0) continue;  // not placed: not a reader on the mesh
            const auto c = static_cast<std::size_t>(slot[static_cast<std::size_t>(r)]);
            const std::int64_t bits =
                std::min(layer.output_elements(), network.layer(r).input_elements()) * a;
            const std::int64_t f = share_flits(bits, in.tiles[c], flit_bits);
            const HopSum h = snake_hops(n.mesh, first[c], in.tiles[c], agg);
            l.scatter_flits += f * in.tiles[c];
            l.flit_hops += f * h.sum;
            l.max_hops = std::max(l.max_hops, h.max);
        }
        const std::int64_t port = std::max(l.gather_flits, l.scatter_flits);
        if (port > 0)
            l.ns = static_cast<double>(port + std::int64_t{l.max_hops} * tech.noc.hop_cycles) *
                   tech.noc_cycle_ns();
        l.energy = Picojoules(static_cast<double>(l.flit_hops) * flit_bits * tech.noc.pj_per_bit_hop);
        n.energy += l.energy;
        n.layers.push_back(l);
    }
    return n;
}

}  // namespace pimdse::sim
