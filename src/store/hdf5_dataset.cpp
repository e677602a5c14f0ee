// The small fixed datasets of a file (include/pimdse/store/hdf5.hpp): texts and integer
// arrays. Each is chunked (one chunk) only so that Fletcher32 applies to it: HDF5 filters
// chunked datasets alone, and a damaged configuration text or commit record must be an
// error naming the dataset, like a damaged table row.

#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hdf5_detail.hpp"

namespace pimdse::store::h5 {

using namespace detail;

namespace {

// A 1-D dataset of `n` elements in one chunk with Fletcher32, created with parent groups.
Handle create_checked(hid_t file, const std::string& path, hid_t type, hsize_t n,
                      const std::string& context) {
    Handle space(check(H5Screate_simple(1, &n, nullptr), context, "H5Screate_simple"), H5Sclose);
    Handle dcpl = property_list(H5P_DATASET_CREATE, context);
    check(H5Pset_chunk(dcpl.id(), 1, &n), context, "H5Pset_chunk");
    apply_checksum(dcpl.id(), context);
    Handle lcpl = property_list(H5P_LINK_CREATE, context);
    check(H5Pset_create_intermediate_group(lcpl.id(), 1), context, "H5Pset_create_intermediate_group");
    return Handle(check(H5Dcreate2(file, path.c_str(), type, space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT),
                        context, "H5Dcreate2"),
                  H5Dclose);
}

// Collective: rank 0 writes all of `ds` from `data`, the other ranks select nothing.
void write_whole(const Handle& ds, hid_t mem_type, const void* data, MPI_Comm comm,
                 const std::string& context) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    Handle file_space(check(H5Dget_space(ds.id()), context, "H5Dget_space"), H5Sclose);
    Handle mem_space(check(H5Scopy(file_space.id()), context, "H5Scopy"), H5Sclose);
    if (rank != 0) {
        check(H5Sselect_none(file_space.id()), context, "H5Sselect_none");
        check(H5Sselect_none(mem_space.id()), context, "H5Sselect_none");
    }
    Handle dxpl = collective_transfer(context);
    check(H5Dwrite(ds.id(), mem_type, mem_space.id(), file_space.id(), dxpl.id(), data), context, "H5Dwrite");
}

}  // namespace

void File::write_text(const std::string& path, const std::string& text) {
    const std::string context = name_ + ":" + path;
    // One fixed-length string (at least one byte: HDF5 has no zero-length strings).
    Handle type = string_type(std::max<std::size_t>(text.size(), 1), context);
    Handle ds = create_checked(file_.id(), path, type.id(), 1, context);
    std::string padded = text;
    padded.resize(std::max<std::size_t>(text.size(), 1), '\0');
    write_whole(ds, type.id(), padded.data(), comm_, context);
}

void File::write_int64s(const std::string& path, std::span<const std::int64_t> values) {
    const std::string context = name_ + ":" + path;
    const hsize_t n = values.size();
    Handle ds =
        H5Lexists(file_.id(), path.c_str(), H5P_DEFAULT) > 0
            ? Handle(check(H5Dopen2(file_.id(), path.c_str(), H5P_DEFAULT), context, "H5Dopen2"), H5Dclose)
            : create_checked(file_.id(), path, H5T_STD_I64LE, n, context);
    Handle file_space(check(H5Dget_space(ds.id()), context, "H5Dget_space"), H5Sclose);
    if (H5Sget_simple_extent_npoints(file_space.id()) != static_cast<hssize_t>(n)) {
        throw IoError(context + ": an integer array of another length");
    }
    write_whole(ds, H5T_NATIVE_INT64, values.data(), comm_, context);
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

}  // namespace pimdse::store::h5
