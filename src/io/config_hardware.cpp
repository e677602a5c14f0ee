// The hardware sections of a configuration or hardware file (docs/config.md): constraints,
// technology and design space, checked against each other (src/io/config_sections.hpp).

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "config_sections.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/legality.hpp"

namespace pimdse::io::detail {

using yaml::Field;
using yaml::Map;
using yaml::Reader;

namespace {

// Upper bound of the technology's floating-point keys (docs/config.md): far above any real
// value, low enough that no product of the cost model overflows or underflows to 0.
constexpr double kMaxTechnologyValue = 1e6;  // pJ, mm², um², ns

const std::vector<std::string_view> kConstraintKeys{"technology_nm",
                                                    "bank_array",
                                                    "bank_width_bits",
                                                    "bank_capacity_mib",
                                                    "area_budget_mm2",
                                                    "clock_mhz",
                                                    "data_width_bits",
                                                    "psum_width_bits",
                                                    "node_rows",
                                                    "node_cols",
                                                    "pe_rows",
                                                    "pe_cols",
                                                    "buffer_kib",
                                                    "dram_energy_pj_per_bit",
                                                    "noc_energy_pj_per_bit_hop",
                                                    "noc_virtual_channels"};

// (Appended piece by piece: GCC 12's -Wrestrict misfires on "[" + to_string(...) here.)
std::string interval(std::int64_t lo, std::int64_t hi) {
    std::string out = "[";
    out += std::to_string(lo);
    out += ", ";
    out += std::to_string(hi);
    out += ']';
    return out;
}

// A list of exactly two integers, e.g. `bank_array: [16, 16]`; each within [lo, hi].
std::pair<int, int> read_pair(const Reader& r, const Field& f, std::int64_t lo, std::int64_t hi) {
    const std::string want = "a list of two integers [rows, columns]";
    std::vector<Field> items = r.list(f, want);
    if (items.size() != 2) r.value_error(f, want, "a list of " + std::to_string(items.size()));
    return {to_int(r.integer(items[0], lo, hi)), to_int(r.integer(items[1], lo, hi))};
}

// `{min: a, max: b}` within [lo, hi]; either key may be left out and keeps `fallback`'s.
hw::Bounds read_bounds(const Reader& r, const std::optional<Field>& f, std::int64_t lo, std::int64_t hi,
                       hw::Bounds fallback) {
    if (!f) return fallback;
    Map m(r, *f, {"min", "max"});
    hw::Bounds b = fallback;
    std::optional<Field> min_field = m.get("min");
    if (min_field) b.min = to_int(r.integer(*min_field, lo, hi));
    if (auto max_field = m.get("max")) b.max = to_int(r.integer(*max_field, lo, hi));
    if (b.min > b.max) {
        // Point at whichever of the two was written.
        if (min_field) {
            r.value_error(*min_field, "at most max (" + std::to_string(b.max) + ")", std::to_string(b.min));
        }
        r.value_error(*m.get("max"), "at least min (" + std::to_string(b.min) + ", the default)",
                      std::to_string(b.max));
    }
    return b;
}

std::optional<int> required_divisor(hw::Param p, const hw::Constraints& c) {
    if (p == hw::Param::node_rows) return c.bank_rows;
    if (p == hw::Param::node_cols) return c.bank_cols;
    return std::nullopt;
}

// What a range's values must be; `divisor`: every value divides it (the bank array's
// `extent_name`, "rows" or "columns").
struct RangeRule {
    hw::Bounds bounds;
    std::optional<int> divisor;
    std::string_view extent_name;
};

std::string divisor_text(const RangeRule& rule, int extent) {
    return "a divisor of the bank array's " + std::to_string(extent) + " " + std::string(rule.extent_name);
}

RangeRule dram_pim_rule(hw::Param p, const hw::Constraints& c) {
    return {hw::bounds_of(p, c), required_divisor(p, c), p == hw::Param::node_rows ? "rows" : "columns"};
}

ParamRange read_range(const Reader& r, const Field& f, const RangeRule& rule) {
    Map m(r, f, {"min", "max", "spacing", "step", "values"});
    const hw::Bounds& b = rule.bounds;
    const std::optional<int> divisor = rule.divisor;

    if (auto values_field = m.get("values")) {
        for (std::string_view k : {"min", "max", "spacing", "step"}) {
            if (auto other = m.get(k)) {
                r.value_error(*other, "either 'values' or 'min', 'max', 'spacing' (and 'step'), not both",
                              "'" + std::string(k) + "' next to 'values'");
            }
        }
        std::vector<Field> items = r.list(*values_field, "a non-empty list of integers");
        if (items.empty()) r.value_error(*values_field, "a non-empty list of integers", "an empty list");
        std::vector<int> values;
        std::unordered_map<int, std::size_t> first;  // value -> its first item: linear in the list
        for (const Field& item : items) {
            const int v = to_int(r.integer(item, b.min, b.max));
            if (divisor && *divisor % v != 0)
                r.value_error(item, divisor_text(rule, *divisor), std::to_string(v));
            if (const auto [at, fresh] = first.emplace(v, values.size()); !fresh)
                r.value_error(item, "distinct values",
                              std::to_string(v) + " again (as " + items[at->second].path + ")");
            values.push_back(v);
        }
        return ParamRange::list(std::move(values));
    }

    const int lo =
        to_int(r.integer(m.require("min", "an integer in " + interval(b.min, b.max)), b.min, b.max));
    const Field max_field = m.require("max", "an integer in " + interval(b.min, b.max));
    const int hi = to_int(r.integer(max_field, b.min, b.max));
    if (lo > hi) r.value_error(max_field, "at least min (" + std::to_string(lo) + ")", std::to_string(hi));
    const Field spacing_field = m.require("spacing", "linear or log2 (or give 'values' instead of a range)");
    const std::size_t spacing = r.choice(spacing_field, {"linear", "log2"});

    std::optional<ParamRange> range;
    if (spacing == 0) {
        const Field step = m.require("step", "an integer >= 1 with spacing linear");
        range = ParamRange::linear(lo, hi, to_int(r.integer(step, 1, kIntMax, "an integer >= 1")));
    } else {
        if (auto step = m.get("step")) {
            r.value_error(*step, "no step with spacing log2 (its values are the powers of two in [min, max])",
                          yaml::describe(step->node));
        }
        bool any = false;
        for (long long v = 1; v <= hi; v *= 2) any = any || v >= lo;
        if (!any) r.value_error(f, "a log2 range containing a power of two", interval(lo, hi));
        range = ParamRange::log2(lo, hi);
    }
    if (divisor) {
        for (int v : range->values()) {
            if (*divisor % v != 0) {
                r.value_error(f, "only values that are " + divisor_text(rule, *divisor),
                              std::to_string(v) + " in " + range->str());
            }
        }
    }
    return *range;
}

}  // namespace

hw::Constraints read_constraints(const Reader& r, const std::optional<Field>& f) {
    hw::Constraints c;  // NicePIM Table II
    if (!f) {
        return c;
    }
    Map m(r, *f, kConstraintKeys);
    if (auto v = m.get("technology_nm")) c.technology_nm = to_int(r.integer(*v, 1, 1000));
    if (auto v = m.get("bank_array")) std::tie(c.bank_rows, c.bank_cols) = read_pair(r, *v, 1, 1024);
    if (auto v = m.get("bank_width_bits")) {
        c.bank_width_bits = to_int(r.integer(*v, 1, 65536));
        // A node's DRAM port binds its banks' ports (III-A) and moves whole bytes.
        if (c.bank_width_bits % 8 != 0)
            r.value_error(*v, "a multiple of 8 in [8, 65536] (a bank's port moves whole bytes)",
                          std::to_string(c.bank_width_bits));
    }
    if (auto v = m.get("bank_capacity_mib")) c.bank_capacity = mebibytes(r.integer(*v, 1, 1 << 20));
    // A node holding every bank binds them into one port (III-A): its width must stay an int.
    const std::int64_t widest_port =
        static_cast<std::int64_t>(c.bank_rows) * c.bank_cols * static_cast<std::int64_t>(c.bank_width_bits);
    if (widest_port > kIntMax) {
        const std::optional<Field> at =
            m.get("bank_width_bits") ? m.get("bank_width_bits") : m.get("bank_array");
        r.value_error(at ? at->line : m.self().line, at ? at->path : m.self().path,
                      "bank_array rows x columns x bank_width_bits of at most 2147483647 (the DRAM port of a "
                      "node holding every bank)",
                      std::to_string(widest_port));
    }
    if (auto v = m.get("area_budget_mm2")) c.area_budget = SquareMillimetres(r.number(*v, 0.001, false, 1e6));
    if (auto v = m.get("clock_mhz")) c.clock_mhz = r.number(*v, 1, false, 1e5);
    if (auto v = m.get("data_width_bits")) c.data_width_bits = to_int(r.integer(*v, 1, 64));
    // Partial sums are at least as wide as the data they accumulate.
    if (auto v = m.get("psum_width_bits")) c.psum_width_bits = to_int(r.integer(*v, c.data_width_bits, 128));
    if (c.psum_width_bits < c.data_width_bits) {
        r.value_error(m.self().line, m.path("psum_width_bits"),
                      "at least data_width_bits (" + std::to_string(c.data_width_bits) + ")",
                      std::to_string(c.psum_width_bits) + " (the default)");
    }

    // A node owns at least one bank, so the node array is at most the bank array (VIII-B);
    // unless given, the maximum follows the bank array.
    const auto node_bounds = [&](std::string_view key, int extent, const char* dim) {
        hw::Bounds b = read_bounds(r, m.get(key), 1, extent, {std::min(2, extent), extent});
        bool tiles = false;
        for (int d = b.min; d <= b.max; ++d) tiles = tiles || extent % d == 0;
        if (!tiles) {
            r.value_error(
                m.get(key)->line, m.path(key),
                "bounds containing a divisor of the bank array's " + std::to_string(extent) + " " + dim,
                interval(b.min, b.max));
        }
        return b;
    };
    c.node_rows = node_bounds("node_rows", c.bank_rows, "rows");
    c.node_cols = node_bounds("node_cols", c.bank_cols, "columns");
    c.pe_rows = read_bounds(r, m.get("pe_rows"), 1, 65536, c.pe_rows);
    c.pe_cols = read_bounds(r, m.get("pe_cols"), 1, 65536, c.pe_cols);
    c.buffer_kib = read_bounds(r, m.get("buffer_kib"), 1, 1 << 20, c.buffer_kib);

    if (auto v = m.get("dram_energy_pj_per_bit"))
        c.dram_energy_per_bit = Picojoules(r.number(*v, 0, false, kMaxTechnologyValue));
    if (auto v = m.get("noc_energy_pj_per_bit_hop"))
        c.noc_energy_per_bit_hop = Picojoules(r.number(*v, 0, false, kMaxTechnologyValue));
    if (auto v = m.get("noc_virtual_channels")) c.noc_virtual_channels = to_int(r.integer(*v, 1, 64));
    return c;
}

// `technology:` (docs/config.md): every key optional, defaults from hw::Technology.
hw::Technology read_technology(const Reader& r, const std::optional<Field>& f) {
    hw::Technology t;
    if (!f) return t;
    Map m(r, *f,
          {"pe_area_um2",
           "sram_area_mm2_per_kib",
           "sram_area_mm2_per_buffer",
           "router_area_mm2_base",
           "router_buffer_area_um2_per_bit",
           "router_buffer_depth_flits",
           "dram_controller_area_mm2_per_bank",
           "mac_energy_pj",
           "register_energy_pj_per_bit",
           "sram_read_energy_pj_per_bit_1kib",
           "sram_write_energy_pj_per_bit_1kib",
           "dram_activation_energy_pj",
           "dram_trcd_ns",
           "dram_trp_ns",
           "dram_tras_ns",
           "dram_tccd_ns",
           "dram_trtp_ns",
           "dram_write_to_precharge_ns",
           "dram_write_to_read_ns",
           "dram_read_to_write_ns",
           "dram_trfc_ns",
           "dram_trefi_ns",
           "dram_background_mw_per_bank",
           "dram_refresh_mw_per_bank",
           "dram_row_buffer_bytes",
           "noc_hop_cycles"});
    const auto non_negative = [&](std::string_view key, auto& into) {
        if (auto v = m.get(key))
            into = std::decay_t<decltype(into)>(r.number(*v, 0, false, kMaxTechnologyValue));
    };
    non_negative("pe_area_um2", t.pe_area_um2);
    non_negative("sram_area_mm2_per_kib", t.sram_area_per_kib);
    non_negative("sram_area_mm2_per_buffer", t.sram_area_per_buffer);
    non_negative("router_area_mm2_base", t.router_area_base);
    non_negative("router_buffer_area_um2_per_bit", t.router_buffer_area_um2_per_bit);
    if (auto v = m.get("router_buffer_depth_flits"))
        t.router_buffer_depth_flits = to_int(r.integer(*v, 1, 1024));
    non_negative("dram_controller_area_mm2_per_bank", t.dram_controller_area_per_bank);
    non_negative("mac_energy_pj", t.mac_energy);
    non_negative("sram_read_energy_pj_per_bit_1kib", t.sram_read_energy_per_bit_1kib);
    non_negative("sram_write_energy_pj_per_bit_1kib", t.sram_write_energy_per_bit_1kib);
    non_negative("dram_activation_energy_pj", t.dram_activation_energy);
    non_negative("dram_trcd_ns", t.dram_trcd_ns);
    non_negative("dram_trp_ns", t.dram_trp_ns);
    non_negative("dram_tras_ns", t.dram_tras_ns);
    non_negative("dram_tccd_ns", t.dram_tccd_ns);
    non_negative("dram_trtp_ns", t.dram_trtp_ns);
    non_negative("dram_write_to_precharge_ns", t.dram_write_to_precharge_ns);
    non_negative("dram_write_to_read_ns", t.dram_write_to_read_ns);
    non_negative("dram_read_to_write_ns", t.dram_read_to_write_ns);
    non_negative("dram_trfc_ns", t.dram_trfc_ns);
    if (auto v = m.get("dram_trefi_ns")) t.dram_trefi_ns = r.number(*v, 0, true, kMaxTechnologyValue);
    if (!(t.dram_trefi_ns > t.dram_trfc_ns)) {
        // A refresh must leave the banks time to serve accesses between refreshes.
        const auto text = [](double v) {
            std::ostringstream o;
            o << v << " ns";
            return o.str();
        };
        if (const auto refi = m.get("dram_trefi_ns"))
            r.value_error(*refi, "more than dram_trfc_ns (" + text(t.dram_trfc_ns) + ")",
                          text(t.dram_trefi_ns));
        r.value_error(*m.get("dram_trfc_ns"), "less than dram_trefi_ns (" + text(t.dram_trefi_ns) + ")",
                      text(t.dram_trfc_ns));
    }
    non_negative("dram_background_mw_per_bank", t.dram_background_mw_per_bank);
    non_negative("dram_refresh_mw_per_bank", t.dram_refresh_mw_per_bank);
    non_negative("register_energy_pj_per_bit", t.register_energy_per_bit);
    if (auto v = m.get("dram_row_buffer_bytes")) t.dram_row_buffer = Bytes(r.integer(*v, 1, 1 << 20));
    if (auto v = m.get("noc_hop_cycles")) t.noc_hop_cycles = to_int(r.integer(*v, 1, 1024));
    return t;
}

void check_bank_width(const Reader& r, const std::optional<Field>& constraints,
                      const std::optional<Field>& technology, const hw::Constraints& c,
                      const hw::Technology& t) {
    // A node's row buffer and port are its banks' rows and ports side by side, so a row holds
    // whole port-wide accesses on every node array exactly when a bank's width divides its row.
    const std::int64_t row_bits = t.dram_row_buffer.value() * 8;
    if (row_bits % c.bank_width_bits == 0) return;
    const std::string accesses = "a row holds whole bank-wide accesses";
    if (technology) {
        if (auto v = Map::unchecked(r, *technology, "").get("dram_row_buffer_bytes")) {
            r.value_error(*v,
                          "a multiple of constraints.bank_width_bits / 8 (" +
                              std::to_string(c.bank_width_bits / 8) + " bytes): " + accesses,
                          std::to_string(t.dram_row_buffer.value()));
        }
    }
    // The row buffer is the default, so the width was given.
    const Field at = constraints
                         ? Map::unchecked(r, *constraints, "").get("bank_width_bits").value_or(*constraints)
                         : Field{};
    r.value_error(at.line, "constraints.bank_width_bits",
                  "a divisor of 8 x technology.dram_row_buffer_bytes (" + std::to_string(row_bits) +
                      " bits): " + accesses,
                  std::to_string(c.bank_width_bits));
}

namespace {

// The values of a clock or data-width range, one by one: `ok` says whether a value may be
// used, `expected` what it must be; the error names the list item or, for a min/max range, the key.
template <typename Ok>
void check_values(const Reader& r, const Field& f, const ParamRange& range, Ok ok,
                  const std::string& expected) {
    const std::optional<Field> values = Map::unchecked(r, f, "").get("values");
    std::vector<Field> items = values ? r.list(*values, "a list") : std::vector<Field>{};
    for (std::size_t i = 0; i < range.values().size(); ++i) {
        const int v = range.values()[i];
        if (ok(v)) continue;
        if (values) {
            for (const Field& item : items)
                if (item.node.as<long long>() == v) r.value_error(item, expected, std::to_string(v));
        }
        r.value_error(f, "only values that are " + expected, std::to_string(v) + " in " + range.str());
    }
}

// What a clock must be (docs/config.md): at least min_clock_mhz of the technology.
std::string clock_rule(const hw::Technology& t) {
    std::ostringstream why;
    why << "at least " << hw::min_clock_mhz(t)
        << " MHz (a DRAM column access, technology.dram_tccd_ns = " << t.dram_tccd_ns
        << " ns, lasts at least one node cycle)";
    return why.str();
}

// Refuses constraints.clock_mhz, at its line in `constraints` or as the default.
[[noreturn]] void refuse_clock(const Reader& r, const std::optional<Field>& constraints,
                               const hw::Constraints& c, const std::string& expected) {
    const std::optional<Field> at =
        constraints ? Map::unchecked(r, *constraints, "").get("clock_mhz") : std::nullopt;
    std::ostringstream got;
    got << c.clock_mhz;
    r.value_error(at ? at->line : 0, "constraints.clock_mhz", expected,
                  got.str() + (at ? "" : " (the default)"));
}

// `clock_mhz:` (docs/config.md): whole MHz from min_clock_mhz up, or the constraints' clock.
ParamRange read_clock_axis(const Reader& r, const std::optional<Field>& f,
                           const std::optional<Field>& constraints, const hw::Constraints& c,
                           const hw::Technology& t) {
    if (f) {
        const int lowest = hw::min_clock_mhz(t);
        const RangeRule any{{1, hw::kMaxClockMhz}, std::nullopt, {}};
        ParamRange range = read_range(r, *f, any);
        check_values(
            r, *f, range, [&](int v) { return v >= lowest; }, clock_rule(t));
        return range;
    }
    // The default axis: the constraints' one clock.
    if (c.clock_mhz != std::round(c.clock_mhz))
        refuse_clock(r, constraints, c,
                     "a whole number of MHz (the clock is an axis of the space, space.clock_mhz)");
    check_clock(r, constraints, c, t);
    return hw::default_range(hw::Param::clock_mhz, c);
}

// `data_width_bits:` (docs/config.md): widths up to the partial sums' width, bit-packed.
ParamRange read_width_axis(const Reader& r, const Field& f, const hw::Constraints& c) {
    const RangeRule any{{1, 64}, std::nullopt, {}};
    ParamRange range = read_range(r, f, any);
    check_values(
        r, f, range, [&](int v) { return v <= c.psum_width_bits; },
        "widths of at most constraints.psum_width_bits (" + std::to_string(c.psum_width_bits) + ")");
    return range;
}

}  // namespace

void check_clock(const Reader& r, const std::optional<Field>& constraints, const hw::Constraints& c,
                 const hw::Technology& t) {
    if (c.clock_mhz < hw::min_clock_mhz(t)) refuse_clock(r, constraints, c, clock_rule(t));
}

// Node extents must tile the bank array (III-A constraint 2); a space value that never can
// is a mistake in the file, not something for the tuner to discover.
DesignSpace read_space(const Reader& r, const std::optional<Field>& f,
                       const std::optional<Field>& constraints, const hw::Constraints& c,
                       const hw::Technology& t) {
    std::optional<Field> clock, width;
    std::optional<Map> m;
    if (f) {
        std::vector<std::string_view> keys;
        for (hw::Param p : hw::kAllParams) keys.push_back(hw::param_name(p));
        m.emplace(r, *f, keys);
        clock = m->get("clock_mhz");
        width = m->get("data_width_bits");
    }
    const ParamRange clock_range = read_clock_axis(r, clock, constraints, c, t);
    hw::Constraints whole = c;  // the default space of a whole clock; the axis replaces it
    whole.clock_mhz = clock_range.values().front();
    DesignSpace space = hw::default_space(whole);
    space.set_range(static_cast<std::size_t>(hw::Param::clock_mhz), clock_range);
    if (width)
        space.set_range(static_cast<std::size_t>(hw::Param::data_width_bits), read_width_axis(r, *width, c));
    if (!m) return space;
    for (hw::Param p : hw::kTableIParams) {
        if (auto v = m->get(hw::param_name(p)))
            space.set_range(static_cast<std::size_t>(p), read_range(r, *v, dram_pim_rule(p, c)));
    }
    return space;
}

DesignSpace read_open_space(const Reader& r, const std::optional<Field>& f) {
    if (!f) return {};
    const Map m = Map::unchecked(r, *f, "a mapping from parameter names to ranges");
    std::vector<ParamAxis> axes;
    for (const std::string& key : m.keys()) {
        const RangeRule any{{1, static_cast<int>(kIntMax)}, std::nullopt, {}};
        axes.push_back({key, {}, {}, read_range(r, *m.get(key), any)});
    }
    if (axes.size() > kMaxDesignParams) {
        r.value_error(*f, "at most " + std::to_string(kMaxDesignParams) + " parameters",
                      std::to_string(axes.size()));
    }
    return {0, std::move(axes)};
}

}  // namespace pimdse::io::detail
