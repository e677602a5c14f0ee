// Tables: 1-D extendible chunked datasets of compound rows (include/pimdse/store/hdf5.hpp).

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "hdf5_detail.hpp"

namespace pimdse::store::h5 {

using namespace detail;

Table::Table(File& file, std::string path, Handle dataset, hid_t type, std::size_t row_size,
             const RowPacking* packing)
    : file_(&file), path_(std::move(path)), dataset_(std::move(dataset)), type_(type), row_size_(row_size) {
    if (packing != nullptr) packing_ = *packing;
}

std::span<const std::byte> Table::packed(std::span<const std::byte> bytes,
                                         std::vector<std::byte>& buffer) const {
    if (!packing_) return bytes;
    const std::size_t n = bytes.size() / row_size_;
    buffer.assign(n * packing_->stored_size, std::byte{0});
    for (std::size_t i = 0; i < n; ++i) {
        for (const RowPacking::Move& m : packing_->moves) {
            std::memcpy(buffer.data() + i * packing_->stored_size + m.stored,
                        bytes.data() + i * row_size_ + m.memory, m.bytes);
        }
    }
    return buffer;
}

Table Table::create(File& file, const std::string& path, const CompoundType& type, hsize_t chunk_rows,
                    int deflate, const RowPacking* packing, std::span<const std::byte> fill) {
    const std::string context = file.name() + ":" + path;
    const hsize_t initial = 0;
    const hsize_t unlimited = H5S_UNLIMITED;
    Handle space(check(H5Screate_simple(1, &initial, &unlimited), context, "H5Screate_simple"), H5Sclose);
    Handle dcpl = property_list(H5P_DATASET_CREATE, context);
    const hsize_t chunk = std::max<hsize_t>(chunk_rows, 1);
    check(H5Pset_chunk(dcpl.id(), 1, &chunk), context, "H5Pset_chunk");
    // HDF5 refuses filters (Fletcher32 is always on) with the fill time "never". With "if set"
    // and a fill value, rows never written read as the fill row; the chunks a write covers
    // whole are not filled first.
    check(H5Pset_fill_time(dcpl.id(), H5D_FILL_TIME_IFSET), context, "H5Pset_fill_time");
    if (!fill.empty()) {
        if (fill.size() != H5Tget_size(type.id())) throw IoError(context + ": a fill row of the wrong size");
        check(H5Pset_fill_value(dcpl.id(), type.id(), fill.data()), context, "H5Pset_fill_value");
    }
    // Shuffle groups the bytes of each field across rows, which deflate then finds runs in.
    if (deflate > 0) set_compression(dcpl, deflate, context);
    apply_checksum(dcpl.id(), context);
    Handle lcpl = property_list(H5P_LINK_CREATE, context);
    check(H5Pset_create_intermediate_group(lcpl.id(), 1), context, "H5Pset_create_intermediate_group");
    Handle ds(check(H5Dcreate2(file.id(), path.c_str(), packing != nullptr ? packing->stored : type.id(),
                               space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT),
                    context, "H5Dcreate2"),
              H5Dclose);
    return Table(file, path, std::move(ds), type.id(), H5Tget_size(type.id()), packing);
}

Table Table::open(File& file, const std::string& path, const CompoundType& type, const RowPacking* packing) {
    const std::string context = file.name() + ":" + path;
    hid_t id = H5Dopen2(file.id(), path.c_str(), H5P_DEFAULT);
    if (id < 0) throw IoError(context + ": no such dataset");
    return Table(file, path, Handle(id, H5Dclose), type.id(), H5Tget_size(type.id()), packing);
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
    std::vector<std::byte> buffer;
    const std::span<const std::byte> rows_out = packed(bytes, buffer);
    write_selected(dataset_.id(), io_type(), mem_space, file_space, mine > 0 ? rows_out.data() : nullptr,
                   context);
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
    std::vector<std::byte> buffer;
    const std::span<const std::byte> rows_out = packed(bytes, buffer);
    write_selected(dataset_.id(), io_type(), mem_space, file_space, mine > 0 ? rows_out.data() : nullptr,
                   context);
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
    std::vector<std::byte> stored(packing_ ? count * packing_->stored_size : 0);
    void* into = packing_ ? static_cast<void*>(stored.data()) : static_cast<void*>(out.data());
    check(H5Dread(dataset_.id(), io_type(), mem_space.id(), file_space.id(), dxpl.id(),
                  count > 0 ? into : &dummy),
          context, "H5Dread");
    if (packing_) {
        std::fill(out.begin(), out.end(), std::byte{0});
        for (hsize_t i = 0; i < count; ++i) {
            for (const RowPacking::Move& m : packing_->moves) {
                std::memcpy(out.data() + i * row_size_ + m.memory,
                            stored.data() + i * packing_->stored_size + m.stored, m.bytes);
            }
        }
    }
}

void Table::verify(hsize_t rows, const BlockVisitor& visit) const {
    const hsize_t block = std::max<hsize_t>(1, (hsize_t{4} << 20) / std::max<std::size_t>(row_size_, 1));
    std::vector<std::byte> buffer;
    for (hsize_t first = 0; first < rows; first += block) {
        const hsize_t count = std::min(block, rows - first);
        buffer.resize(count * row_size_);
        try {
            read(first, count, buffer);
        } catch (const IoError& e) {
            throw IoError(file_->name() + ":" + path_ + ": rows " + std::to_string(first) + " to " +
                          std::to_string(first + count - 1) +
                          " cannot be read: the file is damaged there (a Fletcher32 checksum mismatch; " +
                          e.what() + ")");
        }
        if (visit) visit(first, buffer);
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
