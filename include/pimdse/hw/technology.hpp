#pragma once
// The technology table: every modelling constant of the logic die and the stacked DRAM that
// the area, energy and timing models use, with its unit and its source. The defaults are
// for the 28 nm logic die of NicePIM VIII-B; a configuration file may override any of them
// (`technology:`, docs/config.md). docs/model.md ("Area") gives the same table with the
// arithmetic behind every scaled value.
//
// Scaling rules used where a figure comes from another node:
//   area   x (28 / L)^2        (ideal scaling; Stillmaker & Baas 2017, Integration 58, give
//                             0.48 for 40 -> 28 nm against the ideal 0.49)
//   energy x (28 / L)          (switched capacitance ~ L at the same supply, 0.9 V)
//
// Figures marked "estimate" are engineering estimates without a single published source;
// they are flagged so that nobody mistakes them for measurements.
//
// Not here, because they are constraints of the substrate that NicePIM states itself
// (hw::Constraints): DRAM access energy 0.88 pJ/bit (UniC [10]), NoC energy 1.1 pJ/bit/hop
// ([47]), the 8 virtual channels of the routers, the 400 MHz clock and the 48 mm² budget.
//
// The MAC energy and the PE area are for 16-bit data; mac_energy_at and pe_area_um2_at scale
// them to another width by the rules stated with them. Energies do not depend on the clock:
// the supply is fixed (no voltage scaling is modelled), so a faster clock spends the same
// energy per operation in less time.

#include <cmath>

#include "pimdse/core/units.hpp"

namespace pimdse::hw {

/// Cycles per NoC hop unless configured: router pipeline plus link traversal, a one-stage
/// router with look-ahead XY routing plus a one-cycle link. The one default of
/// Technology::noc_hop_cycles, sim::NocParams::hop_cycles and `pimdse schedule --hop-cycles`.
inline constexpr int kDefaultNocHopCycles = 2;

struct Technology {
    // ---- Area (28 nm) ----------------------------------------------------------------------

    /// One PE: a 16x16-bit multiplier, a 32-bit accumulating adder and 64 bits of local
    /// registers (16-bit input, 16-bit weight, 32-bit partial sum), µm². Accelergy's Aladdin
    /// table (Shao et al., ISCA 2014; 40 nm, 1 ns): 32x32 multiplier 6350 µm², area ~ width²
    /// -> 1587.5; 32-bit adder 278; register 5.98 per bit x 64 = 382.7; sum 2248.2 µm² at
    /// 40 nm, x (28/40)² = 0.49 -> 1101.6 µm².
    double pe_area_um2 = 1101.6;

    /// SRAM storage per KiB of a buffer, mm²: 8192 six-transistor cells of 0.127 µm² (TSMC
    /// 28 nm high-density cell, as published for TSMC's 28 nm platform) = 1040 µm², over an
    /// array efficiency of 70 % (estimate for compiler macros of 16-512 Kbit: the rest is
    /// sense amplifiers, column multiplexers and word-line drivers, which grow with the
    /// array) = 1486 µm².
    SquareMillimetres sram_area_per_kib{0.001486};
    /// Fixed periphery of one buffer (row decoder, control, I/O latches), mm²; estimate. It
    /// makes small buffers cost more per KiB than large ones, as compiled macros do.
    SquareMillimetres sram_area_per_buffer{0.005};

    /// Router logic that does not grow with the flit width (routing computation, VC and
    /// switch allocators, credit counters), mm²; estimate.
    SquareMillimetres router_area_base{0.005};
    /// Area of one bit of router input buffer, µm²: a flip-flop, Aladdin's register (5.98 µm²
    /// per bit at 40 nm) x 0.49 = 2.93 µm². The buffers hold 5 ports x VCs x depth x flit
    /// bits; the crossbar and links are not modelled (docs/model.md).
    double router_buffer_area_um2_per_bit = 2.93;
    /// Flits of buffer per virtual channel; estimate: enough to cover the credit round trip
    /// of a 2-cycle hop. (BookSim 2's default is 8; a deeper buffer only adds area here.)
    int router_buffer_depth_flits = 4;
    static constexpr int kRouterPorts = 5;  ///< a 2-D mesh router: four neighbours + local

    /// One DRAM-bank controller in the logic die under its bank, mm²; estimate. NicePIM III-A:
    /// every bank has its own controller, so the total is the same for every design point.
    SquareMillimetres dram_controller_area_per_bank{0.02};

    // ---- Energy ----------------------------------------------------------------------------

    /// One 16-bit multiply-accumulate, pJ: Horowitz, "Computing's energy problem", ISSCC 2014
    /// (45 nm): 32-bit integer multiply 3.1 pJ, energy ~ product of the operand widths ->
    /// 0.775 pJ for 16x16; 32-bit add 0.1 pJ; 0.875 pJ x 28/45 = 0.544 pJ. (Accelergy's
    /// Aladdin table, 40 nm, gives 2.37 pJ by the same rules; docs/model.md argues the choice.)
    Picojoules mac_energy{0.544};

    /// One bit read or written in a PE's operand register, pJ: Accelergy's Aladdin table
    /// (Shao et al., ISCA 2014; 40 nm, 1 ns) register 0.009 pJ per bit, x 28/40 = 0.0063.
    Picojoules register_energy_per_bit{0.0063};

    /// SRAM read energy per bit of a 1 KiB buffer, pJ; a buffer of S KiB costs sqrt(S) times
    /// as much per bit. Horowitz, "Computing's energy problem", ISSCC 2014 (45 nm): a 64-bit
    /// read costs 10 pJ from 8 KB, 20 pJ from 32 KB and 100 pJ from 1 MB, i.e. 3.54·sqrt(KB)
    /// pJ (the 1 MB point is 100 against the fit's 113); per bit 0.0553 pJ at 1 KiB, x 28/45
    /// = 0.0344 pJ.
    Picojoules sram_read_energy_per_bit_1kib{0.0344};
    /// SRAM write energy per bit of a 1 KiB buffer, pJ, same size rule; estimate: equal to a
    /// read (Horowitz gives reads only; CACTI's writes of small arrays are within ~10 %).
    Picojoules sram_write_energy_per_bit_1kib{0.0344};

    /// One DRAM row activation (with its precharge), pJ: 909 pJ for HBM2's 1 KB row, O'Connor
    /// et al., "Fine-Grained DRAM", MICRO 2017 (the figure as quoted there for HBM2; not
    /// re-derived from DRAMPower here).
    Picojoules dram_activation_energy{909.0};

    // ---- Timing ----------------------------------------------------------------------------

    /// DRAM timing, ns: Ramulator's HBM speed bin HBM_1Gbps (tCK 2 ns): nRCD 7, nRP 7, nRAS 17
    /// and nCCDL 3 clocks. A node's banks are bound into one port and read as one bank, so
    /// back-to-back column accesses are one bank group apart: tCCD_L, not tCCD_S (2 clocks).
    double dram_trcd_ns = 14.0;
    double dram_trp_ns = 14.0;
    double dram_tras_ns = 34.0;
    double dram_tccd_ns = 6.0;
    /// Direction-dependent DRAM timing, ns, command to command, from the same speed bin
    /// (Ramulator's HBM timing table): read to precharge tRTP = nRTP 7 clocks; write to
    /// precharge tCWL + tBL + tWR = (4 + 2 + 8) clocks (write recovery); write to read in one
    /// bank group tCWL + tBL + tWTR_L = (4 + 2 + 4) clocks; read to write tCL + tCCD_S + 2 tCK
    /// - tCWL = (7 + 2 + 2 - 4) clocks.
    double dram_trtp_ns = 14.0;
    double dram_write_to_precharge_ns = 28.0;
    double dram_write_to_read_ns = 20.0;
    double dram_read_to_write_ns = 14.0;
    /// Refresh, ns: Ramulator's HBM, 4 Gb per channel: nRFC 130 clocks (260 ns) every nREFI
    /// 1950 clocks (3.9 us); the banks serve no access during tRFC.
    double dram_trfc_ns = 260.0;
    double dram_trefi_ns = 3900.0;
    /// Background power of one bank, mW, spent whether or not it is accessed (DRAMPower's
    /// active-standby term): DRAMsim3's HBM (4 Gb, x128) configuration, VDD 1.2 V x IDD3N 43 mA
    /// per channel of 16 banks = 3.225 mW per bank.
    double dram_background_mw_per_bank = 3.225;
    /// Refresh power of one bank, mW, averaged over tREFI: (IDD5AB 250 mA - IDD3N 43 mA) x
    /// 1.2 V x tRFC / tREFI (260 / 3900 ns) / 16 banks = 1.035 mW (same configuration).
    double dram_refresh_mw_per_bank = 1.035;
    /// Row buffer of one bank, bytes: Ramulator's HBM organisation, 64 columns x 128 bit =
    /// 1 KiB (HBM2 pseudo-channel page size; UniC [10] does not publish its own).
    Bytes dram_row_buffer{1024};

    /// Cycles per NoC hop (router pipeline + link), kDefaultNocHopCycles.
    int noc_hop_cycles = kDefaultNocHopCycles;

    // ---- Data width (docs/model.md, "Clock and data width") --------------------------------

    /// The data width the MAC energy and the PE area above are for: 16-bit operands, with a
    /// 32-bit partial sum.
    static constexpr int kReferenceDataBits = 16;
    /// Of mac_energy, the multiplier's share: Horowitz's 16x16 multiply (0.775 pJ) over the MAC
    /// (0.875 pJ). It scales with the square of the operand width (a multiplier's energy ~ the
    /// product of its operand widths: Horowitz's 8-bit multiply, 0.2 pJ, is 3.1 pJ x (8/32)²
    /// within 3 %); the 32-bit accumulate stays at the partial-sum width.
    static constexpr double kMacMultiplierShare = 0.775 / 0.875;
    /// Of pe_area_um2, the multiplier's share (Aladdin, 40 nm: 1587.5 of 2248.2 µm²), square in
    /// the operand width as above, and the two operand registers' (2 x 16 bits x 5.98 µm²),
    /// linear in it; the 32-bit adder and partial-sum register stay.
    static constexpr double kPeMultiplierShare = 1587.5 / 2248.2;
    static constexpr double kPeOperandRegisterShare = 2.0 * 16.0 * 5.98 / 2248.2;

    /// One MAC on `data_bits`-bit operands, pJ: mac_energy with its multiplier scaled by
    /// (data_bits / 16)²; exactly mac_energy at 16 bits.
    [[nodiscard]] Picojoules mac_energy_at(int data_bits) const {
        const double r = static_cast<double>(data_bits) / kReferenceDataBits;
        return mac_energy * (1.0 + kMacMultiplierShare * (r * r - 1.0));
    }
    /// One PE for `data_bits`-bit operands, µm²: pe_area_um2 with its multiplier scaled by
    /// (data_bits / 16)² and its operand registers by data_bits / 16; exact at 16 bits.
    [[nodiscard]] double pe_area_um2_at(int data_bits) const {
        const double r = static_cast<double>(data_bits) / kReferenceDataBits;
        return pe_area_um2 * (1.0 + kPeMultiplierShare * (r * r - 1.0) + kPeOperandRegisterShare * (r - 1.0));
    }

    /// Read energy per bit of a buffer of `kib` KiB (Horowitz's square-root rule above).
    [[nodiscard]] Picojoules sram_read_energy_per_bit(double kib) const {
        return sram_read_energy_per_bit_1kib * std::sqrt(kib);
    }
    [[nodiscard]] Picojoules sram_write_energy_per_bit(double kib) const {
        return sram_write_energy_per_bit_1kib * std::sqrt(kib);
    }

    friend bool operator==(const Technology&, const Technology&) = default;
};

}  // namespace pimdse::hw
