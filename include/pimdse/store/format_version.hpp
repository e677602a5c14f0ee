#pragma once
// What a sweep file says about its format: its name and version (the root attributes
// `format` and `format_version`, docs/output.md), and the fingerprint of the declared tables
// (schema.hpp) each version was recorded with. Free of HDF5 and MPI, so that a test or a
// tool can read it without them.

#include <array>
#include <cstdint>
#include <utility>

namespace pimdse::store {

/// Format of the sweep file; bumped on any incompatible schema change.
inline constexpr std::int64_t kStoreFormatVersion = 11;
/// The declared tables' fingerprint from the format version that introduced them, oldest
/// first: FNV-1a (64 bit) of every table's path and every field's name, type and unit
/// (schema.hpp). tests/store/schema_version_test.cpp recomputes it and fails unless it is the
/// last entry's, whose version is at most kStoreFormatVersion and above the one before: a
/// change of a table's fields bumps kStoreFormatVersion and appends its entry together. A
/// bump for another reason (the commit protocol, say) leaves this list as it is.
inline constexpr std::array<std::pair<std::int64_t, std::uint64_t>, 9> kStoreSchemaFingerprints{{
    {3, 0x0896a5fd7ae074b7ULL},
    {4, 0x23774a53b9738d5bULL},
    {5, 0x86f306935db190cdULL},
    {6, 0x4ddda6e98cf77192ULL},
    {7, 0xf880f3350c20572cULL},
    {8, 0xfc24735c219f2b12ULL},
    {9, 0x8d892f5484740d9eULL},
    {10, 0x3968e421d8fa9348ULL},
    {11, 0x894c6ec875ac05b7ULL},
}};
/// The root attribute `format` of every sweep file.
inline constexpr const char* kStoreFormatName = "pimdse sweep";

}  // namespace pimdse::store
