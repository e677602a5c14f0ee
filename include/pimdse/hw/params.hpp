#pragma once
// The hardware design parameters of one DRAM-PIM accelerator (NicePIM Table I): the shape
// of the PIM-node array, the PE array of every node and its three SRAM buffers. A value
// type: compared, hashed (it keys memo tables) and printed.

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace pimdse::hw {

/// The seven parameters of Table I, in the order they are encoded everywhere.
enum class Param { node_rows, node_cols, pe_rows, pe_cols, ibuf_kib, wbuf_kib, obuf_kib };

inline constexpr std::size_t kParamCount = 7;
inline constexpr std::array<Param, kParamCount> kAllParams{
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

    [[nodiscard]] int get(Param p) const;
    void set(Param p, int value);

    friend bool operator==(const HardwareParams&, const HardwareParams&) = default;
};

/// "4x4 nodes, 32x32 PEs, 128/128/128 KiB" (buffers: input/weight/output).
[[nodiscard]] std::string to_string(const HardwareParams& p);

/// A well-mixed 64-bit hash of all seven parameters.
[[nodiscard]] std::size_t hash_value(const HardwareParams& p);

}  // namespace pimdse::hw

template <>
struct std::hash<pimdse::hw::HardwareParams> {
    std::size_t operator()(const pimdse::hw::HardwareParams& p) const noexcept {
        return pimdse::hw::hash_value(p);
    }
};
