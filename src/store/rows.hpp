#pragma once
// The row layouts of the sweep file's tables (private to store): plain structs whose bytes
// are the HDF5 compound rows, described field by field in schema.cpp, and sent between
// ranks as they are (BatchRows::to_bytes). Every field of a struct is in its table's schema
// (tests/store/schema_test.cpp checks the sizes add up), but for the family's arrays, of
// which the file has the entries its columns name.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "pimdse/core/enum_names.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/core/units.hpp"
#include "pimdse/store/schema.hpp"

namespace pimdse::store {

// Fixed-length string fields (NUL-padded; longer text is cut).
inline constexpr std::size_t kMessageChars = 256;
inline constexpr std::size_t kNameChars = 64;
inline constexpr std::size_t kReasonChars = 160;
inline constexpr std::size_t kPathChars = 256;
inline constexpr std::size_t kMembersChars = 512;

template <std::size_t N>
void put(char (&field)[N], std::string_view text) {
    std::memset(field, 0, N);
    std::memcpy(field, text.data(), std::min(N, text.size()));
}

template <std::size_t N>
std::string get(const char (&field)[N]) {
    return {field, strnlen(field, N)};
}

inline std::int32_t to_i32(std::int64_t v) {
    return static_cast<std::int32_t>(v);
}

// Region coordinates and partition counts are bounded by the node array (at most the bank
// array, Table II: 16 x 16); a value past int16 would be a bug upstream.
inline std::int16_t to_i16(std::int32_t v) {
    if (v < std::numeric_limits<std::int16_t>::min() || v > std::numeric_limits<std::int16_t>::max()) {
        throw IoError("a node-array coordinate or partition count outside int16: " + std::to_string(v));
    }
    return static_cast<std::int16_t>(v);
}

// Every energy of the file is in joules (docs/output.md, "Units"); the model's are picojoules.
inline double joules(double picojoules) {
    return picojoules * 1e-12;
}
inline double joules(Picojoules e) {
    return joules(e.value());
}

// ---- the tables of a sweep ---------------------------------------------------------------

struct CandidateRow {
    std::int64_t candidate;
    std::int64_t batch;
    std::int32_t proposer;
    std::int32_t params[kMaxFamilyColumns];  // the family's parameters; the file has those in use
    std::int32_t status;
    double area_mm2;
    double area_total_mm2;
    double latency_s;
    double energy_j;
    double cost;
    double metrics[kMaxFamilyColumns];  // the family's metrics; the file has those in use
    std::int64_t metric_rows, layer_rows, segment_rows, schedule_rows;
    double eval_seconds;
    std::int32_t rank;
    char message[kMessageChars];
};

struct MetricRow {
    std::int64_t candidate;
    std::int32_t network;
    std::int32_t status;
    double latency_cycles;
    double latency_s;
    double energy_j;
    double energy_parts[kMaxFamilyColumns];  // the family's energy parts (J); the file has those in use
    double pe_utilisation;
    double cost;
    std::int32_t segments;
    char network_name[kNameChars];
    char reason[kReasonChars];
};

// The intra-node tiling of /mappings/layers as enums with a first value `none`, for the
// layers computed as streams, which have no tiling; the others follow sim's enums, value + 1.
// The loop order is text: its five letters (sim::to_string), or `none`.
enum class TileDim : std::int8_t { none, B, K, C, P, Q };
inline constexpr EnumNames<TileDim, 6> kTileDimNames{{{TileDim::none, "none"},
                                                      {TileDim::B, "B"},
                                                      {TileDim::K, "K"},
                                                      {TileDim::C, "C"},
                                                      {TileDim::P, "P"},
                                                      {TileDim::Q, "Q"}}};
enum class TileDataflow : std::int8_t { none, output, weight, input };
inline constexpr EnumNames<TileDataflow, 4> kTileDataflowNames{{{TileDataflow::none, "none"},
                                                                {TileDataflow::output, "output"},
                                                                {TileDataflow::weight, "weight"},
                                                                {TileDataflow::input, "input"}}};

// The bulk of a sweep file (a row per layer of every network of every candidate), so its
// small-range fields are narrow: region and partitions are bounded by the node array.
struct LayerRow {
    std::int64_t candidate;
    std::int32_t network, layer, segment, branch;
    std::int32_t wr;
    std::int32_t dl_in_group, dl_out_group;
    std::int32_t dl_in_block_h, dl_in_block_w, dl_out_block_h, dl_out_block_w;
    std::int16_t region_row, region_col, region_rows, region_cols;
    std::int16_t part_b_h, part_b_w, part_p_h, part_p_w, part_q_h, part_q_w, part_k_h, part_k_w, part_c_h,
        part_c_w;
    std::int8_t dl_in_order, dl_out_order, status;
    char order[5];
    double latency_cycles, start_cycles, finish_cycles, redistribution_cycles, sharing_cycles, compute_cycles;
    double energy_j, energy_pe_j, energy_register_j, energy_sram_j, energy_sram_ibuf_j, energy_sram_wbuf_j,
        energy_sram_obuf_j, energy_dram_j, energy_dram_access_j, energy_dram_activation_j, energy_noc_j;
    double pe_utilisation;
    std::int64_t dram_reads, dram_writes, dram_activations;
    std::int64_t ibuf_reads, ibuf_writes, wbuf_reads, wbuf_writes, obuf_reads, obuf_writes;
    std::int64_t register_bits, redistribution_flit_hops, sharing_flit_hops;
    std::int32_t tile_nodes, tile_b, tile_k, tile_c, tile_p, tile_q, tile_r, tile_s;
    std::int8_t unroll_row, unroll_col, dataflow;
    char loop_order[7];
};

struct SegmentRow {
    std::int64_t candidate;
    std::int32_t network, segment, branch, region;
    std::int32_t region_row, region_col, region_rows, region_cols;
    double segment_latency_cycles;
};

struct ScheduleRow {
    std::int64_t candidate;
    std::int32_t network, layer, event;
    std::int32_t kind, method, outcome;
    std::int32_t sets, members;
    std::int64_t bytes_per_node;
    std::int64_t max_link_flits, max_channel_flits;
    std::int32_t steps, max_hops;
    std::int64_t flit_hops;
    double latency_cycles, energy_j;
    std::int64_t tsp_max_link_flits, shp_max_link_flits, bound_flits;
    double gap, solve_seconds;
    char members_text[kMembersChars];
    char reason[kReasonChars];
};

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
    double predicted_tau, predicted_error, cheap_tau;
    double fit_seconds, propose_seconds, evaluate_seconds, write_seconds, wall_seconds;
};

struct ParetoRow {
    std::int64_t candidate;
    std::int64_t joined_batch, left_batch;
    double latency_s, energy_j, area_mm2, cost;
};

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

struct WorkloadLayerRow {
    std::int32_t layer;
    std::int32_t kind;
    std::int64_t B, K, C, P, Q, R, S, H, W;
    std::int64_t stride_h, stride_w, groups;
    std::int64_t macs, weights;
    std::int32_t segment, branch;
    char name[kNameChars];
};

}  // namespace pimdse::store
