// The DDAM-style pipeline (include/pimdse/mapper/pipeline.hpp): cuts, bands and their mapping.
#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/mapper/segment_candidates.hpp"
#include "pipeline_cuts.hpp"

namespace pimdse::mapper {

using workload::LayerIndex;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// How one segment runs on a band of a given width: the corner of the band it uses (the
/// largest shape on which every layer has an LM) and its estimated latency there.
struct SegmentFit {
    std::int32_t rows = 0;
    std::int32_t cols = 0;
    double cycles = kInf;
};

/// The bands of the array: cuts of the longer side, each the full length of the shorter side.
struct Bands {
    std::int32_t rows = 0;
    std::int32_t cols = 0;
    [[nodiscard]] bool by_rows() const noexcept { return rows >= cols; }
    [[nodiscard]] std::int32_t units() const noexcept { return by_rows() ? rows : cols; }
    [[nodiscard]] sim::Region band(std::int32_t offset, std::int32_t width) const noexcept {
        return by_rows() ? sim::Region{offset, 0, width, cols} : sim::Region{0, offset, rows, width};
    }
};

/// fit[s][w]: segment s alone on a band of width w (the baseline's LM rule per layer).
std::vector<std::vector<SegmentFit>> fit_segments(LayerSearch& search, const sim::Timeline& timeline,
                                                  const workload::Network& network,
                                                  const workload::Segmentation& seg, const Bands& bands,
                                                  sim::DataLayout dl, const std::function<void()>& check) {
    const std::int32_t units = bands.units();
    std::vector<std::vector<SegmentFit>> fit(seg.segments.size(),
                                             std::vector<SegmentFit>(static_cast<std::size_t>(units) + 1));
    for (std::size_t s = 0; s < seg.segments.size(); ++s) {
        check();
        const workload::Segment& segment = seg.segments[s];
        // Every branch on the one band: the segment's layers in branch order, on one region.
        std::vector<LayerIndex> order;
        std::vector<sim::TimelineLayer> layers;
        for (const workload::Branch& br : segment.branches)
            for (LayerIndex l : br.layers) {
                layers.emplace_back().producers = sim::producers_in(network, l, order);
                order.push_back(l);
            }
        std::vector<sim::LayerTiming> timing(layers.size());
        for (std::int32_t w = 1; w <= units; ++w) {
            const sim::Region b = bands.band(0, w);
            for (const auto& [r, c] : shrinking_shapes(b.rows, b.cols)) {
                bool fits = true;
                for (std::size_t i = 0; i < order.size(); ++i) {
                    const std::vector<LayerOption>& o =
                        search.fastest_compute_blind(network.layer(order[i]), r, c, dl, dl);
                    fits = fits && !o.empty();
                    if (!o.empty()) layers[i].compute = Cycles(o.front().latency);  // compute and sharing
                }
                const double total = fits ? timeline.segment(layers, 1, timing).value() : kInf;
                if (total < kInf) {
                    fit[s][static_cast<std::size_t>(w)] = SegmentFit{r, c, total};
                    break;
                }
            }
        }
    }
    return fit;
}

detail::BandEstimates estimates_of(const std::vector<std::vector<SegmentFit>>& fit) {
    detail::BandEstimates e(fit.size());
    for (std::size_t s = 0; s < fit.size(); ++s)
        for (const SegmentFit& f : fit[s]) e[s].push_back(f.cycles);
    return e;
}

/// OverlaPIM's fixed memory per layer: every segment alone on a band `width` wide (the
/// array's width when it is narrower); no parts when a segment fits no such band.
detail::Cuts one_per_segment(const std::vector<std::vector<SegmentFit>>& fit, std::int32_t units,
                             std::int32_t width) {
    const auto w = static_cast<std::size_t>(std::min(width, units));
    detail::Cuts out;
    out.interval = 0;
    out.sum = 0;
    for (std::size_t s = 0; s < fit.size(); ++s) {
        if (fit[s][w].cycles == kInf) return {};
        out.parts.emplace_back(s, w);
        out.interval = std::max(out.interval, fit[s][w].cycles);
        out.sum += fit[s][w].cycles;
    }
    return out;
}

/// The batch's cycles, seconds and energy from the costed stages: every sample costs the same
/// dynamic energy; the banks draw background power for as long as the batch takes.
void add_batch_totals(PipelineResult& out, const sim::System& system) {
    double sum = 0;
    for (PipelineStage& st : out.stages) {
        for (std::int32_t s = st.first_segment; s < st.end_segment; ++s)
            st.cycles += out.cost.segments[static_cast<std::size_t>(s)].value();
        sum += st.cycles;
        out.interval_cycles = std::max(out.interval_cycles, st.cycles);
    }
    out.batch_cycles = sum + static_cast<double>(out.batch - 1) * out.interval_cycles;
    out.batch_seconds = out.batch_cycles / (system.clock_mhz * 1e6);
    sim::EnergyBreakdown e = out.cost.energy;
    e.dram_background = Picojoules(0);
    const auto b = static_cast<double>(out.batch);
    out.batch_energy.pe = e.pe * b;
    out.batch_energy.registers = e.registers * b;
    out.batch_energy.sram = e.sram * b;
    out.batch_energy.dram_access = e.dram_access * b;
    out.batch_energy.dram_activation = e.dram_activation * b;
    out.batch_energy.noc = e.noc * b;
    out.batch_energy.dram_background = Picojoules(system.dram_background_pj_per_cycle * out.batch_cycles);
}

}  // namespace

PipelineResult Mapper::pipeline(const workload::Network& network, const workload::Segmentation& seg,
                                std::int64_t batch) {
    if (batch < 1) throw ModelError("pipeline: batch must be >= 1");
    const Bands bands{system_.node_rows(), system_.node_cols()};
    const sim::DataLayout dl = options_.layouts.front();  // DDAM does not choose layouts
    const std::vector<std::vector<SegmentFit>> fit =
        fit_segments(search_, select_timeline_, network, seg, bands, dl, [this] { check_cancelled(); });
    const detail::Cuts cuts =
        options_.layer_band > 0 ? one_per_segment(fit, bands.units(), options_.layer_band)
                                : detail::balance(estimates_of(fit), static_cast<std::size_t>(bands.units()));
    if (cuts.parts.empty())
        throw Unmappable("ddam: no cut of '" + network.name() + "' fits the array's bands");

    // The parts, first to last, on bands laid out from offset 0.
    const std::size_t S = seg.segments.size();
    PipelineResult out;
    out.batch = batch;
    out.estimated_interval = cuts.interval;
    out.estimated_sample = cuts.sum;
    out.mapping.layers.resize(static_cast<std::size_t>(network.size()));
    out.mapping.segments.resize(S);
    std::int32_t offset = 0;
    std::vector<std::vector<LayerIndex>> band_layers(static_cast<std::size_t>(bands.units()));
    for (std::size_t p = 0; p < cuts.parts.size(); ++p) {
        const std::size_t first = cuts.parts[p].first;
        const std::size_t end = p + 1 < cuts.parts.size() ? cuts.parts[p + 1].first : S;
        const auto w = static_cast<std::int32_t>(cuts.parts[p].second);
        if (offset + w > bands.units()) offset = 0;  // layer bands wrap; the DP's cuts never do
        const sim::Region b = bands.band(offset, w);
        // The layers of every part on this band so far share its nodes' DRAM.
        std::vector<LayerIndex>& part_layers = band_layers[static_cast<std::size_t>(offset)];
        offset += w;
        for (std::size_t s = first; s < end; ++s) {
            const SegmentFit& f = fit[s][static_cast<std::size_t>(w)];
            const workload::Segment& segment = seg.segments[s];
            out.mapping.segments[s] =
                sim::SegmentMapping{{sim::Region{b.row, b.col, f.rows, f.cols}},
                                    std::vector<std::int32_t>(segment.branches.size(), 0)};
            for (const workload::Branch& br : segment.branches)
                for (LayerIndex l : br.layers) {
                    out.mapping.layers[static_cast<std::size_t>(l)] =
                        search_.fastest_compute_blind(network.layer(l), f.rows, f.cols, dl, dl)
                            .front()
                            .mapping;
                    part_layers.push_back(l);
                }
        }
        reduce_replication(network, out.mapping, part_layers);  // a band stores its parts' layers only
        out.stages.push_back(
            PipelineStage{static_cast<std::int32_t>(first), static_cast<std::int32_t>(end), b, 0});
    }
    out.cost = evaluate(network, seg, out.mapping, true);
    add_batch_totals(out, system_);
    return out;
}

}  // namespace pimdse::mapper
