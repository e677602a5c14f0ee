// The sweep's HDF5 file (include/pimdse/io/store.hpp, docs/output.md).

#include "pimdse/io/store.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <ctime>
#include <limits>
#include <utility>

#include "pimdse/build_info.hpp"
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

template <std::size_t N>
void put(char (&field)[N], std::string_view text) {
    std::memset(field, 0, N);
    std::memcpy(field, text.data(), std::min(N, text.size()));
}

std::vector<std::string> names_of(std::span<const std::string_view> names) {
    return {names.begin(), names.end()};
}

const std::vector<std::string>& status_names() {
    static const std::vector<std::string> names{"ok", "infeasible", "failed", "timeout"};
    return names;
}
const std::vector<std::string>& proposer_enum() {
    static const std::vector<std::string> names = names_of(proposer_names());
    return names;
}
const std::vector<std::string>& layer_status_names() {
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
    std::int64_t metric_rows, layer_rows, segment_rows;
    double eval_seconds;
    std::int32_t rank;
    char message[kMessageChars];
};

CompoundType candidate_type() {
    CompoundType t(sizeof(CandidateRow));
    t.add("candidate", offsetof(CandidateRow, candidate), H5T_NATIVE_INT64)
        .add("batch", offsetof(CandidateRow, batch), H5T_NATIVE_INT64)
        .add_enum("proposer", offsetof(CandidateRow, proposer), proposer_enum())
        .add("node_rows", offsetof(CandidateRow, node_rows), H5T_NATIVE_INT32)
        .add("node_cols", offsetof(CandidateRow, node_cols), H5T_NATIVE_INT32)
        .add("pe_rows", offsetof(CandidateRow, pe_rows), H5T_NATIVE_INT32)
        .add("pe_cols", offsetof(CandidateRow, pe_cols), H5T_NATIVE_INT32)
        .add("ibuf_kib", offsetof(CandidateRow, ibuf_kib), H5T_NATIVE_INT32)
        .add("wbuf_kib", offsetof(CandidateRow, wbuf_kib), H5T_NATIVE_INT32)
        .add("obuf_kib", offsetof(CandidateRow, obuf_kib), H5T_NATIVE_INT32)
        .add_enum("status", offsetof(CandidateRow, status), status_names())
        .add("area_mm2", offsetof(CandidateRow, area_mm2), H5T_NATIVE_DOUBLE)
        .add("area_total_mm2", offsetof(CandidateRow, area_total_mm2), H5T_NATIVE_DOUBLE)
        .add("latency_s", offsetof(CandidateRow, latency_s), H5T_NATIVE_DOUBLE)
        .add("energy_j", offsetof(CandidateRow, energy_j), H5T_NATIVE_DOUBLE)
        .add("cost", offsetof(CandidateRow, cost), H5T_NATIVE_DOUBLE)
        .add("metric_rows", offsetof(CandidateRow, metric_rows), H5T_NATIVE_INT64)
        .add("layer_rows", offsetof(CandidateRow, layer_rows), H5T_NATIVE_INT64)
        .add("segment_rows", offsetof(CandidateRow, segment_rows), H5T_NATIVE_INT64)
        .add("eval_seconds", offsetof(CandidateRow, eval_seconds), H5T_NATIVE_DOUBLE)
        .add("rank", offsetof(CandidateRow, rank), H5T_NATIVE_INT32)
        .add_string("message", offsetof(CandidateRow, message), kMessageChars);
    return t;
}

struct MetricRow {
    std::int64_t candidate;
    std::int32_t network;
    std::int32_t status;
    double latency_cycles;
    double latency_s;
    double energy_pj;
    double energy_pe_pj, energy_sram_pj, energy_dram_pj, energy_noc_pj;
    double pe_utilisation;
    double cost;
    std::int32_t segments;
    char network_name[kNameChars];
    char reason[kReasonChars];
};

CompoundType metric_type() {
    CompoundType t(sizeof(MetricRow));
    t.add("candidate", offsetof(MetricRow, candidate), H5T_NATIVE_INT64)
        .add("network", offsetof(MetricRow, network), H5T_NATIVE_INT32)
        .add_string("network_name", offsetof(MetricRow, network_name), kNameChars)
        .add_enum("status", offsetof(MetricRow, status), layer_status_names())
        .add("latency_cycles", offsetof(MetricRow, latency_cycles), H5T_NATIVE_DOUBLE)
        .add("latency_s", offsetof(MetricRow, latency_s), H5T_NATIVE_DOUBLE)
        .add("energy_pj", offsetof(MetricRow, energy_pj), H5T_NATIVE_DOUBLE)
        .add("energy_pe_pj", offsetof(MetricRow, energy_pe_pj), H5T_NATIVE_DOUBLE)
        .add("energy_sram_pj", offsetof(MetricRow, energy_sram_pj), H5T_NATIVE_DOUBLE)
        .add("energy_dram_pj", offsetof(MetricRow, energy_dram_pj), H5T_NATIVE_DOUBLE)
        .add("energy_noc_pj", offsetof(MetricRow, energy_noc_pj), H5T_NATIVE_DOUBLE)
        .add("pe_utilisation", offsetof(MetricRow, pe_utilisation), H5T_NATIVE_DOUBLE)
        .add("cost", offsetof(MetricRow, cost), H5T_NATIVE_DOUBLE)
        .add("segments", offsetof(MetricRow, segments), H5T_NATIVE_INT32)
        .add_string("reason", offsetof(MetricRow, reason), kReasonChars);
    return t;
}

struct LayerRow {
    std::int64_t candidate;
    std::int32_t network, layer, segment, branch;
    std::int32_t region_row, region_col, region_rows, region_cols;
    std::int32_t parts[sim::kPartDims][2];  // (Ph, Pw) of B, P, Q, K, C
    char order[8];
    std::int32_t wr;
    std::int32_t dl_in_order, dl_in_group, dl_out_order, dl_out_group;
    double latency_cycles, redistribution_cycles, sharing_cycles, compute_cycles;
    double energy_pj, energy_pe_pj, energy_sram_pj, energy_dram_pj, energy_noc_pj;
    double pe_utilisation;
    std::int32_t status;
};

CompoundType layer_type() {
    CompoundType t(sizeof(LayerRow));
    t.add("candidate", offsetof(LayerRow, candidate), H5T_NATIVE_INT64)
        .add("network", offsetof(LayerRow, network), H5T_NATIVE_INT32)
        .add("layer", offsetof(LayerRow, layer), H5T_NATIVE_INT32)
        .add("segment", offsetof(LayerRow, segment), H5T_NATIVE_INT32)
        .add("branch", offsetof(LayerRow, branch), H5T_NATIVE_INT32)
        .add("region_row", offsetof(LayerRow, region_row), H5T_NATIVE_INT32)
        .add("region_col", offsetof(LayerRow, region_col), H5T_NATIVE_INT32)
        .add("region_rows", offsetof(LayerRow, region_rows), H5T_NATIVE_INT32)
        .add("region_cols", offsetof(LayerRow, region_cols), H5T_NATIVE_INT32);
    static const std::array<const char*, 10> part_names{"part_b_h", "part_b_w", "part_p_h", "part_p_w",
                                                        "part_q_h", "part_q_w", "part_k_h", "part_k_w",
                                                        "part_c_h", "part_c_w"};
    for (std::size_t i = 0; i < part_names.size(); ++i) {
        t.add(part_names[i], offsetof(LayerRow, parts) + i * sizeof(std::int32_t), H5T_NATIVE_INT32);
    }
    t.add_string("order", offsetof(LayerRow, order), sizeof(LayerRow::order))
        .add("wr", offsetof(LayerRow, wr), H5T_NATIVE_INT32)
        .add_enum("dl_in_order", offsetof(LayerRow, dl_in_order), layout_names())
        .add("dl_in_group", offsetof(LayerRow, dl_in_group), H5T_NATIVE_INT32)
        .add_enum("dl_out_order", offsetof(LayerRow, dl_out_order), layout_names())
        .add("dl_out_group", offsetof(LayerRow, dl_out_group), H5T_NATIVE_INT32)
        .add("latency_cycles", offsetof(LayerRow, latency_cycles), H5T_NATIVE_DOUBLE)
        .add("redistribution_cycles", offsetof(LayerRow, redistribution_cycles), H5T_NATIVE_DOUBLE)
        .add("sharing_cycles", offsetof(LayerRow, sharing_cycles), H5T_NATIVE_DOUBLE)
        .add("compute_cycles", offsetof(LayerRow, compute_cycles), H5T_NATIVE_DOUBLE)
        .add("energy_pj", offsetof(LayerRow, energy_pj), H5T_NATIVE_DOUBLE)
        .add("energy_pe_pj", offsetof(LayerRow, energy_pe_pj), H5T_NATIVE_DOUBLE)
        .add("energy_sram_pj", offsetof(LayerRow, energy_sram_pj), H5T_NATIVE_DOUBLE)
        .add("energy_dram_pj", offsetof(LayerRow, energy_dram_pj), H5T_NATIVE_DOUBLE)
        .add("energy_noc_pj", offsetof(LayerRow, energy_noc_pj), H5T_NATIVE_DOUBLE)
        .add("pe_utilisation", offsetof(LayerRow, pe_utilisation), H5T_NATIVE_DOUBLE)
        .add_enum("status", offsetof(LayerRow, status), layer_status_names());
    return t;
}

struct SegmentRow {
    std::int64_t candidate;
    std::int32_t network, segment, branch, region;
    std::int32_t region_row, region_col, region_rows, region_cols;
    double segment_latency_cycles;
};

CompoundType segment_type() {
    CompoundType t(sizeof(SegmentRow));
    t.add("candidate", offsetof(SegmentRow, candidate), H5T_NATIVE_INT64)
        .add("network", offsetof(SegmentRow, network), H5T_NATIVE_INT32)
        .add("segment", offsetof(SegmentRow, segment), H5T_NATIVE_INT32)
        .add("branch", offsetof(SegmentRow, branch), H5T_NATIVE_INT32)
        .add("region", offsetof(SegmentRow, region), H5T_NATIVE_INT32)
        .add("region_row", offsetof(SegmentRow, region_row), H5T_NATIVE_INT32)
        .add("region_col", offsetof(SegmentRow, region_col), H5T_NATIVE_INT32)
        .add("region_rows", offsetof(SegmentRow, region_rows), H5T_NATIVE_INT32)
        .add("region_cols", offsetof(SegmentRow, region_cols), H5T_NATIVE_INT32)
        .add("segment_latency_cycles", offsetof(SegmentRow, segment_latency_cycles), H5T_NATIVE_DOUBLE);
    return t;
}

struct BatchRow {
    std::int64_t batch;
    std::int32_t proposer;
    std::int64_t candidates, evaluations, ok;
    double best_cost;
    std::int64_t best_candidate;
    double hypervolume;
    std::int64_t front_size;
    double fit_seconds, propose_seconds, evaluate_seconds, write_seconds, wall_seconds;
};

CompoundType batch_type() {
    CompoundType t(sizeof(BatchRow));
    t.add("batch", offsetof(BatchRow, batch), H5T_NATIVE_INT64)
        .add_enum("proposer", offsetof(BatchRow, proposer), proposer_enum())
        .add("candidates", offsetof(BatchRow, candidates), H5T_NATIVE_INT64)
        .add("evaluations", offsetof(BatchRow, evaluations), H5T_NATIVE_INT64)
        .add("ok", offsetof(BatchRow, ok), H5T_NATIVE_INT64)
        .add("best_cost", offsetof(BatchRow, best_cost), H5T_NATIVE_DOUBLE)
        .add("best_candidate", offsetof(BatchRow, best_candidate), H5T_NATIVE_INT64)
        .add("hypervolume", offsetof(BatchRow, hypervolume), H5T_NATIVE_DOUBLE)
        .add("front_size", offsetof(BatchRow, front_size), H5T_NATIVE_INT64)
        .add("fit_seconds", offsetof(BatchRow, fit_seconds), H5T_NATIVE_DOUBLE)
        .add("propose_seconds", offsetof(BatchRow, propose_seconds), H5T_NATIVE_DOUBLE)
        .add("evaluate_seconds", offsetof(BatchRow, evaluate_seconds), H5T_NATIVE_DOUBLE)
        .add("write_seconds", offsetof(BatchRow, write_seconds), H5T_NATIVE_DOUBLE)
        .add("wall_seconds", offsetof(BatchRow, wall_seconds), H5T_NATIVE_DOUBLE);
    return t;
}

struct ParetoRow {
    std::int64_t candidate;
    double latency_s, energy_j, area_mm2, cost;
};

CompoundType pareto_type() {
    CompoundType t(sizeof(ParetoRow));
    t.add("candidate", offsetof(ParetoRow, candidate), H5T_NATIVE_INT64)
        .add("latency_s", offsetof(ParetoRow, latency_s), H5T_NATIVE_DOUBLE)
        .add("energy_j", offsetof(ParetoRow, energy_j), H5T_NATIVE_DOUBLE)
        .add("area_mm2", offsetof(ParetoRow, area_mm2), H5T_NATIVE_DOUBLE)
        .add("cost", offsetof(ParetoRow, cost), H5T_NATIVE_DOUBLE);
    return t;
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

CompoundType workload_layer_type() {
    CompoundType t(sizeof(WorkloadLayerRow));
    t.add("layer", offsetof(WorkloadLayerRow, layer), H5T_NATIVE_INT32)
        .add_string("name", offsetof(WorkloadLayerRow, name), kNameChars)
        .add_enum("kind", offsetof(WorkloadLayerRow, kind), kind_names());
    const std::array<std::pair<const char*, std::size_t>, 14> dims{
        {{"B", offsetof(WorkloadLayerRow, B)},
         {"K", offsetof(WorkloadLayerRow, K)},
         {"C", offsetof(WorkloadLayerRow, C)},
         {"P", offsetof(WorkloadLayerRow, P)},
         {"Q", offsetof(WorkloadLayerRow, Q)},
         {"R", offsetof(WorkloadLayerRow, R)},
         {"S", offsetof(WorkloadLayerRow, S)},
         {"H", offsetof(WorkloadLayerRow, H)},
         {"W", offsetof(WorkloadLayerRow, W)},
         {"stride_h", offsetof(WorkloadLayerRow, stride_h)},
         {"stride_w", offsetof(WorkloadLayerRow, stride_w)},
         {"groups", offsetof(WorkloadLayerRow, groups)},
         {"macs", offsetof(WorkloadLayerRow, macs)},
         {"weights", offsetof(WorkloadLayerRow, weights)}}};
    for (const auto& [name, offset] : dims) t.add(name, offset, H5T_NATIVE_INT64);
    t.add("segment", offsetof(WorkloadLayerRow, segment), H5T_NATIVE_INT32)
        .add("branch", offsetof(WorkloadLayerRow, branch), H5T_NATIVE_INT32);
    return t;
}

// ---- schema ------------------------------------------------------------------------------

struct TableSpec {
    const char* path;
    CompoundType (*type)();
    hsize_t chunk;
    const char* meaning;
};

const std::array<TableSpec, 6> kTables{{
    {"/candidates", candidate_type, 256,
     "one row per evaluated candidate: id, batch, proposer, the 7 hardware parameters, area (mm2), status, "
     "message, total latency (s) and energy (J) over the workloads, NicePIM Eq. 1 cost, row counts in the "
     "other tables, evaluation wall seconds and the evaluating rank (the last two depend on the run)"},
    {"/metrics", metric_type, 1024,
     "one row per (candidate, network costed): latency in cycles and seconds, energy in pJ and its PE, SRAM, "
     "DRAM and NoC parts, PE utilisation, this network's term of Eq. 1, segment count, status and reason"},
    {"/mappings/layers", layer_type, 4096,
     "one row per (candidate, network, layer): segment, branch, region (row, col, rows, cols), LM partitions "
     "(Ph, Pw) of B, P, Q, K, C and their spatial order, WR, DL of input and output (order, channel group), "
     "latency in cycles and its redistribution, sharing and compute parts, energy in pJ and its parts, PE "
     "utilisation, status"},
    {"/mappings/segments", segment_type, 4096,
     "one row per (candidate, network, segment, branch): the branch's region index and rectangle, the "
     "segment's "
     "latency in cycles"},
    {"/tuner/batches", batch_type, 64,
     "one row per batch, written by rank 0: proposer, candidates, evaluations done, ok count, best Eq. 1 "
     "cost "
     "and candidate so far, hypervolume and size of the front; seconds of fit, propose, evaluate, write and "
     "wall "
     "since the run started (timing fields depend on the run)"},
    {"/pareto", pareto_type, 64,
     "the current Pareto front over the configured objectives: candidate ids with latency (s), energy (J), "
     "area (mm2) and Eq. 1 cost"},
}};
enum TableIndex : std::size_t { kCandidates, kMetrics, kLayers, kSegments, kBatches, kPareto };

// The root attribute `commit`: [batches, candidates, metrics, layer rows, segment rows].
constexpr const char* kCommit = "commit";

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::int32_t to_i32(std::int64_t v) {
    return static_cast<std::int32_t>(v);
}

}  // namespace

void count_rows(const eval::Evaluation& e, const std::vector<eval::Workload>& workloads, CandidateRecord& r) {
    r.metric_rows = static_cast<std::int64_t>(e.networks.size());
    r.layer_rows = 0;
    r.segment_rows = 0;
    for (std::size_t n = 0; n < e.networks.size(); ++n) {
        r.layer_rows += workloads[n].network.size();
        for (const auto& s : e.networks[n].mapping.segments) {
            r.segment_rows += static_cast<std::int64_t>(s.branch_region.size());
        }
    }
}

struct Store::Impl {
    std::filesystem::path path;
    File file;
    std::vector<CompoundType> types;
    std::vector<Table> tables;
    std::vector<std::int64_t> commit;  // see kCommit

    Impl(const std::filesystem::path& p, File::Mode mode, MPI_Comm comm) : path(p), file(p, mode, comm) {}

    void open_tables() {
        for (const TableSpec& spec : kTables) {
            types.push_back(spec.type());
            tables.push_back(Table::open(file, spec.path, types.back()));
        }
    }

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
        if (!file.has_attribute("/", kCommit))
            throw IoError(name + ": no commit record (a broken sweep file)");
        commit = file.int_array_attribute("/", kCommit);
        if (commit.size() != 5) throw IoError(name + ": the commit record has the wrong length");
        for (const TableSpec& spec : kTables) {
            if (!file.exists(spec.path))
                throw IoError(name + ": " + spec.path + " is missing (a broken sweep file)");
        }
    }

    void write_commit() {
        file.set_attribute("/", kCommit, std::span<const std::int64_t>(commit));
        file.flush();
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
    auto impl = std::make_unique<Impl>(path, File::Mode::create_exclusive, comm);
    File& f = impl->file;
    f.set_attribute("/", "format", std::string(kStoreFormatName));
    f.set_attribute("/", "format_version", kStoreFormatVersion);
    f.set_attribute("/", "pimdse_version", std::string(build_info::version));
    f.set_attribute("/", "git_revision", std::string(build_info::git_revision));
    f.set_attribute("/", "seed", static_cast<std::int64_t>(config.sweep.seed));
    f.set_attribute("/", "created", utc_now());
    f.set_attribute("/", "proposer", std::string(to_string(config.sweep.proposer)));
    std::string objectives;
    for (Objective o : config.engine.objectives) {
        if (!objectives.empty()) objectives += ',';
        objectives += to_string(o);
    }
    f.set_attribute("/", "objectives", objectives);

    f.create_groups("/config");
    f.set_attribute("/config", "source_file", config.source_file.string());
    f.set_attribute("/config", "source_text", config.source_text);
    f.set_attribute("/config", "resolved", to_yaml(config));

    f.create_groups("/workloads");
    const CompoundType wl_type = workload_layer_type();
    for (std::size_t n = 0; n < workloads.size(); ++n) {
        const eval::Workload& w = workloads[n];
        std::string group = "/workloads/";
        group += w.network.name();
        if (f.exists(group)) {
            group += '_';
            group += std::to_string(n);
        }
        f.create_groups(group);
        f.set_attribute(group, "index", static_cast<std::int64_t>(n));
        f.set_attribute(group, "batch", static_cast<std::int64_t>(w.network.batch()));
        f.set_attribute(group, "weight", w.weight);
        f.set_attribute(group, "file", config.workloads[n].network.string());
        f.set_attribute(group, "segments", static_cast<std::int64_t>(w.segmentation.segments.size()));
        std::vector<WorkloadLayerRow> rows;
        const int rank = [&] {
            int r = 0;
            MPI_Comm_rank(comm, &r);
            return r;
        }();
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
        Table t = Table::create(f, group + "/layers", wl_type, 256);
        (void)t.append_rows<WorkloadLayerRow>(rows);
        f.set_attribute(group + "/layers", "meaning",
                        std::string("one row per layer of the network: loop bounds B K C P Q R S, input H W, "
                                    "strides, groups, MACs, weight elements, segment and branch"));
    }

    for (const TableSpec& spec : kTables) {
        impl->types.push_back(spec.type());
        impl->tables.push_back(Table::create(f, spec.path, impl->types.back(), spec.chunk));
        f.set_attribute(spec.path, "meaning", std::string(spec.meaning));
    }
    f.set_attribute("/candidates", "units",
                    std::string("area_mm2, area_total_mm2: mm2; latency_s: s; energy_j: J; eval_seconds: s"));
    f.set_attribute("/metrics", "units",
                    std::string("latency_cycles: node clock cycles; latency_s: s; energy_*_pj: pJ"));
    f.set_attribute("/mappings/layers", "units", std::string("*_cycles: node clock cycles; energy_*_pj: pJ"));
    f.set_attribute("/pareto", "units", std::string("latency_s: s; energy_j: J; area_mm2: mm2"));
    impl->commit = {0, 0, 0, 0, 0};
    f.flush();
    impl->write_commit();
    return Store(std::move(impl));
}

Store Store::open_read_only(const std::filesystem::path& path, MPI_Comm comm) {
    auto impl = std::make_unique<Impl>(path, File::Mode::read_only, comm);
    impl->check_sweep_file();
    impl->open_tables();
    return Store(std::move(impl));
}

Store Store::open_for_resume(const std::filesystem::path& path, MPI_Comm comm) {
    auto impl = std::make_unique<Impl>(path, File::Mode::read_write, comm);
    impl->check_sweep_file();
    impl->open_tables();
    const std::vector<std::int64_t>& c = impl->commit;
    const std::array<std::pair<TableIndex, std::int64_t>, 5> committed{
        {{kBatches, c[0]}, {kCandidates, c[1]}, {kMetrics, c[2]}, {kLayers, c[3]}, {kSegments, c[4]}}};
    for (const auto& [t, rows] : committed) {
        Table& table = impl->tables[t];
        if (table.rows() < static_cast<hsize_t>(rows)) {
            throw IoError(impl->file.name() + ": " + kTables[t].path +
                          " has fewer rows than its commit record");
        }
        if (table.rows() > static_cast<hsize_t>(rows)) table.truncate(static_cast<hsize_t>(rows));
    }
    impl->file.flush();
    return Store(std::move(impl));
}

void Store::note_run(int ranks) {
    impl_->file.set_attribute("/", "ranks", static_cast<std::int64_t>(ranks));
    impl_->file.set_attribute("/", "last_started", utc_now());
    impl_->file.flush();
}

StoredSweep Store::read() const {
    Impl& s = *impl_;
    StoredSweep out;
    out.resolved_config = s.file.string_attribute("/config", "resolved");
    for (const char* key : {"format_version", "seed", "ranks"}) {
        if (s.file.has_attribute("/", key))
            out.info.emplace_back(key, std::to_string(s.file.int_attribute("/", key)));
    }
    for (const char* key :
         {"pimdse_version", "git_revision", "created", "last_started", "proposer", "objectives"}) {
        if (s.file.has_attribute("/", key)) out.info.emplace_back(key, s.file.string_attribute("/", key));
    }
    out.batches = s.commit[0];
    const auto cands = s.tables[kCandidates].read_rows<CandidateRow>(0, static_cast<hsize_t>(s.commit[1]));
    for (const CandidateRow& r : cands) {
        CandidateRecord c;
        c.id = r.candidate;
        c.batch = r.batch;
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
        c.seconds = r.eval_seconds;
        out.candidates.push_back(c);
    }
    const auto batches = s.tables[kBatches].read_rows<BatchRow>(0, static_cast<hsize_t>(s.commit[0]));
    for (const BatchRow& r : batches) {
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
        b.fit_seconds = r.fit_seconds;
        b.propose_seconds = r.propose_seconds;
        b.evaluate_seconds = r.evaluate_seconds;
        b.write_seconds = r.write_seconds;
        b.wall_seconds = r.wall_seconds;
        out.tuner.push_back(b);
    }
    const Table& pareto = s.tables[kPareto];
    for (const ParetoRow& r : pareto.read_rows<ParetoRow>(0, pareto.rows())) {
        out.front.push_back({r.candidate, r.latency_s, r.energy_j, r.area_mm2, r.cost});
    }
    if (s.file.has_attribute("/tuner", "reference")) {
        out.reference = s.file.double_array_attribute("/tuner", "reference");
    }
    return out;
}

namespace {

void broadcast_from_root(std::vector<double>& values, MPI_Comm comm) {
    auto n = static_cast<std::uint64_t>(values.size());
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, comm);
    values.resize(static_cast<std::size_t>(n));
    if (n > 0) MPI_Bcast(values.data(), static_cast<int>(n), MPI_DOUBLE, 0, comm);
}

void add_network_rows(const eval::Evaluation& e, std::span<const eval::Workload> workloads,
                      std::vector<LayerRow>& layers, std::vector<SegmentRow>& segments) {
    for (std::size_t n = 0; n < e.networks.size(); ++n) {
        const eval::NetworkResult& nr = e.networks[n];
        const eval::Workload& w = workloads[n];
        for (workload::LayerIndex i = 0; i < w.network.size(); ++i) {
            const auto li = static_cast<std::size_t>(i);
            const sim::LayerMapping& m = nr.mapping.layers[li];
            const sim::LayerCost& c = nr.cost.layers[li];
            const sim::Region& region = sim::layer_region(w.segmentation, nr.mapping, i);
            LayerRow r{};
            r.candidate = e.candidate;
            r.network = to_i32(static_cast<std::int64_t>(n));
            r.layer = to_i32(i);
            r.segment = w.segmentation.segment_of[li];
            r.branch = w.segmentation.branch_of[li];
            r.region_row = region.row, r.region_col = region.col;
            r.region_rows = region.rows, r.region_cols = region.cols;
            std::string order;
            for (std::size_t d = 0; d < sim::kPartDims; ++d) {
                r.parts[d][0] = m.parts[d].h;
                r.parts[d][1] = m.parts[d].w;
                order += sim::to_string(m.order[d]);
            }
            put(r.order, order);
            r.wr = m.wr;
            r.dl_in_order = static_cast<std::int32_t>(m.dl_in.order);
            r.dl_in_group = m.dl_in.group;
            r.dl_out_order = static_cast<std::int32_t>(m.dl_out.order);
            r.dl_out_group = m.dl_out.group;
            r.latency_cycles = c.latency.value();
            r.redistribution_cycles = c.redistribution.value();
            r.sharing_cycles = c.sharing.value();
            r.compute_cycles = c.compute.value();
            r.energy_pj = c.energy.total().value();
            r.energy_pe_pj = c.energy.pe.value();
            r.energy_sram_pj = c.energy.sram.value();
            r.energy_dram_pj = c.energy.dram.value();
            r.energy_noc_pj = c.energy.noc.value();
            r.pe_utilisation = c.pe_utilisation;
            r.status = static_cast<std::int32_t>(c.status);
            layers.push_back(r);
        }
        for (std::size_t sg = 0; sg < nr.mapping.segments.size(); ++sg) {
            const sim::SegmentMapping& sm = nr.mapping.segments[sg];
            for (std::size_t b = 0; b < sm.branch_region.size(); ++b) {
                const auto ri = static_cast<std::size_t>(sm.branch_region[b]);
                const sim::Region& region = sm.regions.at(ri);
                SegmentRow r{};
                r.candidate = e.candidate;
                r.network = to_i32(static_cast<std::int64_t>(n));
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
}

}  // namespace

double Store::write_batch(std::span<const eval::Evaluation> mine, std::span<const CandidateRecord> layout,
                          std::span<const eval::Workload> workloads, const BatchRecord& tuner,
                          std::span<const ParetoRecord> front, std::span<const double> reference) {
    Impl& s = *impl_;
    const auto start = std::chrono::steady_clock::now();
    int rank = 0;
    MPI_Comm_rank(s.file.comm(), &rank);

    // Where each candidate's rows go: candidate-id order, whichever rank computed them.
    std::array<hsize_t, 4> added{};
    std::array<std::vector<h5::Table::Run>, 4> runs;
    std::vector<CandidateRow> cand_rows;
    std::vector<MetricRow> metric_rows;
    std::vector<LayerRow> layer_rows;
    std::vector<SegmentRow> segment_rows;
    for (const CandidateRecord& c : layout) {
        const std::array<hsize_t, 4> counts{1, static_cast<hsize_t>(c.metric_rows),
                                            static_cast<hsize_t>(c.layer_rows),
                                            static_cast<hsize_t>(c.segment_rows)};
        if (c.rank == rank) {
            for (std::size_t t = 0; t < 4; ++t) {
                if (counts[t] > 0) runs[t].push_back({added[t], counts[t]});
            }
            const auto it = std::find_if(mine.begin(), mine.end(),
                                         [&](const eval::Evaluation& e) { return e.candidate == c.id; });
            if (it == mine.end()) {
                std::string what = s.file.name();
                what += ": rank ";
                what += std::to_string(rank);
                what += " lacks the evaluation of candidate ";
                what += std::to_string(c.id);
                throw IoError(what);
            }
            const eval::Evaluation& e = *it;
            CandidateRow r{};
            r.candidate = c.id;
            r.batch = c.batch;
            r.proposer = static_cast<std::int32_t>(tuner.proposer);
            r.node_rows = e.params.node_rows, r.node_cols = e.params.node_cols;
            r.pe_rows = e.params.pe_rows, r.pe_cols = e.params.pe_cols;
            r.ibuf_kib = e.params.ibuf_kib, r.wbuf_kib = e.params.wbuf_kib, r.obuf_kib = e.params.obuf_kib;
            r.status = static_cast<std::int32_t>(e.status);
            r.area_mm2 = e.area_mm2;
            r.area_total_mm2 = e.area_total_mm2;
            r.latency_s = e.latency_seconds;
            r.energy_j = e.energy_joules;
            r.cost = e.cost;
            r.metric_rows = c.metric_rows, r.layer_rows = c.layer_rows, r.segment_rows = c.segment_rows;
            r.eval_seconds = e.seconds;
            r.rank = rank;
            put(r.message, e.message);
            cand_rows.push_back(r);
            for (std::size_t n = 0; n < e.networks.size(); ++n) {
                const eval::NetworkResult& nr = e.networks[n];
                const sim::NetworkCost& cost = nr.cost;
                MetricRow m{};
                m.candidate = c.id;
                m.network = to_i32(static_cast<std::int64_t>(n));
                m.status = static_cast<std::int32_t>(cost.status);
                m.latency_cycles = cost.latency.value();
                m.latency_s = cost.seconds;
                m.energy_pj = cost.energy.total().value();
                m.energy_pe_pj = cost.energy.pe.value();
                m.energy_sram_pj = cost.energy.sram.value();
                m.energy_dram_pj = cost.energy.dram.value();
                m.energy_noc_pj = cost.energy.noc.value();
                m.pe_utilisation = cost.pe_utilisation;
                m.cost = nr.cost_term;
                m.segments = to_i32(static_cast<std::int64_t>(cost.segments.size()));
                put(m.network_name, workloads[n].network.name());
                put(m.reason, cost.reason);
                metric_rows.push_back(m);
            }
            add_network_rows(e, workloads, layer_rows, segment_rows);
        }
        for (std::size_t t = 0; t < 4; ++t) added[t] += counts[t];
    }
    s.tables[kCandidates].append_rows_at<CandidateRow>(added[0], runs[0], cand_rows);
    s.tables[kMetrics].append_rows_at<MetricRow>(added[1], runs[1], metric_rows);
    s.tables[kLayers].append_rows_at<LayerRow>(added[2], runs[2], layer_rows);
    s.tables[kSegments].append_rows_at<SegmentRow>(added[3], runs[3], segment_rows);

    std::vector<BatchRow> batch_rows;
    std::vector<ParetoRow> pareto_rows;
    const double write_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
        b.fit_seconds = tuner.fit_seconds;
        b.propose_seconds = tuner.propose_seconds;
        b.evaluate_seconds = tuner.evaluate_seconds;
        b.write_seconds = write_seconds;
        b.wall_seconds = tuner.wall_seconds;
        batch_rows.push_back(b);
        for (const ParetoRecord& p : front) {
            pareto_rows.push_back({p.candidate, p.latency_seconds, p.energy_joules, p.area_mm2, p.cost});
        }
    }
    (void)s.tables[kBatches].append_rows<BatchRow>(batch_rows);
    s.tables[kPareto].truncate(0);
    (void)s.tables[kPareto].append_rows<ParetoRow>(pareto_rows);
    // Attribute writes are collective with equal data on every rank: rank 0's reference.
    std::vector<double> ref(reference.begin(), reference.end());
    broadcast_from_root(ref, s.file.comm());
    // The reference point is fixed once known (docs/config.md), so it is written once.
    if (!ref.empty() && !s.file.has_attribute("/tuner", "reference")) {
        s.file.set_attribute("/tuner", "reference", std::span<const double>(ref));
    }
    s.file.flush();

    s.commit[0] += 1;
    for (std::size_t t = 0; t < 4; ++t) s.commit[t + 1] += static_cast<std::int64_t>(added[t]);
    s.write_commit();
    return write_seconds;
}

void Store::rewrite_front(std::span<const ParetoRecord> front, std::span<const double> reference) {
    Impl& s = *impl_;
    int rank = 0;
    MPI_Comm_rank(s.file.comm(), &rank);
    std::vector<ParetoRow> rows;
    if (rank == 0) {
        for (const ParetoRecord& p : front) {
            rows.push_back({p.candidate, p.latency_seconds, p.energy_joules, p.area_mm2, p.cost});
        }
    }
    s.tables[kPareto].truncate(0);
    (void)s.tables[kPareto].append_rows<ParetoRow>(rows);
    std::vector<double> ref(reference.begin(), reference.end());
    broadcast_from_root(ref, s.file.comm());
    // The reference point is fixed once known (docs/config.md), so it is written once.
    if (!ref.empty() && !s.file.has_attribute("/tuner", "reference")) {
        s.file.set_attribute("/tuner", "reference", std::span<const double>(ref));
    }
    s.file.flush();
}

}  // namespace pimdse::io
