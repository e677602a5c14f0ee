// A new sweep file (Store::create, include/pimdse/store/store.hpp): the root attributes,
// the configuration, the workloads and the empty batch tables with their commit record,
// written to <path>.part and renamed once complete.

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "pimdse/build_info.hpp"
#include "pimdse/core/clock.hpp"
#include "rows.hpp"
#include "store_impl.hpp"

namespace pimdse::store {

namespace {

void write_root_attributes(File& f, const io::Config& config) {
    const int rank = rank_of(f.comm());
    f.set_attribute("/", "format", std::string(kStoreFormatName));
    f.set_attribute("/", "format_version", kStoreFormatVersion);
    f.set_attribute("/", "pimdse_version", std::string(build_info::version));
    f.set_attribute("/", "git_revision", std::string(build_info::git_revision));
    f.set_attribute("/", "seed", static_cast<std::int64_t>(config.sweep.seed));
    f.set_attribute("/", "created", broadcast_text(rank == 0 ? utc_now() : "", f.comm()));
    f.set_attribute("/", "proposer", std::string(io::to_string(config.sweep.proposer)));
    std::string objectives;
    for (io::Objective o : config.engine.objectives) {
        if (!objectives.empty()) objectives += ',';
        objectives += io::to_string(o);
    }
    f.set_attribute("/", "objectives", objectives);
    f.set_attribute("/", "ranks", std::int64_t{0});
    f.set_attribute("/", "runs", std::int64_t{0});
}

void write_config(File& f, const io::Config& config) {
    f.create_groups("/config");
    f.set_attribute("/config", "source_file", config.source_file.string());
    f.write_text("/config/source", broadcast_text(config.source_text, f.comm()));
    f.set_attribute("/config/source", "meaning", std::string("the exact text of the configuration file"));
    f.write_text("/config/resolved", broadcast_text(io::to_yaml(config), f.comm()));
    f.set_attribute("/config/resolved", "meaning",
                    std::string("the configuration with every default filled in (pimdse config check)"));
}

// Each network's group under /workloads: its name unless that is taken, empty, a path or
// too long for the `group` field.
std::vector<std::string> workload_groups(const std::vector<eval::Workload>& workloads) {
    std::vector<std::string> groups;
    for (std::size_t n = 0; n < workloads.size(); ++n) {
        std::string group = workloads[n].network.name();
        const bool taken =
            group == "networks" || std::find(groups.begin(), groups.end(), group) != groups.end();
        if (taken || group.empty() || group.find('/') != std::string::npos || group.size() >= kNameChars) {
            group = "network_" + std::to_string(n);
        }
        groups.push_back(group);
    }
    return groups;
}

NetworkRow network_row(std::size_t n, const eval::Workload& w, const std::string& group,
                       const std::filesystem::path& file) {
    NetworkRow row{};
    row.network = to_i32(static_cast<std::int64_t>(n));
    put(row.name, w.network.name());
    put(row.group, group);
    put(row.file, file.string());
    row.weight = w.weight;
    row.batch = to_i32(w.network.batch());
    row.layers = to_i32(w.network.size());
    row.segments = to_i32(static_cast<std::int64_t>(w.segmentation.segments.size()));
    for (workload::LayerIndex i = 0; i < w.network.size(); ++i) {
        row.macs += w.network.layer(i).macs();
        row.weights += w.network.layer(i).weights();
    }
    return row;
}

std::vector<WorkloadLayerRow> workload_layer_rows(const eval::Workload& w) {
    std::vector<WorkloadLayerRow> rows;
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
    return rows;
}

// Workloads: a table of the networks, and per network its layers and its file's text.
void write_workloads(File& f, const io::Config& config, const std::vector<eval::Workload>& workloads) {
    const bool root = rank_of(f.comm()) == 0;
    f.create_groups("/workloads");
    const std::vector<std::string> groups = workload_groups(workloads);
    std::vector<NetworkRow> networks;
    for (std::size_t n = 0; n < workloads.size(); ++n) {
        networks.push_back(network_row(n, workloads[n], groups[n], config.workloads[n].network));
    }
    const TableSchema& net_s = schema(TableId::networks);
    const h5::CompoundType net_type = compound_type(net_s);  // outlives the table, which uses it
    Table nets = Table::create(f, "/workloads/networks", net_type, 64);
    (void)nets.append_rows<NetworkRow>(root ? std::span<const NetworkRow>(networks)
                                            : std::span<const NetworkRow>());
    write_docs(f, "/workloads/networks", net_s);

    const TableSchema& layer_s = schema(TableId::workload_layers);
    const h5::CompoundType layer_type = compound_type(layer_s);
    for (std::size_t n = 0; n < workloads.size(); ++n) {
        const std::string group = "/workloads/" + groups[n];
        Table t = Table::create(f, group + "/layers", layer_type, 256);
        (void)t.append_rows<WorkloadLayerRow>(root ? workload_layer_rows(workloads[n])
                                                   : std::vector<WorkloadLayerRow>{});
        write_docs(f, group + "/layers", layer_s);
        f.write_text(group + "/source",
                     broadcast_text(root ? io::workload_source(config.workloads[n].network) : "", f.comm()));
        f.set_attribute(group + "/source", "meaning",
                        std::string("the exact text of the network file (an ONNX model: its size and hash)"));
    }
}

}  // namespace

Store Store::create(const std::filesystem::path& path, const io::Config& config, const FamilyColumns& columns,
                    const std::vector<eval::Workload>& workloads, MPI_Comm comm) {
    // Written as <path>.part and renamed once it holds an empty, committed sweep, so that
    // `path` never names a half-made file (a run killed while creating leaves only the .part).
    std::filesystem::path part = path;
    part += ".part";
    auto impl = std::make_unique<Impl>(part, File::Mode::create_truncate, comm);
    File& f = impl->file;
    write_root_attributes(f, config);
    write_config(f, config);
    write_workloads(f, config, workloads);

    impl->set_columns(columns);
    impl->make_types();
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        const TableSpec& spec = kTables[t];
        impl->tables.push_back(Table::create(f, spec.path(), impl->types[t], spec.chunk,
                                             spec.per_candidate ? config.output.compression : 0,
                                             impl->layouts[t].packing_or_null(), impl->fills[t]));
        write_docs(f, spec.path(), impl->schema_of(spec));
    }
    // The two slots of the committed rows a later batch rewrites (store_impl.hpp).
    for (std::int64_t slot = 0; slot < 2; ++slot) {
        for (std::size_t t = 0; t < kTables.size(); ++t) {
            const TableSpec& spec = kTables[t];
            const std::string tail = tail_path(slot, spec);
            impl->tail_tables[slot].push_back(Table::create(
                f, tail, impl->types[t], spec.chunk, spec.per_candidate ? config.output.compression : 0,
                impl->layouts[t].packing_or_null(), impl->fills[t]));
            write_docs(f, tail, impl->schema_of(spec));
            f.set_attribute(tail, "meaning",
                            "a second copy of " + spec.path() +
                                "'s committed rows that the next batch rewrites (those past its last whole "
                                "chunk; all of /pareto), for commit records whose batch count % 2 is " +
                                std::to_string(slot) + " (docs/output.md, \"What a commit guarantees\")");
        }
    }
    impl->commit.assign(kCommitSize, 0);
    impl->write_commit();
    f.set_attribute(kCommit, "meaning",
                    std::string("batches, then committed rows of /candidates, /metrics, /mappings/layers, "
                                "/mappings/segments, /schedules, /tuner/batches, /pareto"));
    // Metadata has no checksum: digests of what is written only here, checked on every opening.
    f.write_int64s(kDigest, impl->compute_digest());
    f.set_attribute(kDigest, "meaning",
                    std::string("FNV-1a digests of the attributes written at creation, /config/source, "
                                "/config/resolved and the network texts"));
    f.rename(path);  // flushes first
    impl->path = path;
    return Store(std::move(impl));
}

}  // namespace pimdse::store
