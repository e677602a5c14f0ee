#include "pimdse/io/yaml_reader.hpp"

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

// YAML 1.2 allows a leading '+' on numbers; from_chars does not.
std::string_view numeral(const std::string& s) {
    std::string_view v = s;
    if (v.size() > 1 && v[0] == '+' && v[1] != '-' && v[1] != '+') v.remove_prefix(1);
    return v;
}

std::string format_bound(double v) {
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

bool is_among(std::string_view name, const std::vector<std::string_view>& names) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::string describe(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsSequence()) return node.size() == 0 ? "an empty list" : "a list";
    if (node.IsMap()) return node.size() == 0 ? "an empty mapping" : "a mapping";
    // A value is echoed so the user sees what was read, but never more than a line of it.
    const auto shown = [](const std::string& v) { return v.size() <= 60 ? v : v.substr(0, 57) + "..."; };
    if (!is_plain_scalar(node)) return "the string \"" + shown(node.Scalar()) + "\"";
    return shown(node.Scalar());
}

std::string key_list(const std::vector<std::string_view>& keys) {
    std::string out;
    for (std::string_view k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
    return out;
}

std::string one_of(const std::vector<std::string_view>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += (i + 1 == names.size()) ? " or " : ", ";
        out += names[i];
    }
    return out;
}

std::string one_of_list(std::string_view names) {
    std::vector<std::string_view> split;
    for (std::size_t begin = 0; begin <= names.size();) {
        const std::size_t end = std::min(names.find(", ", begin), names.size());
        split.push_back(names.substr(begin, end - begin));
        begin = end + 2;
    }
    return one_of(split);
}

Field Reader::load(std::string_view text, std::string_view top_keys) const {
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(std::string(text));
    } catch (const YAML::DeepRecursion& e) {
        throw InputError({file_, std::max<std::size_t>(line_of(e.mark), 1), 0}, "",
                         "expected a YAML document of at most " + std::to_string(kMaxDepth) +
                             " levels, got one nested too deep");
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
    if (!root.node.IsMap()) {
        // Never echo the text: pointed at a file that is not ours (a key file), the message
        // would print its first line.
        const std::string got =
            root.node.IsScalar() ? "text that is not a mapping (not shown)" : describe(root.node);
        throw InputError({file_, root.line, 0}, "", want + ", got " + got);
    }
    std::size_t nodes = 0;
    check_structure(root.node, 1, nodes);
    return root;
}

void Reader::check_structure(const YAML::Node& node, std::size_t depth, std::size_t& nodes) const {
    // Bounds the work of every later walk: aliases can make a small text a huge tree.
    if (++nodes > kMaxNodes) {
        throw InputError(
            {file_, line_of(node.Mark()), 0}, "",
            "expected at most " + std::to_string(kMaxNodes) + " values (aliases included), got more");
    }
    if (depth > kMaxDepth) {
        throw InputError({file_, line_of(node.Mark()), 0}, "",
                         "expected a YAML document of at most " + std::to_string(kMaxDepth) +
                             " levels, got one nested too deep");
    }
    const std::string& tag = node.Tag();
    if (!tag.empty() && tag != "?" && tag != "!") {
        throw InputError({file_, line_of(node.Mark()), 0}, "",
                         "expected a value without a YAML tag, got the tag '" + tag.substr(0, 40) +
                             "' (pimdse reads no tags)");
    }
    if (node.IsSequence()) {
        for (const YAML::Node& child : node) check_structure(child, depth + 1, nodes);
    } else if (node.IsMap()) {
        for (const auto& entry : node) {
            check_structure(entry.first, depth + 1, nodes);
            check_structure(entry.second, depth + 1, nodes);
        }
    }
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

void Reader::error(const Field& f, const std::string& problem) const {
    throw InputError({file_, f.line, 0}, f.path, problem);
}

std::int64_t Reader::integer(const Field& f, std::int64_t lo, std::int64_t hi,
                             std::string_view expected) const {
    const std::string want = expected.empty() ? interval(lo, hi) : std::string(expected);
    if (!is_plain_scalar(f.node)) type_error(f, want);
    const std::string& s = f.node.Scalar();
    const std::string_view n = numeral(s);
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    // A custom `expected` does not show the range, so say which side the value missed.
    const auto out_of_range = [&](bool high) {
        value_error(f, want, expected.empty() ? s : s + (high ? " (too large)" : " (too small)"));
    };
    if (ec == std::errc::result_out_of_range) out_of_range(n.front() != '-');
    if (ec != std::errc() || end != n.data() + n.size() || n.empty()) type_error(f, want);
    if (v < lo || v > hi) out_of_range(v > hi);
    return v;
}

std::uint64_t Reader::unsigned64(const Field& f) const {
    const std::string want =
        "an integer in [0, " + std::to_string(std::numeric_limits<std::uint64_t>::max()) + "]";
    if (!is_plain_scalar(f.node)) type_error(f, want);
    const std::string& s = f.node.Scalar();
    const std::string_view n = numeral(s);
    if (!n.empty() && n[0] == '-') value_error(f, want, s);
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    if (ec == std::errc::result_out_of_range) value_error(f, want, s);
    if (ec != std::errc() || end != n.data() + n.size() || n.empty()) type_error(f, want);
    return v;
}

double Reader::number(const Field& f, double lo, bool open, double hi) const {
    const std::string want =
        std::string("a number in ") + (open ? "(" : "[") + format_bound(lo) + ", " + format_bound(hi) + "]";
    if (!is_plain_scalar(f.node)) type_error(f, want);
    const std::string& s = f.node.Scalar();
    const std::string_view n = numeral(s);
    double v = 0;
    auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    if (ec != std::errc() || end != n.data() + n.size() || n.empty()) type_error(f, want);
    // from_chars accepts "inf" and "nan"; a cost exponent or weight must be an ordinary number.
    if (!std::isfinite(v)) type_error(f, want);
    if (open ? !(v > lo) : !(v >= lo)) value_error(f, want, s);
    if (v > hi) value_error(f, want, s);
    return v;
}

std::string Reader::string(const Field& f) const {
    if (!f.node.IsScalar() || f.node.Scalar().empty()) type_error(f, "a non-empty string");
    // A NUL ("\0" in a quoted string) would silently cut a path or a name short.
    if (f.node.Scalar().find('\0') != std::string::npos)
        value_error(f, "a string without NUL characters", "one with a NUL (\\0)");
    return f.node.Scalar();
}

bool Reader::boolean(const Field& f) const {
    if (is_plain_scalar(f.node)) {
        if (f.node.Scalar() == "true") return true;
        if (f.node.Scalar() == "false") return false;
    }
    type_error(f, "true or false");
}

std::size_t Reader::choice(const Field& f, const std::vector<std::string_view>& names) const {
    const std::string want = "one of " + one_of(names);
    if (!f.node.IsScalar()) type_error(f, want);
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (f.node.Scalar() == names[i]) return i;
    }
    value_error(f, want, describe(f.node));
}

void Reader::choice_error(const Field& f, std::string_view names) const {
    const std::string want = "one of " + one_of_list(names);
    if (!f.node.IsScalar()) type_error(f, want);
    value_error(f, want, describe(f.node));
}

std::pair<std::int64_t, std::int64_t> Reader::integer_pair(const Field& f, std::int64_t lo,
                                                           std::int64_t hi) const {
    const std::string want = "an integer or a list [height, width]";
    if (f.node.IsSequence()) {
        const std::vector<Field> items = list(f, want);
        if (items.size() != 2) value_error(f, want, "a list of " + std::to_string(items.size()));
        return {integer(items[0], lo, hi), integer(items[1], lo, hi)};
    }
    if (!f.node.IsScalar()) type_error(f, want);
    const std::int64_t v = integer(f, lo, hi);
    return {v, v};
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

Map::Map(const Reader& reader, const Field& f, const std::vector<std::string_view>& accepted)
    : Map(reader, f, &accepted, "a mapping with the keys " + key_list(accepted)) {}

Map Map::unchecked(const Reader& reader, const Field& f, const std::string& expected) {
    return Map(reader, f, nullptr, expected);
}

Map::Map(const Reader& reader, const Field& f, const std::vector<std::string_view>* accepted,
         const std::string& expected)
    : reader_(&reader), self_(f) {
    if (!f.node.IsMap()) reader.type_error(f, expected);
    // A top level with none of our keys is another kind of file (a key file read by mistake
    // parses as a mapping too): say so without echoing any of it.
    if (accepted && f.path.empty() && f.node.size() > 0) {
        bool ours = false;
        for (const auto& entry : f.node)
            ours = ours || (entry.first.IsScalar() && is_among(entry.first.Scalar(), *accepted));
        if (!ours) {
            throw InputError({reader.file(), f.line, 0}, "",
                             "expected a mapping with the keys " + key_list(*accepted) +
                                 ", got one with none of them (not shown: is this the right file?)");
        }
    }
    // Iterate by value: yaml-cpp's iterator-> points into a temporary (GCC 12 rightly warns).
    for (const auto& entry : f.node) {
        const YAML::Node key = entry.first;
        const YAML::Node value = entry.second;
        const std::size_t key_line = line_of(key.Mark());
        if (!key.IsScalar()) {
            reader.type_error({key, key_line, f.path},
                              accepted ? "a key among " + key_list(*accepted) : "a plain key");
        }
        // An empty value has no position of its own (yaml-cpp points past it): use the key's.
        const std::size_t value_line = value.IsNull() ? key_line : line_of(value.Mark());
        Entry e{key.Scalar(), key_line, Field{value, value_line ? value_line : key_line, path(key.Scalar())}};
        if (accepted && !is_among(e.name, *accepted)) unknown_key(e, *accepted);
        if (const Entry* first = find_entry(e.name)) {
            throw InputError({reader.file(), key_line, 0}, e.value.path,
                             "expected each key once, got '" + e.name + "' again (first on line " +
                                 std::to_string(first->key_line) + ")");
        }
        entries_.push_back(std::move(e));
    }
}

void Map::accept(const std::vector<std::string_view>& accepted) const {
    for (const Entry& e : entries_) {
        if (!is_among(e.name, accepted)) unknown_key(e, accepted);
    }
}

void Map::unknown_key(const Entry& e, const std::vector<std::string_view>& accepted) const {
    throw InputError({reader_->file(), e.key_line, 0}, e.value.path,
                     "expected a key among " + key_list(accepted) + ", got '" +
                         (e.name.size() <= 40 ? e.name : e.name.substr(0, 37) + "...") + "'");
}

const Map::Entry* Map::find_entry(std::string_view key) const {
    for (const Entry& e : entries_) {
        if (e.name == key) return &e;
    }
    return nullptr;
}

const Field* Map::find(std::string_view key) const {
    const Entry* e = find_entry(key);
    return e ? &e->value : nullptr;
}

std::vector<std::string> Map::keys() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_) out.push_back(e.name);
    return out;
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
