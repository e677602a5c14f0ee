#pragma once
// The declared schema (store/schema.hpp) as HDF5 objects: a table's compound type, and the
// attributes that describe its fields in the file (private to store).

#include <string>

#include "pimdse/store/hdf5.hpp"
#include "pimdse/store/schema.hpp"

namespace pimdse::store {

/// The compound type of a table's rows in memory, field by field in declared order, at the
/// row struct's offsets.
[[nodiscard]] h5::CompoundType compound_type(const TableSchema& schema);

/// The layout a table's rows have in the file: the same fields laid out as a C struct of
/// exactly those fields (in offset order, each at its natural alignment), so that a row
/// struct with room for more family columns than a file uses stores only those. For a struct
/// whose every member is a field it is the struct's own layout (`same` is then true).
struct StoredLayout {
    h5::CompoundType type;
    h5::RowPacking packing;  ///< memory -> file moves; packing.stored is type's id
    bool same = true;        ///< the file's layout is the memory's: no packing needed

    /// For Table::create and open: null when the layouts are the same.
    [[nodiscard]] const h5::RowPacking* packing_or_null() const { return same ? nullptr : &packing; }
};
[[nodiscard]] StoredLayout stored_layout(const TableSchema& schema);

/// Collective: the table's attribute `meaning`, and one attribute per field, named like the
/// field, holding Field::description().
void write_docs(h5::File& file, const std::string& path, const TableSchema& schema);

}  // namespace pimdse::store
