// An evaluation as table rows (include/pimdse/store/store.hpp, BatchRows::add): one
// function per table, each filling the row struct of rows.hpp field by field.

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "batch_rows.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/sim/mapping.hpp"

namespace pimdse::store {

double objective_value(const CandidateRecord& c, const FamilyColumns& columns, io::Objective o,
                       double samples) noexcept {
    io::ObjectiveInputs in{c.latency_seconds, c.energy_joules, c.area_mm2, c.cost, samples};
    const std::string_view metric = io::objective_metric(o);
    for (std::size_t i = 0; !metric.empty() && i < columns.metrics.size(); ++i) {
        if (columns.metrics[i].name == metric && std::cmp_less(i, c.metric_count)) in.metric = c.metrics[i];
    }
    return io::minimised_value(o, in);
}

void count_rows(const eval::Evaluation& e, CandidateRecord& r) {
    r.metric_rows = static_cast<std::int64_t>(e.networks.size());
    r.layer_rows = 0;
    r.segment_rows = 0;
    r.schedule_rows = 0;
    for (const eval::NetworkResult& n : e.networks) {
        r.layer_rows += static_cast<std::int64_t>(n.mapping.layers.size());
        for (const sim::SegmentMapping& s : n.mapping.segments) {
            r.segment_rows += static_cast<std::int64_t>(s.branch_region.size());
        }
        r.schedule_rows += static_cast<std::int64_t>(n.schedules.size());
    }
}

namespace {

CandidateRecord record_of(const eval::Evaluation& e, std::int64_t batch, io::Proposer proposer, int rank) {
    CandidateRecord c;
    c.id = e.candidate;
    c.batch = batch;
    c.proposer = proposer;
    c.params = e.point;
    c.status = e.status;
    c.area_mm2 = e.area_mm2;
    c.latency_seconds = e.latency_seconds;
    c.energy_joules = e.energy_joules;
    c.cost = e.cost;
    if (e.metrics.size() > kMaxFamilyColumns) throw InternalError("more family metrics than a candidate row");
    std::copy(e.metrics.begin(), e.metrics.end(), c.metrics.begin());
    c.metric_count = static_cast<std::int32_t>(e.metrics.size());
    c.rank = rank;
    c.seconds = e.seconds;
    count_rows(e, c);
    return c;
}

CandidateRow candidate_row(const eval::Evaluation& e, const CandidateRecord& c) {
    CandidateRow r{};
    r.candidate = c.id;
    r.batch = c.batch;
    r.proposer = static_cast<std::int32_t>(c.proposer);
    if (e.point.size > kMaxFamilyColumns) throw InternalError("a design point wider than a candidate row");
    std::copy_n(e.point.values.begin(), e.point.size, r.params);
    r.status = static_cast<std::int32_t>(e.status);
    r.area_mm2 = e.area_mm2;
    r.area_total_mm2 = e.area_total_mm2;
    r.latency_s = e.latency_seconds;
    r.energy_j = e.energy_joules;
    r.cost = e.cost;
    std::fill(std::begin(r.metrics), std::end(r.metrics), std::numeric_limits<double>::quiet_NaN());
    std::copy_n(c.metrics.begin(), c.metric_count, r.metrics);
    r.metric_rows = c.metric_rows, r.layer_rows = c.layer_rows;
    r.segment_rows = c.segment_rows, r.schedule_rows = c.schedule_rows;
    r.eval_seconds = e.seconds;
    r.rank = c.rank;
    put(r.message, e.message);
    return r;
}

MetricRow metric_row(std::int64_t candidate, std::int32_t network, const eval::NetworkResult& nr,
                     const eval::Workload& w) {
    const sim::NetworkCost& cost = nr.cost;
    MetricRow m{};
    m.candidate = candidate;
    m.network = network;
    m.status = static_cast<std::int32_t>(cost.status);
    m.latency_cycles = cost.latency.value();
    m.latency_s = cost.seconds;
    m.energy_j = joules(cost.energy.total());
    if (nr.energy_parts_pj.size() > kMaxFamilyColumns)
        throw InternalError("more energy parts than a metric row");
    std::transform(nr.energy_parts_pj.begin(), nr.energy_parts_pj.end(), m.energy_parts,
                   [](double pj) { return joules(pj); });
    m.pe_utilisation = cost.pe_utilisation;
    m.cost = nr.cost_term;
    m.segments = to_i32(static_cast<std::int64_t>(cost.segments.size()));
    put(m.network_name, w.network.name());
    put(m.reason, cost.reason);
    return m;
}

// The layer's mapping: region, LM partitions and order, WR, DL.
void put_mapping(LayerRow& r, const sim::LayerMapping& lm, const sim::Region& region) {
    r.region_row = to_i16(region.row), r.region_col = to_i16(region.col);
    r.region_rows = to_i16(region.rows), r.region_cols = to_i16(region.cols);
    const auto ph = [&](sim::PartDim d) { return to_i16(lm.part(d).h); };
    const auto pw = [&](sim::PartDim d) { return to_i16(lm.part(d).w); };
    r.part_b_h = ph(sim::PartDim::b), r.part_b_w = pw(sim::PartDim::b);
    r.part_p_h = ph(sim::PartDim::p), r.part_p_w = pw(sim::PartDim::p);
    r.part_q_h = ph(sim::PartDim::q), r.part_q_w = pw(sim::PartDim::q);
    r.part_k_h = ph(sim::PartDim::k), r.part_k_w = pw(sim::PartDim::k);
    r.part_c_h = ph(sim::PartDim::c), r.part_c_w = pw(sim::PartDim::c);
    static_assert(sizeof r.order == sim::kPartDims);
    for (std::size_t d = 0; d < lm.order.size(); ++d) r.order[d] = sim::to_string(lm.order[d])[0];
    r.wr = lm.wr;
    r.dl_in_order = static_cast<std::int8_t>(lm.dl_in.order);
    r.dl_in_group = lm.dl_in.group;
    r.dl_in_block_h = lm.dl_in.block_h, r.dl_in_block_w = lm.dl_in.block_w;
    r.dl_out_order = static_cast<std::int8_t>(lm.dl_out.order);
    r.dl_out_group = lm.dl_out.group;
    r.dl_out_block_h = lm.dl_out.block_h, r.dl_out_block_w = lm.dl_out.block_w;
}

// The layer's cost: latency split and energy breakdown.
void put_cost(LayerRow& r, const sim::LayerCost& c) {
    r.latency_cycles = c.latency.value();
    r.start_cycles = c.start.value();
    r.finish_cycles = (c.start + c.latency).value();
    r.redistribution_cycles = c.redistribution.value();
    r.sharing_cycles = c.sharing.value();
    r.compute_cycles = c.compute.value();
    r.energy_j = joules(c.energy.total());
    r.energy_pe_j = joules(c.energy.pe);
    r.energy_register_j = joules(c.energy.registers);
    r.energy_sram_j = joules(c.energy.sram);
    r.energy_sram_ibuf_j = joules(c.counts.ibuf_energy);
    r.energy_sram_wbuf_j = joules(c.counts.wbuf_energy);
    r.energy_sram_obuf_j = joules(c.counts.obuf_energy);
    r.energy_dram_j = joules(c.energy.dram());
    r.energy_dram_access_j = joules(c.energy.dram_access);
    r.energy_dram_activation_j = joules(c.energy.dram_activation);
    r.energy_noc_j = joules(c.energy.noc);
    r.pe_utilisation = c.pe_utilisation;
    r.status = static_cast<std::int8_t>(c.status);
}

// What the layer moves: DRAM, SRAM and register accesses, NoC flit-hops.
void put_counts(LayerRow& r, const sim::LayerCounts& c) {
    r.dram_reads = c.dram_read_accesses;
    r.dram_writes = c.dram_write_accesses;
    r.dram_activations = c.dram_activations;
    r.ibuf_reads = c.ibuf.reads, r.ibuf_writes = c.ibuf.writes;
    r.wbuf_reads = c.wbuf.reads, r.wbuf_writes = c.wbuf.writes;
    r.obuf_reads = c.obuf.reads, r.obuf_writes = c.obuf.writes;
    r.register_bits = c.register_bits;
    r.redistribution_flit_hops = c.redistribution_flit_hops;
    r.sharing_flit_hops = c.sharing_flit_hops;
}

// The slowest node's tiling; `none` and 0 for a layer computed as a stream.
void put_tiling(LayerRow& r, const sim::PartTiling& p) {
    const auto dim = [&](sim::LoopDim d) { return static_cast<std::int8_t>(static_cast<int>(d) + 1); };
    if (!p.tiled) {
        r.unroll_row = r.unroll_col = r.dataflow = 0;
        std::memcpy(r.loop_order, "none", 4);
        r.loop_order[4] = '\0';
        r.tile_nodes = r.tile_b = r.tile_k = r.tile_c = r.tile_p = r.tile_q = r.tile_r = r.tile_s = 0;
        return;
    }
    const sim::Tiling& t = p.tiling;
    r.unroll_row = dim(t.unroll.row);
    r.unroll_col = dim(t.unroll.col);
    const std::string order = sim::to_string(t.order);
    static_assert(sizeof r.loop_order == sim::kLoopDims);
    std::memcpy(r.loop_order, order.data(), sizeof r.loop_order);
    r.dataflow = static_cast<std::int8_t>(static_cast<int>(p.dataflow) + 1);
    r.tile_nodes = to_i32(p.nodes);
    r.tile_b = to_i32(t[sim::LoopDim::B]), r.tile_k = to_i32(t[sim::LoopDim::K]);
    r.tile_c = to_i32(t[sim::LoopDim::C]), r.tile_p = to_i32(t[sim::LoopDim::P]);
    r.tile_q = to_i32(t[sim::LoopDim::Q]);
    r.tile_r = to_i32(t[sim::LoopDim::R]), r.tile_s = to_i32(t[sim::LoopDim::S]);
}

void add_layer_rows(std::int64_t candidate, std::int32_t network, const eval::NetworkResult& nr,
                    const eval::Workload& w, std::vector<LayerRow>& layers) {
    // The layers the evaluation mapped (every layer, or none for a family without a
    // PIM-Mapper mapping), as count_rows counts them.
    for (std::size_t li = 0; li < nr.mapping.layers.size(); ++li) {
        const auto i = static_cast<workload::LayerIndex>(li);
        LayerRow r{};
        r.candidate = candidate;
        r.network = network;
        r.layer = to_i32(i);
        r.segment = w.segmentation.segment_of[li];
        r.branch = w.segmentation.branch_of[li];
        put_mapping(r, nr.mapping.layers[li], sim::layer_region(w.segmentation, nr.mapping, i));
        put_cost(r, nr.cost.layers[li]);
        put_counts(r, nr.cost.layers[li].counts);
        put_tiling(r, nr.cost.layers[li].part);
        layers.push_back(r);
    }
}

void add_segment_rows(std::int64_t candidate, std::int32_t network, const eval::NetworkResult& nr,
                      std::vector<SegmentRow>& segments) {
    for (std::size_t sg = 0; sg < nr.mapping.segments.size(); ++sg) {
        const sim::SegmentMapping& sm = nr.mapping.segments[sg];
        for (std::size_t b = 0; b < sm.branch_region.size(); ++b) {
            const sim::Region& region = sm.regions.at(static_cast<std::size_t>(sm.branch_region[b]));
            SegmentRow r{};
            r.candidate = candidate;
            r.network = network;
            r.segment = to_i32(static_cast<std::int64_t>(sg));
            r.branch = to_i32(static_cast<std::int64_t>(b));
            r.region = sm.branch_region[b];
            r.region_row = region.row, r.region_col = region.col;
            r.region_rows = region.rows, r.region_cols = region.cols;
            r.segment_latency_cycles = sg < nr.cost.segments.size() ? nr.cost.segments[sg].value() : 0.0;
            segments.push_back(r);
        }
    }
}

void add_schedule_rows(std::int64_t candidate, std::int32_t network, const eval::NetworkResult& nr,
                       std::vector<ScheduleRow>& schedules) {
    for (const eval::EventSchedule& es : nr.schedules) {
        const sched::ScheduleRecord& rec = es.record;
        ScheduleRow r{};
        r.candidate = candidate;
        r.network = network;
        r.layer = to_i32(es.layer);
        r.event = es.event;
        r.kind = static_cast<std::int32_t>(es.kind);
        r.method = static_cast<std::int32_t>(rec.scheduler);
        r.outcome = static_cast<std::int32_t>(rec.status);
        r.sets = to_i32(static_cast<std::int64_t>(rec.sets.size()));
        for (const sim::SharingSet& set : rec.sets) {
            r.members = std::max(r.members, to_i32(static_cast<std::int64_t>(set.members.size())));
            r.bytes_per_node = std::max(r.bytes_per_node, set.bytes_per_node.value());
        }
        r.max_link_flits = rec.cost.max_link_flits;
        r.max_channel_flits = rec.cost.max_channel_flits;
        r.steps = rec.cost.steps;
        r.max_hops = rec.cost.max_hops;
        r.flit_hops = rec.cost.flit_hops;
        r.latency_cycles = rec.cost.latency.value();
        r.energy_j = joules(rec.cost.energy);
        r.tsp_max_link_flits = rec.tsp_max_link_flits;
        r.shp_max_link_flits = rec.shp_max_link_flits;
        r.bound_flits = rec.bound_flits;
        r.gap = rec.gap;
        r.solve_seconds = rec.solve_seconds;
        put(r.members_text, sched::sets_text(rec.sets));
        put(r.reason, rec.reason);
        schedules.push_back(r);
    }
}

}  // namespace

CandidateRecord BatchRows::add(const eval::Evaluation& e, std::int64_t batch, io::Proposer proposer, int rank,
                               std::span<const eval::Workload> workloads) {
    Impl& b = *impl_;
    if (b.has(e.candidate)) {
        throw IoError("BatchRows::add: candidate " + std::to_string(e.candidate) + " added twice");
    }
    const CandidateRecord c = record_of(e, batch, proposer, rank);
    b.cand_rows.push_back(candidate_row(e, c));
    for (std::size_t n = 0; n < e.networks.size(); ++n) {
        const eval::NetworkResult& nr = e.networks[n];
        const auto network = to_i32(static_cast<std::int64_t>(n));
        b.metric_rows.push_back(metric_row(e.candidate, network, nr, workloads[n]));
        add_layer_rows(e.candidate, network, nr, workloads[n], b.layer_rows);
        add_segment_rows(e.candidate, network, nr, b.segment_rows);
        add_schedule_rows(e.candidate, network, nr, b.schedule_rows);
    }
    return c;
}

}  // namespace pimdse::store
