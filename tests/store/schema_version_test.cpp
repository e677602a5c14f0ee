// The sweep file's format version follows its declared tables: a table's path, or a field's
// name, type or unit (include/pimdse/store/schema.hpp) changed without bumping
// kStoreFormatVersion fails here, because a pimdse reading the file by its version would
// take the new layout for the old one. Meanings are text only and not part of the check.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

#include "dram_pim_columns.hpp"
#include "pimdse/store/format_version.hpp"
#include "pimdse/store/schema.hpp"

namespace pimdse::store {
namespace {

// One line per table and per field: what a file of this format holds.
std::string layout_text() {
    std::string text;
    for (const TableSchema& t : dram_pim_tables()) {
        text += "table " + std::string(t.path) + '\n';
        for (const Field& f : t.fields) {
            text += std::string(f.name) + '\t' + f.type_name() + '\t' + std::string(f.unit) + '\n';
        }
    }
    return text;
}

std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llxULL", static_cast<unsigned long long>(v));
    return buf;
}

TEST(SchemaVersion, FingerprintOfTheDeclaredTablesIsTheLastRecorded) {
    const std::string text = layout_text();
    const std::uint64_t now = fnv1a(text);
    const auto& [version, recorded] = kStoreSchemaFingerprints.back();
    ASSERT_LE(version, kStoreFormatVersion)
        << "kStoreSchemaFingerprints records version " << version << " but kStoreFormatVersion is "
        << kStoreFormatVersion << ": bump kStoreFormatVersion to " << version
        << " together with the tables' change (include/pimdse/store/format_version.hpp).";
    // The version the new fingerprint belongs to: the current one if it was already bumped
    // past the last recorded entry, else the next.
    const std::int64_t next = version < kStoreFormatVersion ? kStoreFormatVersion : kStoreFormatVersion + 1;
    EXPECT_EQ(recorded, now)
        << "The declared tables (src/store/schema.cpp) changed: a table's path or a field's name, type or "
           "unit differs from what format version "
        << version << " recorded. Set kStoreFormatVersion in include/pimdse/store/format_version.hpp to "
        << next << " and append {" << next << ", " << hex(now) << "} to kStoreSchemaFingerprints together "
        << "(and say what changed in docs/output.md's format_version). The layout now:\n"
        << text;
}

TEST(SchemaVersion, EveryVersionHasItsOwnFingerprint) {
    std::set<std::uint64_t> seen;
    std::int64_t previous = 0;
    for (const auto& [version, fingerprint] : kStoreSchemaFingerprints) {
        EXPECT_GT(version, previous) << "versions are recorded oldest first, each once";
        EXPECT_TRUE(seen.insert(fingerprint).second)
            << "version " << version << " records the fingerprint of an earlier version: a version "
            << "bump that leaves the tables as they are needs no entry";
        previous = version;
    }
}

TEST(SchemaVersion, FingerprintSeesNamesTypesAndUnits) {
    // The text the fingerprint hashes holds what it claims to: every table and field.
    const std::string text = layout_text();
    std::size_t fields = 0;
    for (const TableSchema& t : dram_pim_tables()) {
        EXPECT_NE(text.find("table " + std::string(t.path) + '\n'), std::string::npos) << t.path;
        fields += t.fields.size();
    }
    std::size_t lines = 0;
    for (const char c : text) lines += c == '\n' ? 1 : 0;
    EXPECT_EQ(lines, dram_pim_tables().size() + fields);
    EXPECT_NE(fnv1a(text + "x"), fnv1a(text));
}

}  // namespace
}  // namespace pimdse::store
