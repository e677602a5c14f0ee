#pragma once
// The declared schema (store/schema.hpp) as HDF5 objects: a table's compound type, and the
// attributes that describe its fields in the file (private to store).

#include <string>

#include "pimdse/store/hdf5.hpp"
#include "pimdse/store/schema.hpp"

namespace pimdse::store {

/// The compound type of a table's rows, field by field in declared order.
[[nodiscard]] h5::CompoundType compound_type(const TableSchema& schema);

/// Collective: the table's attribute `meaning`, and one attribute per field, named like the
/// field, holding Field::description().
void write_docs(h5::File& file, const std::string& path, const TableSchema& schema);

}  // namespace pimdse::store
