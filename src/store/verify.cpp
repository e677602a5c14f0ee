// What a sweep file claims, checked against itself before anything uses it (store_impl.hpp,
// docs/output.md "Checks on opening"). `summary`, `export`, `compare` and `--resume` all open
// through Store::open_read_only, which runs these checks, so a damaged or edited file is
// refused with the dataset named before any of them reads it, and before a resume changes a
// byte. HDF5 checksums the chunks of every dataset but not the file's metadata (names, types,
// attributes): the stored types are compared with the declared schema, the commit record with
// the tables, and the attributes and texts written once at creation with the digests kept in
// /digest. The committed rows themselves are checked in verify_rows.cpp.

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hdf5_detail.hpp"
#include "pimdse/store/store_export.hpp"
#include "rows.hpp"
#include "schema_h5.hpp"
#include "store_impl.hpp"

namespace pimdse::store {

namespace {

using h5::check;
using h5::Handle;

// ---- the stored types against the declared schema --------------------------------------

Handle open_dataset(const File& file, const std::string& path) {
    const hid_t id = H5Dopen2(file.id(), path.c_str(), H5P_DEFAULT);
    if (id < 0) throw IoError(file.name() + ":" + path + ": no such dataset (a broken sweep file)");
    return Handle(id, H5Dclose);
}

std::string class_name(hid_t type) {
    switch (H5Tget_class(type)) {
        case H5T_INTEGER:
            return "an integer";
        case H5T_FLOAT:
            return "a float";
        case H5T_STRING:
            return "a string";
        case H5T_COMPOUND:
            return "a compound of " + std::to_string(H5Tget_nmembers(type)) + " fields";
        case H5T_ENUM:
            return "an enum";
        default:
            return "another type";
    }
}

// Throws IoError unless `path` is a 1-D table whose type is `schema`'s, field by field.
void check_table_type(const File& file, const std::string& path, const TableSchema& schema) {
    const std::string at = file.name() + ":" + path;
    const Handle ds = open_dataset(file, path);
    const Handle type(check(H5Dget_type(ds.id()), at, "H5Dget_type"), H5Tclose);
    const Handle space(check(H5Dget_space(ds.id()), at, "H5Dget_space"), H5Sclose);
    const std::size_t fields = schema.fields.size();
    if (H5Tget_class(type.id()) != H5T_COMPOUND || H5Sget_simple_extent_ndims(space.id()) != 1) {
        throw IoError(at + ": a dataset of the wrong type: expected a 1-D table of " +
                      std::to_string(fields) + " fields, got " + class_name(type.id()) +
                      " (not a table pimdse wrote)");
    }
    const int members = H5Tget_nmembers(type.id());
    if (members != static_cast<int>(fields)) {
        throw IoError(at + ": a dataset of the wrong type: expected " + std::to_string(fields) +
                      " fields, got " + std::to_string(members));
    }
    const StoredLayout stored = stored_layout(schema);
    const h5::CompoundType& expected = stored.type;
    for (std::size_t i = 0; i < fields; ++i) {
        const auto index = static_cast<unsigned>(i);
        const Field& f = schema.fields[i];
        char* raw = H5Tget_member_name(type.id(), index);
        const std::string name = raw != nullptr ? raw : "";
        H5free_memory(raw);
        if (name != f.name) {
            throw IoError(at + ": field " + std::to_string(i) + " is named '" + name + "', expected '" +
                          std::string(f.name) + "' (the file's metadata is damaged)");
        }
        const Handle got(check(H5Tget_member_type(type.id(), index), at, "H5Tget_member_type"), H5Tclose);
        const Handle want(check(H5Tget_member_type(expected.id(), index), at, "H5Tget_member_type"),
                          H5Tclose);
        if (H5Tequal(got.id(), want.id()) <= 0) {
            throw IoError(at + ": field '" + name + "' has the wrong type: expected " + f.type_name() +
                          ", got " + class_name(got.id()) + " of " + std::to_string(H5Tget_size(got.id())) +
                          " bytes (the file's metadata is damaged)");
        }
    }
    if (H5Tequal(type.id(), expected.id()) <= 0) {
        throw IoError(at +
                      ": the fields' offsets or the row size differ from the declared ones (the "
                      "file's metadata is damaged)");
    }
}

// The /workloads groups named by /workloads/networks (its type checked first).
std::vector<std::string> workload_groups(File& file) {
    const h5::CompoundType type = compound_type(schema(TableId::networks));
    const Table networks = Table::open(file, "/workloads/networks", type);
    networks.verify(networks.rows());
    std::vector<std::string> groups;
    for (const NetworkRow& r : networks.read_rows<NetworkRow>(0, networks.rows()))
        groups.push_back("/workloads/" + get(r.group));
    return groups;
}

// ---- digests of what pimdse writes once -------------------------------------------------

// FNV-1a, 64 bits: detects accidental damage (a flipped byte), not a forger.
struct Digest {
    std::uint64_t h = 14695981039346656037ULL;
    void add(std::string_view bytes) {
        const std::uint64_t n = bytes.size();
        for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(n >> (8 * i)));
        for (const char c : bytes) mix(static_cast<unsigned char>(c));
    }
    void mix(unsigned char c) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    [[nodiscard]] std::int64_t value() const { return std::bit_cast<std::int64_t>(h); }
};

// The stored bytes of `object`@`key`, read with its own type (no conversion).
std::string attribute_bytes(const File& file, const std::string& object, const std::string& key) {
    const std::string at = file.name() + ":" + object;
    if (H5Aexists_by_name(file.id(), object.c_str(), key.c_str(), H5P_DEFAULT) <= 0) {
        (void)h5::detail::error_stack_cause();  // a missing object leaves HDF5's stack set
        throw IoError(at + ": the attribute '" + key +
                      "' is missing (pimdse writes it when it creates the file: the file's metadata is "
                      "damaged)");
    }
    const Handle attr(check(H5Aopen_by_name(file.id(), object.c_str(), key.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                            at, "H5Aopen"),
                      H5Aclose);
    const Handle type(check(H5Aget_type(attr.id()), at, "H5Aget_type"), H5Tclose);
    if (H5Tis_variable_str(type.id()) > 0) throw IoError(at + "@" + key + ": not an attribute pimdse wrote");
    std::string bytes(static_cast<std::size_t>(H5Aget_storage_size(attr.id())), '\0');
    if (!bytes.empty()) check(H5Aread(attr.id(), type.id(), bytes.data()), at, "H5Aread");
    return std::to_string(H5Tget_class(type.id())) + ":" + bytes;
}

// The root attributes fixed at creation (ranks, runs and last_started change with every run).
constexpr std::array<const char*, 8> kFixedRootAttributes{"format",       "format_version", "pimdse_version",
                                                          "git_revision", "seed",           "created",
                                                          "proposer",     "objectives"};

void add_table_attributes(Digest& d, const File& file, const std::string& path, const TableSchema& schema) {
    d.add(path);
    d.add(attribute_bytes(file, path, "meaning"));
    for (const Field& f : schema.fields) d.add(attribute_bytes(file, path, std::string(f.name)));
}

// The names of a table's fields strictly between `after` and `before`, with their units and
// meanings from the fields' attributes ("<meaning> [<unit>]").
std::vector<FamilyColumn> columns_between(const File& file, const std::string& path, std::string_view after,
                                          std::string_view before) {
    const std::string at = file.name() + ":" + path;
    const Handle ds = open_dataset(file, path);
    const Handle type(check(H5Dget_type(ds.id()), at, "H5Dget_type"), H5Tclose);
    if (H5Tget_class(type.id()) != H5T_COMPOUND) {
        throw IoError(at + ": a dataset of the wrong type: expected a table, got " + class_name(type.id()));
    }
    std::vector<std::string> names;
    for (int i = 0; i < H5Tget_nmembers(type.id()); ++i) {
        char* raw = H5Tget_member_name(type.id(), static_cast<unsigned>(i));
        names.emplace_back(raw != nullptr ? raw : "");
        H5free_memory(raw);
    }
    const auto first = std::find(names.begin(), names.end(), after);
    const auto last = std::find(names.begin(), names.end(), before);
    if (first == names.end() || last == names.end() || last < first) {
        throw IoError(at + ": no fields '" + std::string(after) + "' and '" + std::string(before) +
                      "' in that order (not a table pimdse wrote)");
    }
    std::vector<FamilyColumn> out;
    for (auto it = first + 1; it != last; ++it) {
        FamilyColumn c{*it, {}, {}};
        if (file.has_attribute(path, *it)) {
            c.meaning = file.string_attribute(path, *it);
            // "<meaning> [<unit>]": the unit is the last bracket (a meaning may hold brackets).
            const std::size_t open = c.meaning.rfind(" [");
            if (!c.meaning.empty() && c.meaning.back() == ']' && open != std::string::npos) {
                c.unit = c.meaning.substr(open + 2, c.meaning.size() - open - 3);
                c.meaning.resize(open);
            }
        }
        out.push_back(std::move(c));
    }
    return out;
}

// The units the configuration gave: the cost's, from /candidates' `cost`, and each
// objective's (as many as the root attribute `objectives` names), from /tuner/batches'
// reference point.
void read_units(const File& file, FamilyColumns& c) {
    c.cost_unit = unit_of(file.string_attribute("/candidates", "cost"));
    const std::string objectives = file.string_attribute("/", "objectives");
    const auto n = objectives.empty() ? 0 : std::count(objectives.begin(), objectives.end(), ',') + 1;
    for (std::ptrdiff_t i = 0; i < n && i < 3; ++i) {
        c.objective_units.push_back(
            unit_of(file.string_attribute("/tuner/batches", "hv_reference_" + std::to_string(i + 1))));
    }
    c.hypervolume_unit = unit_of(file.string_attribute("/tuner/batches", "hypervolume"));
}

}  // namespace

void Store::Impl::read_columns() {
    FamilyColumns c;
    c.params = columns_between(file, "/candidates", "proposer", "status");
    c.energy_parts = columns_between(file, "/metrics", "energy_j", "pe_utilisation");
    c.metrics = columns_between(file, "/candidates", "cost", "metric_rows");
    read_units(file, c);
    try {
        set_columns(std::move(c));
    } catch (const IoError& e) {
        throw IoError(file.name() + ": " + e.what() + " (not a table pimdse wrote)");
    }
}

void Store::Impl::check_schema() {
    for (const TableSpec& spec : kTables) check_table_type(file, spec.path(), schema_of(spec));
    check_table_type(file, "/workloads/networks", schema(TableId::networks));
    for (const std::string& group : workload_groups(file))
        check_table_type(file, group + "/layers", schema(TableId::workload_layers));
}

void Store::Impl::check_commit_record() const {
    const std::string at = file.name() + ":" + kCommit;
    if (commit[0] < 0) {
        throw IoError(at + ": the batch count is " + std::to_string(commit[0]) +
                      ", expected 0 or more (the commit record is damaged)");
    }
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        if (commit[t + 1] < 0) {
            throw IoError(at + ": the row count of " + kTables[t].path() + " is " +
                          std::to_string(commit[t + 1]) +
                          ", expected 0 or more (the commit record is damaged)");
        }
    }
    if (commit[0] != commit[1 + kBatches]) {
        throw IoError(at + ": " + std::to_string(commit[0]) + " batches, but " +
                      std::to_string(commit[1 + kBatches]) +
                      " committed rows of /tuner/batches, one per batch (the commit record is damaged)");
    }
    // Every batch proposes at least one candidate (an empty proposal ends the sweep instead).
    if (commit[0] > commit[1 + kCandidates]) {
        throw IoError(at + ": " + std::to_string(commit[0]) + " batches, but only " +
                      std::to_string(commit[1 + kCandidates]) +
                      " committed candidates, at least one per batch (the commit record is damaged)");
    }
    for (std::size_t t = 0; t < kTables.size(); ++t) {
        const std::string table = file.name() + ":" + kTables[t].path();
        const auto claimed = static_cast<hsize_t>(commit[t + 1]);
        if (tables[t].rows() < claimed) {
            throw IoError(table + ": holds " + std::to_string(tables[t].rows()) + " rows, fewer than the " +
                          std::to_string(claimed) + " its commit record claims");
        }
        // Rows are read only where chunks are stored: a damaged extent that claims 10^9 rows
        // of a table of a few chunks is refused here rather than read (as fill values) for hours.
        const Handle ds = open_dataset(file, kTables[t].path());
        const Handle space(check(H5Dget_space(ds.id()), table, "H5Dget_space"), H5Sclose);
        const Handle dcpl(check(H5Dget_create_plist(ds.id()), table, "H5Dget_create_plist"), H5Pclose);
        hsize_t chunk = 1;
        hsize_t stored = 0;
        check(H5Pget_chunk(dcpl.id(), 1, &chunk), table, "H5Pget_chunk");
        check(H5Dget_num_chunks(ds.id(), space.id(), &stored), table, "H5Dget_num_chunks");
        if (chunk == 0 || (claimed + chunk - 1) / chunk > stored) {
            throw IoError(table + ": its commit record claims " + std::to_string(claimed) +
                          " rows, but the file stores data for at most " + std::to_string(stored * chunk) +
                          " (the commit record is damaged)");
        }
    }
}

std::vector<std::int64_t> Store::Impl::compute_digest() {
    Digest attributes;
    for (const char* key : kFixedRootAttributes) attributes.add(attribute_bytes(file, "/", key));
    attributes.add(attribute_bytes(file, "/config", "source_file"));
    for (const char* text : {"/config/source", "/config/resolved"})
        attributes.add(attribute_bytes(file, text, "meaning"));
    attributes.add(attribute_bytes(file, kCommit, "meaning"));
    for (const TableSpec& spec : kTables)
        add_table_attributes(attributes, file, spec.path(), schema_of(spec));
    add_table_attributes(attributes, file, "/workloads/networks", schema(TableId::networks));
    Digest networks;
    for (const std::string& group : workload_groups(file)) {
        add_table_attributes(attributes, file, group + "/layers", schema(TableId::workload_layers));
        attributes.add(attribute_bytes(file, group + "/source", "meaning"));
        networks.add(group);
        networks.add(file.read_text(group + "/source"));
    }
    Digest source;
    source.add(file.read_text("/config/source"));
    Digest resolved;
    resolved.add(file.read_text("/config/resolved"));
    return {attributes.value(), source.value(), resolved.value(), networks.value()};
}

void Store::Impl::check_digest() {
    const std::string at = file.name() + ":" + kDigest;
    if (!file.exists(kDigest)) throw IoError(at + ": missing (a broken sweep file)");
    const std::vector<std::int64_t> stored = file.read_int64s(kDigest);
    const std::vector<std::int64_t> now = compute_digest();
    if (stored.size() != now.size()) throw IoError(at + ": has the wrong length (a broken sweep file)");
    const std::array<const char*, 4> what{
        "the attributes pimdse wrote when it created the file (the root's format, versions, seed, proposer, "
        "objectives and created, /config's source_file, every table's field descriptions)",
        "/config/source (the configuration text)", "/config/resolved (the resolved configuration)",
        "a network text (/workloads/<net>/source)"};
    for (std::size_t i = 0; i < now.size(); ++i) {
        if (stored[i] != now[i]) {
            throw IoError(file.name() + ": " + what[i] + " differs from its digest in " + kDigest +
                          ": the file's metadata is damaged, or it was replaced or edited");
        }
    }
}

}  // namespace pimdse::store
