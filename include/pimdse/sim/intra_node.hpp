#pragma once
// The intra-node cost: how long one PIM-node takes to compute a part-layer, and what it
// moves between its PE array, its three SRAM buffers and its DRAM banks (docs/model.md,
// "Intra-node cost"). An IntraNodeMapper picks the spatial unrolling, the tiling and the
// loop order; the fast AnalyticIntraNodeMapper searches a small fixed space with the
// analytic DRAM model, and the ExactIntraNodeMapper (exact_intra_node.hpp) finds the optimum
// over every tiling this model can cost. Counts only: energy = counts x technology
// coefficients (intra_node_energy).
// docs/model.md, section "Intra-node cost".

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/dram.hpp"
#include "pimdse/sim/intra_node_tiling.hpp"

namespace pimdse::sim {

/// Element accesses of one SRAM buffer (one element = data_bits; psum_bits in the obuf).
struct SramCounts {
    std::int64_t reads = 0;
    std::int64_t writes = 0;
    friend bool operator==(const SramCounts&, const SramCounts&) = default;
};

/// Which operand a PE keeps in its register while the innermost loops of a tile run over the
/// dims that operand does not depend on (docs/model.md, "Register reuse"). The others are
/// read from their buffer at every MAC.
enum class PeDataflow : std::uint8_t {
    output_stationary,  ///< the psum stays in the PE over C, R and S
    weight_stationary,  ///< the weight stays over B, P and Q
    input_stationary,   ///< the input stays over K
};
inline constexpr std::size_t kPeDataflows = 3;
[[nodiscard]] std::string_view to_string(PeDataflow d) noexcept;  ///< "output", "weight", "input"
/// The operand a dataflow keeps in the PEs' registers.
[[nodiscard]] Tensor stationary_tensor(PeDataflow d) noexcept;

/// The PE array's buffer and register traffic under one dataflow, before DRAM fills and
/// write-backs (docs/model.md, "Register reuse"). Buffer counts are distinct elements per
/// cycle (a broadcast is one read); register counts are per PE (a broadcast fills every PE
/// that receives it).
struct BufferReads {
    std::int64_t input = 0;         ///< ibuf reads
    std::int64_t weight = 0;        ///< wbuf reads
    std::int64_t psum = 0;          ///< accumulations: obuf writes
    std::int64_t psum_reads = 0;    ///< obuf reads: accumulations but an output's first
    std::int64_t input_fills = 0;   ///< input register writes, per PE
    std::int64_t weight_fills = 0;  ///< weight register writes, per PE
    std::int64_t psum_fills =
        0;  ///< psum register loads from the obuf, per PE (none on a first accumulation)
    std::int64_t psum_drains = 0;  ///< psum register reads into the obuf, per PE
    friend bool operator==(const BufferReads&, const BufferReads&) = default;
};

/// The analytic count of BufferReads (docs/model.md, "Register reuse"); register_reference.hpp
/// counts the same by stepping through every PE-array cycle.
[[nodiscard]] BufferReads buffer_reads(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                       PeDataflow dataflow) noexcept;

enum class MapStatus : std::uint8_t {
    ok,
    infeasible,  ///< no tiling fits the buffers (e.g. one kernel is larger than a buffer)
};

struct IntraNodeCost {
    MapStatus status = MapStatus::ok;
    std::string reason;  ///< why, when infeasible
    Tiling tiling;       ///< the chosen mapping
    TileFootprint footprint;
    Cycles compute_cycles{0};   ///< PE-array cycles
    Cycles dram_cycles{0};      ///< accesses + activations x activation latency (PIM Optimizer Eq. 33)
    Cycles total_cycles{0};     ///< max(compute, DRAM): fetches overlap compute (double buffering)
    double pe_utilisation = 0;  ///< MACs / (compute cycles x PE count)
    PeDataflow dataflow = PeDataflow::output_stationary;  ///< the PE register's reuse
    SramCounts ibuf, wbuf, obuf;
    /// Bits read from and written into the PEs' operand registers: every MAC reads its input
    /// and weight and reads and writes its psum; every PE fills its registers from the buffers
    /// and drains its psum into the obuf (BufferReads' per-PE counts).
    std::int64_t register_bits = 0;
    DramTraffic dram;
    std::int64_t dram_port_bytes = 0;  ///< bytes per DRAM access (port width / 8)

    [[nodiscard]] std::int64_t dram_read_bytes(Tensor t) const noexcept {
        return dram[t].read_accesses * dram_port_bytes;
    }
    [[nodiscard]] std::int64_t dram_write_bytes(Tensor t) const noexcept {
        return dram[t].write_accesses * dram_port_bytes;
    }

    friend bool operator==(const IntraNodeCost&, const IntraNodeCost&) = default;
};

/// The cost of one given tiling (no search): compute cycles, SRAM counts, analytic DRAM
/// traffic. Does not check that the tiling fits the buffers (see fits()).
[[nodiscard]] IntraNodeCost evaluate_tiling(const PartLayer& layer, const NodeSpec& node,
                                            const Tiling& tiling, DataLayout in, DataLayout out);

/// evaluate_tiling under each of the fast search's four orders (indexed as kFastOrders;
/// tiling.order is ignored), each equal to evaluate_tiling's: the order-free part and the
/// tile sums are shared. With `cache`, tile sums are reused as dram_traffic_all_orders does.
[[nodiscard]] std::array<IntraNodeCost, kFastOrderCount> evaluate_tiling_all_orders(
    const PartLayer& layer, const NodeSpec& node, const Tiling& tiling, DataLayout in, DataLayout out,
    TileSumsCache* cache = nullptr);

/// evaluate_tiling under each of `orders` (any permutations), sharing as
/// evaluate_tiling_all_orders does.
[[nodiscard]] std::vector<IntraNodeCost> evaluate_tiling_orders(const PartLayer& layer, const NodeSpec& node,
                                                                const Tiling& tiling, DataLayout in,
                                                                DataLayout out,
                                                                std::span<const LoopOrder> orders,
                                                                TileSumsCache* cache = nullptr);

/// The PE-array cycles of `tiling` (its compute_cycles), without the rest of its cost.
[[nodiscard]] std::int64_t tiling_compute_cycles(const PartLayer& layer, const NodeSpec& node,
                                                 const Tiling& tiling) noexcept;

/// A lower bound of the total cycles of every tiling of `layer` on `node`: the compute
/// cycles of the best spatial unrolling with every lane busy except at the last pass
/// (R x S x prod over dims of ceil(extent / PE extent) for unrolled dims, extent otherwise).
[[nodiscard]] Cycles compute_cycles_lower_bound(const PartLayer& layer, const NodeSpec& node) noexcept;

/// True if two tiles of each tensor fit its buffer (double buffering).
[[nodiscard]] bool fits(const TileFootprint& f, const NodeSpec& node) noexcept;

/// What one node search depends on: the memo key of the intra-node mappers.
struct NodeSearchKey {
    PartLayer layer;
    NodeSpec node;
    DataLayout in;
    DataLayout out;
    friend bool operator==(const NodeSearchKey&, const NodeSearchKey&) = default;
};
struct NodeSearchKeyHash {
    [[nodiscard]] std::size_t operator()(const NodeSearchKey& k) const noexcept;
};

/// Maps a part-layer onto a node. Implementations may keep state (memo tables): use one
/// instance per worker thread.
class IntraNodeMapper {
public:
    virtual ~IntraNodeMapper() = default;
    [[nodiscard]] virtual IntraNodeCost map(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                            DataLayout out) = 0;
};

/// Energy coefficients (from the technology table, taken as given here).
struct IntraNodeEnergyCoefficients {
    double pj_per_mac = 0;
    double pj_per_ibuf_access = 0;  ///< per element read or written
    double pj_per_wbuf_access = 0;
    double pj_per_obuf_access = 0;
    double pj_per_dram_bit = 0.88;  ///< NicePIM VIII-B, per bit moved through the port
    double pj_per_row_activation = 0;
    double pj_per_register_bit = 0;  ///< a PE operand register, per bit read or written
};

/// Searches eight spatial unrollings, four loop orders and power-of-two tile sizes (plus the
/// whole extent) of B, K, C, P, Q that fit the buffers, R and S whole; minimises total
/// cycles, then, given energy coefficients, intra-node energy, then DRAM accesses +
/// activations, then SRAM accesses.
/// Given energy coefficients, the unrollings that reach the best cycles also search their
/// balanced tiles (per tile count, the smallest divisor with that count and no more lane
/// passes: 7 for two tiles of 14, not 8) for less energy at exactly those cycles.
/// Results are memoised per (layer, node, layouts); the table is not synchronised: one
/// mapper per thread.
class AnalyticIntraNodeMapper final : public IntraNodeMapper {
public:
    /// Ties in cycles go to the lower access counts (the search of NicePIM's PIM-Mapper).
    AnalyticIntraNodeMapper() = default;
    /// Ties in cycles go to the lower intra_node_energy under `energy` first.
    explicit AnalyticIntraNodeMapper(const IntraNodeEnergyCoefficients& energy) : energy_(energy) {}

    [[nodiscard]] IntraNodeCost map(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                    DataLayout out) override;
    /// The search itself, without the memo table; with `sums`, tile sums are taken from and
    /// added to it (the result is the same); with `energy`, cycle ties go to less energy.
    [[nodiscard]] static IntraNodeCost search(const PartLayer& layer, const NodeSpec& node, DataLayout in,
                                              DataLayout out, TileSumsStore* sums = nullptr,
                                              const IntraNodeEnergyCoefficients* energy = nullptr);

    [[nodiscard]] std::size_t memo_size() const noexcept { return memo_.size(); }
    [[nodiscard]] std::int64_t memo_hits() const noexcept { return hits_; }
    void clear() {
        memo_.clear();
        sums_.clear();
    }

private:
    std::unordered_map<NodeSearchKey, IntraNodeCost, NodeSearchKeyHash> memo_;
    TileSumsStore sums_;  // shared by the searches of all part-layers (dram.hpp)
    std::optional<IntraNodeEnergyCoefficients> energy_;
    std::int64_t hits_ = 0;
};

/// intra_node_energy split by where it is spent.
struct IntraNodeEnergy {
    Picojoules pe{0};               ///< MACs
    Picojoules registers{0};        ///< the PEs' operand registers
    Picojoules sram{0};             ///< the three buffers
    Picojoules dram_access{0};      ///< bits through the port
    Picojoules dram_activation{0};  ///< row activations (with their precharge)
    [[nodiscard]] Picojoules total() const noexcept {
        return pe + registers + sram + dram_access + dram_activation;
    }
};
[[nodiscard]] IntraNodeEnergy intra_node_energy_split(const IntraNodeCost& cost, std::int64_t macs,
                                                      const IntraNodeEnergyCoefficients& k) noexcept;

/// counts x coefficients: MACs, register bits, SRAM element accesses, DRAM bits moved, row
/// activations.
[[nodiscard]] Picojoules intra_node_energy(const IntraNodeCost& cost, std::int64_t macs,
                                           const IntraNodeEnergyCoefficients& k) noexcept;

}  // namespace pimdse::sim
