#pragma once
// The sweep file's tables, declared once (docs/output.md, "Tables"): for every table its
// path and meaning, for every field its name, storage type, unit and meaning, in the order
// of the file. The HDF5 compound types, the attributes that describe the fields in the
// file, and the test that checks docs/output.md's field tables (tests/store/schema_test.cpp)
// are all derived from this one declaration (src/store/schema.cpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pimdse::store {

/// How a field is stored: a native integer or float, or a fixed-length string.
enum class FieldKind : std::uint8_t { int8, int16, int32, int64, float64, text };

struct Field {
    std::string_view name;              ///< the field's name in the file (the row struct's member)
    std::size_t offset = 0;             ///< of the member in the row struct
    FieldKind kind = FieldKind::int64;  ///< an enum field's integer base type
    std::size_t length = 0;             ///< text: bytes of the NUL-padded string
    /// An HDF5 enum when not empty: names[i] is the value i (the owning enum's name table).
    std::vector<std::string_view> enum_names;
    std::string_view unit;     ///< empty when the field has none
    std::string_view meaning;  ///< without the unit
    /// The field holds -1 in a row that was never written (the table's fill row,
    /// unwritten_row): a batch table's id field and its enums, which then have the member
    /// kUnwritten = -1 besides names[i] = i.
    bool unwritten = false;

    /// The field's attribute in the file and its meaning in docs/output.md: "<meaning> [<unit>]".
    [[nodiscard]] std::string description() const;
    /// "int64", "float64", "string[64]", "enum: ok, infeasible" (docs/output.md's type column).
    [[nodiscard]] std::string type_name() const;
    /// Bytes of the field in the row.
    [[nodiscard]] std::size_t size() const;
};

/// The enum member, value -1, of a batch table's rows that hold no data: the rows a table
/// holds ahead of its committed rows, and the padding to a chunk's end (docs/output.md,
/// "What a commit guarantees").
inline constexpr std::string_view kUnwritten = "unwritten";

/// The sweep file's tables, in the order of docs/output.md.
enum class TableId : std::uint8_t {
    candidates,
    metrics,
    layers,
    segments,
    schedules,
    batches,
    pareto,
    networks,
    workload_layers,
};

/// A column a design-point family adds to the file (family::Family): a parameter or a metric
/// of /candidates, or an energy part of /metrics.
struct FamilyColumn {
    std::string name;     ///< a parameter or energy part as the family names it
    std::string unit;     ///< empty when none; energy parts are "J"
    std::string meaning;  ///< without the unit

    friend bool operator==(const FamilyColumn&, const FamilyColumn&) = default;
};

/// The family's columns of a sweep file: its parameters (int32, in /candidates after
/// `proposer`, in the family's order), its energy parts (float64 J, in /metrics after
/// `energy_j`) and its per-candidate metrics (float64, in /candidates after `cost`). At most
/// kMaxFamilyColumns of each. Beside them, the units the configuration decides: of the cost
/// fields (cost.alpha and cost.beta) and of the Pareto objectives (/tuner/batches'
/// hypervolume and reference point); empty, the tables give the units of the default
/// configuration's.
struct FamilyColumns {
    std::vector<FamilyColumn> params;
    std::vector<FamilyColumn> energy_parts;
    std::vector<FamilyColumn> metrics;
    std::string cost_unit;                     ///< NicePIM Eq. 1's cost: "J s"
    std::vector<std::string> objective_units;  ///< each objective's, in order: "s", "J", "mm2"
    std::string hypervolume_unit;              ///< their product: "s J mm2"

    friend bool operator==(const FamilyColumns&, const FamilyColumns&) = default;
};
inline constexpr std::size_t kMaxFamilyColumns = 12;

/// The unit of a hypervolume over objectives of these units: their product, a unit with a
/// space in parentheses ("s J mm2", "(J s) mm2").
[[nodiscard]] std::string hypervolume_unit(const std::vector<std::string>& objective_units);

struct TableSchema {
    TableId id = TableId::candidates;
    /// "/candidates"; the per-network layer table is "/workloads/<net>/layers".
    std::string_view path;
    std::string_view meaning;  ///< the table's `meaning` attribute
    std::size_t row_size = 0;  ///< sizeof the row struct
    std::vector<Field> fields;
    /// The family columns the fields of /candidates and /metrics name (kept alive here).
    std::shared_ptr<const FamilyColumns> columns;
};

/// Every table of a file with the family columns `columns`, in TableId order. Throws
/// IoError for more than kMaxFamilyColumns of either kind or an empty or repeated name.
[[nodiscard]] std::vector<TableSchema> declared_tables(const FamilyColumns& columns);
/// A row of `schema` that holds no data, in the row struct's layout: -1 in the fields marked
/// `unwritten` (an enum's kUnwritten), zero elsewhere. A batch table's HDF5 fill value, and
/// what the store writes after a batch's last row to its chunk's end.
[[nodiscard]] std::vector<std::byte> unwritten_row(const TableSchema& schema);
/// One table's path, meaning, row size and fields; /candidates and /metrics without family
/// columns (a file's own are Store's: declared_tables of its columns).
[[nodiscard]] const TableSchema& schema(TableId id);

}  // namespace pimdse::store
