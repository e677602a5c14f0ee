#pragma once
// Strict reading of YAML documents (private to io; yaml-cpp stays out of public headers).
// Every value is read through a Field that knows its key path and line, so that every
// error names file, line, key and what was expected (docs/config.md, "Error messages").
// Unknown and duplicate keys are errors; numbers are parsed by us, not by yaml-cpp's
// stream conversions, so "16.0" is not an integer and "8" in quotes is a string.

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

    /// Integer in [lo, hi]; "16.0", "1e3", "0x10" and quoted strings are not integers.
    /// `expected` replaces the "an integer in [lo, hi]" of messages.
    [[nodiscard]] std::int64_t integer(const Field& f, std::int64_t lo, std::int64_t hi,
                                       std::string_view expected = {}) const;
    [[nodiscard]] std::uint64_t unsigned64(const Field& f) const;
    /// Finite number, >= lo (or > lo if `open`).
    [[nodiscard]] double number(const Field& f, double lo, bool open) const;
    /// A non-empty string (plain or quoted scalar).
    [[nodiscard]] std::string string(const Field& f) const;
    /// One of `names`; returns its index.
    [[nodiscard]] std::size_t choice(const Field& f, const std::vector<std::string_view>& names) const;
    /// The elements of a list, with paths "key[i]".
    [[nodiscard]] std::vector<Field> list(const Field& f, const std::string& expected) const;

private:
    std::string file_;
};

/// A mapping whose keys are checked against the accepted ones at construction.
class Map {
public:
    Map(const Reader& reader, const Field& f, std::vector<std::string_view> accepted);

    [[nodiscard]] const Field& self() const { return self_; }
    [[nodiscard]] bool has(std::string_view key) const { return find(key) != nullptr; }
    [[nodiscard]] std::optional<Field> get(std::string_view key) const;
    /// The value of a required key; its absence is an error saying what was expected.
    [[nodiscard]] Field require(std::string_view key, const std::string& expected) const;
    [[nodiscard]] std::string path(std::string_view key) const;

private:
    [[nodiscard]] const Field* find(std::string_view key) const;

    const Reader* reader_;
    Field self_;
    std::vector<std::pair<std::string, Field>> entries_;
};

/// How a value reads in a message: `300`, `the string "8"`, `a list`, `a mapping`, `nothing`.
[[nodiscard]] std::string describe(const YAML::Node& node);

/// `"a", "b"` joined for messages: "a, b or c".
[[nodiscard]] std::string one_of(const std::vector<std::string_view>& names);

}  // namespace pimdse::io::yaml
