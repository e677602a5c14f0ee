#include "pimdse/sim/intra_node_tiling.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pimdse/core/error.hpp"

namespace pimdse::sim {

PartLayer PartLayer::convolution(std::int64_t K, std::int64_t C, std::int64_t P, std::int64_t Q,
                                 std::int64_t R, std::int32_t stride, std::int64_t B) noexcept {
    PartLayer l;
    l.B = B;
    l.K = K;
    l.C = C;
    l.P = P;
    l.Q = Q;
    l.R = l.S = R;
    l.stride_h = l.stride_w = stride;
    l.H = (P - 1) * stride + R;
    l.W = (Q - 1) * stride + R;
    return l;
}

NodeSpec NodeSpec::with_banks(std::int32_t pe_rows, std::int32_t pe_cols, std::int64_t buffer_kib,
                              std::int32_t banks) {
    NodeSpec n;
    n.pe_rows = pe_rows;
    n.pe_cols = pe_cols;
    n.ibuf = n.wbuf = n.obuf = kibibytes(buffer_kib);
    n.dram_port_bits = banks * 128;
    n.row_buffer = kibibytes(banks);
    return n;
}

const std::array<LoopOrder, kAllOrderCount>& all_loop_orders() noexcept {
    static const std::array<LoopOrder, kAllOrderCount> all = [] {
        std::array<LoopOrder, kAllOrderCount> v{};
        LoopOrder o{{LoopDim::B, LoopDim::K, LoopDim::C, LoopDim::P, LoopDim::Q, LoopDim::R, LoopDim::S}};
        for (LoopOrder& x : v) {
            x = o;
            std::next_permutation(o.loops.begin(), o.loops.end());
        }
        return v;
    }();
    return all;
}

bool is_permutation(const LoopOrder& order) noexcept {
    unsigned seen = 0;
    for (const LoopDim d : order.loops) {
        const auto i = static_cast<unsigned>(d);
        if (i >= kLoopDims || ((seen >> i) & 1U) != 0) return false;
        seen |= 1U << i;
    }
    return true;
}

// The letter of each loop dim, in LoopDim order.
constexpr std::string_view kLoopLetters = "bkcpqrs";

std::string to_string(const LoopOrder& order) {
    std::string s(kLoopDims, ' ');
    for (std::size_t i = 0; i < kLoopDims; ++i) s[i] = kLoopLetters[static_cast<std::size_t>(order.loops[i])];
    return s;
}

LoopOrder parse_loop_order(std::string_view text) {
    const auto fail = [&] {
        throw ModelError("loop order '" + std::string(text) +
                         "': expected a permutation of the tile loops b, k, c, p, q, r, s, outermost "
                         "first (e.g. kbpqcrs), or of b, k, c, p, q with r, s innermost (e.g. kbpqc)");
    };
    // Five letters: the text of the orders before R and S were tile loops, R and S innermost.
    if (text.size() != kLoopDims && text.size() != kFastLoopDims) fail();
    LoopOrder o;
    o.loops[kLoopDims - 2] = LoopDim::R;
    o.loops[kLoopDims - 1] = LoopDim::S;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        const std::size_t d = kLoopLetters.find(c);
        if (d == std::string_view::npos || (text.size() == kFastLoopDims && d >= kFastLoopDims)) fail();
        o.loops[i] = static_cast<LoopDim>(d);
    }
    if (!is_permutation(o)) fail();
    return o;
}

std::string_view to_string(LoopDim dim) noexcept {
    static constexpr std::array<std::string_view, kLoopDims> names{"B", "K", "C", "P", "Q", "R", "S"};
    return names[static_cast<std::size_t>(dim)];
}

std::string_view to_string(Tensor t) noexcept {
    switch (t) {
        case Tensor::input:
            return "input";
        case Tensor::weight:
            return "weight";
        case Tensor::output:
            break;
    }
    return "output";
}

std::string to_string(const Tiling& t) {
    std::string s(to_string(t.unroll.row));
    s += "x";
    s += to_string(t.unroll.col);
    s += " ";
    s += to_string(t.order);
    for (std::size_t d = 0; d < kLoopDims; ++d) {
        s += " ";
        s += to_string(static_cast<LoopDim>(d));
        s += std::to_string(t.tile[d]);
    }
    return s;
}

TileFootprint footprint(const PartLayer& l, const Tiling& t) noexcept {
    const std::int64_t db = l.data_bits;
    const std::int64_t h = halo_extent(t[LoopDim::P], l.stride_h, t[LoopDim::R], l.H);
    const std::int64_t w = halo_extent(t[LoopDim::Q], l.stride_w, t[LoopDim::S], l.W);
    const std::int64_t in_ch = l.depthwise ? t[LoopDim::K] : t[LoopDim::C];
    const std::int64_t in = t[LoopDim::B] * in_ch * h * w;
    std::int64_t wt = t[LoopDim::K] * (l.depthwise ? 1 : t[LoopDim::C]) * t[LoopDim::R] * t[LoopDim::S];
    if (!l.has_weights) wt = t[LoopDim::B] * t[LoopDim::K] * t[LoopDim::C];
    const std::int64_t out = t[LoopDim::B] * t[LoopDim::K] * t[LoopDim::P] * t[LoopDim::Q];
    return {Bytes(packed_bytes(in, db)), Bytes(packed_bytes(wt, db)), Bytes(packed_bytes(out, l.psum_bits))};
}

namespace {

[[noreturn]] void bad(const std::string& what) {
    throw ModelError(what);
}

}  // namespace

void validate(const PartLayer& l) {
    const std::int64_t dims[] = {l.B, l.K, l.C, l.P, l.Q, l.R, l.S, l.H, l.W};
    for (std::int64_t d : dims) {
        if (d < 1) bad("PartLayer: loop bounds and input extent must be >= 1");
    }
    if (l.stride_h < 1 || l.stride_w < 1) bad("PartLayer: strides must be >= 1");
    if (l.depthwise && (l.C != 1 || !l.has_weights)) bad("PartLayer: depthwise needs C == 1 and weights");
    if (!l.has_weights && (l.R != 1 || l.S != 1)) bad("PartLayer: an activation matmul has R == S == 1");
    if (l.data_bits < 1 || l.psum_bits < 1) bad("PartLayer: data_bits and psum_bits must be >= 1");
}

void validate(const NodeSpec& n) {
    if (n.pe_rows < 1 || n.pe_cols < 1) bad("NodeSpec: PE array must be at least 1 x 1");
    if (n.ibuf.value() < 1 || n.wbuf.value() < 1 || n.obuf.value() < 1)
        bad("NodeSpec: buffers must be >= 1 byte");
    if (n.dram_port_bits < 8 || n.dram_port_bits % 8 != 0)
        bad("NodeSpec: dram_port_bits must be a multiple of 8");
    if (n.row_buffer.value() * 8 < n.dram_port_bits || (n.row_buffer.value() * 8) % n.dram_port_bits != 0)
        bad("NodeSpec: the row buffer must hold a whole number of port-wide accesses");
    for (double v :
         {n.access_cycles, n.precharge_cycles, n.activate_cycles, n.ras_cycles, n.read_precharge_cycles,
          n.write_precharge_cycles, n.write_read_cycles, n.read_write_cycles})
        if (!(v >= 0) || !std::isfinite(v)) bad("NodeSpec: DRAM timing cycles must be finite and >= 0");
    if (!(n.refresh_factor >= 1) || !std::isfinite(n.refresh_factor))
        bad("NodeSpec: refresh_factor must be finite and >= 1");
    if (!(n.refresh_interval_cycles > 0)) bad("NodeSpec: refresh_interval_cycles must be > 0");
    if (!(n.clock_mhz > 0)) bad("NodeSpec: clock_mhz must be > 0");
}

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) noexcept {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 29);
}

}  // namespace

std::size_t hash_value(const PartLayer& l) noexcept {
    std::uint64_t h = 0x5A17;
    for (std::int64_t v : {l.B, l.K, l.C, l.P, l.Q, l.R, l.S, l.H, l.W})
        h = mix(h, static_cast<std::uint64_t>(v));
    h = mix(h, static_cast<std::uint64_t>(l.stride_h) << 32 | static_cast<std::uint32_t>(l.stride_w));
    h = mix(h, static_cast<std::uint64_t>(l.data_bits) << 32 | static_cast<std::uint32_t>(l.psum_bits));
    h = mix(h, (l.has_weights ? 1U : 0U) | (l.depthwise ? 2U : 0U));
    return static_cast<std::size_t>(h);
}

std::size_t hash_value(const NodeSpec& n) noexcept {
    std::uint64_t h = 0x90DE;
    h = mix(h, static_cast<std::uint64_t>(n.pe_rows) << 32 | static_cast<std::uint32_t>(n.pe_cols));
    h = mix(h, static_cast<std::uint64_t>(n.ibuf.value()));
    h = mix(h, static_cast<std::uint64_t>(n.wbuf.value()));
    h = mix(h, static_cast<std::uint64_t>(n.obuf.value()));
    h = mix(h, static_cast<std::uint64_t>(n.dram_port_bits));
    for (double v : {n.access_cycles, n.precharge_cycles, n.activate_cycles, n.ras_cycles, n.refresh_factor,
                     n.refresh_interval_cycles, n.read_precharge_cycles, n.write_precharge_cycles,
                     n.write_read_cycles, n.read_write_cycles})
        h = mix(h, std::bit_cast<std::uint64_t>(v));
    h = mix(h, static_cast<std::uint64_t>(n.row_buffer.value()));
    h = mix(h, std::bit_cast<std::uint64_t>(n.clock_mhz));
    return static_cast<std::size_t>(h);
}

}  // namespace pimdse::sim
