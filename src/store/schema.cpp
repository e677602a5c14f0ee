// The sweep file's tables, declared once (include/pimdse/store/schema.hpp): one list of
// fields per row struct of rows.hpp, from which the HDF5 compound types and the field
// attributes are made (schema_h5.cpp) and against which docs/output.md is tested.

#include "pimdse/store/schema.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#include "pimdse/eval/evaluate.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/workload/layer.hpp"
#include "rows.hpp"

namespace pimdse::store {

namespace {

template <class T>
constexpr FieldKind kind_of() {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return FieldKind::int64;
    } else if constexpr (std::is_same_v<T, std::int32_t>) {
        return FieldKind::int32;
    } else if constexpr (std::is_same_v<T, std::int16_t>) {
        return FieldKind::int16;
    } else if constexpr (std::is_same_v<T, std::int8_t>) {
        return FieldKind::int8;
    } else {
        static_assert(std::is_same_v<T, double>, "a numeric field is an integer or a double");
        return FieldKind::float64;
    }
}

template <class T>
Field number(std::string_view name, std::size_t offset, std::string_view unit, std::string_view meaning) {
    return {name, offset, kind_of<std::remove_cvref_t<T>>(), 0, {}, unit, meaning};
}

Field text(std::string_view name, std::size_t offset, std::size_t length, std::string_view meaning) {
    return {name, offset, FieldKind::text, length, {}, {}, meaning};
}

// An enum field takes its names from the enum's one name table (core/enum_names.hpp).
template <class T, class Enum, std::size_t N>
Field enumeration(std::string_view name, std::size_t offset, const EnumNames<Enum, N>& names,
                  std::string_view meaning) {
    static_assert(std::is_integral_v<std::remove_cvref_t<T>>);
    return {name, offset, kind_of<std::remove_cvref_t<T>>(), 0, names_of(names), {}, meaning};
}

// The member named once: its name, offset and type come from the row struct R.
#define PIMDSE_NUM(m, unit, meaning) number<decltype(R::m)>(#m, offsetof(R, m), unit, meaning)
#define PIMDSE_TEXT(m, meaning) text(#m, offsetof(R, m), sizeof(R::m), meaning)
#define PIMDSE_ENUM(m, names, meaning) enumeration<decltype(R::m)>(#m, offsetof(R, m), names, meaning)

// The family's columns as fields of an array member at `offset`, `stride` bytes apart.
std::vector<Field> family_fields(const std::vector<FamilyColumn>& columns, std::size_t offset,
                                 std::size_t stride, FieldKind kind) {
    std::vector<Field> out;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        out.push_back(
            {columns[i].name, offset + i * stride, kind, 0, {}, columns[i].unit, columns[i].meaning});
    }
    return out;
}

// `fields` with `extra` inserted after the field named `after`.
std::vector<Field> inserted(std::vector<Field> fields, std::string_view after, std::vector<Field> extra) {
    auto at = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.name == after; });
    fields.insert(at + 1, extra.begin(), extra.end());
    return fields;
}

// The field `name` of `fields` measured in `unit`, unless `unit` is empty (the default
// configuration's, as declared, stays).
void set_unit(std::vector<Field>& fields, std::string_view name, std::string_view unit) {
    if (unit.empty()) return;
    for (Field& f : fields) {
        if (f.name == name) f.unit = unit;
    }
}

TableSchema candidate_schema(const std::shared_ptr<const FamilyColumns>& columns) {
    using R = CandidateRow;
    TableSchema t{
        TableId::candidates,
        "/candidates",
        "one row per evaluated candidate, in id order",
        sizeof(R),
        {
            PIMDSE_NUM(candidate, "", "candidate id, 0, 1, 2, ... over the sweep, in proposal order"),
            PIMDSE_NUM(batch, "", "the batch that proposed it"),
            PIMDSE_ENUM(proposer, io::kProposerNames, "the proposer that proposed it"),
            PIMDSE_ENUM(status, eval::kStatusNames, "how the evaluation ended"),
            PIMDSE_NUM(area_mm2, "mm2", "NN engines of all nodes, what the area budget covers"),
            PIMDSE_NUM(area_total_mm2, "mm2", "all nodes with routers and DRAM controllers"),
            PIMDSE_NUM(latency_s, "s", "latency summed over the workloads costed"),
            PIMDSE_NUM(energy_j, "J", "energy summed over the workloads costed"),
            PIMDSE_NUM(cost, "J s", "NicePIM Eq. 1 over all workloads; inf unless status is ok"),
            PIMDSE_NUM(metric_rows, "", "its rows in /metrics"),
            PIMDSE_NUM(layer_rows, "", "its rows in /mappings/layers"),
            PIMDSE_NUM(segment_rows, "", "its rows in /mappings/segments"),
            PIMDSE_NUM(schedule_rows, "", "its rows in /schedules"),
            PIMDSE_NUM(eval_seconds, "s", "wall time of the evaluation; timing, differs between runs"),
            PIMDSE_NUM(rank, "", "the MPI rank that evaluated it; differs between runs"),
            PIMDSE_TEXT(message, "why, unless ok (at most 256 bytes)"),
        },
        nullptr};
    if (columns) {
        t.columns = columns;
        t.fields = inserted(
            std::move(t.fields), "proposer",
            family_fields(columns->params, offsetof(R, params), sizeof(std::int32_t), FieldKind::int32));
        t.fields = inserted(
            std::move(t.fields), "cost",
            family_fields(columns->metrics, offsetof(R, metrics), sizeof(double), FieldKind::float64));
        set_unit(t.fields, "cost", columns->cost_unit);
    }
    return t;
}

TableSchema metric_schema(const std::shared_ptr<const FamilyColumns>& columns) {
    using R = MetricRow;
    TableSchema t{
        TableId::metrics,
        "/metrics",
        "one row per (candidate, workload network costed)",
        sizeof(R),
        {
            PIMDSE_NUM(candidate, "", "candidate id"),
            PIMDSE_NUM(network, "", "workload index (row of /workloads/networks)"),
            PIMDSE_TEXT(network_name, "the network's name"),
            PIMDSE_ENUM(status, sim::kEvalStatusNames, "the timeline's status of this network"),
            PIMDSE_NUM(latency_cycles, "node clock cycles", "latency of one inference of the batch"),
            PIMDSE_NUM(latency_s, "s", "the same at the node clock"),
            PIMDSE_NUM(energy_j, "J", "energy"),
            PIMDSE_NUM(pe_utilisation, "", "network MACs / (latency x PEs of all nodes), 0..1"),
            PIMDSE_NUM(cost, "J s", "this network's term of NicePIM Eq. 1; inf when infeasible"),
            PIMDSE_NUM(segments, "", "segments (timesteps) of the network"),
            PIMDSE_TEXT(reason, "why infeasible (at most 160 bytes)"),
        },
        nullptr};
    if (columns) {
        t.columns = columns;
        t.fields = inserted(std::move(t.fields), "energy_j",
                            family_fields(columns->energy_parts, offsetof(R, energy_parts), sizeof(double),
                                          FieldKind::float64));
        set_unit(t.fields, "cost", columns->cost_unit);
    }
    return t;
}

// Throws IoError unless the columns fit the rows and name distinct, new fields.
void check_columns(const FamilyColumns& c) {
    for (const auto* list : {&c.params, &c.energy_parts, &c.metrics}) {
        if (list->size() > kMaxFamilyColumns) {
            throw IoError("a family with " + std::to_string(list->size()) + " columns of one kind; at most " +
                          std::to_string(kMaxFamilyColumns) + " fit a sweep file's rows");
        }
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string& name = (*list)[i].name;
            if (name.empty()) throw IoError("a family column without a name");
            for (std::size_t j = 0; j < i; ++j) {
                if ((*list)[j].name == name) throw IoError("the family column '" + name + "' twice");
            }
        }
    }
}

// What /mappings/layers' layer moved and how its slowest node was tiled (sim::LayerCounts,
// sim::PartTiling), after its status.
std::vector<Field> layer_count_fields() {
    using R = LayerRow;
    return {
        PIMDSE_NUM(dram_reads, "accesses", "port-wide DRAM reads of the region's nodes"),
        PIMDSE_NUM(dram_writes, "accesses", "port-wide DRAM writes of the region's nodes"),
        PIMDSE_NUM(dram_activations, "activations", "DRAM row activations of the region's nodes"),
        PIMDSE_NUM(ibuf_reads, "elements", "input-buffer reads of the region's nodes"),
        PIMDSE_NUM(ibuf_writes, "elements", "input-buffer writes (fills)"),
        PIMDSE_NUM(wbuf_reads, "elements", "weight-buffer reads"),
        PIMDSE_NUM(wbuf_writes, "elements", "weight-buffer writes (fills)"),
        PIMDSE_NUM(obuf_reads, "elements", "output-buffer reads (partial sums and write-backs)"),
        PIMDSE_NUM(obuf_writes, "elements", "output-buffer writes"),
        PIMDSE_NUM(register_bits, "bits", "bits read from and written into the PEs' operand registers"),
        PIMDSE_NUM(redistribution_flit_hops, "flit hops", "NoC flits x hops gathering the inputs"),
        PIMDSE_NUM(sharing_flit_hops, "flit hops", "NoC flits x hops of the data-sharing events"),
        PIMDSE_NUM(tile_nodes, "nodes", "nodes of the region computing the slowest part-layer, tiled below"),
        PIMDSE_NUM(tile_b, "", "tile of loop B of that part-layer; 0 for a stream layer (no tiling)"),
        PIMDSE_NUM(tile_k, "", "tile of loop K"),
        PIMDSE_NUM(tile_c, "", "tile of loop C"),
        PIMDSE_NUM(tile_p, "", "tile of loop P"),
        PIMDSE_NUM(tile_q, "", "tile of loop Q"),
        PIMDSE_NUM(tile_r, "", "tile of loop R (kernel rows)"),
        PIMDSE_NUM(tile_s, "", "tile of loop S (kernel columns)"),
        PIMDSE_ENUM(unroll_row, kTileDimNames,
                    "loop unrolled over the PE array's rows; none for a stream layer"),
        PIMDSE_ENUM(unroll_col, kTileDimNames, "loop unrolled over the PE array's columns"),
        PIMDSE_TEXT(loop_order, "the tile loops, outermost first; none for a stream layer"),
        PIMDSE_ENUM(dataflow, kTileDataflowNames,
                    "the operand the PE registers keep (its stationary tensor)"),
    };
}

TableSchema layer_schema() {
    using R = LayerRow;
    TableSchema t{
        TableId::layers,
        "/mappings/layers",
        "one row per (candidate, network, layer): the layer's region, LM, WR, DL, cost, accesses and the "
        "slowest node's tiling",
        sizeof(R),
        {
            PIMDSE_NUM(candidate, "", "candidate id"),
            PIMDSE_NUM(network, "", "workload index"),
            PIMDSE_NUM(layer, "", "layer index in the network (row of /workloads/<net>/layers)"),
            PIMDSE_NUM(segment, "", "its segment (timestep)"),
            PIMDSE_NUM(branch, "", "its branch within the segment"),
            PIMDSE_NUM(region_row, "", "region: first row of the node array"),
            PIMDSE_NUM(region_col, "", "region: first column"),
            PIMDSE_NUM(region_rows, "", "region: rows"),
            PIMDSE_NUM(region_cols, "", "region: columns"),
            PIMDSE_NUM(part_b_h, "", "LM: partitions of loop B along the region's height (Ph)"),
            PIMDSE_NUM(part_b_w, "", "LM: partitions of loop B along the region's width (Pw)"),
            PIMDSE_NUM(part_p_h, "", "LM: partitions of loop P along the region's height (Ph)"),
            PIMDSE_NUM(part_p_w, "", "LM: partitions of loop P along the region's width (Pw)"),
            PIMDSE_NUM(part_q_h, "", "LM: partitions of loop Q along the region's height (Ph)"),
            PIMDSE_NUM(part_q_w, "", "LM: partitions of loop Q along the region's width (Pw)"),
            PIMDSE_NUM(part_k_h, "", "LM: partitions of loop K along the region's height (Ph)"),
            PIMDSE_NUM(part_k_w, "", "LM: partitions of loop K along the region's width (Pw)"),
            PIMDSE_NUM(part_c_h, "", "LM: partitions of loop C along the region's height (Ph)"),
            PIMDSE_NUM(part_c_w, "", "LM: partitions of loop C along the region's width (Pw)"),
            PIMDSE_TEXT(order, "LM: spatial order of the partitions, outermost first"),
            PIMDSE_NUM(wr, "", "WR: full copies of the layer's weights in the region"),
            PIMDSE_ENUM(dl_in_order, sim::kLayoutOrderNames, "DL of the input: layout order"),
            PIMDSE_NUM(
                dl_in_group, "channels",
                "DL of the input: channels of a pixel stored together, n of BCHW[Cn]; 1 without groups"),
            PIMDSE_ENUM(dl_out_order, sim::kLayoutOrderNames, "DL of the output: layout order"),
            PIMDSE_NUM(dl_out_group, "channels", "DL of the output: channels of a pixel stored together"),
            PIMDSE_NUM(dl_in_block_h, "elements", "DL of the input: RA block height; 1 otherwise"),
            PIMDSE_NUM(dl_in_block_w, "elements", "DL of the input: RA block width; 1 otherwise"),
            PIMDSE_NUM(dl_out_block_h, "elements", "DL of the output: RA block height; 1 otherwise"),
            PIMDSE_NUM(dl_out_block_w, "elements", "DL of the output: RA block width; 1 otherwise"),
            PIMDSE_NUM(latency_cycles, "node clock cycles",
                       "finish - start: redistribution + sharing + compute without overlap"),
            PIMDSE_NUM(start_cycles, "cycles",
                       "when the layer starts, from the network's start, on the candidate's timeline"),
            PIMDSE_NUM(finish_cycles, "cycles", "when its last node finishes, from the network's start"),
            PIMDSE_NUM(redistribution_cycles, "cycles", "gathering the inputs from the producers"),
            PIMDSE_NUM(sharing_cycles, "cycles", "the layer's data-sharing events"),
            PIMDSE_NUM(compute_cycles, "cycles", "the slowest node of the region"),
            PIMDSE_NUM(energy_j, "J", "energy"),
            PIMDSE_NUM(energy_pe_j, "J", "of which PE arrays"),
            PIMDSE_NUM(energy_register_j, "J", "of which PE registers"),
            PIMDSE_NUM(energy_sram_j, "J", "of which SRAM buffers"),
            PIMDSE_NUM(energy_sram_ibuf_j, "J", "of the SRAM energy: the input buffers"),
            PIMDSE_NUM(energy_sram_wbuf_j, "J", "of the SRAM energy: the weight buffers"),
            PIMDSE_NUM(energy_sram_obuf_j, "J", "of the SRAM energy: the output (partial-sum) buffers"),
            PIMDSE_NUM(energy_dram_j, "J", "of which DRAM access and activation (background: /metrics)"),
            PIMDSE_NUM(energy_dram_access_j, "J", "of the DRAM energy: bits through the port"),
            PIMDSE_NUM(energy_dram_activation_j, "J", "of the DRAM energy: row activations and precharges"),
            PIMDSE_NUM(energy_noc_j, "J", "of which NoC"),
            PIMDSE_NUM(pe_utilisation, "", "MACs / (compute x PEs per node x region nodes), 0..1"),
            PIMDSE_ENUM(status, sim::kEvalStatusNames, "the layer's status"),
        },
        nullptr};
    const std::vector<Field> counts = layer_count_fields();
    t.fields.insert(t.fields.end(), counts.begin(), counts.end());
    return t;
}

TableSchema segment_schema() {
    using R = SegmentRow;
    return {TableId::segments,
            "/mappings/segments",
            "one row per (candidate, network, segment, branch): SM, the branch's region",
            sizeof(R),
            {
                PIMDSE_NUM(candidate, "", "candidate id"),
                PIMDSE_NUM(network, "", "workload index"),
                PIMDSE_NUM(segment, "", "segment (timestep) index"),
                PIMDSE_NUM(branch, "", "branch within the segment"),
                PIMDSE_NUM(region, "", "SM: index of the branch's region among the segment's regions"),
                PIMDSE_NUM(region_row, "", "region: first row of the node array"),
                PIMDSE_NUM(region_col, "", "region: first column"),
                PIMDSE_NUM(region_rows, "", "region: rows"),
                PIMDSE_NUM(region_cols, "", "region: columns"),
                PIMDSE_NUM(segment_latency_cycles, "node clock cycles", "latency of the whole segment"),
            },
            nullptr};
}

TableSchema schedule_schema() {
    using R = ScheduleRow;
    return {
        TableId::schedules,
        "/schedules",
        "one row per data-sharing event of a candidate's layers: sets, chosen cycles' link loads, baselines, "
        "solver outcome",
        sizeof(R),
        {
            PIMDSE_NUM(candidate, "", "candidate id"),
            PIMDSE_NUM(network, "", "workload index"),
            PIMDSE_NUM(layer, "", "layer index in the network"),
            PIMDSE_NUM(event, "", "index of the event among the layer's data-sharing events"),
            PIMDSE_ENUM(kind, sim::kSharingKindNames, "what the event moves (NicePIM VII)"),
            PIMDSE_ENUM(method, pimdse::kSchedulerKindNames,
                        "the Data-Scheduler that chose the cycles (schedule.scheduler)"),
            PIMDSE_ENUM(outcome, sched::kScheduleStatusNames, "how the schedule was settled"),
            PIMDSE_NUM(sets, "", "sharing sets moved at once"),
            PIMDSE_NUM(members, "", "members of the largest set"),
            PIMDSE_NUM(bytes_per_node, "bytes", "share of the common data each member holds"),
            PIMDSE_NUM(max_link_flits, "flits", "heaviest mesh link in the busiest step, NicePIM Eq. 4"),
            PIMDSE_NUM(max_channel_flits, "flits", "heaviest channel incl. injection/ejection"),
            PIMDSE_NUM(steps, "", "steps of the event"),
            PIMDSE_NUM(max_hops, "hops", "longest route of any transfer"),
            PIMDSE_NUM(flit_hops, "flit hops", "flits x hops over all transfers"),
            PIMDSE_NUM(latency_cycles, "node clock cycles", "latency of the event"),
            PIMDSE_NUM(energy_j, "J", "NoC energy of the event"),
            PIMDSE_NUM(tsp_max_link_flits, "flits", "heaviest link of the TSP baseline on the event"),
            PIMDSE_NUM(shp_max_link_flits, "flits", "heaviest link of the SHP baseline on the event"),
            PIMDSE_NUM(bound_flits, "flits", "proven lower bound of the heaviest link"),
            PIMDSE_NUM(gap, "", "relative gap of the ILP, 0..1"),
            PIMDSE_NUM(solve_seconds, "s", "time to schedule the event; timing"),
            PIMDSE_TEXT(members_text, "node ids of each set, sets separated by ';'"),
            PIMDSE_TEXT(reason, "why the outcome is not optimal"),
        },
        nullptr};
}

TableSchema batch_schema(const std::shared_ptr<const FamilyColumns>& columns) {
    using R = BatchRow;
    TableSchema t{
        TableId::batches,
        "/tuner/batches",
        "one row per batch, written by rank 0: proposer, progress, best cost, front size and hypervolume",
        sizeof(R),
        {
            PIMDSE_NUM(batch, "", "batch index"),
            PIMDSE_ENUM(proposer, io::kProposerNames, "the proposer of the batch"),
            PIMDSE_NUM(candidates, "", "candidates in the batch"),
            PIMDSE_NUM(evaluations, "", "evaluations done after the batch"),
            PIMDSE_NUM(ok, "", "candidates of the batch with status ok"),
            PIMDSE_NUM(best_cost, "J s", "lowest Eq. 1 cost so far; inf while none is ok"),
            PIMDSE_NUM(best_candidate, "", "its candidate id; -1 while none is ok"),
            PIMDSE_NUM(hypervolume, "s J mm2",
                       "of the front against the reference point, in the product of the objectives' units"),
            PIMDSE_NUM(front_size, "", "candidates on the front after the batch"),
            PIMDSE_NUM(hv_reference_1, "s", "reference point, first objective (root attribute objectives)"),
            PIMDSE_NUM(hv_reference_2, "J", "reference point, second objective"),
            PIMDSE_NUM(hv_reference_3, "mm2", "reference point, third objective; NaN with two objectives"),
            PIMDSE_NUM(samples, "", "points the proposer sampled and scored"),
            PIMDSE_NUM(predicted_tau, "",
                       "Kendall's tau of the batch's ok costs against the predictions made before it was "
                       "evaluated; NaN without predictions or with fewer than two ok results"),
            PIMDSE_NUM(
                predicted_error, "",
                "median relative error of the predicted cost over the batch's ok results; NaN unless the "
                "predictor filter predicted costs"),
            PIMDSE_NUM(
                cheap_tau, "",
                "Kendall's tau of the batch's ok costs against their cheap-fidelity costs (the filter's "
                "second level); NaN without it or with fewer than two ok results"),
            PIMDSE_NUM(fit_seconds, "s", "fitting the proposer's model; timing"),
            PIMDSE_NUM(propose_seconds, "s", "proposing the batch, excluding the fit; timing"),
            PIMDSE_NUM(evaluate_seconds, "s", "from dispatch to the batch's last result; timing"),
            PIMDSE_NUM(write_seconds, "s",
                       "rank 0's writes of the batch's candidate tables, before this row; timing"),
            PIMDSE_NUM(wall_seconds, "s", "since the sweep started, over all runs; timing"),
        },
        nullptr};
    if (columns) {
        t.columns = columns;
        set_unit(t.fields, "best_cost", columns->cost_unit);
        set_unit(t.fields, "hypervolume", columns->hypervolume_unit);
        const auto& units = columns->objective_units;
        if (!units.empty()) {
            // With two objectives the third reference is NaN, of no unit.
            for (std::size_t i = 0; i < 3; ++i) {
                const std::string name = "hv_reference_" + std::to_string(i + 1);
                for (Field& f : t.fields) {
                    if (f.name == name) f.unit = i < units.size() ? std::string_view(units[i]) : "";
                }
            }
        }
    }
    return t;
}

TableSchema pareto_schema(const std::shared_ptr<const FamilyColumns>& columns) {
    using R = ParetoRow;
    TableSchema t{
        TableId::pareto,
        "/pareto",
        "every candidate that joined the Pareto front over the objectives, with the batches it joined "
        "and left; "
        "the current front is left_batch == -1",
        sizeof(R),
        {
            PIMDSE_NUM(candidate, "", "candidate id"),
            PIMDSE_NUM(joined_batch, "", "on the front from the end of this batch"),
            PIMDSE_NUM(left_batch, "", "dominated from the end of this batch; -1 while on the front"),
            PIMDSE_NUM(latency_s, "s", "latency over the workloads"),
            PIMDSE_NUM(energy_j, "J", "energy over the workloads"),
            PIMDSE_NUM(area_mm2, "mm2", "NN-engine area"),
            PIMDSE_NUM(cost, "J s", "NicePIM Eq. 1"),
        },
        nullptr};
    if (columns) {
        t.columns = columns;
        set_unit(t.fields, "cost", columns->cost_unit);
    }
    return t;
}

TableSchema network_schema() {
    using R = NetworkRow;
    return {TableId::networks,
            "/workloads/networks",
            "one row per workload network, in the configured order",
            sizeof(R),
            {
                PIMDSE_NUM(network, "", "workload index (the network field of the other tables)"),
                PIMDSE_TEXT(name, "the network's name"),
                PIMDSE_TEXT(group, "its group: /workloads/<group>/layers and /source"),
                PIMDSE_TEXT(file, "the network file as configured"),
                PIMDSE_NUM(weight, "", "gamma of NicePIM Eq. 1"),
                PIMDSE_NUM(batch, "", "batch size"),
                PIMDSE_NUM(layers, "", "layers"),
                PIMDSE_NUM(segments, "", "segments (timesteps)"),
                PIMDSE_NUM(macs, "", "multiply-accumulates of one batch"),
                PIMDSE_NUM(weights, "", "weight elements"),
            },
            nullptr};
}

TableSchema workload_layer_schema() {
    using R = WorkloadLayerRow;
    return {TableId::workload_layers,
            "/workloads/<net>/layers",
            "one row per layer of the network, with the batch applied",
            sizeof(R),
            {
                PIMDSE_NUM(layer, "", "layer index (topological order)"),
                PIMDSE_TEXT(name, "layer name"),
                PIMDSE_ENUM(kind, workload::kLayerKindNames, "layer kind"),
                PIMDSE_NUM(B, "", "loop bound: batch"),
                PIMDSE_NUM(K, "", "loop bound: output channels"),
                PIMDSE_NUM(C, "", "loop bound: input channels (per group)"),
                PIMDSE_NUM(P, "", "loop bound: output rows"),
                PIMDSE_NUM(Q, "", "loop bound: output columns"),
                PIMDSE_NUM(R, "", "loop bound: kernel rows"),
                PIMDSE_NUM(S, "", "loop bound: kernel columns"),
                PIMDSE_NUM(H, "", "input rows"),
                PIMDSE_NUM(W, "", "input columns"),
                PIMDSE_NUM(stride_h, "", "vertical stride"),
                PIMDSE_NUM(stride_w, "", "horizontal stride"),
                PIMDSE_NUM(groups, "", "channel groups"),
                PIMDSE_NUM(macs, "", "multiply-accumulates"),
                PIMDSE_NUM(weights, "", "weight elements"),
                PIMDSE_NUM(segment, "", "segment (timestep) of the decomposition"),
                PIMDSE_NUM(branch, "", "branch within the segment"),
            },
            nullptr};
}

#undef PIMDSE_NUM
#undef PIMDSE_TEXT
#undef PIMDSE_ENUM

// The batch tables grow ahead of their rows and pad their last chunk: a row that holds no
// data reads -1 in its id (the first field: `candidate`, or `batch` in /tuner/batches) and
// kUnwritten in every enum, so that no viewer takes it for a candidate.
void mark_unwritten(TableSchema& t) {
    if (t.id > TableId::pareto) return;
    for (std::size_t i = 0; i < t.fields.size(); ++i) {
        Field& f = t.fields[i];
        f.unwritten = i == 0 || !f.enum_names.empty();
    }
}

std::vector<TableSchema> tables_with(const std::shared_ptr<const FamilyColumns>& columns) {
    std::vector<TableSchema> tables{
        candidate_schema(columns), metric_schema(columns), layer_schema(),
        segment_schema(),          schedule_schema(),      batch_schema(columns),
        pareto_schema(columns),    network_schema(),       workload_layer_schema()};
    for (TableSchema& t : tables) mark_unwritten(t);
    return tables;
}

}  // namespace

std::vector<TableSchema> declared_tables(const FamilyColumns& columns) {
    check_columns(columns);
    std::vector<TableSchema> tables = tables_with(std::make_shared<const FamilyColumns>(columns));
    for (const TableSchema& t : tables) {
        for (std::size_t i = 0; i < t.fields.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (t.fields[i].name == t.fields[j].name) {
                    throw IoError("the family column '" + std::string(t.fields[i].name) +
                                  "' names a field of " + std::string(t.path) + " already");
                }
            }
        }
    }
    return tables;
}

const TableSchema& schema(TableId id) {
    static const std::vector<TableSchema> tables = tables_with(nullptr);
    return tables.at(static_cast<std::size_t>(id));
}

std::string hypervolume_unit(const std::vector<std::string>& objective_units) {
    std::string out;
    for (const std::string& u : objective_units) {
        if (!out.empty()) out += ' ';
        out += u.find(' ') == std::string::npos ? u : "(" + u + ")";
    }
    return out;
}

std::string Field::description() const {
    std::string out(meaning);
    if (!unit.empty()) {
        out += " [";
        out += unit;
        out += ']';
    }
    return out;
}

std::string Field::type_name() const {
    if (!enum_names.empty()) {
        std::string out = "enum: ";
        for (std::size_t i = 0; i < enum_names.size(); ++i) {
            if (i > 0) out += ", ";
            out += enum_names[i];
        }
        if (unwritten) out += "; -1 " + std::string(kUnwritten);
        return out;
    }
    switch (kind) {
        case FieldKind::int8:
            return "int8";
        case FieldKind::int16:
            return "int16";
        case FieldKind::int32:
            return "int32";
        case FieldKind::int64:
            return "int64";
        case FieldKind::float64:
            return "float64";
        case FieldKind::text:
            break;
    }
    return "string[" + std::to_string(length) + "]";
}

std::vector<std::byte> unwritten_row(const TableSchema& schema) {
    std::vector<std::byte> row(schema.row_size, std::byte{0});
    for (const Field& f : schema.fields) {
        if (!f.unwritten) continue;
        if (f.kind == FieldKind::text || f.kind == FieldKind::float64) {
            throw IoError(std::string(schema.path) + ": the field '" + std::string(f.name) +
                          "' cannot hold -1 (a bug in the schema)");
        }
        // -1 in two's complement is all bytes 0xff, whatever the width.
        std::fill_n(row.begin() + static_cast<std::ptrdiff_t>(f.offset), f.size(), std::byte{0xff});
    }
    return row;
}

std::size_t Field::size() const {
    switch (kind) {
        case FieldKind::int8:
            return 1;
        case FieldKind::int16:
            return 2;
        case FieldKind::int32:
            return 4;
        case FieldKind::int64:
        case FieldKind::float64:
            return 8;
        case FieldKind::text:
            break;
    }
    return length;
}

}  // namespace pimdse::store
