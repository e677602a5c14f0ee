// The crossbar design file (include/pimdse/io/crossbar_design_file.hpp).

#include "pimdse/io/crossbar_design_file.hpp"

#include <optional>
#include <string>
#include <vector>

#include "config_sections.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/yaml_reader.hpp"

namespace pimdse::io {

namespace {

const std::vector<std::string_view> kTopKeys{"design", "crossbar"};

std::vector<std::string_view> param_names() {
    std::vector<std::string_view> out;
    for (const CrossbarParamRule& p : kCrossbarParamRules) out.emplace_back(p.name);
    return out;
}

}  // namespace

CrossbarDesignFile parse_crossbar_design(std::string_view text, const std::filesystem::path& file_name) {
    const yaml::Reader r(file_name.string());
    const yaml::Map top(r, r.load(text, yaml::key_list(kTopKeys)), kTopKeys);
    const std::vector<std::string_view> names = param_names();
    const yaml::Map design(r, top.require("design", "a mapping with the keys " + yaml::key_list(names)),
                           names);

    CrossbarDesignFile d;
    for (std::size_t i = 0; i < kCrossbarParamRules.size(); ++i) {
        const CrossbarParamRule& p = kCrossbarParamRules[i];
        const yaml::Field f = design.require(
            p.name, "an integer in [" + std::to_string(p.lo) + ", " + std::to_string(p.hi) + "]");
        d.values[i] = detail::to_int(r.integer(f, p.lo, p.hi));
    }
    const std::optional<yaml::Field> section = top.get("crossbar");
    d.crossbar = detail::read_crossbar(r, section, "crossbar", std::nullopt);
    if (section) {
        if (auto t = yaml::Map::unchecked(r, *section, "a mapping").get("technology"))
            d.technology_line = t->line;
    }
    d.source_file = file_name;
    return d;
}

CrossbarDesignFile read_crossbar_design_file(const std::filesystem::path& path) {
    return parse_crossbar_design(read_text_file(path, kMaxConfigFileBytes), path);
}

}  // namespace pimdse::io
