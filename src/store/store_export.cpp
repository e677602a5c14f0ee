// A sweep file's tables as CSV files (store/store_export.hpp): read through the file's own
// description (compound fields, enum types, meaning attributes, the commit record), so that
// this file knows no table of the schema by heart; only /pareto's left_batch rule
// (docs/output.md, "What a commit guarantees") is applied by name, and so is its rule
// that /pareto is read whole from the commit record's slot.

#include "pimdse/store/store_export.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <map>
#include <memory>
#include <system_error>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/io/output_file.hpp"
#include "pimdse/store/hdf5.hpp"
#include "pimdse/store/store.hpp"

namespace pimdse::store {

namespace {

using h5::check;
using h5::Handle;

// Rows read per HDF5 call: bounded memory for tables of millions of rows.
constexpr hsize_t kBlockRows = 4096;

struct Column {
    std::string name;
    std::size_t offset = 0;
    Handle type;  // the member's native type
    H5T_class_t cls = H5T_NO_CLASS;
    std::size_t size = 0;
    bool is_signed = true;
};

// Compound, 1-D datasets anywhere in the file, in name order.
std::vector<std::string> find_tables(hid_t file, const std::string& context) {
    std::vector<std::string> out;
    const auto visit = [](hid_t group, const char* name, const H5L_info_t*, void* data) -> herr_t {
        const hid_t obj = H5Oopen(group, name, H5P_DEFAULT);
        if (obj < 0) return 0;  // a dangling link is no table
        if (H5Iget_type(obj) == H5I_DATASET) {
            const hid_t type = H5Dget_type(obj);
            const hid_t space = H5Dget_space(obj);
            if (H5Tget_class(type) == H5T_COMPOUND && H5Sget_simple_extent_ndims(space) == 1) {
                static_cast<std::vector<std::string>*>(data)->emplace_back(name);
            }
            H5Sclose(space);
            H5Tclose(type);
        }
        H5Oclose(obj);
        return 0;
    };
    check(H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, visit, &out), context, "H5Lvisit");
    std::sort(out.begin(), out.end());
    return out;
}

// {table: committed rows} from /commit and the table paths its meaning names, in order.
std::map<std::string, std::int64_t> committed_rows(const h5::File& file, std::int64_t& batches) {
    const std::vector<std::int64_t> counts = file.read_int64s("/commit");
    const std::string meaning = file.string_attribute("/commit", "meaning");
    std::vector<std::string> names;
    for (std::size_t i = meaning.find('/'); i != std::string::npos; i = meaning.find('/', i)) {
        std::size_t end = i + 1;
        while (end < meaning.size() && (std::isalnum(static_cast<unsigned char>(meaning[end])) ||
                                        meaning[end] == '_' || meaning[end] == '/')) {
            ++end;
        }
        names.push_back(meaning.substr(i + 1, end - i - 1));
        i = end;
    }
    if (counts.empty() || names.size() + 1 != counts.size()) {
        throw IoError(file.name() + ": /commit holds " + std::to_string(counts.size()) +
                      " counts but its meaning attribute names " + std::to_string(names.size()) + " tables");
    }
    batches = counts[0];
    std::map<std::string, std::int64_t> out;
    for (std::size_t t = 0; t < names.size(); ++t) out[names[t]] = counts[t + 1];
    return out;
}

std::vector<Column> columns_of(hid_t native, const std::string& context) {
    std::vector<Column> out;
    const int n = check(H5Tget_nmembers(native), context, "H5Tget_nmembers");
    for (int i = 0; i < n; ++i) {
        Column c;
        char* name = H5Tget_member_name(native, static_cast<unsigned>(i));
        c.name = name ? name : "";
        H5free_memory(name);
        c.offset = H5Tget_member_offset(native, static_cast<unsigned>(i));
        c.type =
            Handle(check(H5Tget_member_type(native, static_cast<unsigned>(i)), context, "H5Tget_member_type"),
                   H5Tclose);
        c.cls = H5Tget_class(c.type.id());
        c.size = H5Tget_size(c.type.id());
        c.is_signed = c.cls == H5T_INTEGER && H5Tget_sign(c.type.id()) == H5T_SGN_2;
        out.push_back(std::move(c));
    }
    return out;
}

std::int64_t integer_at(const std::byte* p, std::size_t size, bool is_signed) {
    switch (size) {
        case 1:
            return is_signed ? std::int64_t{*reinterpret_cast<const std::int8_t*>(p)}
                             : std::int64_t{*reinterpret_cast<const std::uint8_t*>(p)};
        case 2: {
            std::int16_t s;
            std::uint16_t u;
            std::memcpy(&s, p, 2);
            std::memcpy(&u, p, 2);
            return is_signed ? s : u;
        }
        case 4: {
            std::int32_t s;
            std::uint32_t u;
            std::memcpy(&s, p, 4);
            std::memcpy(&u, p, 4);
            return is_signed ? s : static_cast<std::int64_t>(u);
        }
        default: {
            std::int64_t s;
            std::memcpy(&s, p, 8);
            return s;
        }
    }
}

// Named apart from std::quoted, which argument-dependent lookup would pick for a std::string.
std::string csv_field(std::string_view s) {
    if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + '"';
}

// One field of one row as CSV text: integers, shortest round-trip floats, enum names, strings.
std::string cell(const Column& c, const std::byte* p) {
    std::array<char, 32> buf{};
    switch (c.cls) {
        case H5T_INTEGER:
            return std::to_string(integer_at(p, c.size, c.is_signed));
        case H5T_FLOAT: {
            double v = 0;
            if (c.size == 4) {
                float f = 0;
                std::memcpy(&f, p, 4);
                v = f;
            } else {
                std::memcpy(&v, p, 8);
            }
            return std::string(buf.data(), std::to_chars(buf.data(), buf.data() + buf.size(), v).ptr);
        }
        case H5T_ENUM: {
            std::array<char, 128> name{};
            if (H5Tenum_nameof(c.type.id(), p, name.data(), name.size()) < 0) return "?";
            return name.data();
        }
        case H5T_STRING: {
            const auto* s = reinterpret_cast<const char*>(p);
            return csv_field(std::string_view(s, strnlen(s, c.size)));
        }
        default:
            return "";  // no such field in the schema today; left empty rather than guessed
    }
}

// Rows of a committed table that its own dataset holds for certain: those in whole chunks
// (the rest, and all of /pareto, are read from the commit record's slot; docs/output.md,
// "What a commit guarantees").
hsize_t stable_rows(hid_t dataset, const std::string& table, hsize_t committed, const std::string& context) {
    if (table == "pareto") return 0;
    Handle dcpl(check(H5Dget_create_plist(dataset), context, "H5Dget_create_plist"), H5Pclose);
    hsize_t chunk = 1;
    check(H5Pget_chunk(dcpl.id(), 1, &chunk), context, "H5Pget_chunk");
    return committed / std::max<hsize_t>(chunk, 1) * chunk;
}

// Rows [first, first + count) of `dataset` in blocks, each row handed to `row`.
template <class F>
void read_blocks(hid_t dataset, hid_t native, std::size_t row_size, hsize_t first, hsize_t count,
                 const std::string& context, F&& row) {
    Handle space(check(H5Dget_space(dataset), context, "H5Dget_space"), H5Sclose);
    std::vector<std::byte> buffer(row_size * kBlockRows);
    for (hsize_t at = first; at < first + count; at += kBlockRows) {
        const hsize_t n = std::min(kBlockRows, first + count - at);
        check(H5Sselect_hyperslab(space.id(), H5S_SELECT_SET, &at, nullptr, &n, nullptr), context,
              "H5Sselect_hyperslab");
        Handle mem(check(H5Screate_simple(1, &n, nullptr), context, "H5Screate_simple"), H5Sclose);
        check(H5Dread(dataset, native, mem.id(), space.id(), H5P_DEFAULT, buffer.data()), context, "H5Dread");
        for (hsize_t r = 0; r < n; ++r) row(buffer.data() + r * row_size);
    }
}

using WorkloadNames = std::vector<std::pair<std::string, std::vector<std::string>>>;

// The names joined into a table whose rows refer to a workload by index (docs/cli.md,
// "pimdse export"): `network_name` after `network` unless the table has one, `layer_name`
// after `layer` where it has both. The workloads' own tables are left as they are.
struct NameJoin {
    int net_col = -1;  // the column `network`
    int network = -1;  // the column after which network_name goes
    int layer = -1;    // the column after which layer_name goes
    const WorkloadNames* names = nullptr;

    NameJoin(const std::vector<Column>& cols, const std::string& table, const WorkloadNames& n) : names(&n) {
        if (table.starts_with("workloads/")) return;
        const auto at = [&](std::string_view name) -> int {
            for (std::size_t i = 0; i < cols.size(); ++i) {
                if (cols[i].name == name && cols[i].cls == H5T_INTEGER) return static_cast<int>(i);
            }
            return -1;
        };
        const bool named =
            std::any_of(cols.begin(), cols.end(), [](const Column& c) { return c.name == "network_name"; });
        net_col = at("network");
        network = named ? -1 : net_col;
        layer = net_col < 0 ? -1 : at("layer");
    }
    // The cells to write after column i of a row whose network and layer are those given.
    void after(int i, std::int64_t net, std::int64_t lay, std::string& line) const {
        const bool known = net >= 0 && std::cmp_less(net, names->size());
        if (i == network) {
            line += ',';
            line += csv_field(known ? (*names)[static_cast<std::size_t>(net)].first : "?");
        }
        if (i == layer) {
            const auto* layers = known ? &(*names)[static_cast<std::size_t>(net)].second : nullptr;
            const bool has = layers && lay >= 0 && std::cmp_less(lay, layers->size());
            line += ',';
            line += csv_field(has ? (*layers)[static_cast<std::size_t>(lay)] : "?");
        }
    }
};

ExportedTable export_table(const h5::File& file, const std::string& table, std::int64_t committed,
                           std::int64_t batches, const WorkloadNames& names, io::OutputFile& out) {
    const std::string context = file.name() + ":/" + table;
    Handle dset(check(H5Dopen2(file.id(), ("/" + table).c_str(), H5P_DEFAULT), context, "H5Dopen2"),
                H5Dclose);
    Handle stored(check(H5Dget_type(dset.id()), context, "H5Dget_type"), H5Tclose);
    Handle native(check(H5Tget_native_type(stored.id(), H5T_DIR_ASCEND), context, "H5Tget_native_type"),
                  H5Tclose);
    const std::size_t row_size = H5Tget_size(native.id());
    const std::vector<Column> cols = columns_of(native.id(), context);
    const NameJoin join(cols, table, names);
    Handle space(check(H5Dget_space(dset.id()), context, "H5Dget_space"), H5Sclose);
    hsize_t extent = 0;
    check(H5Sget_simple_extent_dims(space.id(), &extent, nullptr), context, "H5Sget_simple_extent_dims");
    const hsize_t rows = committed < 0 ? extent : std::min(extent, static_cast<hsize_t>(committed));
    const hsize_t stable = committed < 0 ? rows : stable_rows(dset.id(), table, rows, context);

    std::string line;
    for (std::size_t i = 0; i < cols.size(); ++i) {
        const std::string unit = file.has_attribute("/" + table, cols[i].name)
                                     ? unit_of(file.string_attribute("/" + table, cols[i].name))
                                     : "";
        line += i ? "," : "";
        line += csv_field(unit.empty() ? cols[i].name : cols[i].name + " [" + unit + "]");
        if (std::cmp_equal(i, join.network)) line += ",network_name";
        if (std::cmp_equal(i, join.layer)) line += ",layer_name";
    }
    line += '\n';
    out.write(line);
    const bool pareto = table == "pareto";
    const auto index_at = [&](int i, const std::byte* row) {
        const Column& c = cols[static_cast<std::size_t>(i)];
        return i < 0 ? -1 : integer_at(row + c.offset, c.size, c.is_signed);
    };
    const auto write_row = [&](const std::byte* row) {
        line.clear();
        const std::int64_t net = index_at(join.net_col, row);
        const std::int64_t lay = index_at(join.layer, row);
        for (std::size_t i = 0; i < cols.size(); ++i) {
            std::string text = cell(cols[i], row + cols[i].offset);
            // A point dominated in a batch that never committed is still on the front.
            if (pareto && cols[i].name == "left_batch" && std::stoll(text) >= batches) text = "-1";
            line += i ? "," : "";
            line += text;
            join.after(static_cast<int>(i), net, lay, line);
        }
        line += '\n';
        out.write(line);
    };
    read_blocks(dset.id(), native.id(), row_size, 0, stable, context, write_row);
    if (rows > stable) {
        const std::string tail = "/commit_tails/" + std::to_string(batches % 2) + "/" + table;
        Handle slot(
            check(H5Dopen2(file.id(), tail.c_str(), H5P_DEFAULT), file.name() + ":" + tail, "H5Dopen2"),
            H5Dclose);
        read_blocks(slot.id(), native.id(), row_size, 0, rows - stable, file.name() + ":" + tail, write_row);
    }
    return {table, out.path(), static_cast<std::int64_t>(rows), cols.size()};
}

}  // namespace

std::string unit_of(const std::string& meaning) {
    const std::size_t close = meaning.find_last_not_of(" \t");
    if (close == std::string::npos || meaning[close] != ']') return {};
    // The unit follows a space (Field::description); a bracket inside a word is a name:
    // "channel group n of BCHW[Cn]" has no unit.
    const std::size_t open = meaning.rfind('[', close);
    if (open == std::string::npos || open == 0 || meaning[open - 1] != ' ') return {};
    return meaning.substr(open + 1, close - open - 1);
}

std::vector<ExportedTable> export_csv(const std::filesystem::path& h5, const std::filesystem::path& dir) {
    // The store checks that this is a sweep file of a version it reads, and that every table
    // holds its committed rows; then the file is walked generically.
    const WorkloadNames names = Store::open_read_only(h5, MPI_COMM_SELF).workload_names();
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
        throw IoError(dir.string() + ": exists and is not a directory");
    }
    std::filesystem::create_directories(dir, ec);
    if (ec) throw IoError(dir.string() + ": cannot create the directory (" + ec.message() + ")");

    const h5::File file(h5, h5::File::Mode::read_only, MPI_COMM_SELF);
    std::int64_t batches = 0;
    const std::map<std::string, std::int64_t> committed = committed_rows(file, batches);
    // Every CSV is checked (a link or a FIFO planted in the directory is refused) and written
    // before any replaces its file: a refusal or a full disk leaves the directory as it was.
    std::vector<std::string> tables = find_tables(file.id(), file.name());
    // /commit_tails holds second copies of rows the tables export.
    std::erase_if(tables, [](const std::string& t) { return t.starts_with("commit_tails/"); });
    const std::array inputs{h5};
    std::vector<std::unique_ptr<io::OutputFile>> files;
    for (const std::string& table : tables) {
        std::string stem = table;
        std::replace(stem.begin(), stem.end(), '/', '_');
        files.push_back(std::make_unique<io::OutputFile>(dir / (stem + ".csv"), inputs));
    }
    std::vector<ExportedTable> out;
    for (std::size_t t = 0; t < tables.size(); ++t) {
        const auto it = committed.find(tables[t]);
        out.push_back(export_table(file, tables[t], it == committed.end() ? -1 : it->second, batches, names,
                                   *files[t]));
    }
    for (const auto& f : files) f->commit();
    return out;
}

}  // namespace pimdse::store
