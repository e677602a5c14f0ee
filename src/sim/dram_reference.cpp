#include "pimdse/sim/dram_reference.hpp"

#include <algorithm>
#include <vector>

#include "pimdse/core/units.hpp"

namespace pimdse::sim {
namespace {

// Command timing of the node's bound banks, one logical bank (docs/model.md, "DRAM timing"):
// a column command (RD or WR) every tCCD_L in one direction, a read to a write at least the
// read-to-write time apart and a write to a read at least the write-to-read time (tWTR_L with
// the write's latency and burst); ACT at least tRP after PRE, the first column command tRCD
// after ACT; PRE at least tRAS after ACT and, after the last column command, tRTP (a read)
// or the write's latency, burst and recovery tWR (a write). Every tREFI the bank is
// precharged and refreshed for tRFC, after which the open row must be activated again. All
// times in node cycles.
class CommandClock {
public:
    CommandClock(const NodeSpec& n, double refi, double rfc, double first_refresh)
        : n_(n), refi_(refi), rfc_(rfc), next_ref_(first_refresh) {}
    // A row miss: precharge the open row (if any), activate the new one.
    void activate() {
        refresh_if_due(earliest_activate());
        if (open_) ++commands_.precharges;
        act_ = earliest_activate();
        open_ = true;
        ++commands_.activates;
    }
    // One column command of the open row: a write (WR) or a read (RD).
    void column(bool write) {
        double t = std::max({cas_ + column_gap(write), act_ + n_.activate_cycles, floor_});
        if (refresh_if_due(t)) {
            act_ = earliest_activate();  // the refresh closed the row: open it again
            open_ = true;
            ++commands_.activates;
            t = std::max(act_ + n_.activate_cycles, cas_ + column_gap(write));
        }
        cas_ = t;
        write_ = write;
        ++commands_.columns;
    }
    [[nodiscard]] DramCommandCount result() const {
        DramCommandCount c = commands_;
        c.cycles = cas_ < 0 ? 0.0 : cas_ + n_.access_cycles;
        return c;
    }
    // No command of what follows issues before `t` (the request arrives then).
    void wait_until(double t) { floor_ = std::max(floor_, t); }
    // When the data of the last column command has moved.
    [[nodiscard]] double last_burst_end() const { return cas_ + n_.access_cycles; }

private:
    // The least distance from the last column command to one in direction `write`.
    [[nodiscard]] double column_gap(bool write) const {
        if (write == write_) return n_.access_cycles;
        return write ? n_.read_write_cycles : n_.write_read_cycles;
    }
    [[nodiscard]] double precharge_time() const {
        const double after_column = cas_ + (write_ ? n_.write_precharge_cycles : n_.read_precharge_cycles);
        return open_ ? std::max(act_ + n_.ras_cycles, after_column) : std::max(ready_, cas_);
    }
    [[nodiscard]] double earliest_activate() const {
        const double pre = std::max(precharge_time(), floor_);
        return std::max(open_ ? pre + n_.precharge_cycles : pre, ready_);
    }
    // Refreshes (precharge all, REF, tRFC) when a command at `t` would pass the deadline.
    bool refresh_if_due(double t) {
        bool any = false;
        while (t >= next_ref_) {
            const double pre = std::max(next_ref_, precharge_time());
            const double ref = open_ ? pre + n_.precharge_cycles : pre;
            if (open_) ++commands_.precharges;
            open_ = false;
            ready_ = ref + rfc_;
            next_ref_ += refi_;
            ++commands_.refreshes;
            t = std::max(t, ready_);
            any = true;
        }
        return any;
    }

    const NodeSpec& n_;
    double refi_, rfc_;
    double next_ref_;
    double cas_ = -1e300, act_ = -1e300, ready_ = 0, floor_ = 0;
    bool open_ = false;
    bool write_ = false;  // the direction of the last column command
    DramCommandCount commands_;
};

// The DRAM as the trace sees it: one logical bank with one open row, and the burst state
// of the fetch in progress. With a clock it also issues the commands with their timing.
class Trace {
public:
    Trace() = default;
    explicit Trace(CommandClock* clock) : clock_(clock) {}
    // Starts a fetch of region `region` whose elements have geometry `g`.
    void begin(int region, const DramGeometry& g, bool write = false) {
        region_ = region;
        g_ = g;
        write_ = write;
        last_ = -2;
        count_ = {};
    }
    // Touches the element at offset `addr` of the current region.
    void touch(std::int64_t addr, bool counts = true) {
        const std::int64_t word = addr / g_.elements_per_access;
        const bool new_access =
            addr != last_ + 1 || word != (last_ < 0 ? -1 : last_ / g_.elements_per_access);
        if (new_access) ++count_.accesses;
        last_ = addr;
        const std::int64_t row = addr / g_.elements_per_row;
        if (region_ != open_region_ || row != open_row_) {
            close_row();
            ++count_.activations;
            open_region_ = region_;
            open_row_ = row;
            open_dir_ = write_;
            if (clock_ != nullptr) clock_->activate();
        } else if (new_access && open_dir_ != write_) {
            ++(write_ ? read_write_turns_ : write_read_turns_);  // the other way in an open row
            open_dir_ = write_;
        }
        if (new_access && clock_ != nullptr) clock_->column(write_);
        if (new_access) ++row_accesses_;
        if (counts) ++elements_;
    }
    // Counts the open row, if it is short, for the tensor whose fetch opened it, by its
    // accesses and the direction of its last one; the row is closed after that.
    void close_row() {
        if (open_region_ >= 0 && row_accesses_ >= 1 &&
            row_accesses_ <= static_cast<std::int64_t>(kShortRowAccesses)) {
            const int t = std::min(open_region_, static_cast<int>(Tensor::output));
            ++short_rows_[static_cast<std::size_t>(t)][open_dir_ ? 1 : 0]
                         [static_cast<std::size_t>(row_accesses_ - 1)];
        }
        open_region_ = -1;
        row_accesses_ = 0;
    }
    // Closes the open row and moves the short rows counted so far into `traffic`.
    void take_short_rows(DramTraffic& traffic) {
        close_row();
        for (std::size_t t = 0; t < 3; ++t) {
            for (std::size_t w = 0; w < 2; ++w)
                for (std::size_t a = 0; a < kShortRowAccesses; ++a)
                    traffic.tensor[t].short_rows[w][a] += short_rows_[t][w][a];
        }
        short_rows_ = {};
    }
    [[nodiscard]] FetchCount end() const { return count_; }
    [[nodiscard]] std::int64_t take_elements() {
        const std::int64_t e = elements_;
        elements_ = 0;
        return e;
    }
    // Moves the turnarounds counted since the last call into `t`.
    void take_turns(TensorTraffic& t) {
        t.read_write_turns += read_write_turns_;
        t.write_read_turns += write_read_turns_;
        read_write_turns_ = write_read_turns_ = 0;
    }

private:
    int region_ = -1;
    bool write_ = false;
    DramGeometry g_;
    std::int64_t last_ = -2;
    FetchCount count_;
    int open_region_ = -1;
    std::int64_t open_row_ = -1;
    bool open_dir_ = false;          // the direction of the open row's last column command
    std::int64_t row_accesses_ = 0;  // column accesses of the open row so far
    std::array<std::array<std::array<std::int64_t, kShortRowAccesses>, 2>, 3> short_rows_{};
    std::int64_t elements_ = 0;
    std::int64_t read_write_turns_ = 0, write_read_turns_ = 0;
    CommandClock* clock_ = nullptr;
};

// RA (PIM Optimizer Eq. 52-56): per (b, c) the blocks the box meets in block order, inside
// each block its part row by row: address order, as a DMA engine issues it.
void walk_blocks(const TensorDims& d, DataLayout l, const TensorBox& box, Trace& trace) {
    const std::int64_t bh = l.block_h, bw = l.block_w;
    for (std::int64_t b = box.b0; b < box.b0 + box.nb; ++b)
        for (std::int64_t c = box.c0; c < box.c0 + box.nc; ++c)
            for (std::int64_t i = box.h0 / bh; i <= (box.h0 + box.nh - 1) / bh; ++i)
                for (std::int64_t j = box.w0 / bw; j <= (box.w0 + box.nw - 1) / bw; ++j)
                    for (std::int64_t h = std::max(box.h0, i * bh);
                         h < std::min(box.h0 + box.nh, (i + 1) * bh); ++h)
                        for (std::int64_t w = std::max(box.w0, j * bw);
                             w < std::min(box.w0 + box.nw, (j + 1) * bw); ++w)
                            trace.touch(element_offset(d, l, b, c, h, w));
}

// Visits the box's elements in the layout's address order (outer to inner).
void walk_box(const TensorDims& d, DataLayout l, const TensorBox& box, Trace& trace) {
    if (l.order == LayoutOrder::bhwc) {
        for (std::int64_t b = box.b0; b < box.b0 + box.nb; ++b)
            for (std::int64_t h = box.h0; h < box.h0 + box.nh; ++h)
                for (std::int64_t w = box.w0; w < box.w0 + box.nw; ++w)
                    for (std::int64_t c = box.c0; c < box.c0 + box.nc; ++c)
                        trace.touch(element_offset(d, l, b, c, h, w));
        return;
    }
    if (l.order == LayoutOrder::row_aligned) {
        walk_blocks(d, l, box, trace);
        return;
    }
    // A fetch that reaches the last channel also reads the padding of the last group.
    const std::int64_t n = l.group;
    const std::int64_t c_end = box.c0 + box.nc == d.C ? stored_channels(d, l) : box.c0 + box.nc;
    for (std::int64_t b = box.b0; b < box.b0 + box.nb; ++b)
        for (std::int64_t g = box.c0 / n; g <= (c_end - 1) / n; ++g)
            for (std::int64_t h = box.h0; h < box.h0 + box.nh; ++h)
                for (std::int64_t w = box.w0; w < box.w0 + box.nw; ++w)
                    for (std::int64_t j = 0; j < n; ++j) {
                        const std::int64_t c = g * n + j;
                        if (c < box.c0 || c >= c_end) continue;
                        // Padding channels (c >= C) are read along but are not data.
                        trace.touch((((b * (stored_channels(d, l) / n) + g) * d.H + h) * d.W + w) * n + j,
                                    c < d.C);
                    }
}

enum Region : int { kInput = 0, kWeight = 1, kOutput = 2, kPsum0 = 3, kPsum1 = 4 };

struct Nest {
    const PartLayer& layer;
    const Tiling& tiling;
    std::array<std::int64_t, kLoopDims> n{};

    [[nodiscard]] std::int64_t start(const std::array<std::int64_t, kLoopDims>& idx, LoopDim d) const {
        return idx[static_cast<std::size_t>(d)] * tiling[d];
    }
    [[nodiscard]] std::int64_t size(const std::array<std::int64_t, kLoopDims>& idx, LoopDim d) const {
        const std::int64_t s = start(idx, d);
        return std::min(tiling[d], extent(layer, d) - s);
    }
    // Mixed-radix key of the tile indices a tensor depends on.
    [[nodiscard]] std::int64_t key(const std::array<std::int64_t, kLoopDims>& idx, Tensor t) const {
        std::int64_t k = 0;
        for (std::size_t d = 0; d < kLoopDims; ++d) {
            if (relevant(layer, t, static_cast<LoopDim>(d))) k = k * n[d] + idx[d];
        }
        return k;
    }
    [[nodiscard]] std::int64_t keys(Tensor t) const {
        std::int64_t k = 1;
        for (std::size_t d = 0; d < kLoopDims; ++d) {
            if (relevant(layer, t, static_cast<LoopDim>(d))) k *= n[d];
        }
        return k;
    }
    // Calls f(idx) for every step of the nest in order.
    template <class F>
    void for_each_step(F&& f) const {
        const auto loops = loops_of(tiling.order);
        std::array<std::int64_t, kLoopDims> idx{};
        while (true) {
            f(idx);
            int i = static_cast<int>(kLoopDims) - 1;
            for (; i >= 0; --i) {
                const auto d = static_cast<std::size_t>(loops[static_cast<std::size_t>(i)]);
                if (++idx[d] < n[d]) break;
                idx[d] = 0;
            }
            if (i < 0) return;
        }
    }
};

void record(TensorTraffic& t, Trace& trace, bool write) {
    const FetchCount c = trace.end();
    (write ? t.write_accesses : t.read_accesses) += c.accesses;
    (write ? t.write_elements : t.read_elements) += trace.take_elements();
    t.activations += c.activations;
    if (write) t.write_activations += c.activations;
    trace.take_turns(t);
    ++t.fetches;
}

}  // namespace

FetchCount simulate_box_fetch(const TensorDims& dims, DataLayout layout, const TensorBox& box,
                              const DramGeometry& g) {
    Trace trace;
    trace.begin(kInput, g);
    walk_box(dims, layout, box, trace);
    return trace.end();
}

namespace {

/// The output tile of step `idx`.
TensorBox output_box(const Nest& nest, const std::array<std::int64_t, kLoopDims>& idx) {
    TensorBox b;
    b.b0 = nest.start(idx, LoopDim::B);
    b.nb = nest.size(idx, LoopDim::B);
    b.c0 = nest.start(idx, LoopDim::K);
    b.nc = nest.size(idx, LoopDim::K);
    b.h0 = nest.start(idx, LoopDim::P);
    b.nh = nest.size(idx, LoopDim::P);
    b.w0 = nest.start(idx, LoopDim::Q);
    b.nw = nest.size(idx, LoopDim::Q);
    return b;
}

/// The input tile step `idx` reads: its channels, and the rows and columns of its window.
TensorBox input_box(const Nest& nest, const PartLayer& layer,
                    const std::array<std::int64_t, kLoopDims>& idx) {
    TensorBox b;
    b.b0 = nest.start(idx, LoopDim::B);
    b.nb = nest.size(idx, LoopDim::B);
    const LoopDim ch = layer.depthwise ? LoopDim::K : LoopDim::C;
    b.c0 = nest.start(idx, ch);
    b.nc = nest.size(idx, ch);
    b.h0 = nest.start(idx, LoopDim::P) * layer.stride_h;
    b.nh = std::min(layer.H - b.h0, (nest.size(idx, LoopDim::P) - 1) * layer.stride_h + layer.R);
    b.w0 = nest.start(idx, LoopDim::Q) * layer.stride_w;
    b.nw = std::min(layer.W - b.w0, (nest.size(idx, LoopDim::Q) - 1) * layer.stride_w + layer.S);
    return b;
}

/// The weight tile of step `idx` (or, for an activation matmul, its second operand's tile).
void walk_weights(const Nest& nest, const std::array<std::int64_t, kLoopDims>& idx, const TensorDims& op_dims,
                  DataLayout in, Trace& trace) {
    const PartLayer& layer = nest.layer;
    const Tiling& tiling = nest.tiling;
    if (layer.has_weights) {
        // Contiguous blocks in (K tile, C tile) order at the full tile's stride.
        const std::int64_t ct = layer.depthwise ? 1 : layer.C;
        const std::int64_t nc = layer.depthwise ? 1 : nest.n[static_cast<std::size_t>(LoopDim::C)];
        const std::int64_t ci = layer.depthwise ? 0 : idx[static_cast<std::size_t>(LoopDim::C)];
        const std::int64_t c_tile = layer.depthwise ? 1 : tiling[LoopDim::C];
        const std::int64_t block = tiling[LoopDim::K] * c_tile * layer.R * layer.S;
        const std::int64_t base = (idx[static_cast<std::size_t>(LoopDim::K)] * nc + ci) * block;
        const std::int64_t c_size = layer.depthwise ? 1 : std::min(c_tile, ct - ci * c_tile);
        const std::int64_t elems = nest.size(idx, LoopDim::K) * c_size * layer.R * layer.S;
        for (std::int64_t e = 0; e < elems; ++e) trace.touch(base + e);
    } else {
        TensorBox b;
        b.b0 = nest.start(idx, LoopDim::B);
        b.nb = nest.size(idx, LoopDim::B);
        b.c0 = nest.start(idx, LoopDim::C);
        b.nc = nest.size(idx, LoopDim::C);
        b.h0 = nest.start(idx, LoopDim::K);
        b.nh = nest.size(idx, LoopDim::K);
        walk_box(op_dims, in, b, trace);
    }
}

// How often each output tile is visited (by its key), a first pass over the nest.
std::vector<std::int64_t> output_visits(const Nest& nest) {
    std::vector<std::int64_t> total(static_cast<std::size_t>(nest.keys(Tensor::output)), 0);
    std::int64_t prev = -1;
    nest.for_each_step([&](const std::array<std::int64_t, kLoopDims>& idx) {
        const std::int64_t k = nest.key(idx, Tensor::output);
        if (k != prev) ++total[static_cast<std::size_t>(k)];
        prev = k;
    });
    return total;
}

// A command clock paced from outside: each transfer waits for the pacer's earliest time.
struct Pacing {
    CommandClock& clock;
    TransferPacer& pacer;
};

DramTraffic run_trace(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling, DataLayout in,
                      DataLayout out, Trace& trace, Pacing* pacing = nullptr) {
    Nest nest{layer, tiling, {}};
    for (std::size_t d = 0; d < kLoopDims; ++d) {
        const std::int64_t e = extent(layer, static_cast<LoopDim>(d));
        nest.n[d] = ceil_div(e, tiling.tile[d]);
    }
    const DramGeometry data = geometry(node, layer.data_bits);
    const DramGeometry psum = geometry(node, layer.psum_bits);
    const TensorDims in_dims{layer.B, layer.input_channels(), layer.H, layer.W};
    const TensorDims op_dims{layer.B, layer.C, layer.K, 1};
    const TensorDims out_dims{layer.B, layer.K, layer.P, layer.Q};

    const std::vector<std::int64_t> total = output_visits(nest);
    DramTraffic traffic;
    std::vector<std::int64_t> done(total.size(), 0);
    std::int64_t prev_in = -1, prev_w = -1, prev_out = -1;
    std::array<std::int64_t, kLoopDims> prev_idx{};
    std::int64_t step = 0;
    // Brackets one transfer for the pacer, if any.
    const auto paced = [&](NestTransfer::Kind kind, auto&& transfer) {
        const NestTransfer t{kind, step};
        if (pacing != nullptr) pacing->clock.wait_until(pacing->pacer.earliest(t));
        transfer();
        if (pacing != nullptr) pacing->pacer.finished(t, pacing->clock.last_burst_end());
    };

    const auto out_box = [&](const std::array<std::int64_t, kLoopDims>& idx) {
        return output_box(nest, idx);
    };
    const auto write_back = [&](const std::array<std::int64_t, kLoopDims>& idx, std::int64_t k) {
        paced(NestTransfer::Kind::write_back, [&] {
            const std::int64_t v = done[static_cast<std::size_t>(k)];
            const bool final = v == total[static_cast<std::size_t>(k)];
            trace.begin(final ? kOutput : (v % 2 == 0 ? kPsum0 : kPsum1), final ? data : psum, true);
            walk_box(out_dims, out, out_box(idx), trace);
            record(traffic[Tensor::output], trace, true);
        });
    };

    nest.for_each_step([&](const std::array<std::int64_t, kLoopDims>& idx) {
        if (pacing != nullptr) pacing->pacer.begin_step(step, idx);
        const std::int64_t k_in = nest.key(idx, Tensor::input);
        if (k_in != prev_in) {
            paced(NestTransfer::Kind::input, [&] {
                trace.begin(kInput, data);
                walk_box(in_dims, in, input_box(nest, layer, idx), trace);
                record(traffic[Tensor::input], trace, false);
            });
            prev_in = k_in;
        }
        const std::int64_t k_w = nest.key(idx, Tensor::weight);
        if (k_w != prev_w) {
            paced(NestTransfer::Kind::weight, [&] {
                trace.begin(kWeight, data);
                walk_weights(nest, idx, op_dims, in, trace);
                record(traffic[Tensor::weight], trace, false);
            });
            prev_w = k_w;
        }
        const std::int64_t k_out = nest.key(idx, Tensor::output);
        if (k_out != prev_out) {
            const std::int64_t v = ++done[static_cast<std::size_t>(k_out)];
            if (v > 1) {
                paced(NestTransfer::Kind::psum_reload, [&] {
                    trace.begin((v - 1) % 2 == 0 ? kPsum0 : kPsum1, psum);
                    walk_box(out_dims, out, out_box(idx), trace);
                    record(traffic[Tensor::output], trace, false);
                });
            }
            if (prev_out >= 0) write_back(prev_idx, prev_out);
            prev_out = k_out;
            prev_idx = idx;
        }
        ++step;
    });
    write_back(prev_idx, prev_out);  // issued as step `step`: one past the last
    trace.take_short_rows(traffic);  // closes the last row first
    return traffic;
}

}  // namespace

DramTraffic simulate_dram_trace(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                DataLayout in, DataLayout out) {
    Trace trace;
    return run_trace(layer, node, tiling, in, out, trace);
}

DramCommandCount simulate_dram_commands(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                        DataLayout in, DataLayout out, double refi_cycles, double rfc_cycles,
                                        double refresh_phase) {
    CommandClock clock(node, refi_cycles, rfc_cycles, refresh_phase * refi_cycles);
    Trace trace(&clock);
    (void)run_trace(layer, node, tiling, in, out, trace);
    return clock.result();
}

DramCommandCount simulate_dram_commands(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                        DataLayout in, DataLayout out, double refi_cycles, double rfc_cycles,
                                        TransferPacer& pacer) {
    CommandClock clock(node, refi_cycles, rfc_cycles, refi_cycles);
    Trace trace(&clock);
    Pacing pacing{clock, pacer};
    (void)run_trace(layer, node, tiling, in, out, trace, &pacing);
    return clock.result();
}

}  // namespace pimdse::sim
