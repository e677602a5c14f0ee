#pragma once
// The store's tests write and check files of the dram_pim family: its columns as the engine
// gives them to a sweep file, and the tables declared with them (docs/output.md documents
// that family's file).

#include <vector>

#include "pimdse/engine/explore.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/store/schema.hpp"

namespace pimdse::store {

[[nodiscard]] inline const FamilyColumns& dram_pim_columns() {
    static const FamilyColumns c = engine::family_columns(*family::make_family(io::Config{}), io::Config{});
    return c;
}

[[nodiscard]] inline const std::vector<TableSchema>& dram_pim_tables() {
    static const std::vector<TableSchema> t = declared_tables(dram_pim_columns());
    return t;
}

}  // namespace pimdse::store
