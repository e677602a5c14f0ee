// The sweep's HDF5 file opened and read back (include/pimdse/store/store.hpp,
// docs/output.md): the checks of every opening, resume repair, and the committed rows as
// records. Creating a file is in store_create.cpp, writing batches in commit.cpp.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "pimdse/core/clock.hpp"
#include "rows.hpp"
#include "store_impl.hpp"

namespace pimdse::store {

void Store::Impl::verify_fixed_datasets() {
    (void)file.read_text("/config/source");
    (void)file.read_text("/config/resolved");
    const h5::CompoundType net_type = compound_type(schema(TableId::networks));
    const h5::CompoundType layer_type = compound_type(schema(TableId::workload_layers));
    const Table networks = Table::open(file, "/workloads/networks", net_type);
    networks.verify(networks.rows());
    for (const NetworkRow& r : networks.read_rows<NetworkRow>(0, networks.rows())) {
        const std::string group = "/workloads/" + get(r.group);
        const Table layers = Table::open(file, group + "/layers", layer_type);
        layers.verify(layers.rows());
        (void)file.read_text(group + "/source");
    }
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

const std::filesystem::path& Store::path() const {
    return impl_->path;
}

const FamilyColumns& Store::columns() const {
    return impl_->columns;
}

std::vector<std::pair<std::string, std::vector<std::string>>> Store::workload_names() const {
    const h5::CompoundType net_type = compound_type(schema(TableId::networks));
    const h5::CompoundType layer_type = compound_type(schema(TableId::workload_layers));
    const Table networks = Table::open(impl_->file, "/workloads/networks", net_type);
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const NetworkRow& r : networks.read_rows<NetworkRow>(0, networks.rows())) {
        const Table layers = Table::open(impl_->file, "/workloads/" + get(r.group) + "/layers", layer_type);
        std::vector<std::string> names;
        for (const WorkloadLayerRow& l : layers.read_rows<WorkloadLayerRow>(0, layers.rows()))
            names.push_back(get(l.name));
        out.emplace_back(get(r.name), std::move(names));
    }
    return out;
}

Store Store::open_read_only(const std::filesystem::path& path, MPI_Comm comm) {
    auto impl = std::make_unique<Impl>(path, File::Mode::read_only, comm);
    impl->check_sweep_file();
    // Every claim checked against the file itself before anything reads by it (verify.cpp).
    impl->check_schema();
    impl->open_tables();
    impl->check_commit_record();
    impl->verify_fixed_datasets();
    impl->check_digest();
    impl->verify_rows();
    return Store(std::move(impl));
}

void Store::repair_for_resume(const std::filesystem::path& path) {
    Impl s(path, File::Mode::read_write, MPI_COMM_SELF);
    s.check_sweep_file();
    s.verify_fixed_datasets();
    s.open_tables();
    s.check_rows_cover_commit();
    // A batch interrupted while it rewrote a tail chunk leaves it damaged or changed: put the
    // committed rows back from the slot before anything reads or cuts that chunk.
    if (s.restore_tails()) s.sync();
    s.cut_to_commit();
}

Store Store::open_for_resume(const std::filesystem::path& path, MPI_Comm comm) {
    auto impl = std::make_unique<Impl>(path, File::Mode::read_write, comm);
    impl->check_sweep_file();
    impl->open_tables();
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        if (impl->tables[t].rows() != static_cast<hsize_t>(impl->commit[t + 1])) {
            throw IoError(impl->file.name() + ": " + kTables[t].path() +
                          " holds rows past its commit record (repair_for_resume first)");
        }
    }
    impl->load_tails();
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

namespace {

CandidateRecord record_of(const CandidateRow& r, std::size_t params, std::size_t metrics) {
    CandidateRecord c;
    c.id = r.candidate;
    c.batch = r.batch;
    c.proposer = static_cast<io::Proposer>(r.proposer);
    std::copy_n(r.params, params, c.params.values.begin());
    c.params.size = static_cast<std::uint16_t>(params);
    std::copy_n(r.metrics, metrics, c.metrics.begin());
    c.metric_count = static_cast<std::int32_t>(metrics);
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
    return c;
}

}  // namespace

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

    const h5::CompoundType net_type = compound_type(schema(TableId::networks));
    const Table networks = Table::open(s.file, "/workloads/networks", net_type);
    for (const NetworkRow& r : networks.read_rows<NetworkRow>(0, networks.rows())) {
        StoredWorkload w{get(r.name), get(r.group), get(r.file), "", r.batch, r.weight};
        w.source = s.file.read_text("/workloads/" + w.group + "/source");
        out.workloads.push_back(std::move(w));
    }

    out.batches = s.commit[0];
    for (const CandidateRow& r : s.committed_rows<CandidateRow>(kCandidates)) {
        out.candidates.push_back(record_of(r, s.columns.params.size(), s.columns.metrics.size()));
    }
    for (const BatchRow& r : s.committed_rows<BatchRow>(kBatches)) {
        BatchRecord b;
        b.batch = r.batch;
        b.proposer = static_cast<io::Proposer>(r.proposer);
        b.candidates = r.candidates;
        b.evaluations = r.evaluations;
        b.ok = r.ok;
        b.best_cost = r.best_cost;
        b.best_candidate = r.best_candidate;
        b.hypervolume = r.hypervolume;
        b.front_size = r.front_size;
        b.reference = {r.hv_reference_1, r.hv_reference_2, r.hv_reference_3};
        b.samples = r.samples;
        b.predicted_tau = r.predicted_tau;
        b.predicted_error = r.predicted_error;
        b.cheap_tau = r.cheap_tau;
        b.fit_seconds = r.fit_seconds;
        b.propose_seconds = r.propose_seconds;
        b.evaluate_seconds = r.evaluate_seconds;
        b.write_seconds = r.write_seconds;
        b.wall_seconds = r.wall_seconds;
        out.tuner.push_back(b);
    }
    for (const ParetoRow& r : s.committed_rows<ParetoRow>(kPareto)) {
        out.pareto.push_back(
            {r.candidate, r.joined_batch, r.left_batch, r.latency_s, r.energy_j, r.area_mm2, r.cost});
    }
    return out;
}

}  // namespace pimdse::store
