#include "pimdse/hw/params.hpp"

#include <cstdint>
#include <stdexcept>

#include "pimdse/core/error.hpp"
#include "pimdse/core/rng.hpp"

namespace pimdse::hw {

std::string_view param_name(Param p) {
    switch (p) {
        case Param::node_rows:
            return "node_rows";
        case Param::node_cols:
            return "node_cols";
        case Param::pe_rows:
            return "pe_rows";
        case Param::pe_cols:
            return "pe_cols";
        case Param::ibuf_kib:
            return "ibuf_kib";
        case Param::wbuf_kib:
            return "wbuf_kib";
        case Param::obuf_kib:
            return "obuf_kib";
        case Param::clock_mhz:
            return "clock_mhz";
        case Param::data_width_bits:
            return "data_width_bits";
    }
    throw InternalError("param_name: unknown hw::Param");
}

int HardwareParams::get(Param p) const {
    switch (p) {
        case Param::node_rows:
            return node_rows;
        case Param::node_cols:
            return node_cols;
        case Param::pe_rows:
            return pe_rows;
        case Param::pe_cols:
            return pe_cols;
        case Param::ibuf_kib:
            return ibuf_kib;
        case Param::wbuf_kib:
            return wbuf_kib;
        case Param::obuf_kib:
            return obuf_kib;
        case Param::clock_mhz:
            return clock_mhz;
        case Param::data_width_bits:
            return data_width_bits;
    }
    throw InternalError("HardwareParams::get: unknown hw::Param");
}

void HardwareParams::set(Param p, int value) {
    switch (p) {
        case Param::node_rows:
            node_rows = value;
            return;
        case Param::node_cols:
            node_cols = value;
            return;
        case Param::pe_rows:
            pe_rows = value;
            return;
        case Param::pe_cols:
            pe_cols = value;
            return;
        case Param::ibuf_kib:
            ibuf_kib = value;
            return;
        case Param::wbuf_kib:
            wbuf_kib = value;
            return;
        case Param::obuf_kib:
            obuf_kib = value;
            return;
        case Param::clock_mhz:
            clock_mhz = value;
            return;
        case Param::data_width_bits:
            data_width_bits = value;
            return;
    }
    throw InternalError("HardwareParams::set: unknown hw::Param");
}

std::string to_string(const HardwareParams& p) {
    std::string out = std::to_string(p.node_rows) + 'x' + std::to_string(p.node_cols) + " nodes, " +
                      std::to_string(p.pe_rows) + 'x' + std::to_string(p.pe_cols) + " PEs, " +
                      std::to_string(p.ibuf_kib) + '/' + std::to_string(p.wbuf_kib) + '/' +
                      std::to_string(p.obuf_kib) + " KiB";
    if (p.clock_mhz != 0) out += ", " + std::to_string(p.clock_mhz) + " MHz";
    if (p.data_width_bits != 0) out += ", " + std::to_string(p.data_width_bits) + "-bit data";
    return out;
}

std::size_t hash_value(const HardwareParams& p) {
    // Feed each parameter through SplitMix64 so that neighbouring points spread over all bits.
    std::uint64_t h = 0;
    for (Param q : kAllParams) {
        std::uint64_t state = h ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.get(q)));
        h = splitmix64(state);
    }
    return static_cast<std::size_t>(h);
}

}  // namespace pimdse::hw
