#include "pimdse/store/hdf5.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "hdf5_detail.hpp"

#include "pimdse/core/error.hpp"

namespace pimdse::store::h5 {

void Handle::reset() noexcept {
    if (id_ >= 0 && closer_ != nullptr) closer_(id_);
    id_ = H5I_INVALID_HID;
}

void start_library_before_mpi() {
    H5dont_atexit();
    H5open();
}

hid_t check(hid_t status, const std::string& context, const char* what) {
    if (status < 0) {
        // HDF5's error stack ends at "file write failed"; the system's reason is still in errno
        // (the MPI-IO layer's pwritev set it), and a full disk must say so.
        const int err = errno;
        const bool system_reason =
            err == ENOSPC || err == EDQUOT || err == EIO || err == EROFS || err == EFBIG || err == ESTALE;
        std::string message = context + ": " + what + " failed";
        if (system_reason) message += std::string(": ") + std::strerror(err);
        const std::string cause = detail::error_stack_cause();
        if (!cause.empty()) message += " (HDF5: " + cause + ")";
        throw IoError(message);
    }
    return status;
}

namespace detail {

namespace {

// One error record's "function(): description", innermost first (H5E_WALK_UPWARD).
herr_t describe(unsigned n, const H5E_error2_t* e, void* data) {
    auto& out = *static_cast<std::string*>(data);
    if (n >= 3) return 0;  // the innermost three say why; the rest is the call chain
    if (!out.empty()) out += "; ";
    out += e->func_name != nullptr ? e->func_name : "?";
    out += "(): ";
    out += e->desc != nullptr ? e->desc : "?";
    return 0;
}

}  // namespace

std::string error_stack_cause() {
    std::string out;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, describe, &out);
    H5Eclear2(H5E_DEFAULT);
    return out;
}

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

void apply_checksum(hid_t dcpl, const std::string& context) {
    check(H5Pset_fletcher32(dcpl), context, "H5Pset_fletcher32");
}

Handle string_type(std::size_t length, const std::string& context) {
    Handle t(check(H5Tcopy(H5T_C_S1), context, "H5Tcopy"), H5Tclose);
    check(H5Tset_size(t.id(), length), context, "H5Tset_size");
    check(H5Tset_strpad(t.id(), H5T_STR_NULLPAD), context, "H5Tset_strpad");
    check(H5Tset_cset(t.id(), H5T_CSET_UTF8), context, "H5Tset_cset");
    return t;
}

}  // namespace detail

using namespace detail;

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
                                     const std::vector<std::string>& names, hid_t base,
                                     const std::string& minus_one) {
    const std::string context = std::string("compound enum field '") + name + "'";
    Handle e(check(H5Tenum_create(base), context, "H5Tenum_create"), H5Tclose);
    const auto insert = [&](const std::string& member, std::int64_t v) {
        // The value in the base type's own width (native byte order).
        std::array<std::byte, 8> value{};
        const auto put = [&](auto x) { std::memcpy(value.data(), &x, sizeof x); };
        switch (H5Tget_size(base)) {
            case 1:
                put(static_cast<std::int8_t>(v));
                break;
            case 2:
                put(static_cast<std::int16_t>(v));
                break;
            case 4:
                put(static_cast<std::int32_t>(v));
                break;
            default:
                put(v);
        }
        check(H5Tenum_insert(e.id(), member.c_str(), value.data()), context, "H5Tenum_insert");
    };
    if (!minus_one.empty()) insert(minus_one, -1);
    for (std::size_t i = 0; i < names.size(); ++i) insert(names[i], static_cast<std::int64_t>(i));
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

}  // namespace pimdse::store::h5
