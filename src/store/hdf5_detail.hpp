#pragma once
// Pieces shared by the HDF5 adapter's files (private to store): hdf5.cpp (handles, errors,
// files, attributes), hdf5_dataset.cpp (the small fixed datasets: texts and the commit
// record) and hdf5_table.cpp (tables).

#include <cstddef>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/store/hdf5.hpp"

namespace pimdse::store::h5::detail {

/// The innermost records of HDF5's error stack, "H5Z_filter_fletcher32(): data error
/// detected by Fletcher32 checksum; ...", and the stack cleared; empty if there are none.
/// HDF5 does not print its stack (silence_hdf5_error_stack), so check() keeps the cause.
[[nodiscard]] std::string error_stack_cause();
/// HDF5 prints its error stack to stderr by default; we report through IoError instead
/// (PIMDSE_HDF5_ERRORS set: HDF5 prints it as well).
void silence_hdf5_error_stack();
[[nodiscard]] Handle property_list(hid_t cls, const std::string& context);
/// A collective transfer with independent MPI-IO underneath (docs/output.md, "Parallel writes").
[[nodiscard]] Handle collective_transfer(const std::string& context);
/// The collective write of a dataset's selected rows; a rank with none (`rows` null) still
/// takes part, with a dummy buffer.
void write_selected(hid_t dataset, hid_t type, const Handle& mem_space, const Handle& file_space,
                    const std::byte* rows, const std::string& context);
void set_compression(const Handle& dcpl, int level, const std::string& context);
/// Fletcher32 on every chunk: a flipped byte is then an error naming the dataset when it is
/// read, not data. It composes with other filters.
void apply_checksum(hid_t dcpl, const std::string& context);
/// A fixed-length, NUL-padded UTF-8 string type of `length` bytes.
[[nodiscard]] Handle string_type(std::size_t length, const std::string& context);

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

}  // namespace pimdse::store::h5::detail
