// Reading an accuracy table (include/pimdse/io/accuracy_table.hpp).

#include "pimdse/io/accuracy_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <system_error>

#include "pimdse/core/error.hpp"

namespace pimdse::io {

namespace {

std::string trimmed(std::string_view s) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return std::string(s);
}

std::vector<std::string> cells_of(std::string_view line) {
    std::vector<std::string> out;
    for (std::size_t i = 0;;) {
        const std::size_t j = std::min(line.find(',', i), line.size());
        out.push_back(trimmed(line.substr(i, j - i)));
        if (j == line.size()) return out;
        i = j + 1;
    }
}

// One line's place in the file for messages.
struct Place {
    const std::filesystem::path& path;
    std::size_t line;

    [[noreturn]] void fail(const std::string& column, const std::string& problem) const {
        throw InputError({path.string(), line, 0}, column, problem);
    }
};

// The header's columns: network, accuracy_loss and key parameters (indices into `params`).
struct Header {
    std::size_t network = 0, loss = 0;
    std::vector<std::pair<std::size_t, std::size_t>> keys;  // (column, parameter)
};

Header header_of(const std::vector<std::string>& cells, std::span<const std::string> params,
                 const Place& at) {
    Header h;
    bool network = false, loss = false;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const std::string& name = cells[c];
        for (std::size_t d = 0; d < c; ++d) {
            if (cells[d] == name) at.fail(name, "the column '" + name + "' twice");
        }
        if (name == "network") {
            h.network = c, network = true;
        } else if (name == "accuracy_loss") {
            h.loss = c, loss = true;
        } else if (auto p = std::find(params.begin(), params.end(), name); p != params.end()) {
            h.keys.emplace_back(c, static_cast<std::size_t>(p - params.begin()));
        } else {
            std::string known;
            for (const std::string& n : params) known += ", " + n;
            at.fail(name.empty() ? "header" : name,
                    "expected a column named network, accuracy_loss or a parameter of the design space (" +
                        known.substr(2) + "), got '" + name + "'");
        }
    }
    if (!network) at.fail("network", "expected a column 'network' (the workload network's name)");
    if (!loss) at.fail("accuracy_loss", "expected a column 'accuracy_loss' (percentage points)");
    return h;
}

template <class T>
T number(const std::string& text, const std::string& column, const Place& at, const char* want) {
    T v{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        at.fail(column, std::string("expected ") + want + ", got '" + text + "'");
    return v;
}

}  // namespace

AccuracyTable AccuracyTable::read(const std::filesystem::path& path, std::span<const std::string> params) {
    std::ifstream in(path);
    if (!in) throw InputError({path.string()}, "crossbar.accuracy_table", "cannot open the accuracy table");
    AccuracyTable t;
    std::optional<Header> header;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        const std::string text = trimmed(line);
        if (text.empty() || text.front() == '#') continue;
        const Place at{path, n};
        const std::vector<std::string> cells = cells_of(text);
        if (!header) {
            header = header_of(cells, params, at);
            for (const auto& k : header->keys) t.keys_.push_back(k.second);
            continue;
        }
        if (cells.size() != header->keys.size() + 2)
            at.fail("row", "expected " + std::to_string(header->keys.size() + 2) +
                               " cells as in the header, got " + std::to_string(cells.size()));
        Key key{cells[header->network], {}};
        if (key.first.empty()) at.fail("network", "expected a network name, got an empty cell");
        for (const auto& [column, param] : header->keys)
            key.second.push_back(number<std::int64_t>(cells[column], params[param], at, "an integer"));
        const double loss =
            number<double>(cells[header->loss], "accuracy_loss", at, "a number (percentage points)");
        if (!std::isfinite(loss))
            at.fail("accuracy_loss", "expected a finite number, got '" + cells[header->loss] + "'");
        if (!t.losses_.emplace(std::move(key), loss).second)
            at.fail("row", "a second row for the same network and parameter values");
    }
    if (!header)
        throw InputError({path.string()}, "header", "expected a header line (network, accuracy_loss, ...)");
    return t;
}

std::optional<double> AccuracyTable::find(std::string_view network,
                                          std::span<const std::int32_t> values) const {
    Key key{std::string(network), {}};
    for (std::size_t p : keys_) {
        if (p >= values.size()) return std::nullopt;
        key.second.push_back(values[p]);
    }
    const auto it = losses_.find(key);
    if (it == losses_.end()) return std::nullopt;
    return it->second;
}

}  // namespace pimdse::io
