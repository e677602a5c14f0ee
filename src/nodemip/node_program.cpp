// The node MIP's program (include/pimdse/nodemip/node_program.hpp).
#include "pimdse/nodemip/node_program.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "pimdse/sim/exact_intra_node.hpp"

namespace pimdse::nodemip {

// The program tiles B, K, C, P, Q; R and S stay whole (one candidate each, the kernel).
constexpr std::size_t kProgramDims = sim::kFastLoopDims;
using sim::LoopDim;
using sim::Tensor;

namespace {

// A log-space value a solution can never reach below: the epigraphs' lower bound, so that a
// log-sum-exp without terms (no coefficient) is bounded.
constexpr double kLogFloor = -700.0;
// Slack of the log-space capacity rows: two integer footprints differ by a factor of at
// least 1 + 1 / capacity, far more than this, so the rows admit exactly the fitting tilings.
constexpr double kCapacitySlack = 1e-9;

std::int64_t unit_of(sim::SpatialUnroll u, LoopDim d, const sim::NodeSpec& node) {
    if (u.row == d) return node.pe_rows;
    if (u.col == d) return node.pe_cols;
    return 1;
}

// The compute cycles an unrolled dim costs: sum over its tiles of ceil(tile / unit)
// (sim::tiling_compute_cycles' per-dim factor).
double lane_passes(std::int64_t extent, std::int64_t tile, std::int64_t unit) {
    if (unit <= 1) return static_cast<double>(extent);
    const std::int64_t n = ceil_div(extent, tile);
    return static_cast<double>((n - 1) * ceil_div(tile, unit) + ceil_div(extent - (n - 1) * tile, unit));
}

// Input rows of all tiles of `outputs` output rows cut at `tile`, halos included (the
// analytic DRAM model's halo split: every tile but the last needs a full halo).
double halo_sum(std::int64_t outputs, std::int64_t tile, std::int32_t stride, std::int64_t kernel,
                std::int64_t input) {
    const std::int64_t n = ceil_div(outputs, tile);
    const std::int64_t last_out = outputs - (n - 1) * tile;
    const std::int64_t last = std::min(input - (n - 1) * tile * stride, (last_out - 1) * stride + kernel);
    return static_cast<double>((n - 1) * sim::halo_extent(tile, stride, kernel, input) + last);
}

// The per-dim factor of a tensor's tile footprint in elements (1 for dims it ignores).
double footprint_factor(const sim::PartLayer& l, Tensor t, LoopDim d, std::int64_t tile) {
    if (!sim::relevant(l, t, d)) return 1.0;
    if (t == Tensor::input && d == LoopDim::P)
        return static_cast<double>(sim::halo_extent(tile, l.stride_h, l.R, l.H));
    if (t == Tensor::input && d == LoopDim::Q)
        return static_cast<double>(sim::halo_extent(tile, l.stride_w, l.S, l.W));
    return static_cast<double>(tile);
}

// One-hot tile choices: a binary per candidate, one per dim; R and S have one, the whole kernel.
void add_choices(NodeProgram& p, const sim::PartLayer& l, const sim::NodeSpec& node) {
    for (std::size_t i = 0; i < sim::kLoopDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        if (i < kProgramDims)
            p.tiles[i] = sim::exact_tile_candidates(sim::extent(l, d), unit_of(p.unroll, d, node));
        else
            p.tiles[i] = {sim::extent(l, d)};
        const std::size_t row = p.model.add_row(1.0, 1.0);
        for (std::size_t c = 0; c < p.tiles[i].size(); ++c) {
            p.y[i].push_back(p.model.add_col(0.0, 1.0, 0.0, true));
            p.model.add(row, p.y[i].back(), 1.0);
        }
    }
}

// Two tiles of each tensor fit its buffer (sim::fits): log footprint <= log capacity.
void add_capacity(NodeProgram& p, const sim::PartLayer& l, const sim::NodeSpec& node) {
    const std::array<std::pair<Tensor, Bytes>, 3> buffers{
        {{Tensor::input, node.ibuf}, {Tensor::weight, node.wbuf}, {Tensor::output, node.obuf}}};
    for (const auto& [t, buf] : buffers) {
        const double bits = t == Tensor::output ? l.psum_bits : l.data_bits;
        // ceil(n bits / 8) <= floor(buf / 2) <=> n <= 8 floor(buf / 2) / bits.
        double constant = 1.0;
        if (t == Tensor::weight && l.has_weights) constant = static_cast<double>(l.R * l.S);
        const double cap = 8.0 * static_cast<double>(buf.value() / 2) / bits / constant;
        if (cap < 1.0) {
            p.feasible = false;
            return;
        }
        const std::size_t row = p.model.add_row(-solver::infinity(), std::log(cap) + kCapacitySlack);
        for (std::size_t i = 0; i < kProgramDims; ++i)
            for (std::size_t c = 0; c < p.tiles[i].size(); ++c) {
                const double f = footprint_factor(l, t, static_cast<LoopDim>(i), p.tiles[i][c]);
                if (f != 1.0) p.model.add(row, p.y[i][c], std::log(f));
            }
    }
}

// log total cycles >= log compute cycles, exactly: R S times each dim's lane passes.
void add_compute(NodeProgram& p, const sim::PartLayer& l, const sim::NodeSpec& node) {
    const std::size_t row = p.model.add_row(std::log(static_cast<double>(l.R * l.S)), solver::infinity());
    p.model.add(row, p.latency.epigraph, 1.0);
    for (std::size_t i = 0; i < kProgramDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        const std::int64_t e = sim::extent(l, d), u = unit_of(p.unroll, d, node);
        for (std::size_t c = 0; c < p.tiles[i].size(); ++c)
            p.model.add(row, p.y[i][c], -std::log(lane_passes(e, p.tiles[i][c], u)));
    }
}

// The trip count of an ignored loop d counts in `term` when, in the chosen order, a relevant
// loop inside it has more than one tile: v >= log n_d - log E_d (1 - w) with
// w >= o_k - [tile of j is whole] for every order k that puts a relevant j inside d.
void add_revisit(NodeProgram& p, const sim::PartLayer& l, Tensor t, LoopDim d, LogTerm& term) {
    const std::size_t di = static_cast<std::size_t>(d);
    const double big = std::log(static_cast<double>(sim::extent(l, d)));
    std::vector<std::pair<std::size_t, LoopDim>> inside;  // (order, relevant loop inside d)
    for (std::size_t k = 0; k < sim::kFastOrderCount; ++k) {
        const auto& loops = sim::loops_of(sim::kFastOrders[k]);
        const auto at = static_cast<std::size_t>(std::find(loops.begin(), loops.end(), d) - loops.begin());
        for (std::size_t j = at + 1; j < kProgramDims; ++j)
            if (sim::relevant(l, t, loops[j]) && sim::extent(l, loops[j]) > 1)
                inside.emplace_back(k, loops[j]);
    }
    if (inside.empty()) return;
    const std::size_t w = p.model.add_col(0.0, 1.0, 0.0, false);
    const std::size_t v = p.model.add_col(0.0, big, 0.0, false);
    for (const auto& [k, j] : inside) {
        const std::size_t row = p.model.add_row(0.0, solver::infinity());
        p.model.add(row, w, 1.0);
        p.model.add(row, p.order_col[k], -1.0);
        p.model.add(row, p.y[static_cast<std::size_t>(j)].back(),
                    1.0);  // the last candidate is the whole extent
    }
    const std::size_t row = p.model.add_row(-big, solver::infinity());
    p.model.add(row, v, 1.0);
    p.model.add(row, w, -big);
    for (std::size_t c = 0; c < p.tiles[di].size(); ++c) {
        const double n = static_cast<double>(ceil_div(sim::extent(l, d), p.tiles[di][c]));
        if (n > 1.0) p.model.add(row, p.y[di][c], -std::log(n));
    }
    term.coef.emplace_back(v, 1.0);
}

// A term's constant for `elements` over `per_access` elements per access, less the rounding
// of the model's per-tensor counts (at most half an access): with at least `least` accesses,
// accesses >= x - 1/2 >= x (1 - 1/(2 least)). False when the bound is void (least <= 1/2).
bool access_constant(double elements, double least_elements, double per_access, double& constant) {
    const double least = least_elements / per_access;
    if (least <= 0.5) return false;
    constant = std::log(elements / per_access) + std::log1p(-0.5 / least);
    return true;
}

// sum over d's candidates of y log f(tile), appended to `term`.
template <class F>
void add_dim(const NodeProgram& p, LoopDim d, LogTerm& term, F&& f) {
    const std::size_t di = static_cast<std::size_t>(d);
    for (std::size_t c = 0; c < p.tiles[di].size(); ++c) {
        const double v = f(p.tiles[di][c]);
        if (v != 1.0) term.coef.emplace_back(p.y[di][c], std::log(v));
    }
}

// How a read tensor's DRAM reads grow with the tiling, in log space: its distinct elements
// (all input tiles with their halos; the whole tensor otherwise) times the trip counts of the
// loops it ignores that enclose one of its relevant loops with more than one tile. `elements`
// is the constant part; `least` the distinct elements at whole tiles.
LogTerm reads_of(NodeProgram& p, const sim::PartLayer& l, Tensor t, double& elements, double& least) {
    LogTerm term;
    if (t == Tensor::input) {
        elements = static_cast<double>(l.B * l.input_channels());
        least =
            elements * halo_sum(l.P, l.P, l.stride_h, l.R, l.H) * halo_sum(l.Q, l.Q, l.stride_w, l.S, l.W);
        add_dim(p, LoopDim::P, term, [&](std::int64_t x) { return halo_sum(l.P, x, l.stride_h, l.R, l.H); });
        add_dim(p, LoopDim::Q, term, [&](std::int64_t x) { return halo_sum(l.Q, x, l.stride_w, l.S, l.W); });
    } else {
        elements = l.has_weights ? static_cast<double>(l.K * (l.depthwise ? 1 : l.C) * l.R * l.S)
                                 : static_cast<double>(l.B * l.K * l.C);
        least = elements;
    }
    for (std::size_t i = 0; i < kProgramDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        if (!sim::relevant(l, t, d) && sim::extent(l, d) > 1) add_revisit(p, l, t, d, term);
    }
    return term;
}

// A tensor's buffer reads by the PE array are at least those of the dataflow that keeps it
// stationary (sim::buffer_reads): R S (not for the output) times its relevant extents times
// the tile counts of the dims it ignores.
LogTerm buffer_reads_of(const NodeProgram& p, const sim::PartLayer& l, Tensor t) {
    LogTerm term;
    double a = t == Tensor::output ? 1.0 : static_cast<double>(l.R * l.S);
    for (std::size_t i = 0; i < kProgramDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        const std::int64_t e = sim::extent(l, d);
        if (sim::relevant(l, t, d))
            a *= static_cast<double>(e);
        else
            add_dim(p, d, term, [&](std::int64_t x) { return static_cast<double>(ceil_div(e, x)); });
    }
    term.constant = std::log(a);
    return term;
}

// A tensor's tile visits in log space: its distinct tiles (the tile counts of its relevant
// dims) plus the revisit columns of `reads` (none for the output, written once per tile).
LogTerm fetches_of(const NodeProgram& p, const sim::PartLayer& l, Tensor t, const LogTerm& reads) {
    LogTerm term;
    for (std::size_t i = 0; i < kProgramDims; ++i) {
        const auto d = static_cast<LoopDim>(i);
        const std::int64_t e = sim::extent(l, d);
        if (sim::relevant(l, t, d))
            add_dim(p, d, term, [&](std::int64_t x) { return static_cast<double>(ceil_div(e, x)); });
    }
    for (const auto& [col, a] : reads.coef)
        if (col >= p.order_col.back()) term.coef.emplace_back(col, a);  // the revisit columns
    return term;
}

// epigraph >= each term: the first cuts of a log-sum-exp (it is at least its largest term).
void add_term_rows(NodeProgram& p, const LogSum& s) {
    for (const LogTerm& t : s.terms) {
        const std::size_t row = p.model.add_row(t.constant, solver::infinity());
        p.model.add(row, s.epigraph, 1.0);
        for (const auto& [col, a] : t.coef) p.model.add(row, col, -a);
    }
}

void push_scaled(std::vector<LogTerm>& to, LogTerm t, double scale) {
    if (scale <= 0) return;
    t.constant += std::log(scale);
    to.push_back(std::move(t));
}

// The latency and energy terms: each tensor's DRAM accesses (cycles and picojoules), the
// buffer fills they make, the PE array's buffer reads, and what every tiling spends.
void add_bounds(NodeProgram& p, const sim::PartLayer& l, const sim::NodeSpec& node,
                const sim::IntraNodeEnergyCoefficients& k) {
    const double per_access = static_cast<double>(sim::geometry(node, l.data_bits).elements_per_access);
    // sim::dram_cycles is at least refresh x min(tCCD_L, tRCD) per access, the stream's ends included.
    const double cycles = node.refresh_factor * std::min(node.access_cycles, node.activate_cycles);
    const double pj = k.pj_per_dram_bit * node.dram_port_bits;
    const std::array<double, 3> buf{k.pj_per_ibuf_access, k.pj_per_wbuf_access, k.pj_per_obuf_access};
    for (const Tensor t : {Tensor::input, Tensor::weight}) {
        double elements = 0, least = 0;
        LogTerm reads = reads_of(p, l, t, elements, least);
        LogTerm fills = reads;  // every element read from DRAM is written into its buffer
        fills.constant = std::log(elements);
        push_scaled(p.energy.terms, fills, buf[static_cast<std::size_t>(t)]);
        if (access_constant(elements, least, per_access, reads.constant)) {
            push_scaled(p.latency.terms, reads, cycles);
            push_scaled(p.energy.terms, reads, pj);
        }
        push_scaled(p.energy.terms, buffer_reads_of(p, l, t), buf[static_cast<std::size_t>(t)]);
        p.activations[static_cast<std::size_t>(t)] = fetches_of(p, l, t, reads);
    }
    LogTerm written;
    p.activations[2] = fetches_of(p, l, Tensor::output, written);
    // Each fetch of a tile begins with a row miss, one activation per tile visit, but for the
    // fetches that find their first row open (sim's open-row hits): of the fetches counted
    // here at most one weight fetch (the second, K innermost) and one final write-back (a
    // spill that hits is a fetch this bound does not count). A hit needs two visits, so a
    // tensor's activations are at least visits - 1 >= visits / 2.
    for (std::size_t t = 1; t < 3; ++t) p.activations[t].constant += std::log(0.5);
    for (const LogTerm& a : p.activations) push_scaled(p.energy.terms, a, k.pj_per_row_activation);
    // Accumulations write the obuf at least as often as with the psum stationary.
    push_scaled(p.energy.terms, buffer_reads_of(p, l, Tensor::output), buf[2]);
    // Every output element is written back once with data width (partial sums are left out)
    // and read from the obuf for it.
    const double outputs = static_cast<double>(l.B * l.K * l.P * l.Q);
    LogTerm out;
    if (access_constant(outputs, outputs, per_access, out.constant)) {
        push_scaled(p.latency.terms, out, cycles);
        push_scaled(p.energy.terms, out, pj);
    }
    // Per MAC: the PE, its input, weight and psum register reads and the psum write; of the
    // three operands at most one is stationary, so two fill a register at every MAC.
    const double macs = static_cast<double>(l.macs());
    const double db = l.data_bits, pb = l.psum_bits;
    const double fixed =
        macs * (k.pj_per_mac + k.pj_per_register_bit * (3 * db + 2 * pb + std::min(db, pb))) +
        outputs * buf[2];
    if (fixed > 0) p.energy.terms.push_back(LogTerm{std::log(fixed), {}});
    add_term_rows(p, p.latency);
    add_term_rows(p, p.energy);
}

}  // namespace

NodeProgram build_program(const sim::PartLayer& layer, const sim::NodeSpec& node, sim::SpatialUnroll unroll,
                          const sim::IntraNodeEnergyCoefficients& k, NodeObjective objective) {
    NodeProgram p;
    p.unroll = unroll;
    add_choices(p, layer, node);
    const std::size_t one = p.model.add_row(1.0, 1.0);
    for (std::size_t o = 0; o < sim::kFastOrderCount; ++o) {
        p.order_col[o] = p.model.add_col(0.0, 1.0, 0.0, true);
        p.model.add(one, p.order_col[o], 1.0);
    }
    add_capacity(p, layer, node);
    if (!p.feasible) return p;
    const bool latency = objective != NodeObjective::energy;
    const bool energy = objective != NodeObjective::latency;
    p.latency.epigraph = p.model.add_col(kLogFloor, solver::infinity(), latency ? 1.0 : 0.0, false);
    p.energy.epigraph = p.model.add_col(kLogFloor, solver::infinity(), energy ? 1.0 : 0.0, false);
    add_compute(p, layer, node);
    add_bounds(p, layer, node, k);
    return p;
}

std::array<std::size_t, sim::kLoopDims> choice_of(const NodeProgram& p, const std::vector<double>& x) {
    std::array<std::size_t, sim::kLoopDims> choice{};
    for (std::size_t i = 0; i < sim::kLoopDims; ++i)
        for (std::size_t c = 0; c < p.y[i].size(); ++c)
            if (x[p.y[i][c]] > 0.5) choice[i] = c;
    return choice;
}

sim::Tiling tiling_of(const NodeProgram& p, const std::vector<double>& x) {
    const auto choice = choice_of(p, x);
    sim::Tiling t;
    t.unroll = p.unroll;
    for (std::size_t k = 0; k < sim::kFastOrderCount; ++k)
        if (x[p.order_col[k]] > 0.5) t.order = sim::kFastOrders[k];
    for (std::size_t i = 0; i < sim::kLoopDims; ++i) t.tile[i] = p.tiles[i][choice[i]];
    return t;
}

void add_no_good(NodeProgram& p, const std::array<std::size_t, sim::kLoopDims>& choice) {
    const std::size_t row = p.model.add_row(-solver::infinity(), static_cast<double>(sim::kLoopDims) - 1.0);
    for (std::size_t i = 0; i < sim::kLoopDims; ++i) p.model.add(row, p.y[i][choice[i]], 1.0);
}

double term_at(const LogTerm& t, const std::vector<double>& x) {
    double u = t.constant;
    for (const auto& [col, a] : t.coef) u += a * x[col];
    return u;
}

namespace {

// The tangent plane of log-sum-exp at x (convex: below it everywhere), if x violates it.
bool add_tangent(solver::LinearModel& m, const LogSum& s, const std::vector<double>& x) {
    if (s.terms.size() < 2) return false;  // one term: its row is exact already
    std::vector<double> u;
    for (const LogTerm& t : s.terms) u.push_back(term_at(t, x));
    const double top = *std::max_element(u.begin(), u.end());
    double sum = 0;
    for (const double v : u) sum += std::exp(v - top);
    const double f = top + std::log(sum);
    if (x[s.epigraph] >= f - 1e-9) return false;
    std::map<std::size_t, double> coef;
    double rhs = f;
    for (std::size_t i = 0; i < u.size(); ++i) {
        const double w = std::exp(u[i] - top) / sum;
        rhs -= w * (u[i] - s.terms[i].constant);
        for (const auto& [col, a] : s.terms[i].coef) coef[col] -= w * a;
    }
    const std::size_t row = m.add_row(rhs, solver::infinity());
    m.add(row, s.epigraph, 1.0);
    for (const auto& [col, a] : coef)
        if (a != 0.0) m.add(row, col, a);
    return true;
}

}  // namespace

int add_tangent_cuts(NodeProgram& p, const std::vector<double>& x) {
    return static_cast<int>(add_tangent(p.model, p.latency, x)) +
           static_cast<int>(add_tangent(p.model, p.energy, x));
}

double log_sum_at(const LogSum& s, const std::vector<double>& x) {
    if (s.terms.empty()) return kLogFloor;
    double top = kLogFloor;
    for (const LogTerm& t : s.terms) top = std::max(top, term_at(t, x));
    double sum = 0;
    for (const LogTerm& t : s.terms) sum += std::exp(term_at(t, x) - top);
    return top + std::log(sum);
}

}  // namespace pimdse::nodemip
