// The sweep's HDF5 file (include/pimdse/io/store.hpp, docs/output.md).

#include "pimdse/io/store.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <ctime>
#include <limits>
#include <numeric>
#include <thread>
#include <type_traits>
#include <utility>

#include "pimdse/build_info.hpp"
#include "pimdse/core/clock.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/io/hdf5.hpp"
#include "pimdse/sim/mapping.hpp"

namespace pimdse::io {

namespace {

using h5::CompoundType;
using h5::File;
using h5::Table;

// Fixed-length string fields (NUL-padded; longer text is cut).
constexpr std::size_t kMessageChars = 256;
constexpr std::size_t kNameChars = 64;
constexpr std::size_t kReasonChars = 160;
constexpr std::size_t kPathChars = 256;
constexpr std::size_t kMembersChars = 512;

template <std::size_t N>
void put(char (&field)[N], std::string_view text) {
    std::memset(field, 0, N);
    std::memcpy(field, text.data(), std::min(N, text.size()));
}

template <std::size_t N>
std::string get(const char (&field)[N]) {
    return {field, strnlen(field, N)};
}

std::int32_t to_i32(std::int64_t v) {
    return static_cast<std::int32_t>(v);
}

// Region coordinates and partition counts are bounded by the node array (at most the bank
// array, Table II: 16 x 16); a value past int16 would be a bug upstream.
std::int16_t to_i16(std::int32_t v) {
    if (v < std::numeric_limits<std::int16_t>::min() || v > std::numeric_limits<std::int16_t>::max()) {
        throw IoError("a node-array coordinate or partition count outside int16: " + std::to_string(v));
    }
    return static_cast<std::int16_t>(v);
}

// ---- enumerations stored in the file (values are append only) ---------------------------

const std::vector<std::string>& status_names() {
    static const std::vector<std::string> names{"ok", "infeasible", "failed", "timeout", "work_limit"};
    return names;
}
const std::vector<std::string>& proposer_enum() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (std::string_view n : proposer_names()) out.emplace_back(n);
        return out;
    }();
    return names;
}
const std::vector<std::string>& network_status_names() {
    static const std::vector<std::string> names{"ok", "infeasible"};
    return names;
}
const std::vector<std::string>& layout_names() {
    static const std::vector<std::string> names{"BCHW", "BHWC"};
    return names;
}
const std::vector<std::string>& kind_names() {
    static const std::vector<std::string> names{"conv",   "matmul", "pool",    "add",
                                                "concat", "norm",   "softmax", "activation"};
    return names;
}
const std::vector<std::string>& sharing_kind_names() {
    static const std::vector<std::string> names{"inputs", "weights", "partial_sums"};
    return names;
}
const std::vector<std::string>& method_names() {
    static const std::vector<std::string> names{"snake", "ilp", "tsp", "shp"};
    return names;
}
const std::vector<std::string>& outcome_names() {
    static const std::vector<std::string> names{
        "optimal", "gap_reached", "time_limit_incumbent", "model_too_large",
        "failed",  "baseline",    "work_limit_incumbent"};
    return names;
}

// ---- a compound type with the meaning and unit of every field ----------------------------

template <class T>
hid_t native_type() {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return H5T_NATIVE_INT64;
    } else if constexpr (std::is_same_v<T, std::int32_t>) {
        return H5T_NATIVE_INT32;
    } else if constexpr (std::is_same_v<T, std::int16_t>) {
        return H5T_NATIVE_INT16;
    } else {
        static_assert(std::is_same_v<T, double>);
        return H5T_NATIVE_DOUBLE;
    }
}

// Each field's attribute on its dataset: "<meaning> [<unit>]" (docs/output.md).
struct Schema {
    CompoundType type;
    std::vector<std::pair<std::string, std::string>> docs;

    explicit Schema(std::size_t row_size) : type(row_size) {}
    Schema& num(const char* name, std::size_t offset, hid_t native, std::string doc) {
        type.add(name, offset, native);
        docs.emplace_back(name, std::move(doc));
        return *this;
    }
    Schema& text(const char* name, std::size_t offset, std::size_t length, std::string doc) {
        type.add_string(name, offset, length);
        docs.emplace_back(name, std::move(doc));
        return *this;
    }
    Schema& enumeration(const char* name, std::size_t offset, const std::vector<std::string>& names,
                        std::string doc) {
        type.add_enum(name, offset, names);
        docs.emplace_back(name, std::move(doc));
        return *this;
    }
    /// An enum stored in one byte (the many-row /mappings/layers).
    Schema& enumeration8(const char* name, std::size_t offset, const std::vector<std::string>& names,
                         std::string doc) {
        type.add_enum(name, offset, names, H5T_NATIVE_INT8);
        docs.emplace_back(name, std::move(doc));
        return *this;
    }
};

// name, offset and HDF5 type of a numeric field of a row struct.
#define PIMDSE_COL(Row, field) #field, offsetof(Row, field), native_type < decltype(Row::field)>()
#define PIMDSE_AT(Row, field) #field, offsetof(Row, field)

// ---- rows --------------------------------------------------------------------------------

struct CandidateRow {
    std::int64_t candidate;
    std::int64_t batch;
    std::int32_t proposer;
    std::int32_t node_rows, node_cols, pe_rows, pe_cols, ibuf_kib, wbuf_kib, obuf_kib;
    std::int32_t status;
    double area_mm2;
    double area_total_mm2;
    double latency_s;
    double energy_j;
    double cost;
    std::int64_t metric_rows, layer_rows, segment_rows, schedule_rows;
    double eval_seconds;
    std::int32_t rank;
    char message[kMessageChars];
};

Schema candidate_schema() {
    using R = CandidateRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, candidate), "candidate id, 0, 1, 2, ... over the sweep, in proposal order")
        .num(PIMDSE_COL(R, batch), "the batch that proposed it")
        .enumeration(PIMDSE_AT(R, proposer), proposer_enum(), "the proposer that proposed it")
        .num(PIMDSE_COL(R, node_rows), "NA_row: rows of the PIM-node array")
        .num(PIMDSE_COL(R, node_cols), "NA_col: columns of the PIM-node array")
        .num(PIMDSE_COL(R, pe_rows), "PEA_row: rows of each node's PE array")
        .num(PIMDSE_COL(R, pe_cols), "PEA_col: columns of each node's PE array")
        .num(PIMDSE_COL(R, ibuf_kib), "input buffer of each node [KiB]")
        .num(PIMDSE_COL(R, wbuf_kib), "weight buffer of each node [KiB]")
        .num(PIMDSE_COL(R, obuf_kib), "output buffer of each node [KiB]")
        .enumeration(PIMDSE_AT(R, status), status_names(), "how the evaluation ended")
        .num(PIMDSE_COL(R, area_mm2), "NN engines of all nodes, what the area budget covers [mm2]")
        .num(PIMDSE_COL(R, area_total_mm2), "all nodes with routers and DRAM controllers [mm2]")
        .num(PIMDSE_COL(R, latency_s), "latency summed over the workloads costed [s]")
        .num(PIMDSE_COL(R, energy_j), "energy summed over the workloads costed [J]")
        .num(PIMDSE_COL(R, cost),
             "NicePIM Eq. 1 over all workloads; inf unless status is ok [J^alpha s^beta]")
        .num(PIMDSE_COL(R, metric_rows), "its rows in /metrics")
        .num(PIMDSE_COL(R, layer_rows), "its rows in /mappings/layers")
        .num(PIMDSE_COL(R, segment_rows), "its rows in /mappings/segments")
        .num(PIMDSE_COL(R, schedule_rows), "its rows in /schedules")
        .num(PIMDSE_COL(R, eval_seconds), "wall time of the evaluation; timing, differs between runs [s]")
        .num(PIMDSE_COL(R, rank), "the MPI rank that evaluated it; differs between runs")
        .text(PIMDSE_AT(R, message), kMessageChars, "why, unless ok (at most 256 bytes)");
    return s;
}

struct MetricRow {
    std::int64_t candidate;
    std::int32_t network;
    std::int32_t status;
    double latency_cycles;
    double latency_s;
    double energy_pj;
    double energy_pe_pj, energy_register_pj, energy_sram_pj, energy_dram_pj, energy_dram_access_pj,
        energy_dram_activation_pj, energy_dram_background_pj, energy_noc_pj;
    double pe_utilisation;
    double cost;
    std::int32_t segments;
    char network_name[kNameChars];
    char reason[kReasonChars];
};

Schema metric_schema() {
    using R = MetricRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, candidate), "candidate id")
        .num(PIMDSE_COL(R, network), "workload index (row of /workloads/networks)")
        .text(PIMDSE_AT(R, network_name), kNameChars, "the network's name")
        .enumeration(PIMDSE_AT(R, status), network_status_names(), "the timeline's status of this network")
        .num(PIMDSE_COL(R, latency_cycles), "latency of one inference of the batch [node clock cycles]")
        .num(PIMDSE_COL(R, latency_s), "the same at the node clock [s]")
        .num(PIMDSE_COL(R, energy_pj), "energy [pJ]")
        .num(PIMDSE_COL(R, energy_pe_pj), "of which PE arrays (MACs) [pJ]")
        .num(PIMDSE_COL(R, energy_register_pj), "of which the PEs' operand registers [pJ]")
        .num(PIMDSE_COL(R, energy_sram_pj), "of which SRAM buffers [pJ]")
        .num(PIMDSE_COL(R, energy_dram_pj), "of which DRAM: access + activation + background [pJ]")
        .num(PIMDSE_COL(R, energy_dram_access_pj), "DRAM: bits through the port [pJ]")
        .num(PIMDSE_COL(R, energy_dram_activation_pj), "DRAM: row activations and precharges [pJ]")
        .num(PIMDSE_COL(R, energy_dram_background_pj), "DRAM: background and refresh over the latency [pJ]")
        .num(PIMDSE_COL(R, energy_noc_pj), "of which NoC (sharing and redistribution) [pJ]")
        .num(PIMDSE_COL(R, pe_utilisation), "network MACs / (latency x PEs of all nodes), 0..1")
        .num(PIMDSE_COL(R, cost),
             "this network's term of NicePIM Eq. 1; inf when infeasible [J^alpha s^beta]")
        .num(PIMDSE_COL(R, segments), "segments (timesteps) of the network")
        .text(PIMDSE_AT(R, reason), kReasonChars, "why infeasible (at most 160 bytes)");
    return s;
}

// The bulk of a sweep file (a row per layer of every network of every candidate), so its
// small-range fields are narrow: region and partitions are bounded by the node array.
struct LayerRow {
    std::int64_t candidate;
    std::int32_t network, layer, segment, branch;
    std::int32_t wr;
    std::int32_t dl_in_group, dl_out_group;
    std::int16_t region_row, region_col, region_rows, region_cols;
    std::int16_t part_b_h, part_b_w, part_p_h, part_p_w, part_q_h, part_q_w, part_k_h, part_k_w, part_c_h,
        part_c_w;
    std::int8_t dl_in_order, dl_out_order, status;
    char order[5];
    double latency_cycles, redistribution_cycles, sharing_cycles, compute_cycles;
    double energy_pj, energy_pe_pj, energy_register_pj, energy_sram_pj, energy_dram_pj, energy_noc_pj;
    double pe_utilisation;
};

Schema layer_schema() {
    using R = LayerRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, candidate), "candidate id")
        .num(PIMDSE_COL(R, network), "workload index")
        .num(PIMDSE_COL(R, layer), "layer index in the network (row of /workloads/<net>/layers)")
        .num(PIMDSE_COL(R, segment), "its segment (timestep)")
        .num(PIMDSE_COL(R, branch), "its branch within the segment")
        .num(PIMDSE_COL(R, region_row), "region: first row of the node array")
        .num(PIMDSE_COL(R, region_col), "region: first column")
        .num(PIMDSE_COL(R, region_rows), "region: rows")
        .num(PIMDSE_COL(R, region_cols), "region: columns");
    const std::array<std::pair<const char*, std::size_t>, 10> parts{{
        {"part_b_h", offsetof(R, part_b_h)},
        {"part_b_w", offsetof(R, part_b_w)},
        {"part_p_h", offsetof(R, part_p_h)},
        {"part_p_w", offsetof(R, part_p_w)},
        {"part_q_h", offsetof(R, part_q_h)},
        {"part_q_w", offsetof(R, part_q_w)},
        {"part_k_h", offsetof(R, part_k_h)},
        {"part_k_w", offsetof(R, part_k_w)},
        {"part_c_h", offsetof(R, part_c_h)},
        {"part_c_w", offsetof(R, part_c_w)},
    }};
    for (const auto& [name, offset] : parts) {
        const std::string n(name);
        s.num(name, offset, H5T_NATIVE_INT16,
              std::string("LM: partitions of loop ") + static_cast<char>(std::toupper(n[5])) + " along the " +
                  (n[7] == 'h' ? "region's height (Ph)" : "region's width (Pw)"));
    }
    s.text(PIMDSE_AT(R, order), sizeof(R::order), "LM: spatial order of the partitions, outermost first")
        .num(PIMDSE_COL(R, wr), "WR: full copies of the layer's weights in the region")
        .enumeration8(PIMDSE_AT(R, dl_in_order), layout_names(), "DL of the input: layout order")
        .num(PIMDSE_COL(R, dl_in_group), "DL of the input: channel group n of BCHW[Cn]")
        .enumeration8(PIMDSE_AT(R, dl_out_order), layout_names(), "DL of the output: layout order")
        .num(PIMDSE_COL(R, dl_out_group), "DL of the output: channel group")
        .num(PIMDSE_COL(R, latency_cycles), "redistribution + sharing + compute [node clock cycles]")
        .num(PIMDSE_COL(R, redistribution_cycles), "gathering the inputs from the producers [cycles]")
        .num(PIMDSE_COL(R, sharing_cycles), "the layer's data-sharing events [cycles]")
        .num(PIMDSE_COL(R, compute_cycles), "the slowest node of the region [cycles]")
        .num(PIMDSE_COL(R, energy_pj), "energy [pJ]")
        .num(PIMDSE_COL(R, energy_pe_pj), "of which PE arrays [pJ]")
        .num(PIMDSE_COL(R, energy_register_pj), "of which PE registers [pJ]")
        .num(PIMDSE_COL(R, energy_sram_pj), "of which SRAM buffers [pJ]")
        .num(PIMDSE_COL(R, energy_dram_pj), "of which DRAM access and activation (background: /metrics) [pJ]")
        .num(PIMDSE_COL(R, energy_noc_pj), "of which NoC [pJ]")
        .num(PIMDSE_COL(R, pe_utilisation), "MACs / (compute x PEs per node x region nodes), 0..1")
        .enumeration8(PIMDSE_AT(R, status), network_status_names(), "the layer's status");
    return s;
}

struct SegmentRow {
    std::int64_t candidate;
    std::int32_t network, segment, branch, region;
    std::int32_t region_row, region_col, region_rows, region_cols;
    double segment_latency_cycles;
};

Schema segment_schema() {
    using R = SegmentRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, candidate), "candidate id")
        .num(PIMDSE_COL(R, network), "workload index")
        .num(PIMDSE_COL(R, segment), "segment (timestep) index")
        .num(PIMDSE_COL(R, branch), "branch within the segment")
        .num(PIMDSE_COL(R, region), "SM: index of the branch's region among the segment's regions")
        .num(PIMDSE_COL(R, region_row), "region: first row of the node array")
        .num(PIMDSE_COL(R, region_col), "region: first column")
        .num(PIMDSE_COL(R, region_rows), "region: rows")
        .num(PIMDSE_COL(R, region_cols), "region: columns")
        .num(PIMDSE_COL(R, segment_latency_cycles), "latency of the whole segment [node clock cycles]");
    return s;
}

struct ScheduleRow {
    std::int64_t candidate;
    std::int32_t network, layer, event;
    std::int32_t kind, method, outcome;
    std::int32_t sets, members;
    std::int64_t bytes_per_node;
    std::int64_t max_link_flits, max_channel_flits;
    std::int32_t steps, max_hops;
    std::int64_t flit_hops;
    double latency_cycles, energy_pj;
    std::int64_t tsp_max_link_flits, shp_max_link_flits, bound_flits;
    double gap, solve_seconds;
    char members_text[kMembersChars];
    char reason[kReasonChars];
};

Schema schedule_schema() {
    using R = ScheduleRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, candidate), "candidate id")
        .num(PIMDSE_COL(R, network), "workload index")
        .num(PIMDSE_COL(R, layer), "layer index in the network")
        .num(PIMDSE_COL(R, event), "index of the event among the layer's data-sharing events")
        .enumeration(PIMDSE_AT(R, kind), sharing_kind_names(), "what the event moves (NicePIM VII)")
        .enumeration(PIMDSE_AT(R, method), method_names(), "how the cycles were chosen")
        .enumeration(PIMDSE_AT(R, outcome), outcome_names(), "how the schedule was settled")
        .num(PIMDSE_COL(R, sets), "sharing sets moved at once")
        .num(PIMDSE_COL(R, members), "members of the largest set")
        .num(PIMDSE_COL(R, bytes_per_node), "share of the common data each member holds [bytes]")
        .num(PIMDSE_COL(R, max_link_flits), "heaviest mesh link in the busiest step, NicePIM Eq. 4 [flits]")
        .num(PIMDSE_COL(R, max_channel_flits), "heaviest channel incl. injection/ejection [flits]")
        .num(PIMDSE_COL(R, steps), "steps of the event")
        .num(PIMDSE_COL(R, max_hops), "longest route of any transfer [hops]")
        .num(PIMDSE_COL(R, flit_hops), "flits x hops over all transfers")
        .num(PIMDSE_COL(R, latency_cycles), "latency of the event [node clock cycles]")
        .num(PIMDSE_COL(R, energy_pj), "NoC energy of the event [pJ]")
        .num(PIMDSE_COL(R, tsp_max_link_flits), "heaviest link of the TSP baseline on the event [flits]")
        .num(PIMDSE_COL(R, shp_max_link_flits), "heaviest link of the SHP baseline on the event [flits]")
        .num(PIMDSE_COL(R, bound_flits), "proven lower bound of the heaviest link [flits]")
        .num(PIMDSE_COL(R, gap), "relative gap of the ILP, 0..1")
        .num(PIMDSE_COL(R, solve_seconds), "time to schedule the event; timing [s]")
        .text(PIMDSE_AT(R, members_text), kMembersChars, "node ids of each set, sets separated by ';'")
        .text(PIMDSE_AT(R, reason), kReasonChars, "why the outcome is not optimal");
    return s;
}

struct BatchRow {
    std::int64_t batch;
    std::int32_t proposer;
    std::int64_t candidates, evaluations, ok;
    double best_cost;
    std::int64_t best_candidate;
    double hypervolume;
    std::int64_t front_size;
    double hv_reference_1, hv_reference_2, hv_reference_3;
    std::int64_t samples;
    double fit_seconds, propose_seconds, evaluate_seconds, write_seconds, wall_seconds;
};

Schema batch_schema() {
    using R = BatchRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, batch), "batch index")
        .enumeration(PIMDSE_AT(R, proposer), proposer_enum(), "the proposer of the batch")
        .num(PIMDSE_COL(R, candidates), "candidates in the batch")
        .num(PIMDSE_COL(R, evaluations), "evaluations done after the batch")
        .num(PIMDSE_COL(R, ok), "candidates of the batch with status ok")
        .num(PIMDSE_COL(R, best_cost), "lowest Eq. 1 cost so far; inf while none is ok [J^alpha s^beta]")
        .num(PIMDSE_COL(R, best_candidate), "its candidate id; -1 while none is ok")
        .num(PIMDSE_COL(R, hypervolume),
             "of the front against the reference point (units: product of the objectives' units)")
        .num(PIMDSE_COL(R, front_size), "candidates on the front after the batch")
        .num(PIMDSE_COL(R, hv_reference_1), "reference point, first objective (root attribute objectives)")
        .num(PIMDSE_COL(R, hv_reference_2), "reference point, second objective")
        .num(PIMDSE_COL(R, hv_reference_3), "reference point, third objective; NaN with two objectives")
        .num(PIMDSE_COL(R, samples), "points the proposer sampled and scored")
        .num(PIMDSE_COL(R, fit_seconds), "fitting the proposer's model; timing [s]")
        .num(PIMDSE_COL(R, propose_seconds), "proposing the batch, excluding the fit; timing [s]")
        .num(PIMDSE_COL(R, evaluate_seconds), "from dispatch to the batch's last result; timing [s]")
        .num(PIMDSE_COL(R, write_seconds),
             "rank 0's writes of the batch's candidate tables, before this row; timing [s]")
        .num(PIMDSE_COL(R, wall_seconds), "since the sweep started, over all runs; timing [s]");
    return s;
}

struct ParetoRow {
    std::int64_t candidate;
    std::int64_t joined_batch, left_batch;
    double latency_s, energy_j, area_mm2, cost;
};

Schema pareto_schema() {
    using R = ParetoRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, candidate), "candidate id")
        .num(PIMDSE_COL(R, joined_batch), "on the front from the end of this batch")
        .num(PIMDSE_COL(R, left_batch), "dominated from the end of this batch; -1 while on the front")
        .num(PIMDSE_COL(R, latency_s), "latency over the workloads [s]")
        .num(PIMDSE_COL(R, energy_j), "energy over the workloads [J]")
        .num(PIMDSE_COL(R, area_mm2), "NN-engine area [mm2]")
        .num(PIMDSE_COL(R, cost), "NicePIM Eq. 1 [J^alpha s^beta]");
    return s;
}

struct NetworkRow {
    std::int32_t network;
    char name[kNameChars];
    char group[kNameChars];
    char file[kPathChars];
    double weight;
    std::int32_t batch;
    std::int32_t layers, segments;
    std::int64_t macs, weights;
};

Schema network_schema() {
    using R = NetworkRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, network), "workload index (the network field of the other tables)")
        .text(PIMDSE_AT(R, name), kNameChars, "the network's name")
        .text(PIMDSE_AT(R, group), kNameChars, "its group: /workloads/<group>/layers and /source")
        .text(PIMDSE_AT(R, file), kPathChars, "the network file as configured")
        .num(PIMDSE_COL(R, weight), "gamma of NicePIM Eq. 1")
        .num(PIMDSE_COL(R, batch), "batch size")
        .num(PIMDSE_COL(R, layers), "layers")
        .num(PIMDSE_COL(R, segments), "segments (timesteps)")
        .num(PIMDSE_COL(R, macs), "multiply-accumulates of one batch")
        .num(PIMDSE_COL(R, weights), "weight elements");
    return s;
}

struct WorkloadLayerRow {
    std::int32_t layer;
    std::int32_t kind;
    std::int64_t B, K, C, P, Q, R, S, H, W;
    std::int64_t stride_h, stride_w, groups;
    std::int64_t macs, weights;
    std::int32_t segment, branch;
    char name[kNameChars];
};

Schema workload_layer_schema() {
    using R = WorkloadLayerRow;
    Schema s(sizeof(R));
    s.num(PIMDSE_COL(R, layer), "layer index (topological order)")
        .text(PIMDSE_AT(R, name), kNameChars, "layer name")
        .enumeration(PIMDSE_AT(R, kind), kind_names(), "layer kind")
        .num(PIMDSE_COL(R, B), "loop bound: batch")
        .num(PIMDSE_COL(R, K), "loop bound: output channels")
        .num(PIMDSE_COL(R, C), "loop bound: input channels (per group)")
        .num(PIMDSE_COL(R, P), "loop bound: output rows")
        .num(PIMDSE_COL(R, Q), "loop bound: output columns")
        .num(PIMDSE_COL(R, R), "loop bound: kernel rows")
        .num(PIMDSE_COL(R, S), "loop bound: kernel columns")
        .num(PIMDSE_COL(R, H), "input rows")
        .num(PIMDSE_COL(R, W), "input columns")
        .num(PIMDSE_COL(R, stride_h), "vertical stride")
        .num(PIMDSE_COL(R, stride_w), "horizontal stride")
        .num(PIMDSE_COL(R, groups), "channel groups")
        .num(PIMDSE_COL(R, macs), "multiply-accumulates")
        .num(PIMDSE_COL(R, weights), "weight elements")
        .num(PIMDSE_COL(R, segment), "segment (timestep) of the decomposition")
        .num(PIMDSE_COL(R, branch), "branch within the segment");
    return s;
}

#undef PIMDSE_COL
#undef PIMDSE_AT

// ---- the tables of a sweep ---------------------------------------------------------------

struct TableSpec {
    const char* path;
    Schema (*schema)();
    hsize_t chunk;
    const char* meaning;
    bool per_candidate = true;  ///< rows per candidate: compressed (output.compression)
};

// The batch tables, in the order of the commit record (after its batch count).
const std::array<TableSpec, 7> kTables{{
    {"/candidates", candidate_schema, 256, "one row per evaluated candidate, in id order"},
    {"/metrics", metric_schema, 1024, "one row per (candidate, workload network costed)"},
    {"/mappings/layers", layer_schema, 4096,
     "one row per (candidate, network, layer): the layer's region, LM, WR, DL and cost"},
    {"/mappings/segments", segment_schema, 4096,
     "one row per (candidate, network, segment, branch): SM, the branch's region"},
    {"/schedules", schedule_schema, 4096,
     "one row per data-sharing event of a candidate's layers: sets, chosen cycles' link loads, baselines, "
     "solver outcome"},
    {"/tuner/batches", batch_schema, 64,
     "one row per batch, written by rank 0: proposer, progress, best cost, front size and hypervolume",
     false},
    {"/pareto", pareto_schema, 256,
     "every candidate that joined the Pareto front over the objectives, with the batches it joined and left; "
     "the current front is left_batch == -1",
     false},
}};
enum TableIndex : std::size_t { kCandidates, kMetrics, kLayers, kSegments, kSchedules, kBatches, kPareto };
constexpr std::size_t kCommitSize = 1 + kTables.size();
// Batches that change no metadata are not flushed (their rows and commit record are in the
// file, which a killed process cannot undo); the file is synced to disk at least this often.
constexpr std::chrono::seconds kSyncInterval{60};

// Why /schedules is empty in this version (docs/output.md).
constexpr const char* kSchedulesNote =
    "empty in this version: the evaluation schedules each data-sharing event with the configured "
    "Data-Scheduler inside the network timeline but records no per-event schedule (a record's TSP and "
    "SHP comparison columns cost more than the evaluation); rows appear once a sweep asks for the "
    "records (eval::NetworkResult::schedules)";

// The commit record: a small raw-data dataset, so that writing it is one pwrite of 64 bytes
// that needs no flush of its own (store.hpp).
constexpr const char* kCommit = "/commit";

void write_docs(File& f, const std::string& path, const Schema& schema, const std::string& meaning) {
    f.set_attribute(path, "meaning", meaning);
    for (const auto& [field, doc] : schema.docs) f.set_attribute(path, field, doc);
}

// The same text on every rank: rank 0's.
std::string broadcast_text(std::string text, MPI_Comm comm) {
    auto n = static_cast<std::uint64_t>(text.size());
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    text.resize(static_cast<std::size_t>(n));
    if (n > 0) MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
    return text;
}

int rank_of(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
}

}  // namespace

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

struct Store::Impl {
    std::filesystem::path path;
    File file;
    std::vector<Schema> schemas;
    std::vector<Table> tables;
    std::vector<std::int64_t> commit;  // [batches, rows of each of kTables]

    Impl(const std::filesystem::path& p, File::Mode mode, MPI_Comm comm) : path(p), file(p, mode, comm) {}

    void open_tables() {
        schemas.reserve(kTables.size());
        for (const TableSpec& spec : kTables) {
            schemas.push_back(spec.schema());
            tables.push_back(Table::open(file, spec.path, schemas.back().type));
        }
        note_filters();
    }

    // Throws IoError naming the file unless it is a readable sweep file of this format.
    void check_sweep_file() {
        const std::string name = file.name();
        if (!file.has_attribute("/", "format") || file.string_attribute("/", "format") != kStoreFormatName) {
            throw IoError(name + ": not a pimdse sweep file (no root attribute format = '" +
                          kStoreFormatName + "')");
        }
        const std::int64_t version = file.int_attribute("/", "format_version");
        if (version != kStoreFormatVersion) {
            throw IoError(name + ": sweep file format " + std::to_string(version) +
                          ", this pimdse reads format " + std::to_string(kStoreFormatVersion));
        }
        if (!file.exists(kCommit)) throw IoError(name + ": no commit record (a broken sweep file)");
        commit = file.read_int64s(kCommit);
        if (commit.size() != kCommitSize) throw IoError(name + ": the commit record has the wrong length");
        for (const char* object : {"/config/source", "/config/resolved", "/workloads/networks"}) {
            if (!file.exists(object))
                throw IoError(name + ": " + object + " is missing (a broken sweep file)");
        }
        for (const TableSpec& spec : kTables) {
            if (!file.exists(spec.path))
                throw IoError(name + ": " + spec.path + " is missing (a broken sweep file)");
        }
    }

    // Every table holds at least its committed rows.
    void check_rows_cover_commit() {
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            if (tables[t].rows() < static_cast<hsize_t>(commit[t + 1])) {
                throw IoError(file.name() + ": " + kTables[t].path +
                              " has fewer rows than its commit record");
            }
        }
    }

    // Every committed row read once: a flipped byte fails its chunk's checksum here, with the
    // dataset's name, instead of being read as data later.
    void verify_checksums() const {
        for (std::size_t t = 0; t < kTables.size(); ++t)
            tables[t].verify(static_cast<hsize_t>(commit[t + 1]));
    }

    void write_commit() { file.write_int64s(kCommit, commit); }

    // Filtered chunks move whenever rows are added to them: every batch changes the file's
    // metadata (its chunk index), which must be on disk before the commit record.
    bool compressed = false;
    void note_filters() {
        compressed = std::any_of(tables.begin(), tables.end(), [](const Table& t) { return t.compressed(); });
    }

    std::chrono::steady_clock::time_point last_sync = std::chrono::steady_clock::now();
    void sync() {
        file.flush();
        last_sync = std::chrono::steady_clock::now();
    }

    // One process only (truncate): every table back to its committed rows.
    void cut_to_commit() {
        bool cut = false;
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            const auto rows = static_cast<hsize_t>(commit[t + 1]);
            if (tables[t].rows() > rows) {
                tables[t].truncate(rows);
                cut = true;
            }
        }
        if (cut) file.flush();
    }
};

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const std::filesystem::path& Store::path() const {
    return impl_->path;
}

Store Store::create(const std::filesystem::path& path, const Config& config,
                    const std::vector<eval::Workload>& workloads, MPI_Comm comm) {
    const int rank = rank_of(comm);
    // Written as <path>.part and renamed once it holds an empty, committed sweep, so that
    // `path` never names a half-made file (a run killed while creating leaves only the .part).
    std::filesystem::path part = path;
    part += ".part";
    auto impl = std::make_unique<Impl>(part, File::Mode::create_truncate, comm);
    File& f = impl->file;
    f.set_attribute("/", "format", std::string(kStoreFormatName));
    f.set_attribute("/", "format_version", kStoreFormatVersion);
    f.set_attribute("/", "pimdse_version", std::string(build_info::version));
    f.set_attribute("/", "git_revision", std::string(build_info::git_revision));
    f.set_attribute("/", "seed", static_cast<std::int64_t>(config.sweep.seed));
    f.set_attribute("/", "created", broadcast_text(rank == 0 ? utc_now() : "", comm));
    f.set_attribute("/", "proposer", std::string(to_string(config.sweep.proposer)));
    std::string objectives;
    for (Objective o : config.engine.objectives) {
        if (!objectives.empty()) objectives += ',';
        objectives += to_string(o);
    }
    f.set_attribute("/", "objectives", objectives);
    f.set_attribute("/", "ranks", std::int64_t{0});
    f.set_attribute("/", "runs", std::int64_t{0});

    f.create_groups("/config");
    f.set_attribute("/config", "source_file", config.source_file.string());
    f.write_text("/config/source", broadcast_text(config.source_text, comm));
    f.set_attribute("/config/source", "meaning", std::string("the exact text of the configuration file"));
    f.write_text("/config/resolved", broadcast_text(to_yaml(config), comm));
    f.set_attribute("/config/resolved", "meaning",
                    std::string("the configuration with every default filled in (pimdse config check)"));

    // Workloads: a table of the networks, and per network its layers and its file's text.
    f.create_groups("/workloads");
    std::vector<NetworkRow> networks;
    std::vector<std::string> groups;
    for (std::size_t n = 0; n < workloads.size(); ++n) {
        const eval::Workload& w = workloads[n];
        std::string group = w.network.name();
        const bool taken =
            group == "networks" || std::find(groups.begin(), groups.end(), group) != groups.end();
        if (taken || group.empty() || group.find('/') != std::string::npos || group.size() >= kNameChars) {
            group = "network_" + std::to_string(n);
        }
        groups.push_back(group);
        NetworkRow row{};
        row.network = to_i32(static_cast<std::int64_t>(n));
        put(row.name, w.network.name());
        put(row.group, group);
        put(row.file, config.workloads[n].network.string());
        row.weight = w.weight;
        row.batch = to_i32(w.network.batch());
        row.layers = to_i32(w.network.size());
        row.segments = to_i32(static_cast<std::int64_t>(w.segmentation.segments.size()));
        for (workload::LayerIndex i = 0; i < w.network.size(); ++i) {
            row.macs += w.network.layer(i).macs();
            row.weights += w.network.layer(i).weights();
        }
        networks.push_back(row);
    }
    {
        const Schema s = network_schema();
        Table t = Table::create(f, "/workloads/networks", s.type, 64);
        (void)t.append_rows<NetworkRow>(rank == 0 ? std::span<const NetworkRow>(networks)
                                                  : std::span<const NetworkRow>());
        write_docs(f, "/workloads/networks", s, "one row per workload network, in the configured order");
    }
    const Schema layer_s = workload_layer_schema();
    for (std::size_t n = 0; n < workloads.size(); ++n) {
        const eval::Workload& w = workloads[n];
        const std::string group = "/workloads/" + groups[n];
        std::vector<WorkloadLayerRow> rows;
        if (rank == 0) {
            for (workload::LayerIndex i = 0; i < w.network.size(); ++i) {
                const workload::Layer& l = w.network.layer(i);
                WorkloadLayerRow row{};
                row.layer = to_i32(i);
                row.kind = static_cast<std::int32_t>(l.kind);
                row.B = l.B, row.K = l.K, row.C = l.C, row.P = l.P, row.Q = l.Q, row.R = l.R, row.S = l.S;
                row.H = l.H, row.W = l.W, row.stride_h = l.stride_h, row.stride_w = l.stride_w;
                row.groups = l.groups;
                row.macs = l.macs();
                row.weights = l.weights();
                row.segment = w.segmentation.segment_of[static_cast<std::size_t>(i)];
                row.branch = w.segmentation.branch_of[static_cast<std::size_t>(i)];
                put(row.name, l.name);
                rows.push_back(row);
            }
        }
        Table t = Table::create(f, group + "/layers", layer_s.type, 256);
        (void)t.append_rows<WorkloadLayerRow>(rows);
        write_docs(f, group + "/layers", layer_s, "one row per layer of the network, with the batch applied");
        f.write_text(group + "/source",
                     broadcast_text(rank == 0 ? read_text_file(config.workloads[n].network) : "", comm));
        f.set_attribute(group + "/source", "meaning", std::string("the exact text of the network file"));
    }

    for (const TableSpec& spec : kTables) {
        impl->schemas.push_back(spec.schema());
        impl->tables.push_back(Table::create(f, spec.path, impl->schemas.back().type, spec.chunk,
                                             spec.per_candidate ? config.output.compression : 0));
        write_docs(f, spec.path, impl->schemas.back(), spec.meaning);
    }
    impl->note_filters();
    f.set_attribute("/schedules", "note", std::string(kSchedulesNote));
    impl->commit.assign(kCommitSize, 0);
    impl->write_commit();
    f.set_attribute(kCommit, "meaning",
                    std::string("batches, then committed rows of /candidates, /metrics, /mappings/layers, "
                                "/mappings/segments, /schedules, /tuner/batches, /pareto"));
    f.rename(path);  // flushes first
    impl->path = path;
    return Store(std::move(impl));
}

Store Store::open_read_only(const std::filesystem::path& path, MPI_Comm comm) {
    auto impl = std::make_unique<Impl>(path, File::Mode::read_only, comm);
    impl->check_sweep_file();
    impl->open_tables();
    impl->check_rows_cover_commit();
    impl->verify_checksums();
    return Store(std::move(impl));
}

void Store::repair_for_resume(const std::filesystem::path& path) {
    Impl s(path, File::Mode::read_write, MPI_COMM_SELF);
    s.check_sweep_file();
    s.open_tables();
    s.check_rows_cover_commit();
    s.cut_to_commit();
}

Store Store::open_for_resume(const std::filesystem::path& path, MPI_Comm comm) {
    auto impl = std::make_unique<Impl>(path, File::Mode::read_write, comm);
    impl->check_sweep_file();
    impl->open_tables();
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        if (impl->tables[t].rows() != static_cast<hsize_t>(impl->commit[t + 1])) {
            throw IoError(impl->file.name() + ": " + kTables[t].path +
                          " holds rows past its commit record (repair_for_resume first)");
        }
    }
    return Store(std::move(impl));
}

void Store::note_run(int ranks) {
    File& f = impl_->file;
    const std::int64_t runs = f.has_attribute("/", "runs") ? f.int_attribute("/", "runs") : 0;
    f.set_attribute("/", "ranks", static_cast<std::int64_t>(ranks));
    f.set_attribute("/", "runs", runs + 1);
    f.set_attribute("/", "last_started", broadcast_text(rank_of(f.comm()) == 0 ? utc_now() : "", f.comm()));
    f.flush();
}

StoredSweep Store::read() const {
    Impl& s = *impl_;
    StoredSweep out;
    out.resolved_config = s.file.read_text("/config/resolved");
    for (const char* key : {"format_version", "seed", "ranks", "runs"}) {
        if (s.file.has_attribute("/", key))
            out.info.emplace_back(key, std::to_string(s.file.int_attribute("/", key)));
    }
    for (const char* key :
         {"pimdse_version", "git_revision", "created", "last_started", "proposer", "objectives"}) {
        if (s.file.has_attribute("/", key)) out.info.emplace_back(key, s.file.string_attribute("/", key));
    }

    const Schema net_s = network_schema();
    const Table networks = Table::open(s.file, "/workloads/networks", net_s.type);
    for (const NetworkRow& r : networks.read_rows<NetworkRow>(0, networks.rows())) {
        StoredWorkload w{get(r.name), get(r.group), get(r.file), ""};
        w.source = s.file.read_text("/workloads/" + w.group + "/source");
        out.workloads.push_back(std::move(w));
    }

    out.batches = s.commit[0];
    for (const CandidateRow& r :
         s.tables[kCandidates].read_rows<CandidateRow>(0, static_cast<hsize_t>(s.commit[1 + kCandidates]))) {
        CandidateRecord c;
        c.id = r.candidate;
        c.batch = r.batch;
        c.proposer = static_cast<Proposer>(r.proposer);
        c.params = {r.node_rows, r.node_cols, r.pe_rows, r.pe_cols, r.ibuf_kib, r.wbuf_kib, r.obuf_kib};
        c.status = static_cast<eval::Status>(r.status);
        c.area_mm2 = r.area_mm2;
        c.latency_seconds = r.latency_s;
        c.energy_joules = r.energy_j;
        c.cost = r.cost;
        c.rank = r.rank;
        c.metric_rows = r.metric_rows;
        c.layer_rows = r.layer_rows;
        c.segment_rows = r.segment_rows;
        c.schedule_rows = r.schedule_rows;
        c.seconds = r.eval_seconds;
        out.candidates.push_back(c);
    }
    for (const BatchRow& r :
         s.tables[kBatches].read_rows<BatchRow>(0, static_cast<hsize_t>(s.commit[1 + kBatches]))) {
        BatchRecord b;
        b.batch = r.batch;
        b.proposer = static_cast<Proposer>(r.proposer);
        b.candidates = r.candidates;
        b.evaluations = r.evaluations;
        b.ok = r.ok;
        b.best_cost = r.best_cost;
        b.best_candidate = r.best_candidate;
        b.hypervolume = r.hypervolume;
        b.front_size = r.front_size;
        b.reference = {r.hv_reference_1, r.hv_reference_2, r.hv_reference_3};
        b.samples = r.samples;
        b.fit_seconds = r.fit_seconds;
        b.propose_seconds = r.propose_seconds;
        b.evaluate_seconds = r.evaluate_seconds;
        b.write_seconds = r.write_seconds;
        b.wall_seconds = r.wall_seconds;
        out.tuner.push_back(b);
    }
    for (const ParetoRow& r :
         s.tables[kPareto].read_rows<ParetoRow>(0, static_cast<hsize_t>(s.commit[1 + kPareto]))) {
        out.pareto.push_back(
            {r.candidate, r.joined_batch, r.left_batch, r.latency_s, r.energy_j, r.area_mm2, r.cost});
    }
    return out;
}

namespace {

void add_rows(const eval::Evaluation& e, std::vector<MetricRow>& metrics, std::vector<LayerRow>& layers,
              std::vector<SegmentRow>& segments, std::vector<ScheduleRow>& schedules,
              std::span<const eval::Workload> workloads) {
    for (std::size_t n = 0; n < e.networks.size(); ++n) {
        const eval::NetworkResult& nr = e.networks[n];
        const eval::Workload& w = workloads[n];
        const sim::NetworkCost& cost = nr.cost;
        const auto network = to_i32(static_cast<std::int64_t>(n));

        MetricRow m{};
        m.candidate = e.candidate;
        m.network = network;
        m.status = static_cast<std::int32_t>(cost.status);
        m.latency_cycles = cost.latency.value();
        m.latency_s = cost.seconds;
        m.energy_pj = cost.energy.total().value();
        m.energy_pe_pj = cost.energy.pe.value();
        m.energy_register_pj = cost.energy.registers.value();
        m.energy_sram_pj = cost.energy.sram.value();
        m.energy_dram_pj = cost.energy.dram().value();
        m.energy_dram_access_pj = cost.energy.dram_access.value();
        m.energy_dram_activation_pj = cost.energy.dram_activation.value();
        m.energy_dram_background_pj = cost.energy.dram_background.value();
        m.energy_noc_pj = cost.energy.noc.value();
        m.pe_utilisation = cost.pe_utilisation;
        m.cost = nr.cost_term;
        m.segments = to_i32(static_cast<std::int64_t>(cost.segments.size()));
        put(m.network_name, w.network.name());
        put(m.reason, cost.reason);
        metrics.push_back(m);

        for (workload::LayerIndex i = 0; i < w.network.size(); ++i) {
            const auto li = static_cast<std::size_t>(i);
            const sim::LayerMapping& lm = nr.mapping.layers[li];
            const sim::LayerCost& c = cost.layers[li];
            const sim::Region& region = sim::layer_region(w.segmentation, nr.mapping, i);
            LayerRow r{};
            r.candidate = e.candidate;
            r.network = network;
            r.layer = to_i32(i);
            r.segment = w.segmentation.segment_of[li];
            r.branch = w.segmentation.branch_of[li];
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
            r.dl_out_order = static_cast<std::int8_t>(lm.dl_out.order);
            r.dl_out_group = lm.dl_out.group;
            r.latency_cycles = c.latency.value();
            r.redistribution_cycles = c.redistribution.value();
            r.sharing_cycles = c.sharing.value();
            r.compute_cycles = c.compute.value();
            r.energy_pj = c.energy.total().value();
            r.energy_pe_pj = c.energy.pe.value();
            r.energy_register_pj = c.energy.registers.value();
            r.energy_sram_pj = c.energy.sram.value();
            r.energy_dram_pj = c.energy.dram().value();
            r.energy_noc_pj = c.energy.noc.value();
            r.pe_utilisation = c.pe_utilisation;
            r.status = static_cast<std::int8_t>(c.status);
            layers.push_back(r);
        }

        for (std::size_t sg = 0; sg < nr.mapping.segments.size(); ++sg) {
            const sim::SegmentMapping& sm = nr.mapping.segments[sg];
            for (std::size_t b = 0; b < sm.branch_region.size(); ++b) {
                const sim::Region& region = sm.regions.at(static_cast<std::size_t>(sm.branch_region[b]));
                SegmentRow r{};
                r.candidate = e.candidate;
                r.network = network;
                r.segment = to_i32(static_cast<std::int64_t>(sg));
                r.branch = to_i32(static_cast<std::int64_t>(b));
                r.region = sm.branch_region[b];
                r.region_row = region.row, r.region_col = region.col;
                r.region_rows = region.rows, r.region_cols = region.cols;
                r.segment_latency_cycles = sg < cost.segments.size() ? cost.segments[sg].value() : 0.0;
                segments.push_back(r);
            }
        }

        for (const eval::ScheduleEntry& se : nr.schedules) {
            ScheduleRow r{};
            r.candidate = e.candidate;
            r.network = network;
            r.layer = se.layer;
            r.event = se.event;
            r.kind = static_cast<std::int32_t>(se.kind);
            r.method = static_cast<std::int32_t>(se.method);
            r.outcome = static_cast<std::int32_t>(se.outcome);
            r.sets = se.sets;
            r.members = se.members;
            r.bytes_per_node = se.bytes_per_node;
            r.max_link_flits = se.cost.max_link_flits;
            r.max_channel_flits = se.cost.max_channel_flits;
            r.steps = se.cost.steps;
            r.max_hops = se.cost.max_hops;
            r.flit_hops = se.cost.flit_hops;
            r.latency_cycles = se.cost.latency.value();
            r.energy_pj = se.cost.energy.value();
            r.tsp_max_link_flits = se.tsp_max_link_flits;
            r.shp_max_link_flits = se.shp_max_link_flits;
            r.bound_flits = se.bound_flits;
            r.gap = se.gap;
            r.solve_seconds = se.solve_seconds;
            put(r.members_text, se.members_text);
            put(r.reason, se.reason);
            schedules.push_back(r);
        }
    }
}

std::vector<ParetoRow> pareto_rows(std::span<const ParetoRecord> pareto) {
    std::vector<ParetoRow> rows;
    rows.reserve(pareto.size());
    for (const ParetoRecord& p : pareto) {
        rows.push_back({p.candidate, p.joined_batch, p.left_batch, p.latency_seconds, p.energy_joules,
                        p.area_mm2, p.cost});
    }
    return rows;
}

// A barrier that sleeps while it waits: ranks that arrive early (rank 0, with no rows to
// build) must not spin in the first collective call and take a core from the ranks still
// building their rows (MPI's blocking collectives busy-poll).
void polite_barrier(MPI_Comm comm) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm, &request);
    int done = 0;
    auto pause = std::chrono::microseconds(20);
    for (;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done != 0) return;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
}

// The whole /pareto history from row 0 (rank 0's rows; `count` on every rank).
template <class Impl>
void write_pareto(Impl& s, const std::vector<ParetoRow>& rows, hsize_t count) {
    const std::array<h5::Table::Run, 1> all{{{0, count}}};
    const std::span<const h5::Table::Run> run(all.data(), rows.empty() ? 0 : 1);
    s.tables[kPareto].template write_rows_at<ParetoRow>(0, count, run, rows);
}

// The history's length, from rank 0 to every rank (a collective write needs it everywhere).
hsize_t broadcast_rows(std::size_t rows, MPI_Comm comm) {
    auto n = static_cast<std::uint64_t>(rows);
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    return n;
}

}  // namespace

struct BatchRows::Impl {
    // Kept between batches: reusing the memory spares the page faults of fresh
    // multi-megabyte buffers, which once dominated the time to write a batch.
    // In the order the evaluations finished (the engine hands a batch's slowest candidates
    // out first); each candidate row says how many rows it has in the other tables.
    // sort_by_id() puts them in id order.
    std::vector<CandidateRow> cand_rows;
    std::vector<MetricRow> metric_rows;
    std::vector<LayerRow> layer_rows;
    std::vector<SegmentRow> segment_rows;
    std::vector<ScheduleRow> schedule_rows;

    static std::array<std::size_t, 4> counts(const CandidateRow& r) {
        return {static_cast<std::size_t>(r.metric_rows), static_cast<std::size_t>(r.layer_rows),
                static_cast<std::size_t>(r.segment_rows), static_cast<std::size_t>(r.schedule_rows)};
    }
    [[nodiscard]] bool has(std::int64_t id) const {
        return std::any_of(cand_rows.begin(), cand_rows.end(),
                           [&](const CandidateRow& r) { return r.candidate == id; });
    }
    [[nodiscard]] bool in_id_order() const {
        return std::is_sorted(
            cand_rows.begin(), cand_rows.end(),
            [](const CandidateRow& a, const CandidateRow& b) { return a.candidate < b.candidate; });
    }

    // Candidate by candidate, rows copied into `out` in id order: one pass over the rows.
    void sorted_into(Impl& out) const {
        const std::size_t n = cand_rows.size();
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return cand_rows[a].candidate < cand_rows[b].candidate;
        });
        std::vector<std::array<std::size_t, 4>> start(n);
        std::array<std::size_t, 4> at{};
        for (std::size_t k = 0; k < n; ++k) {
            start[k] = at;
            const auto c = counts(cand_rows[k]);
            for (std::size_t t = 0; t < at.size(); ++t) at[t] += c[t];
        }
        const auto block = [](const auto& from, auto& to, std::size_t first, std::size_t count) {
            const auto begin = from.begin() + static_cast<std::ptrdiff_t>(first);
            to.insert(to.end(), begin, begin + static_cast<std::ptrdiff_t>(count));
        };
        for (std::size_t k : order) {
            const auto c = counts(cand_rows[k]);
            out.cand_rows.push_back(cand_rows[k]);
            block(metric_rows, out.metric_rows, start[k][0], c[0]);
            block(layer_rows, out.layer_rows, start[k][1], c[1]);
            block(segment_rows, out.segment_rows, start[k][2], c[2]);
            block(schedule_rows, out.schedule_rows, start[k][3], c[3]);
        }
    }

    void clear() {
        cand_rows.clear(), metric_rows.clear(), layer_rows.clear(), segment_rows.clear(),
            schedule_rows.clear();
    }
};

BatchRows::BatchRows() : impl_(std::make_unique<Impl>()) {}
BatchRows::BatchRows(BatchRows&&) noexcept = default;
BatchRows& BatchRows::operator=(BatchRows&&) noexcept = default;
BatchRows::~BatchRows() = default;

std::size_t BatchRows::candidates() const {
    return impl_->cand_rows.size();
}

void BatchRows::clear() {
    impl_->clear();
}

void BatchRows::sort_by_id() {
    Impl& b = *impl_;
    if (b.in_id_order()) return;
    if (!scratch_) scratch_ = std::make_unique<Impl>();
    scratch_->clear();
    b.sorted_into(*scratch_);
    std::swap(impl_, scratch_);  // both keep their memory for the next batch
}

namespace {

template <class Row>
void put_rows(std::vector<char>& out, const std::vector<Row>& rows) {
    const std::uint64_t n = rows.size();
    const std::size_t at = out.size();
    out.resize(at + sizeof n + n * sizeof(Row));
    std::memcpy(out.data() + at, &n, sizeof n);
    if (n > 0)
        std::memcpy(out.data() + at + sizeof n, static_cast<const void*>(rows.data()), n * sizeof(Row));
}

template <class Row>
void take_rows(std::span<const char>& in, std::vector<Row>& rows) {
    std::uint64_t n = 0;
    if (in.size() < sizeof n) throw IoError("BatchRows::append_bytes: a truncated message");
    std::memcpy(&n, in.data(), sizeof n);
    in = in.subspan(sizeof n);
    if (in.size() / sizeof(Row) < n) throw IoError("BatchRows::append_bytes: a truncated message");
    if (n == 0) return;  // memcpy must not see the null data() of an empty vector or span
    const std::size_t at = rows.size();
    rows.resize(at + n);
    std::memcpy(static_cast<void*>(rows.data() + at), in.data(), n * sizeof(Row));
    in = in.subspan(n * sizeof(Row));
}

}  // namespace

std::vector<char> BatchRows::to_bytes() const {
    const Impl& b = *impl_;
    std::vector<char> out;
    put_rows(out, b.cand_rows);
    put_rows(out, b.metric_rows);
    put_rows(out, b.layer_rows);
    put_rows(out, b.segment_rows);
    put_rows(out, b.schedule_rows);
    return out;
}

void BatchRows::append_bytes(std::span<const char> bytes) {
    Impl& b = *impl_;
    const std::size_t first = b.cand_rows.size();
    take_rows(bytes, b.cand_rows);
    take_rows(bytes, b.metric_rows);
    take_rows(bytes, b.layer_rows);
    take_rows(bytes, b.segment_rows);
    take_rows(bytes, b.schedule_rows);
    if (!bytes.empty()) throw IoError("BatchRows::append_bytes: bytes past the rows");
    for (std::size_t i = first; i < b.cand_rows.size(); ++i) {
        const std::int64_t id = b.cand_rows[i].candidate;
        for (std::size_t j = 0; j < first; ++j) {
            if (b.cand_rows[j].candidate == id)
                throw IoError("BatchRows::append_bytes: candidate " + std::to_string(id) + " added twice");
        }
    }
}

void BatchRows::drop_mappings_except(std::span<const std::int64_t> keep) {
    Impl& b = *impl_;
    std::vector<LayerRow> layers;
    std::vector<SegmentRow> segments;
    std::size_t layer_at = 0;
    std::size_t segment_at = 0;
    for (CandidateRow& r : b.cand_rows) {
        const auto nl = static_cast<std::size_t>(r.layer_rows);
        const auto ns = static_cast<std::size_t>(r.segment_rows);
        if (std::binary_search(keep.begin(), keep.end(), r.candidate)) {
            layers.insert(layers.end(), b.layer_rows.begin() + static_cast<std::ptrdiff_t>(layer_at),
                          b.layer_rows.begin() + static_cast<std::ptrdiff_t>(layer_at + nl));
            segments.insert(segments.end(), b.segment_rows.begin() + static_cast<std::ptrdiff_t>(segment_at),
                            b.segment_rows.begin() + static_cast<std::ptrdiff_t>(segment_at + ns));
        } else {
            r.layer_rows = 0;
            r.segment_rows = 0;
        }
        layer_at += nl;
        segment_at += ns;
    }
    b.layer_rows = std::move(layers);
    b.segment_rows = std::move(segments);
}

CandidateRecord BatchRows::add(const eval::Evaluation& e, std::int64_t batch, Proposer proposer, int rank,
                               std::span<const eval::Workload> workloads) {
    Impl& b = *impl_;
    if (b.has(e.candidate)) {
        throw IoError("BatchRows::add: candidate " + std::to_string(e.candidate) + " added twice");
    }
    CandidateRecord c;
    c.id = e.candidate;
    c.batch = batch;
    c.proposer = proposer;
    c.params = e.params;
    c.status = e.status;
    c.area_mm2 = e.area_mm2;
    c.latency_seconds = e.latency_seconds;
    c.energy_joules = e.energy_joules;
    c.cost = e.cost;
    c.rank = rank;
    c.seconds = e.seconds;
    count_rows(e, c);

    CandidateRow r{};
    r.candidate = c.id;
    r.batch = batch;
    r.proposer = static_cast<std::int32_t>(proposer);
    r.node_rows = e.params.node_rows, r.node_cols = e.params.node_cols;
    r.pe_rows = e.params.pe_rows, r.pe_cols = e.params.pe_cols;
    r.ibuf_kib = e.params.ibuf_kib, r.wbuf_kib = e.params.wbuf_kib, r.obuf_kib = e.params.obuf_kib;
    r.status = static_cast<std::int32_t>(e.status);
    r.area_mm2 = e.area_mm2;
    r.area_total_mm2 = e.area_total_mm2;
    r.latency_s = e.latency_seconds;
    r.energy_j = e.energy_joules;
    r.cost = e.cost;
    r.metric_rows = c.metric_rows, r.layer_rows = c.layer_rows;
    r.segment_rows = c.segment_rows, r.schedule_rows = c.schedule_rows;
    r.eval_seconds = e.seconds;
    r.rank = rank;
    put(r.message, e.message);
    b.cand_rows.push_back(r);
    add_rows(e, b.metric_rows, b.layer_rows, b.segment_rows, b.schedule_rows, workloads);
    return c;
}

void Store::write_batch(BatchRows& mine, std::span<const CandidateRecord> layout, const BatchRecord& tuner,
                        std::span<const ParetoRecord> pareto) {
    Impl& s = *impl_;
    const auto start = std::chrono::steady_clock::now();
    mine.sort_by_id();
    const BatchRows::Impl& m = *mine.impl_;
    const int rank = rank_of(s.file.comm());

    // Where each candidate's rows go: candidate-id order, whichever rank computed them. This
    // rank's rows are in the same order now (sort_by_id above).
    constexpr std::size_t kPerCandidate = 5;  // candidates, metrics, layers, segments, schedules
    std::array<hsize_t, kPerCandidate> added{};
    std::array<std::vector<h5::Table::Run>, kPerCandidate> runs;
    std::size_t k = 0;
    for (const CandidateRecord& c : layout) {
        const std::array<hsize_t, kPerCandidate> counts{
            1, static_cast<hsize_t>(c.metric_rows), static_cast<hsize_t>(c.layer_rows),
            static_cast<hsize_t>(c.segment_rows), static_cast<hsize_t>(c.schedule_rows)};
        if (c.rank == rank) {
            if (k >= m.cand_rows.size() || m.cand_rows[k].candidate != c.id) {
                throw IoError(s.file.name() + ": rank " + std::to_string(rank) +
                              " lacks the rows of candidate " + std::to_string(c.id));
            }
            if (BatchRows::Impl::counts(m.cand_rows[k]) !=
                std::array<std::size_t, 4>{
                    static_cast<std::size_t>(c.metric_rows), static_cast<std::size_t>(c.layer_rows),
                    static_cast<std::size_t>(c.segment_rows), static_cast<std::size_t>(c.schedule_rows)}) {
                throw IoError(s.file.name() + ": the row counts of candidate " + std::to_string(c.id) +
                              " differ from the batch's layout");
            }
            ++k;
            for (std::size_t t = 0; t < kPerCandidate; ++t) {
                if (counts[t] > 0) runs[t].push_back({added[t], counts[t]});
            }
        }
        for (std::size_t t = 0; t < kPerCandidate; ++t) added[t] += counts[t];
    }
    if (k != m.cand_rows.size()) throw IoError(s.file.name() + ": rows of candidates not in the batch");
    const std::vector<CandidateRow>& cand_rows = m.cand_rows;
    const std::vector<MetricRow>& metric_rows = m.metric_rows;
    const std::vector<LayerRow>& layer_rows = m.layer_rows;
    const std::vector<SegmentRow>& segment_rows = m.segment_rows;
    const std::vector<ScheduleRow>& schedule_rows = m.schedule_rows;
    polite_barrier(s.file.comm());
    // Rows go at the committed ends. Tables grow ahead of their rows, all at once, by a quarter
    // of what they hold or four batches' rows, whichever is more: most batches change no
    // metadata and need no flush (store.hpp), growths are O(log batches), and a finished
    // file's unused (sparse) space stays under a quarter.
    const hsize_t pareto_count = broadcast_rows(pareto.size(), s.file.comm());
    std::array<hsize_t, kTables.size()> needed{};
    std::array<hsize_t, kTables.size()> this_batch{};
    for (std::size_t t = 0; t < kPerCandidate; ++t) this_batch[t] = added[t];
    this_batch[kBatches] = 1;
    this_batch[kPareto] = pareto_count - std::min(pareto_count, static_cast<hsize_t>(s.commit[1 + kPareto]));
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        needed[t] = static_cast<hsize_t>(s.commit[1 + t]) + this_batch[t];
    }
    needed[kPareto] = pareto_count;
    bool grow = false;
    for (std::size_t t = 0; t < kTables.size(); ++t) grow |= s.tables[t].rows() < needed[t];
    if (grow) {
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            (void)s.tables[t].reserve(needed[t] + std::max(needed[t] / 4, 4 * this_batch[t]));
        }
    }
    const auto at = [&](TableIndex t) { return static_cast<hsize_t>(s.commit[1 + t]); };
    s.tables[kCandidates].write_rows_at<CandidateRow>(at(kCandidates), added[0], runs[0], cand_rows);
    s.tables[kMetrics].write_rows_at<MetricRow>(at(kMetrics), added[1], runs[1], metric_rows);
    s.tables[kLayers].write_rows_at<LayerRow>(at(kLayers), added[2], runs[2], layer_rows);
    s.tables[kSegments].write_rows_at<SegmentRow>(at(kSegments), added[3], runs[3], segment_rows);
    s.tables[kSchedules].write_rows_at<ScheduleRow>(at(kSchedules), added[4], runs[4], schedule_rows);
    // The rows reach the disk while the next batch evaluates, so that the next flush is short.
    if (!cand_rows.empty()) s.file.start_writeback();

    std::vector<BatchRow> batch_rows;
    if (rank == 0) {
        BatchRow b{};
        b.batch = tuner.batch;
        b.proposer = static_cast<std::int32_t>(tuner.proposer);
        b.candidates = tuner.candidates;
        b.evaluations = tuner.evaluations;
        b.ok = tuner.ok;
        b.best_cost = tuner.best_cost;
        b.best_candidate = tuner.best_candidate;
        b.hypervolume = tuner.hypervolume;
        b.front_size = tuner.front_size;
        b.hv_reference_1 = tuner.reference[0];
        b.hv_reference_2 = tuner.reference[1];
        b.hv_reference_3 = tuner.reference[2];
        b.samples = tuner.samples;
        b.fit_seconds = tuner.fit_seconds;
        b.propose_seconds = tuner.propose_seconds;
        b.evaluate_seconds = tuner.evaluate_seconds;
        b.write_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        b.wall_seconds = tuner.wall_seconds;
        batch_rows.push_back(b);
    }
    const std::array<h5::Table::Run, 1> one{{{0, 1}}};
    const std::span<const h5::Table::Run> batch_run(one.data(), rank == 0 ? 1 : 0);
    s.tables[kBatches].write_rows_at<BatchRow>(at(kBatches), 1, batch_run, batch_rows);
    write_pareto(s, rank == 0 ? pareto_rows(pareto) : std::vector<ParetoRow>{}, pareto_count);

    // The file's metadata changed (a table grew), or it is time for a sync: flush before the
    // commit record points past what is on disk.
    const auto now = std::chrono::steady_clock::now();
    if (grow || s.compressed || now - s.last_sync >= kSyncInterval) s.sync();

    s.commit[0] += 1;
    for (std::size_t t = 0; t < kPerCandidate; ++t) s.commit[1 + t] += static_cast<std::int64_t>(added[t]);
    s.commit[1 + kBatches] += 1;
    s.commit[1 + kPareto] = static_cast<std::int64_t>(pareto_count);
    s.write_commit();
}

void Store::rewrite_pareto(std::span<const ParetoRecord> pareto) {
    Impl& s = *impl_;
    const hsize_t count = broadcast_rows(pareto.size(), s.file.comm());
    if (count != static_cast<hsize_t>(s.commit[1 + kPareto])) {
        throw IoError(s.file.name() +
                      ": the replayed Pareto history disagrees with the committed /pareto rows");
    }
    write_pareto(s, rank_of(s.file.comm()) == 0 ? pareto_rows(pareto) : std::vector<ParetoRow>{}, count);
    s.sync();
}

void Store::close_and_trim() {
    const std::filesystem::path path = impl_->path;
    const bool root = rank_of(impl_->file.comm()) == 0;
    impl_.reset();  // collective close
    if (!root) return;
    Impl s(path, File::Mode::read_write, MPI_COMM_SELF);
    s.check_sweep_file();
    s.open_tables();
    s.cut_to_commit();
}

}  // namespace pimdse::io
