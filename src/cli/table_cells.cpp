// The cells of the --layers tables (table_cells.hpp).

#include "table_cells.hpp"

#include <cstdio>

namespace pimdse::cli {

namespace {

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csv_field(const Cell& cell) {
    if (const double* v = std::get_if<double>(&cell)) return number_text(*v);
    const std::string& s = std::get<std::string>(cell);
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (const char ch : s) {
        if (ch == '"') out += '"';
        out += ch;
    }
    return out + '"';
}

std::string json_value(const Cell& cell) {
    if (const double* v = std::get_if<double>(&cell)) return number_text(*v);
    return json_string(std::get<std::string>(cell));
}

}  // namespace

std::string number_text(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (u < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", u);
            out += buffer;
        } else {
            out += ch;
        }
    }
    return out + '"';
}

std::string json_object(const Row& row) {
    std::string out = "{";
    for (std::size_t k = 0; k < row.size(); ++k) {
        if (k > 0) out += ", ";
        out += json_string(row[k].first);
        out += ": ";
        out += json_value(row[k].second);
    }
    return out + '}';
}

std::string csv_table(const std::vector<Row>& rows) {
    std::string out;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == 0) {
            for (std::size_t k = 0; k < rows[i].size(); ++k) {
                if (k > 0) out += ',';
                out += rows[i][k].first;
            }
            out += '\n';
        }
        for (std::size_t k = 0; k < rows[i].size(); ++k) {
            if (k > 0) out += ',';
            out += csv_field(rows[i][k].second);
        }
        out += '\n';
    }
    return out;
}

}  // namespace pimdse::cli
