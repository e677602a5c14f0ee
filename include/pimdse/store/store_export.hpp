#pragma once
// A sweep file's tables as CSV (`pimdse export`, docs/cli.md): one file per table, its
// committed rows only. Generic over the schema: the tables are found by walking the file,
// the columns are the compound fields with the unit of each field's meaning attribute in the
// header ("latency_s [s]"), enums are written as their names and the committed row counts
// come from /commit, whose meaning attribute names the tables it counts. So a field or a
// table the store adds later is exported without a change here.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace pimdse::store {

/// One exported table.
struct ExportedTable {
    std::string table;           ///< its path in the file, without the leading '/'
    std::filesystem::path file;  ///< the CSV written
    std::int64_t rows = 0;
    std::size_t columns = 0;
};

/// Writes every table of the sweep file `h5` to `dir` (created if missing) as
/// `<table with '/' as '_'>.csv`. One process; MPI must be initialised (parallel HDF5).
/// Throws IoError naming the file when it cannot be read or a CSV cannot be written.
std::vector<ExportedTable> export_csv(const std::filesystem::path& h5, const std::filesystem::path& dir);

/// The unit at the end of a field's meaning after a space, "latency summed [s]" -> "s";
/// empty if none ("channel group n of BCHW[Cn]" has none).
[[nodiscard]] std::string unit_of(const std::string& meaning);

}  // namespace pimdse::store
