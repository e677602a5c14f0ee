#pragma once
// Named presets: the sets of model constants a configuration file chooses by name (a
// crossbar technology, a device read-cost table). This header owns only the lookup by name
// and the error that lists the known names; each preset's values and sources stay in its
// own module.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "pimdse/core/error.hpp"

namespace pimdse {

/// One preset: its name in configuration files and the function that builds it once.
template <class T>
struct NamedPreset {
    std::string_view name;
    const T& (*get)();
};

/// The names, comma separated, for error messages and `--help`.
template <class T, std::size_t N>
[[nodiscard]] std::string preset_names(const std::array<NamedPreset<T>, N>& presets) {
    std::string names;
    for (const NamedPreset<T>& p : presets) {
        if (!names.empty()) names += ", ";
        names += p.name;
    }
    return names;
}

/// The preset called `name`; ConfigError on `key` naming the known presets otherwise.
/// `what` describes the preset kind, e.g. "crossbar technology preset".
template <class T, std::size_t N>
[[nodiscard]] const T& find_preset(const std::array<NamedPreset<T>, N>& presets, std::string_view name,
                                   std::string_view key, std::string_view what) {
    for (const NamedPreset<T>& p : presets)
        if (p.name == name) return p.get();
    throw ConfigError({}, std::string(key),
                      "unknown " + std::string(what) + " '" + std::string(name) +
                          "'; known presets: " + preset_names(presets));
}

}  // namespace pimdse
