#pragma once
// The hardware design parameters of one DRAM-PIM accelerator: NicePIM Table I's seven (the
// shape of the PIM-node array, the PE array of every node and its three SRAM buffers) and
// two that NicePIM fixes (VIII-B) and this space may vary, the node clock and the data width
// (docs/model.md, "Clock and data width"). A value type: compared, hashed (it keys memo
// tables) and printed.

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace pimdse::hw {

/// The parameters in the order they are encoded everywhere: Table I's seven, then the clock
/// and the data width.
enum class Param {
    node_rows,
    node_cols,
    pe_rows,
    pe_cols,
    ibuf_kib,
    wbuf_kib,
    obuf_kib,
    clock_mhz,
    data_width_bits
};

inline constexpr std::size_t kParamCount = 9;
inline constexpr std::array<Param, kParamCount> kAllParams{
    Param::node_rows, Param::node_cols, Param::pe_rows,   Param::pe_cols,        Param::ibuf_kib,
    Param::wbuf_kib,  Param::obuf_kib,  Param::clock_mhz, Param::data_width_bits};
/// Table I's seven: the sizes of the node array, the PE arrays and the buffers.
inline constexpr std::size_t kTableIParamCount = 7;
inline constexpr std::array<Param, kTableIParamCount> kTableIParams{
    Param::node_rows, Param::node_cols, Param::pe_rows, Param::pe_cols,
    Param::ibuf_kib,  Param::wbuf_kib,  Param::obuf_kib};

/// "node_rows", "pe_cols", "ibuf_kib", ...: the key used in configuration files.
[[nodiscard]] std::string_view param_name(Param p);

struct HardwareParams {
    int node_rows = 0;  ///< NA_row: rows of the PIM-node array
    int node_cols = 0;  ///< NA_col: columns of the PIM-node array
    int pe_rows = 0;    ///< PEA_row: rows of each node's PE array
    int pe_cols = 0;    ///< PEA_col: columns of each node's PE array
    int ibuf_kib = 0;   ///< Size_ibuf: input buffer of each node, KiB
    int wbuf_kib = 0;   ///< Size_wbuf: weight buffer of each node, KiB
    int obuf_kib = 0;   ///< Size_obuf: output (accumulation) buffer of each node, KiB
    /// The node clock, MHz; 0: the constraints' clock_mhz (a hardware file's point).
    int clock_mhz = 0;
    /// Bits of the inputs, weights and outputs; 0: the constraints' data_width_bits.
    int data_width_bits = 0;

    [[nodiscard]] int get(Param p) const;
    void set(Param p, int value);

    friend bool operator==(const HardwareParams&, const HardwareParams&) = default;
};

/// "4x4 nodes, 32x32 PEs, 128/128/128 KiB" (buffers: input/weight/output), followed by
/// ", 400 MHz" and ", 16-bit data" when the point sets them.
[[nodiscard]] std::string to_string(const HardwareParams& p);

/// A well-mixed 64-bit hash of all nine parameters.
[[nodiscard]] std::size_t hash_value(const HardwareParams& p);

}  // namespace pimdse::hw

template <>
struct std::hash<pimdse::hw::HardwareParams> {
    std::size_t operator()(const pimdse::hw::HardwareParams& p) const noexcept {
        return pimdse::hw::hash_value(p);
    }
};
