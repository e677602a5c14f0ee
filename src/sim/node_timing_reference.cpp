#include "pimdse/sim/node_timing_reference.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "pimdse/core/units.hpp"

namespace pimdse::sim {
namespace {

// Plays compute against the command stream: holds each transfer back until its buffer slot
// is free, and computes each step once its tiles are in. Steps are computed lazily, when a
// transfer or the end needs them, and only after all of their own transfers have finished.
class NodePlayer final : public TransferPacer {
public:
    NodePlayer(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling)
        : layer_(layer), node_(node), tiling_(tiling) {}

    void begin_step(std::int64_t /*step*/, const std::array<std::int64_t, kLoopDims>& idx) override {
        cycles_.push_back(step_cycles(idx));
        ready_.push_back(0);
        obuf_free_.push_back(0);
    }

    double earliest(const NestTransfer& t) override {
        switch (t.kind) {
            case NestTransfer::Kind::input:
                return slot_free(last_fetch_[0]);
            case NestTransfer::Kind::weight:
                return slot_free(last_fetch_[1]);
            case NestTransfer::Kind::psum_reload:
                // Into the obuf slot of the tile two output tiles back: once that is written back.
                return write_backs_.empty() ? 0.0 : write_backs_.back();
            case NestTransfer::Kind::write_back:
                break;
        }
        return computed(t.step - 1);
    }

    void finished(const NestTransfer& t, double end) override {
        const auto s = static_cast<std::size_t>(t.step);
        switch (t.kind) {
            case NestTransfer::Kind::input:
            case NestTransfer::Kind::weight:
                last_fetch_[t.kind == NestTransfer::Kind::input ? 0 : 1] = t.step;
                [[fallthrough]];
            case NestTransfer::Kind::psum_reload:
                ready_[s] = std::max(ready_[s], end);
                return;
            case NestTransfer::Kind::write_back:
                break;
        }
        // A write-back at step s means a new output tile starts there: it takes the obuf slot
        // of the tile written back before this one.
        if (s < obuf_free_.size()) obuf_free_[s] = write_backs_.empty() ? 0.0 : write_backs_.back();
        write_backs_.push_back(end);
    }

    [[nodiscard]] NodeTiming result() {
        NodeTiming r;
        r.steps = static_cast<std::int64_t>(cycles_.size());
        (void)computed(r.steps - 1);
        r.cycles = write_backs_.back();
        for (double c : cycles_) r.compute += c;
        r.prologue = first_start_;
        r.epilogue = r.cycles - end_.back();
        r.stall = end_.back() - first_start_ - r.compute;
        r.compute_bound = compute_bound_;
        return r;
    }

private:
    // When the slot a new tile of a tensor goes into is free: the tile before the current one
    // (fetched two fetches ago) was last used by the step before the current tile's fetch.
    double slot_free(std::int64_t last_fetch_step) { return computed(last_fetch_step - 1); }

    // The end of step k's compute (0 before the first step), computing up to k first.
    double computed(std::int64_t k) {
        while (static_cast<std::int64_t>(end_.size()) <= k) {
            const std::size_t s = end_.size();
            const double prev = s == 0 ? 0.0 : end_.back();
            const double start = std::max({prev, ready_[s], obuf_free_[s]});
            if (s == 0) first_start_ = start;
            if (s > 0 && start == prev) ++compute_bound_;
            end_.push_back(start + cycles_[s]);
        }
        return k < 0 ? 0.0 : end_[static_cast<std::size_t>(k)];
    }

    // PE-array cycles of one step: per tile loop (R and S included), the tile's extent, or
    // its passes over the PE lanes when the loop is unrolled.
    [[nodiscard]] double step_cycles(const std::array<std::int64_t, kLoopDims>& idx) const {
        std::int64_t c = 1;
        for (std::size_t i = 0; i < kLoopDims; ++i) {
            const auto d = static_cast<LoopDim>(i);
            const std::int64_t size = std::min(tiling_.tile[i], extent(layer_, d) - idx[i] * tiling_.tile[i]);
            const std::int64_t lanes =
                tiling_.unroll.row == d ? node_.pe_rows : (tiling_.unroll.col == d ? node_.pe_cols : 1);
            c *= ceil_div(size, lanes);
        }
        return static_cast<double>(c);
    }

    const PartLayer& layer_;
    const NodeSpec& node_;
    const Tiling& tiling_;
    std::vector<double> cycles_, ready_, obuf_free_, end_, write_backs_;
    std::array<std::int64_t, 2> last_fetch_{-1, -1};  // input, weights
    double first_start_ = 0;
    std::int64_t compute_bound_ = 0;
};

}  // namespace

NodeTiming simulate_node_timing(const PartLayer& layer, const NodeSpec& node, const Tiling& tiling,
                                DataLayout in, DataLayout out, double refi_cycles, double rfc_cycles) {
    NodePlayer player(layer, node, tiling);
    const DramCommandCount commands =
        simulate_dram_commands(layer, node, tiling, in, out, refi_cycles, rfc_cycles, player);
    NodeTiming t = player.result();
    t.commands = commands;
    return t;
}

}  // namespace pimdse::sim
