#pragma once
// Strict reading of YAML documents: every input file of pimdse (configurations, hardware,
// network and mapping files) goes through it, so yaml-cpp is a public dependency of io.
// Every value is read through a Field that knows its key path and line, so that every
// error names file, line, key and what was expected (docs/config.md, "Error messages").
// Unknown and duplicate keys are errors; numbers are parsed by us, not by yaml-cpp's
// stream conversions, so "16.0" is not an integer and "8" in quotes is a string.
// Messages are "file:line: key 'path': expected X, got Y" (InputError::what()).

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pimdse/core/error.hpp"

namespace pimdse::io::yaml {

/// A value in a document: the node, where to point at it, and its key path ("sweep.seed").
struct Field {
    YAML::Node node;
    std::size_t line = 0;  ///< 1-based; the key's line when the value is empty
    std::string path;
};

/// One document being read; `file` is the name used in messages.
class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[nodiscard]] const std::string& file() const { return file_; }

    /// The single document of `text` as a Field with an empty path. Syntax errors, an empty
    /// file, several documents or a top level that is not a mapping are InputErrors;
    /// `top_keys` is only used to say what the mapping should hold.
    [[nodiscard]] Field load(std::string_view text, std::string_view top_keys) const;

    /// A malformed value (wrong type, unknown key): InputError.
    [[noreturn]] void type_error(const Field& f, const std::string& expected) const;
    /// A value of the right type but out of range or inconsistent: ConfigError.
    [[noreturn]] void value_error(const Field& f, const std::string& expected, const std::string& got) const;
    [[noreturn]] void value_error(std::size_t line, const std::string& path, const std::string& expected,
                                  const std::string& got) const;
    /// A problem that is not about one value's type or range (a cycle, an unknown reference):
    /// InputError whose message is `problem`, located like the others.
    [[noreturn]] void error(const Field& f, const std::string& problem) const;

    /// Integer in [lo, hi]; "16.0", "1e3", "0x10" and quoted strings are not integers.
    /// `expected` replaces the "an integer in [lo, hi]" of messages.
    [[nodiscard]] std::int64_t integer(const Field& f, std::int64_t lo, std::int64_t hi,
                                       std::string_view expected = {}) const;
    [[nodiscard]] std::uint64_t unsigned64(const Field& f) const;
    /// Finite number, >= lo (or > lo if `open`) and <= hi: every key has a sensible range
    /// (docs/config.md), so that no value makes every cost 0 or infinite.
    [[nodiscard]] double number(const Field& f, double lo, bool open, double hi) const;
    /// A non-empty string (plain or quoted scalar).
    [[nodiscard]] std::string string(const Field& f) const;
    /// `true` or `false` only (YAML 1.2): yes, no, on and off mean different things to different readers.
    [[nodiscard]] bool boolean(const Field& f) const;
    /// One of `names`; returns its index.
    [[nodiscard]] std::size_t choice(const Field& f, const std::vector<std::string_view>& names) const;
    /// One of the ", "-separated `names`, turned into a value by `parse` (which returns an
    /// optional, empty for an unknown name).
    template <class Parse>
    [[nodiscard]] auto choice(const Field& f, Parse parse, std::string_view names) const {
        if (f.node.IsScalar()) {
            if (auto v = parse(f.node.Scalar())) return *v;
        }
        choice_error(f, names);
    }
    /// An integer in [lo, hi] for both dimensions, or a list [height, width] of two of them.
    [[nodiscard]] std::pair<std::int64_t, std::int64_t> integer_pair(const Field& f, std::int64_t lo,
                                                                     std::int64_t hi) const;
    /// The elements of a list, with paths "key[i]".
    [[nodiscard]] std::vector<Field> list(const Field& f, const std::string& expected) const;

    /// Limits of a document (checked by load): nesting depth, and values with aliases expanded.
    static constexpr std::size_t kMaxDepth = 64;
    static constexpr std::size_t kMaxNodes = 1'000'000;

private:
    [[noreturn]] void choice_error(const Field& f, std::string_view names) const;
    // Depth, size and tags of a loaded document (no tags: `!foo 12` would otherwise read as 12).
    void check_structure(const YAML::Node& node, std::size_t depth, std::size_t& nodes) const;

    std::string file_;
};

/// A mapping whose keys are checked against the accepted ones at construction, or later by
/// accept() when which keys are accepted depends on a value in the mapping (a layer's type).
class Map {
public:
    Map(const Reader& reader, const Field& f, const std::vector<std::string_view>& accepted);
    /// Keys left for accept(); `expected` is what the value should be if it is not a mapping.
    [[nodiscard]] static Map unchecked(const Reader& reader, const Field& f, const std::string& expected);

    /// Each key is among `accepted` (the first that is not is an error).
    void accept(const std::vector<std::string_view>& accepted) const;

    [[nodiscard]] const Field& self() const { return self_; }
    [[nodiscard]] bool has(std::string_view key) const { return find(key) != nullptr; }
    /// The keys in file order.
    [[nodiscard]] std::vector<std::string> keys() const;
    [[nodiscard]] std::optional<Field> get(std::string_view key) const;
    /// The value of a required key; its absence is an error saying what was expected.
    [[nodiscard]] Field require(std::string_view key, const std::string& expected) const;
    [[nodiscard]] std::string path(std::string_view key) const;

private:
    struct Entry {
        std::string name;
        std::size_t key_line;
        Field value;
    };

    Map(const Reader& reader, const Field& f, const std::vector<std::string_view>* accepted,
        const std::string& expected);
    [[nodiscard]] const Entry* find_entry(std::string_view key) const;
    [[nodiscard]] const Field* find(std::string_view key) const;
    [[noreturn]] void unknown_key(const Entry& e, const std::vector<std::string_view>& accepted) const;

    const Reader* reader_;
    Field self_;
    std::vector<Entry> entries_;
};

/// How a value reads in a message: `300`, `lots`, `the string "8"`, `a list`, `a mapping`, `nothing`.
[[nodiscard]] std::string describe(const YAML::Node& node);

/// The keys of a mapping for messages: "a, b, c".
[[nodiscard]] std::string key_list(const std::vector<std::string_view>& keys);

/// `"a", "b"` joined for messages: "a, b or c".
[[nodiscard]] std::string one_of(const std::vector<std::string_view>& names);
/// The same from names already joined by ", ": "a, b, c" reads "a, b or c".
[[nodiscard]] std::string one_of_list(std::string_view names);

}  // namespace pimdse::io::yaml
