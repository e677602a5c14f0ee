#include "pimdse/store/hdf5.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "pimdse/core/error.hpp"

namespace pimdse::store::h5 {

void Handle::reset() noexcept {
    if (id_ >= 0 && closer_ != nullptr) closer_(id_);
    id_ = H5I_INVALID_HID;
}

hid_t check(hid_t status, const std::string& context, const char* what) {
    if (status < 0) {
        // HDF5's error stack ends at "file write failed"; the system's reason is still in errno
        // (the MPI-IO layer's pwritev set it), and a full disk must say so.
        const int err = errno;
        const bool system_reason =
            err == ENOSPC || err == EDQUOT || err == EIO || err == EROFS || err == EFBIG || err == ESTALE;
        throw IoError(context + ": " + what + " failed" +
                      (system_reason ? std::string(": ") + std::strerror(err) : ""));
    }
    return status;
}

namespace {

// HDF5 prints its error stack to stderr by default; we report through IoError instead.
void silence_hdf5_error_stack() {
    static const bool done = [] {
        if (std::getenv("PIMDSE_HDF5_ERRORS") == nullptr) H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
        return true;
    }();
    (void)done;
}

Handle property_list(hid_t cls, const std::string& context) {
    return Handle(check(H5Pcreate(cls), context, "H5Pcreate"), H5Pclose);
}

Handle collective_transfer(const std::string& context) {
    Handle dxpl = property_list(H5P_DATASET_XFER, context);
    check(H5Pset_dxpl_mpio(dxpl.id(), H5FD_MPIO_COLLECTIVE), context, "H5Pset_dxpl_mpio");
    // Collective HDF5 calls, independent MPI-IO underneath: each rank writes a few large
    // contiguous runs, and two-phase collective buffering cost ten times as much per batch
    // (docs/output.md, "Parallel writes").
    check(H5Pset_dxpl_mpio_collective_opt(dxpl.id(), H5FD_MPIO_INDIVIDUAL_IO), context,
          "H5Pset_dxpl_mpio_collective_opt");
    return dxpl;
}

// The collective write of a table's selected rows; a rank with none (`rows` null) still takes
// part, with a dummy buffer.
void write_selected(hid_t dataset, hid_t type, const Handle& mem_space, const Handle& file_space,
                    const std::byte* rows, const std::string& context) {
    Handle dxpl = collective_transfer(context);
    const std::byte dummy{};
    check(H5Dwrite(dataset, type, mem_space.id(), file_space.id(), dxpl.id(),
                   rows != nullptr ? static_cast<const void*>(rows) : &dummy),
          context, "H5Dwrite");
}

void set_compression(const Handle& dcpl, int level, const std::string& context) {
    check(H5Pset_shuffle(dcpl.id()), context, "H5Pset_shuffle");
    check(H5Pset_deflate(dcpl.id(), static_cast<unsigned>(level)), context, "H5Pset_deflate");
}

Handle string_type(std::size_t length, const std::string& context) {
    Handle t(check(H5Tcopy(H5T_C_S1), context, "H5Tcopy"), H5Tclose);
    check(H5Tset_size(t.id(), length), context, "H5Tset_size");
    check(H5Tset_strpad(t.id(), H5T_STR_NULLPAD), context, "H5Tset_strpad");
    check(H5Tset_cset(t.id(), H5T_CSET_UTF8), context, "H5Tset_cset");
    return t;
}

}  // namespace

CompoundType::CompoundType(std::size_t row_size)
    : type_(check(H5Tcreate(H5T_COMPOUND, row_size), "compound type", "H5Tcreate"), H5Tclose) {}

CompoundType& CompoundType::add(const char* name, std::size_t offset, hid_t native_type) {
    check(H5Tinsert(type_.id(), name, offset, native_type), std::string("compound field '") + name + "'",
          "H5Tinsert");
    return *this;
}

CompoundType& CompoundType::add_string(const char* name, std::size_t offset, std::size_t length) {
    const std::string context = std::string("compound field '") + name + "'";
    members_.push_back(string_type(length, context));
    check(H5Tinsert(type_.id(), name, offset, members_.back().id()), context, "H5Tinsert");
    return *this;
}

CompoundType& CompoundType::add_enum(const char* name, std::size_t offset,
                                     const std::vector<std::string>& names, hid_t base) {
    const std::string context = std::string("compound enum field '") + name + "'";
    Handle e(check(H5Tenum_create(base), context, "H5Tenum_create"), H5Tclose);
    for (std::size_t i = 0; i < names.size(); ++i) {
        // The value in the base type's own width (native byte order).
        std::array<std::byte, 8> value{};
        const auto put = [&](auto v) { std::memcpy(value.data(), &v, sizeof v); };
        switch (H5Tget_size(base)) {
            case 1:
                put(static_cast<std::int8_t>(i));
                break;
            case 2:
                put(static_cast<std::int16_t>(i));
                break;
            case 4:
                put(static_cast<std::int32_t>(i));
                break;
            default:
                put(static_cast<std::int64_t>(i));
        }
        check(H5Tenum_insert(e.id(), names[i].c_str(), value.data()), context, "H5Tenum_insert");
    }
    members_.push_back(std::move(e));
    check(H5Tinsert(type_.id(), name, offset, members_.back().id()), context, "H5Tinsert");
    return *this;
}

File::File(const std::filesystem::path& path, Mode mode, MPI_Comm comm) : name_(path.string()), comm_(comm) {
    silence_hdf5_error_stack();
    Handle fapl = property_list(H5P_FILE_ACCESS, name_);
    check(H5Pset_fapl_mpio(fapl.id(), comm, MPI_INFO_NULL), name_, "H5Pset_fapl_mpio");
    hid_t id = H5I_INVALID_HID;
    switch (mode) {
        case Mode::create_exclusive:
            id = H5Fcreate(name_.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl.id());
            if (id < 0)
                throw IoError(name_ +
                              ": cannot create the file (it exists, or its directory is not writable)");
            break;
        case Mode::create_truncate:
            id = H5Fcreate(name_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.id());
            if (id < 0) throw IoError(name_ + ": cannot create the file (is its directory writable?)");
            break;
        case Mode::read_write:
        case Mode::read_only:
            id = H5Fopen(name_.c_str(), mode == Mode::read_only ? H5F_ACC_RDONLY : H5F_ACC_RDWR, fapl.id());
            if (id < 0)
                throw IoError(name_ + ": cannot open as an HDF5 file (not HDF5, damaged or unreadable)");
            break;
    }
    file_ = Handle(id, H5Fclose);
}

void File::flush() {
    check(H5Fflush(file_.id(), H5F_SCOPE_GLOBAL), name_, "H5Fflush");
}

File::Descriptor& File::Descriptor::operator=(Descriptor&& o) noexcept {
    if (this != &o) {
        if (fd >= 0) ::close(fd);
        fd = std::exchange(o.fd, -1);
    }
    return *this;
}

File::Descriptor::~Descriptor() {
    if (fd >= 0) ::close(fd);
}

void File::start_writeback() {
#ifdef __linux__
    if (writeback_.fd < 0) writeback_.fd = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC);
    if (writeback_.fd >= 0) (void)::sync_file_range(writeback_.fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
}

void File::rename(const std::filesystem::path& path) {
    flush();
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    int failed = 0;
    std::string why;
    if (rank == 0) {
        std::error_code ec;
        std::filesystem::rename(name_, path, ec);
        failed = ec ? 1 : 0;
        why = ec.message();
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, comm_);
    if (failed != 0)
        throw IoError(name_ + ": cannot rename to " + path.string() + (why.empty() ? "" : ": " + why));
    name_ = path.string();
    writeback_ = Descriptor();  // reopened under the new name when needed
}

namespace {

Handle open_object(hid_t file, const std::string& object, const std::string& context) {
    return Handle(check(H5Oopen(file, object.c_str(), H5P_DEFAULT), context, "H5Oopen"), H5Oclose);
}

// A scalar attribute; an existing one of the same type is overwritten in place (no
// delete-then-create), otherwise replaced.
void write_attribute(hid_t file, const std::string& file_name, const std::string& object,
                     const std::string& key, hid_t type, const void* data) {
    const std::string context = file_name + ":" + object + "@" + key;
    Handle obj = open_object(file, object, context);
    if (check(H5Aexists(obj.id(), key.c_str()), context, "H5Aexists") > 0) {
        Handle attr(check(H5Aopen(obj.id(), key.c_str(), H5P_DEFAULT), context, "H5Aopen"), H5Aclose);
        Handle stored(check(H5Aget_type(attr.id()), context, "H5Aget_type"), H5Tclose);
        Handle space(check(H5Aget_space(attr.id()), context, "H5Aget_space"), H5Sclose);
        if (H5Tequal(stored.id(), type) > 0 && H5Sget_simple_extent_type(space.id()) == H5S_SCALAR) {
            check(H5Awrite(attr.id(), type, data), context, "H5Awrite");
            return;
        }
        attr.reset();
        check(H5Adelete(obj.id(), key.c_str()), context, "H5Adelete");
    }
    Handle space(check(H5Screate(H5S_SCALAR), context, "H5Screate"), H5Sclose);
    Handle attr(check(H5Acreate2(obj.id(), key.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT), context,
                      "H5Acreate2"),
                H5Aclose);
    check(H5Awrite(attr.id(), type, data), context, "H5Awrite");
}

Handle open_attribute(hid_t file, const std::string& context, const std::string& object,
                      const std::string& key) {
    Handle obj = open_object(file, object, context);
    hid_t a = H5Aopen(obj.id(), key.c_str(), H5P_DEFAULT);
    if (a < 0) throw IoError(context + ": no such attribute");
    return Handle(a, H5Aclose);
}

}  // namespace

void File::set_attribute(const std::string& object, const std::string& key, const std::string& value) {
    Handle t = string_type(std::max<std::size_t>(value.size(), 1), name_);
    std::string padded = value;
    padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
    write_attribute(file_.id(), name_, object, key, t.id(), padded.data());
}

void File::set_attribute(const std::string& object, const std::string& key, std::int64_t value) {
    write_attribute(file_.id(), name_, object, key, H5T_NATIVE_INT64, &value);
}

void File::set_attribute(const std::string& object, const std::string& key, double value) {
    write_attribute(file_.id(), name_, object, key, H5T_NATIVE_DOUBLE, &value);
}

namespace {

// The text of a fixed-length string attribute or dataset whose stored type is `stored`;
// `read(memory type, buffer)` reads it.
template <class Read>
std::string read_fixed_string(hid_t stored, const std::string& context, Read read) {
    if (H5Tget_class(stored) != H5T_STRING || H5Tis_variable_str(stored) > 0) {
        throw IoError(context + ": expected a fixed-length string");
    }
    const std::size_t size = H5Tget_size(stored);
    Handle mem = string_type(size, context);
    std::string out(size, '\0');
    read(mem.id(), out.data());
    out.resize(out.find('\0') == std::string::npos ? out.size() : out.find('\0'));
    return out;
}

}  // namespace

std::string File::string_attribute(const std::string& object, const std::string& key) const {
    const std::string context = name_ + ":" + object + "@" + key;
    Handle attr = open_attribute(file_.id(), context, object, key);
    Handle stored(check(H5Aget_type(attr.id()), context, "H5Aget_type"), H5Tclose);
    return read_fixed_string(stored.id(), context, [&](hid_t mem, char* buffer) {
        check(H5Aread(attr.id(), mem, buffer), context, "H5Aread");
    });
}

std::int64_t File::int_attribute(const std::string& object, const std::string& key) const {
    const std::string context = name_ + ":" + object + "@" + key;
    Handle attr = open_attribute(file_.id(), context, object, key);
    std::int64_t value = 0;
    check(H5Aread(attr.id(), H5T_NATIVE_INT64, &value), context, "H5Aread");
    return value;
}

namespace {

// A 1-D numeric attribute, overwritten in place when its length is unchanged.
void write_array_attribute(hid_t file, const std::string& file_name, const std::string& object,
                           const std::string& key, hid_t file_type, hid_t mem_type, const void* data,
                           hsize_t n) {
    const std::string context = file_name + ":" + object + "@" + key;
    Handle obj = open_object(file, object, context);
    if (check(H5Aexists(obj.id(), key.c_str()), context, "H5Aexists") > 0) {
        Handle attr(check(H5Aopen(obj.id(), key.c_str(), H5P_DEFAULT), context, "H5Aopen"), H5Aclose);
        Handle space(check(H5Aget_space(attr.id()), context, "H5Aget_space"), H5Sclose);
        if (H5Sget_simple_extent_npoints(space.id()) == static_cast<hssize_t>(n)) {
            check(H5Awrite(attr.id(), mem_type, data), context, "H5Awrite");
            return;
        }
        attr.reset();
        check(H5Adelete(obj.id(), key.c_str()), context, "H5Adelete");
    }
    Handle space(check(H5Screate_simple(1, &n, nullptr), context, "H5Screate_simple"), H5Sclose);
    Handle attr(check(H5Acreate2(obj.id(), key.c_str(), file_type, space.id(), H5P_DEFAULT, H5P_DEFAULT),
                      context, "H5Acreate2"),
                H5Aclose);
    check(H5Awrite(attr.id(), mem_type, data), context, "H5Awrite");
}

template <class T>
std::vector<T> read_array_attribute(hid_t file, const std::string& file_name, const std::string& object,
                                    const std::string& key, H5T_class_t cls, hid_t mem_type) {
    const std::string context = file_name + ":" + object + "@" + key;
    Handle attr = open_attribute(file, context, object, key);
    Handle space(check(H5Aget_space(attr.id()), context, "H5Aget_space"), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space.id());
    if (n < 0) throw IoError(context + ": H5Sget_simple_extent_npoints failed");
    Handle stored(check(H5Aget_type(attr.id()), context, "H5Aget_type"), H5Tclose);
    if (H5Tget_class(stored.id()) != cls) throw IoError(context + ": an attribute of another type");
    std::vector<T> out(static_cast<std::size_t>(n));
    if (n > 0) check(H5Aread(attr.id(), mem_type, out.data()), context, "H5Aread");
    return out;
}

}  // namespace

void File::set_attribute(const std::string& object, const std::string& key,
                         std::span<const std::int64_t> values) {
    write_array_attribute(file_.id(), name_, object, key, H5T_STD_I64LE, H5T_NATIVE_INT64, values.data(),
                          values.size());
}

std::vector<std::int64_t> File::int_array_attribute(const std::string& object, const std::string& key) const {
    return read_array_attribute<std::int64_t>(file_.id(), name_, object, key, H5T_INTEGER, H5T_NATIVE_INT64);
}

bool File::has_attribute(const std::string& object, const std::string& key) const {
    if (!exists(object) && object != "/") return false;
    const std::string context = name_ + ":" + object + "@" + key;
    Handle obj = open_object(file_.id(), object, context);
    return check(H5Aexists(obj.id(), key.c_str()), context, "H5Aexists") > 0;
}

void File::create_groups(const std::string& path) {
    const std::string context = name_ + ":" + path;
    Handle lcpl = property_list(H5P_LINK_CREATE, context);
    check(H5Pset_create_intermediate_group(lcpl.id(), 1), context, "H5Pset_create_intermediate_group");
    Handle g(check(H5Gcreate2(file_.id(), path.c_str(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT), context,
                   "H5Gcreate2"),
             H5Gclose);
}

void File::write_text(const std::string& path, const std::string& text) {
    const std::string context = name_ + ":" + path;
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    // One fixed-length string (at least one byte: HDF5 has no zero-length strings).
    Handle type = string_type(std::max<std::size_t>(text.size(), 1), context);
    Handle space(check(H5Screate(H5S_SCALAR), context, "H5Screate"), H5Sclose);
    Handle lcpl = property_list(H5P_LINK_CREATE, context);
    check(H5Pset_create_intermediate_group(lcpl.id(), 1), context, "H5Pset_create_intermediate_group");
    Handle ds(check(H5Dcreate2(file_.id(), path.c_str(), type.id(), space.id(), lcpl.id(), H5P_DEFAULT,
                               H5P_DEFAULT),
                    context, "H5Dcreate2"),
              H5Dclose);
    // Collective transfer; rank 0 writes the bytes, the others select nothing.
    Handle file_space(check(H5Dget_space(ds.id()), context, "H5Dget_space"), H5Sclose);
    Handle mem_space(check(H5Screate(H5S_SCALAR), context, "H5Screate"), H5Sclose);
    if (rank != 0) {
        check(H5Sselect_none(file_space.id()), context, "H5Sselect_none");
        check(H5Sselect_none(mem_space.id()), context, "H5Sselect_none");
    }
    std::string padded = text;
    padded.resize(std::max<std::size_t>(text.size(), 1), '\0');
    Handle dxpl = collective_transfer(context);
    check(H5Dwrite(ds.id(), type.id(), mem_space.id(), file_space.id(), dxpl.id(), padded.data()), context,
          "H5Dwrite");
}

void File::write_int64s(const std::string& path, std::span<const std::int64_t> values) {
    const std::string context = name_ + ":" + path;
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    const hsize_t n = values.size();
    hid_t id = H5I_INVALID_HID;
    if (H5Lexists(file_.id(), path.c_str(), H5P_DEFAULT) > 0) {
        id = check(H5Dopen2(file_.id(), path.c_str(), H5P_DEFAULT), context, "H5Dopen2");
    } else {
        Handle space(check(H5Screate_simple(1, &n, nullptr), context, "H5Screate_simple"), H5Sclose);
        id = check(H5Dcreate2(file_.id(), path.c_str(), H5T_STD_I64LE, space.id(), H5P_DEFAULT, H5P_DEFAULT,
                              H5P_DEFAULT),
                   context, "H5Dcreate2");
    }
    Handle ds(id, H5Dclose);
    Handle file_space(check(H5Dget_space(ds.id()), context, "H5Dget_space"), H5Sclose);
    if (H5Sget_simple_extent_npoints(file_space.id()) != static_cast<hssize_t>(n)) {
        throw IoError(context + ": an integer array of another length");
    }
    Handle mem_space(check(H5Screate_simple(1, &n, nullptr), context, "H5Screate_simple"), H5Sclose);
    if (rank != 0) {
        check(H5Sselect_none(file_space.id()), context, "H5Sselect_none");
        check(H5Sselect_none(mem_space.id()), context, "H5Sselect_none");
    }
    Handle dxpl = collective_transfer(context);
    check(H5Dwrite(ds.id(), H5T_NATIVE_INT64, mem_space.id(), file_space.id(), dxpl.id(), values.data()),
          context, "H5Dwrite");
}

std::vector<std::int64_t> File::read_int64s(const std::string& path) const {
    const std::string context = name_ + ":" + path;
    hid_t id = H5Dopen2(file_.id(), path.c_str(), H5P_DEFAULT);
    if (id < 0) throw IoError(context + ": no such dataset");
    Handle ds(id, H5Dclose);
    Handle stored(check(H5Dget_type(ds.id()), context, "H5Dget_type"), H5Tclose);
    if (H5Tget_class(stored.id()) != H5T_INTEGER) throw IoError(context + ": expected integers");
    Handle space(check(H5Dget_space(ds.id()), context, "H5Dget_space"), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space.id());
    if (n < 0) throw IoError(context + ": H5Sget_simple_extent_npoints failed");
    std::vector<std::int64_t> out(static_cast<std::size_t>(n));
    Handle dxpl = collective_transfer(context);
    if (n > 0) {
        check(H5Dread(ds.id(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, dxpl.id(), out.data()), context,
              "H5Dread");
    }
    return out;
}

std::string File::read_text(const std::string& path) const {
    const std::string context = name_ + ":" + path;
    hid_t id = H5Dopen2(file_.id(), path.c_str(), H5P_DEFAULT);
    if (id < 0) throw IoError(context + ": no such dataset");
    Handle ds(id, H5Dclose);
    Handle stored(check(H5Dget_type(ds.id()), context, "H5Dget_type"), H5Tclose);
    Handle dxpl = collective_transfer(context);
    return read_fixed_string(stored.id(), context, [&](hid_t mem, char* buffer) {
        check(H5Dread(ds.id(), mem, H5S_ALL, H5S_ALL, dxpl.id(), buffer), context, "H5Dread");
    });
}

bool File::exists(const std::string& path) const {
    // H5Lexists needs every parent to exist, so walk the path one component at a time.
    std::string prefix;
    std::size_t start = path.front() == '/' ? 1 : 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        if (end > start) {
            prefix.push_back('/');  // (not "/" + substr: GCC 12 -Wrestrict false positive)
            prefix.append(path, start, end - start);
            if (H5Lexists(file_.id(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        }
        start = end + 1;
    }
    return true;
}

Table::Table(File& file, std::string path, Handle dataset, hid_t type, std::size_t row_size)
    : file_(&file), path_(std::move(path)), dataset_(std::move(dataset)), type_(type), row_size_(row_size) {}

namespace {

// Fletcher32 on every chunk: a flipped byte in a table is then an error naming the dataset
// when it is read ("checksum error"), not data. It composes with other filters.
void apply_checksum(hid_t dcpl, const std::string& context) {
    check(H5Pset_fletcher32(dcpl), context, "H5Pset_fletcher32");
}

}  // namespace

Table Table::create(File& file, const std::string& path, const CompoundType& type, hsize_t chunk_rows,
                    int deflate) {
    const std::string context = file.name() + ":" + path;
    const hsize_t initial = 0;
    const hsize_t unlimited = H5S_UNLIMITED;
    Handle space(check(H5Screate_simple(1, &initial, &unlimited), context, "H5Screate_simple"), H5Sclose);
    Handle dcpl = property_list(H5P_DATASET_CREATE, context);
    const hsize_t chunk = std::max<hsize_t>(chunk_rows, 1);
    check(H5Pset_chunk(dcpl.id(), 1, &chunk), context, "H5Pset_chunk");
    // Every row is written right after the table grows, so new chunks need no fill value.
    // HDF5 refuses filters (Fletcher32 is always on) with the fill time "never"; "if set"
    // writes no fill either, as no fill value is set.
    check(H5Pset_fill_time(dcpl.id(), H5D_FILL_TIME_IFSET), context, "H5Pset_fill_time");
    // Shuffle groups the bytes of each field across rows, which deflate then finds runs in.
    if (deflate > 0) set_compression(dcpl, deflate, context);
    apply_checksum(dcpl.id(), context);
    Handle lcpl = property_list(H5P_LINK_CREATE, context);
    check(H5Pset_create_intermediate_group(lcpl.id(), 1), context, "H5Pset_create_intermediate_group");
    Handle ds(
        check(H5Dcreate2(file.id(), path.c_str(), type.id(), space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT),
              context, "H5Dcreate2"),
        H5Dclose);
    return Table(file, path, std::move(ds), type.id(), H5Tget_size(type.id()));
}

Table Table::open(File& file, const std::string& path, const CompoundType& type) {
    const std::string context = file.name() + ":" + path;
    hid_t id = H5Dopen2(file.id(), path.c_str(), H5P_DEFAULT);
    if (id < 0) throw IoError(context + ": no such dataset");
    return Table(file, path, Handle(id, H5Dclose), type.id(), H5Tget_size(type.id()));
}

bool Table::compressed() const {
    const std::string context = file_->name() + ":" + path_;
    Handle dcpl(check(H5Dget_create_plist(dataset_.id()), context, "H5Dget_create_plist"), H5Pclose);
    return check(H5Pget_nfilters(dcpl.id()), context, "H5Pget_nfilters") > 0;
}

hsize_t Table::rows() const {
    const std::string context = file_->name() + ":" + path_;
    Handle space(check(H5Dget_space(dataset_.id()), context, "H5Dget_space"), H5Sclose);
    hsize_t n = 0;
    check(H5Sget_simple_extent_dims(space.id(), &n, nullptr), context, "H5Sget_simple_extent_dims");
    return n;
}

hsize_t Table::append(std::span<const std::byte> bytes) {
    const std::string context = file_->name() + ":" + path_;
    if (bytes.size() % row_size_ != 0) throw IoError(context + ": append of a partial row");
    const auto mine = static_cast<std::uint64_t>(bytes.size() / row_size_);

    int size = 0;
    int rank = 0;
    MPI_Comm_size(file_->comm(), &size);
    MPI_Comm_rank(file_->comm(), &rank);
    std::vector<std::uint64_t> counts(static_cast<std::size_t>(size));
    MPI_Allgather(&mine, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, file_->comm());

    const hsize_t before = rows();
    const std::uint64_t offset = std::accumulate(counts.begin(), counts.begin() + rank, std::uint64_t{0});
    const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
    if (total == 0) return before;
    const hsize_t after = before + total;
    check(H5Dset_extent(dataset_.id(), &after), context, "H5Dset_extent");

    Handle file_space(check(H5Dget_space(dataset_.id()), context, "H5Dget_space"), H5Sclose);
    const hsize_t start = before + offset;
    const hsize_t count = mine;
    const hsize_t one = 1;
    Handle mem_space(
        check(H5Screate_simple(1, mine > 0 ? &count : &one, nullptr), context, "H5Screate_simple"), H5Sclose);
    if (mine > 0) {
        check(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, &start, nullptr, &count, nullptr), context,
              "H5Sselect_hyperslab");
    } else {
        // A rank without rows still takes part in the collective write, selecting nothing.
        check(H5Sselect_none(file_space.id()), context, "H5Sselect_none");
        check(H5Sselect_none(mem_space.id()), context, "H5Sselect_none");
    }
    write_selected(dataset_.id(), type_, mem_space, file_space, mine > 0 ? bytes.data() : nullptr, context);
    return start;
}

bool Table::reserve(hsize_t rows_needed) {
    const std::string context = file_->name() + ":" + path_;
    const hsize_t now = rows();
    if (rows_needed <= now) return false;
    hsize_t chunk = 1;
    Handle dcpl(check(H5Dget_create_plist(dataset_.id()), context, "H5Dget_create_plist"), H5Pclose);
    check(H5Pget_chunk(dcpl.id(), 1, &chunk), context, "H5Pget_chunk");
    const hsize_t grown = std::max(rows_needed, chunk);
    check(H5Dset_extent(dataset_.id(), &grown), context, "H5Dset_extent");
    return true;
}

void Table::write_at(hsize_t first, hsize_t added, std::span<const Run> runs,
                     std::span<const std::byte> bytes) {
    const std::string context = file_->name() + ":" + path_;
    if (bytes.size() % row_size_ != 0) throw IoError(context + ": a write of a partial row");
    hsize_t mine = 0;
    for (const Run& r : runs) {
        if (r.offset + r.count > added) throw IoError(context + ": a run past the rows written");
        mine += r.count;
    }
    if (mine != bytes.size() / row_size_) throw IoError(context + ": runs and rows disagree");
    if (added == 0) return;
    if (first + added > rows()) throw IoError(context + ": a write past the table's extent (reserve first)");

    Handle file_space(check(H5Dget_space(dataset_.id()), context, "H5Dget_space"), H5Sclose);
    const hsize_t one = 1;
    Handle mem_space(
        check(H5Screate_simple(1, mine > 0 ? &mine : &one, nullptr), context, "H5Screate_simple"), H5Sclose);
    check(H5Sselect_none(file_space.id()), context, "H5Sselect_none");
    if (mine > 0) {
        // Adjacent runs merged first: HDF5 builds an OR of many hyperslabs slowly.
        std::vector<Run> merged;
        for (const Run& r : runs) {
            if (r.count == 0) continue;
            if (!merged.empty() && merged.back().offset + merged.back().count == r.offset) {
                merged.back().count += r.count;
            } else {
                merged.push_back(r);
            }
        }
        for (const Run& r : merged) {
            const hsize_t start = first + r.offset;
            check(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_OR, &start, nullptr, &r.count, nullptr),
                  context, "H5Sselect_hyperslab");
        }
    } else {
        check(H5Sselect_none(mem_space.id()), context, "H5Sselect_none");
    }
    write_selected(dataset_.id(), type_, mem_space, file_space, mine > 0 ? bytes.data() : nullptr, context);
}

void Table::read(hsize_t first, hsize_t count, std::span<std::byte> out) const {
    const std::string context = file_->name() + ":" + path_;
    if (out.size() != count * row_size_) throw IoError(context + ": read buffer has the wrong size");
    if (first + count > rows()) throw IoError(context + ": read past the last row");
    Handle file_space(check(H5Dget_space(dataset_.id()), context, "H5Dget_space"), H5Sclose);
    const hsize_t one = 1;
    Handle mem_space(
        check(H5Screate_simple(1, count > 0 ? &count : &one, nullptr), context, "H5Screate_simple"),
        H5Sclose);
    if (count > 0) {
        check(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, &first, nullptr, &count, nullptr), context,
              "H5Sselect_hyperslab");
    } else {
        check(H5Sselect_none(file_space.id()), context, "H5Sselect_none");
        check(H5Sselect_none(mem_space.id()), context, "H5Sselect_none");
    }
    Handle dxpl = collective_transfer(context);
    std::byte dummy{};
    check(H5Dread(dataset_.id(), type_, mem_space.id(), file_space.id(), dxpl.id(),
                  count > 0 ? static_cast<void*>(out.data()) : &dummy),
          context, "H5Dread");
}

void Table::verify(hsize_t rows) const {
    const hsize_t block = std::max<hsize_t>(1, (hsize_t{4} << 20) / std::max<std::size_t>(row_size_, 1));
    std::vector<std::byte> buffer;
    for (hsize_t first = 0; first < rows; first += block) {
        const hsize_t count = std::min(block, rows - first);
        buffer.resize(count * row_size_);
        try {
            read(first, count, buffer);
        } catch (const IoError&) {
            throw IoError(file_->name() + ":" + path_ + ": rows " + std::to_string(first) + " to " +
                          std::to_string(first + count - 1) +
                          " cannot be read: the file is damaged there (a Fletcher32 checksum mismatch)");
        }
    }
}

void Table::truncate(hsize_t new_rows) {
    const std::string context = file_->name() + ":" + path_;
    int size = 0;
    MPI_Comm_size(file_->comm(), &size);
    // HDF5 1.10 shrinks a chunked dataset on rank 0's metadata cache only, which leaves the
    // other ranks' caches stale (MPI_ERR_TRUNCATE in a later collective): serial files only.
    if (size != 1) throw IoError(context + ": truncate needs a file opened by one process");
    if (new_rows > rows()) throw IoError(context + ": truncate cannot grow a table");
    check(H5Dset_extent(dataset_.id(), &new_rows), context, "H5Dset_extent");
}

}  // namespace pimdse::store::h5
