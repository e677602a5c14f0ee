#pragma once
// The hardware constraints of a DRAM-PIM system: what the substrate fixes before any design
// parameter is chosen (NicePIM Table II and section VIII-B). Every default is the paper's
// value; a configuration file may override any of them (docs/config.md).

#include "pimdse/core/units.hpp"

namespace pimdse::hw {

/// An inclusive integer range [min, max] that a design parameter must lie in.
struct Bounds {
    int min = 1;
    int max = 1;

    [[nodiscard]] constexpr bool contains(int v) const { return min <= v && v <= max; }
    friend constexpr bool operator==(const Bounds&, const Bounds&) = default;
};

struct Constraints {
    int technology_nm = 28;  ///< logic-die technology node (Table II, VIII-B)

    // The stacked DRAM: BA_row x BA_col banks (Table II; 256 banks, VIII-B).
    int bank_rows = 16;                  ///< BA_row
    int bank_cols = 16;                  ///< BA_col
    int bank_width_bits = 128;           ///< Width_Bank: data port of one bank (Table II)
    Bytes bank_capacity = mebibytes(8);  ///< CA_Bank (Table II)

    SquareMillimetres area_budget{48.0};  ///< Cstr_area for all NN engines; from the chip of [15] (VIII-B)
    double clock_mhz = 400.0;             ///< PIM-node clock (VIII-B)
    int data_width_bits = 16;             ///< inputs, weights and outputs of a layer (VIII-B)
    int psum_width_bits = 32;             ///< intermediate partial sums (VIII-B)

    // Bounds of the design parameters (Table II "Variable"). The node-array maximum is the
    // bank array's extent: a node owns at least one bank (VIII-B).
    Bounds node_rows{2, 16};     ///< NA_row
    Bounds node_cols{2, 16};     ///< NA_col
    Bounds pe_rows{1, 256};      ///< PEA_row
    Bounds pe_cols{1, 256};      ///< PEA_col
    Bounds buffer_kib{1, 2048};  ///< Size_ibuf, Size_wbuf, Size_obuf, each, in KiB

    Picojoules dram_energy_per_bit{0.88};    ///< DRAM access, measured by UniC [10] (VIII-B)
    Picojoules noc_energy_per_bit_hop{1.1};  ///< NoC transfer per bit and hop, from [47] (VIII-B)
    int noc_virtual_channels = 8;            ///< mesh routers, dimension-order routing (VIII-B)

    [[nodiscard]] constexpr int bank_count() const { return bank_rows * bank_cols; }

    friend bool operator==(const Constraints&, const Constraints&) = default;
};

}  // namespace pimdse::hw
