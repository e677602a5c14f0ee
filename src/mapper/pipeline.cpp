// The DDAM-style pipeline (include/pimdse/mapper/pipeline.hpp): cuts, bands and their mapping.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/mapper/mapper.hpp"
#include "pimdse/mapper/segment_candidates.hpp"

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

}  // namespace

PipelineResult Mapper::pipeline(const workload::Network& network, const workload::Segmentation& seg,
                                std::int64_t batch) {
    if (batch < 1) throw ModelError("pipeline: batch must be >= 1");
    const std::int32_t rows = system_.node_rows();
    const std::int32_t cols = system_.node_cols();
    // Bands cut the longer side of the array, each the full length of the shorter side.
    const bool by_rows = rows >= cols;
    const std::int32_t units = by_rows ? rows : cols;
    const auto band = [&](std::int32_t offset, std::int32_t width) {
        return by_rows ? sim::Region{offset, 0, width, cols} : sim::Region{0, offset, rows, width};
    };
    const sim::DataLayout dl = options_.layouts.front();  // DDAM does not choose layouts
    const auto n_seg = static_cast<std::int32_t>(seg.segments.size());

    // fit[s][w]: segment s alone on a band of width w (the baseline's LM rule per layer).
    std::vector<std::vector<SegmentFit>> fit(static_cast<std::size_t>(n_seg),
                                             std::vector<SegmentFit>(static_cast<std::size_t>(units) + 1));
    for (std::int32_t s = 0; s < n_seg; ++s) {
        check_cancelled();
        const workload::Segment& segment = seg.segments[static_cast<std::size_t>(s)];
        for (std::int32_t w = 1; w <= units; ++w) {
            const sim::Region b = band(0, w);
            for (const auto& [r, c] : shrinking_shapes(b.rows, b.cols)) {
                double total = 0;
                for (const workload::Branch& br : segment.branches)
                    for (LayerIndex l : br.layers) {
                        const std::vector<LayerOption>& o =
                            search_.fastest_compute_blind(network.layer(l), r, c, dl, dl);
                        total += o.empty() ? kInf : o.front().latency;
                    }
                if (total < kInf) {
                    fit[static_cast<std::size_t>(s)][static_cast<std::size_t>(w)] = SegmentFit{r, c, total};
                    break;
                }
            }
        }
    }

    // Load balance (DDAM's dynamic programme): best[k][u] is the least possible slowest part
    // when the first k segments run on parts using u units of the array.
    const auto S = static_cast<std::size_t>(n_seg);
    const auto U = static_cast<std::size_t>(units);
    std::vector<std::vector<double>> prefix(U + 1, std::vector<double>(S + 1, 0.0));
    for (std::size_t w = 1; w <= U; ++w)
        for (std::size_t s = 0; s < S; ++s) prefix[w][s + 1] = prefix[w][s] + fit[s][w].cycles;
    std::vector<std::vector<double>> best(S + 1, std::vector<double>(U + 1, kInf));
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> from(
        S + 1, std::vector<std::pair<std::size_t, std::size_t>>(U + 1));
    best[0][0] = 0;
    for (std::size_t k = 1; k <= S; ++k)
        for (std::size_t u = 1; u <= U; ++u)
            for (std::size_t j = 0; j < k; ++j)
                for (std::size_t w = 1; w <= u; ++w) {
                    if (best[j][u - w] == kInf) continue;
                    const double part = prefix[w][k] - prefix[w][j];
                    const double v = std::max(best[j][u - w], part);
                    if (v < best[k][u]) {
                        best[k][u] = v;
                        from[k][u] = {j, w};
                    }
                }
    std::size_t used = 0;
    for (std::size_t u = 1; u <= U; ++u)
        if (best[S][u] < (used == 0 ? kInf : best[S][used])) used = u;
    if (used == 0) throw Unmappable("ddam: no cut of '" + network.name() + "' fits the array's bands");

    // The parts, first to last, on bands laid out from offset 0.
    PipelineResult out;
    out.batch = batch;
    out.estimated_interval = best[S][used];
    std::vector<std::pair<std::size_t, std::size_t>> cuts;  // (first segment, width)
    for (std::size_t k = S, u = used; k > 0;) {
        const auto [j, w] = from[k][u];
        cuts.emplace_back(j, w);
        k = j;
        u -= w;
    }
    std::reverse(cuts.begin(), cuts.end());
    out.mapping.layers.resize(static_cast<std::size_t>(network.size()));
    out.mapping.segments.resize(S);
    std::int32_t offset = 0;
    for (std::size_t p = 0; p < cuts.size(); ++p) {
        const std::size_t first = cuts[p].first;
        const std::size_t end = p + 1 < cuts.size() ? cuts[p + 1].first : S;
        const auto w = static_cast<std::int32_t>(cuts[p].second);
        const sim::Region b = band(offset, w);
        offset += w;
        std::vector<LayerIndex> part_layers;
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
        reduce_replication(network, out.mapping, part_layers);  // a part's nodes store its layers only
        out.stages.push_back(
            PipelineStage{static_cast<std::int32_t>(first), static_cast<std::int32_t>(end), b, 0});
    }

    out.cost = evaluate(network, seg, out.mapping, true);
    double sum = 0;
    for (PipelineStage& st : out.stages) {
        for (std::int32_t s = st.first_segment; s < st.end_segment; ++s)
            st.cycles += out.cost.segments[static_cast<std::size_t>(s)].value();
        sum += st.cycles;
        out.interval_cycles = std::max(out.interval_cycles, st.cycles);
    }
    out.batch_cycles = sum + static_cast<double>(batch - 1) * out.interval_cycles;
    out.batch_seconds = out.batch_cycles / (system_.clock_mhz * 1e6);
    // Every sample costs the same dynamic energy; the banks draw background power for as long
    // as the batch takes.
    sim::EnergyBreakdown e = out.cost.energy;
    e.dram_background = Picojoules(0);
    const auto b = static_cast<double>(batch);
    out.batch_energy.pe = e.pe * b;
    out.batch_energy.registers = e.registers * b;
    out.batch_energy.sram = e.sram * b;
    out.batch_energy.dram_access = e.dram_access * b;
    out.batch_energy.dram_activation = e.dram_activation * b;
    out.batch_energy.noc = e.noc * b;
    out.batch_energy.dram_background = Picojoules(system_.dram_background_pj_per_cycle * out.batch_cycles);
    return out;
}

}  // namespace pimdse::mapper
