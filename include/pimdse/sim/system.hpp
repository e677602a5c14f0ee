#pragma once
// The hardware context the network timeline costs a mapping on: the node array as a mesh,
// one node's resources, the NoC parameters, the node's DRAM capacity and every energy
// coefficient. All of it is derived in one place (make_system) from the constraints, the
// design parameters and the technology table, so no constant is duplicated elsewhere.
// docs/model.md, "Network timeline".

#include <cstdint>

#include "pimdse/core/units.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/intra_node_tiling.hpp"
#include "pimdse/sim/noc.hpp"

namespace pimdse::sim {

struct System {
    Mesh mesh{1, 1};                     ///< NA_row x NA_col routers
    NodeSpec node;                       ///< PE array, buffers, DRAM port and row buffer, clock
    NocParams noc;                       ///< flit width, hop cycles, pJ per bit and hop
    Bytes dram_capacity{0};              ///< per node: banks x CA_Bank
    IntraNodeEnergyCoefficients energy;  ///< MAC, SRAM per element access, DRAM, activation
    std::int32_t data_bits = 16;         ///< activations and weights
    std::int32_t psum_bits = 32;         ///< partial sums
    double clock_mhz = 400.0;
    /// Background + refresh energy of all the system's banks per node cycle, pJ.
    double dram_background_pj_per_cycle = 0;

    [[nodiscard]] std::int32_t node_rows() const noexcept { return mesh.rows(); }
    [[nodiscard]] std::int32_t node_cols() const noexcept { return mesh.cols(); }
    /// Bytes of `elements` activations or weights, bit-packed: packed_bytes(elements, data_bits).
    [[nodiscard]] std::int64_t data_bytes(std::int64_t elements) const noexcept {
        return packed_bytes(elements, data_bits);
    }
    /// Bytes of `elements` partial sums, bit-packed: packed_bytes(elements, psum_bits).
    [[nodiscard]] std::int64_t psum_bytes(std::int64_t elements) const noexcept {
        return packed_bytes(elements, psum_bits);
    }
};

/// Derives the system of one hardware point. Throws ModelError when the node
/// array does not tile the bank array (hw::node_facts) or the result is malformed.
[[nodiscard]] System make_system(const hw::Constraints& c, const hw::HardwareParams& p,
                                 const hw::Technology& t);

}  // namespace pimdse::sim
