#pragma once
// The cells of the machine-readable tables that `--layers FILE` writes (layer_table.hpp for
// the DRAM-PIM report, crossbar_layer_table.hpp for crossbar designs): a row is a list of
// named numbers and texts, written as CSV (RFC 4180 quoting) or as a JSON object. Numbers
// carry 17 significant digits, so that reading one back gives the value a report rounds.

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace pimdse::cli {

/// One cell: a number or a text.
using Cell = std::variant<double, std::string>;
/// One row: its cells with their column names, in column order.
using Row = std::vector<std::pair<const char*, Cell>>;

/// A number with 17 significant digits ("%.17g").
[[nodiscard]] std::string number_text(double v);
/// A JSON string literal, quotes and control characters escaped.
[[nodiscard]] std::string json_string(const std::string& s);
/// {"column": value, ...} of one row.
[[nodiscard]] std::string json_object(const Row& row);
/// The header (the first row's column names) and one line per row; empty for no rows.
[[nodiscard]] std::string csv_table(const std::vector<Row>& rows);

}  // namespace pimdse::cli
