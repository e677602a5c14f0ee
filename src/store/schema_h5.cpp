// The declared schema as HDF5 objects (src/store/schema_h5.hpp).

#include "schema_h5.hpp"

#include <string>
#include <vector>

namespace pimdse::store {

namespace {

hid_t native(FieldKind kind) {
    switch (kind) {
        case FieldKind::int8:
            return H5T_NATIVE_INT8;
        case FieldKind::int16:
            return H5T_NATIVE_INT16;
        case FieldKind::int32:
            return H5T_NATIVE_INT32;
        case FieldKind::int64:
            return H5T_NATIVE_INT64;
        case FieldKind::float64:
        case FieldKind::text:
            break;
    }
    return H5T_NATIVE_DOUBLE;
}

}  // namespace

h5::CompoundType compound_type(const TableSchema& schema) {
    h5::CompoundType type(schema.row_size);
    for (const Field& f : schema.fields) {
        const std::string name(f.name);
        if (f.kind == FieldKind::text) {
            type.add_string(name.c_str(), f.offset, f.length);
        } else if (!f.enum_names.empty()) {
            const std::vector<std::string> names(f.enum_names.begin(), f.enum_names.end());
            type.add_enum(name.c_str(), f.offset, names, native(f.kind));
        } else {
            type.add(name.c_str(), f.offset, native(f.kind));
        }
    }
    return type;
}

void write_docs(h5::File& file, const std::string& path, const TableSchema& schema) {
    file.set_attribute(path, "meaning", std::string(schema.meaning));
    for (const Field& f : schema.fields) file.set_attribute(path, std::string(f.name), f.description());
}

}  // namespace pimdse::store
