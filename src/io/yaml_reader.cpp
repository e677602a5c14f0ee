#include "yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace pimdse::io::yaml {

namespace {

// yaml-cpp marks are 0-based and -1 when unknown.
std::size_t line_of(const YAML::Mark& m) {
    return m.line >= 0 ? static_cast<std::size_t>(m.line) + 1 : 0;
}

// Plain scalars only: a quoted "8" is a string, and a number must look like one.
bool is_plain_scalar(const YAML::Node& n) {
    return n.IsScalar() && n.Tag() != "!";
}

std::string interval(std::int64_t lo, std::int64_t hi) {
    if (hi == std::numeric_limits<std::int64_t>::max()) return "an integer >= " + std::to_string(lo);
    return "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

std::string format_bound(double v) {
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

}  // namespace

std::string describe(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsSequence()) return node.size() == 0 ? "an empty list" : "a list";
    if (node.IsMap()) return node.size() == 0 ? "an empty mapping" : "a mapping";
    if (!is_plain_scalar(node)) return "the string \"" + node.Scalar() + "\"";
    return node.Scalar();
}

std::string one_of(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += (i + 1 == names.size()) ? " or " : ", ";
        out += names[i];
    }
    return out;
}

Field Reader::load(std::string_view text, std::string_view top_keys) const {
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(std::string(text));
    } catch (const YAML::Exception& e) {
        throw InputError({file_, std::max<std::size_t>(line_of(e.mark), 1), 0}, "",
                         "expected valid YAML, got a syntax error: " + e.msg);
    }
    const std::string want = "expected a mapping with the keys " + std::string(top_keys);
    if (docs.empty() || docs.front().IsNull())
        throw InputError({file_, 1, 0}, "", want + ", got an empty file");
    if (docs.size() > 1) {
        throw InputError({file_, line_of(docs[1].Mark()), 0}, "",
                         "expected one YAML document, got " + std::to_string(docs.size()));
    }
    Field root{docs.front(), std::max<std::size_t>(line_of(docs.front().Mark()), 1), ""};
    if (!root.node.IsMap())
        throw InputError({file_, root.line, 0}, "", want + ", got " + describe(root.node));
    return root;
}

void Reader::type_error(const Field& f, const std::string& expected) const {
    throw InputError({file_, f.line, 0}, f.path, "expected " + expected + ", got " + describe(f.node));
}

void Reader::value_error(const Field& f, const std::string& expected, const std::string& got) const {
    value_error(f.line, f.path, expected, got);
}

void Reader::value_error(std::size_t line, const std::string& path, const std::string& expected,
                         const std::string& got) const {
    throw ConfigError({file_, line, 0}, path, "expected " + expected + ", got " + got);
}

std::int64_t Reader::integer(const Field& f, std::int64_t lo, std::int64_t hi,
                             std::string_view expected) const {
    const std::string want = expected.empty() ? interval(lo, hi) : std::string(expected);
    if (!is_plain_scalar(f.node)) type_error(f, want);
    const std::string& s = f.node.Scalar();
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc::result_out_of_range) value_error(f, want, s);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) type_error(f, want);
    if (v < lo || v > hi) value_error(f, want, s);
    return v;
}

std::uint64_t Reader::unsigned64(const Field& f) const {
    const std::string want =
        "an integer in [0, " + std::to_string(std::numeric_limits<std::uint64_t>::max()) + "]";
    if (!is_plain_scalar(f.node)) type_error(f, want);
    const std::string& s = f.node.Scalar();
    if (!s.empty() && s[0] == '-') value_error(f, want, s);
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc::result_out_of_range) value_error(f, want, s);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) type_error(f, want);
    return v;
}

double Reader::number(const Field& f, double lo, bool open) const {
    const std::string want = std::string("a number ") + (open ? "> " : ">= ") + format_bound(lo);
    if (!is_plain_scalar(f.node)) type_error(f, want);
    const std::string& s = f.node.Scalar();
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) type_error(f, want);
    // from_chars accepts "inf" and "nan"; a cost exponent or weight must be an ordinary number.
    if (!std::isfinite(v)) type_error(f, want);
    if (open ? !(v > lo) : !(v >= lo)) value_error(f, want, s);
    return v;
}

std::string Reader::string(const Field& f) const {
    if (!f.node.IsScalar() || f.node.Scalar().empty()) type_error(f, "a non-empty string");
    return f.node.Scalar();
}

std::size_t Reader::choice(const Field& f, const std::vector<std::string_view>& names) const {
    const std::string want = "one of " + one_of(names);
    if (!f.node.IsScalar()) type_error(f, want);
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (f.node.Scalar() == names[i]) return i;
    }
    value_error(f, want, describe(f.node));
}

std::vector<Field> Reader::list(const Field& f, const std::string& expected) const {
    if (!f.node.IsSequence()) type_error(f, expected);
    std::vector<Field> out;
    std::size_t i = 0;
    for (const YAML::Node& e : f.node) {
        const std::size_t line = e.IsNull() ? f.line : std::max<std::size_t>(line_of(e.Mark()), f.line);
        out.push_back({e, line, f.path + "[" + std::to_string(i++) + "]"});
    }
    return out;
}

Map::Map(const Reader& reader, const Field& f, std::vector<std::string_view> accepted)
    : reader_(&reader), self_(f) {
    std::string keys;
    for (std::string_view k : accepted) keys += (keys.empty() ? "" : ", ") + std::string(k);
    if (!f.node.IsMap()) reader.type_error(f, "a mapping with the keys " + keys);
    // Iterate by value: yaml-cpp's iterator-> points into a temporary (GCC 12 rightly warns).
    for (const auto& entry : f.node) {
        const YAML::Node key = entry.first;
        const YAML::Node value = entry.second;
        const std::size_t key_line = line_of(key.Mark());
        if (!key.IsScalar()) {
            reader.type_error({key, key_line, f.path}, "a key among " + keys);
        }
        const std::string name = key.Scalar();
        const std::string path = this->path(name);
        bool known = false;
        for (std::string_view k : accepted) known = known || k == name;
        if (!known) {
            throw InputError({reader.file(), key_line, 0}, path,
                             "expected a key among " + keys + ", got '" + name + "'");
        }
        if (const Field* first = find(name)) {
            throw InputError({reader.file(), key_line, 0}, path,
                             "expected each key once, got '" + name + "' again (first on line " +
                                 std::to_string(first->line) + ")");
        }
        // An empty value has no position of its own (yaml-cpp points past it): use the key's.
        const std::size_t value_line = value.IsNull() ? key_line : line_of(value.Mark());
        entries_.emplace_back(name, Field{value, value_line ? value_line : key_line, path});
    }
}

const Field* Map::find(std::string_view key) const {
    for (const auto& [name, field] : entries_) {
        if (name == key) return &field;
    }
    return nullptr;
}

std::optional<Field> Map::get(std::string_view key) const {
    if (const Field* f = find(key)) return *f;
    return std::nullopt;
}

Field Map::require(std::string_view key, const std::string& expected) const {
    if (const Field* f = find(key)) return *f;
    throw InputError({reader_->file(), self_.line, 0}, path(key),
                     "expected " + expected + ", got no such key (it is required)");
}

std::string Map::path(std::string_view key) const {
    return self_.path.empty() ? std::string(key) : self_.path + "." + std::string(key);
}

}  // namespace pimdse::io::yaml
