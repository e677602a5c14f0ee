// The declared schema as HDF5 objects (src/store/schema_h5.hpp).

#include "schema_h5.hpp"

#include <algorithm>
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

// The name of an enum's value -1: kUnwritten in a batch table (schema.hpp), none elsewhere.
std::string minus_one(const Field& f) {
    return f.unwritten ? std::string(kUnwritten) : std::string();
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
            type.add_enum(name.c_str(), f.offset, names, native(f.kind), minus_one(f));
        } else {
            type.add(name.c_str(), f.offset, native(f.kind));
        }
    }
    return type;
}

StoredLayout stored_layout(const TableSchema& schema) {
    // Offsets in the order of the row struct; members added in declared order, as
    // compound_type adds them.
    std::vector<std::size_t> order(schema.fields.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return schema.fields[a].offset < schema.fields[b].offset;
    });
    std::vector<std::size_t> at(schema.fields.size());
    std::size_t end = 0;
    std::size_t widest = 1;
    for (std::size_t i : order) {
        const Field& f = schema.fields[i];
        const std::size_t align = f.kind == FieldKind::text ? 1 : f.size();
        end = (end + align - 1) / align * align;
        at[i] = end;
        end += f.size();
        widest = std::max(widest, align);
    }
    const std::size_t size = (end + widest - 1) / widest * widest;
    StoredLayout out{h5::CompoundType(size), {}, size == schema.row_size};
    for (std::size_t i = 0; i < schema.fields.size(); ++i) {
        const Field& f = schema.fields[i];
        const std::string name(f.name);
        if (f.kind == FieldKind::text) {
            out.type.add_string(name.c_str(), at[i], f.length);
        } else if (!f.enum_names.empty()) {
            const std::vector<std::string> names(f.enum_names.begin(), f.enum_names.end());
            out.type.add_enum(name.c_str(), at[i], names, native(f.kind), minus_one(f));
        } else {
            out.type.add(name.c_str(), at[i], native(f.kind));
        }
        out.packing.moves.push_back({f.offset, at[i], f.size()});
        out.same = out.same && at[i] == f.offset;
    }
    out.packing.stored = out.type.id();
    out.packing.stored_size = size;
    return out;
}

void write_docs(h5::File& file, const std::string& path, const TableSchema& schema) {
    file.set_attribute(path, "meaning", std::string(schema.meaning));
    for (const Field& f : schema.fields) file.set_attribute(path, std::string(f.name), f.description());
}

}  // namespace pimdse::store
