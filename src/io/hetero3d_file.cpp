// The hetero3d hardware file (include/pimdse/io/hetero3d_file.hpp).

#include "pimdse/io/hetero3d_file.hpp"

#include <iomanip>
#include <optional>
#include <sstream>
#include <vector>

#include "config_sections.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/yaml_reader.hpp"

namespace pimdse::io {

namespace {

const std::vector<std::string_view> kTopKeys{"hetero3d"};
const std::vector<std::string_view> kKeys{"tiers", "pes_per_tier", "tiles_per_pe", "tile_area_mm2", "stack"};

// Ranges: up to 8 tiers (HuNT's stacks have 4), a tier of up to 1024 PEs of up to 64 tiles.
constexpr std::int64_t kMaxTiers = 8;
constexpr std::int64_t kMaxPesPerTier = 1024;
constexpr std::int64_t kMaxTilesPerPe = 64;
constexpr double kMaxTileAreaMm2 = 100.0;

}  // namespace

Hetero3dFile parse_hetero3d(std::string_view text, const std::filesystem::path& file_name) {
    const yaml::Reader r(file_name.string());
    const yaml::Map top(r, r.load(text, yaml::key_list(kTopKeys)), kTopKeys);
    const yaml::Map m(r, top.require("hetero3d", "a mapping with the keys " + yaml::key_list(kKeys)), kKeys);

    Hetero3dFile f;
    hw::Hetero3dHardware& h = f.hardware;
    h.tiers = detail::to_int(r.integer(m.require("tiers", "an integer in [1, 8]"), 1, kMaxTiers));
    h.pes_per_tier =
        detail::to_int(r.integer(m.require("pes_per_tier", "an integer in [1, 1024]"), 1, kMaxPesPerTier));
    h.tiles_per_pe =
        detail::to_int(r.integer(m.require("tiles_per_pe", "an integer in [1, 64]"), 1, kMaxTilesPerPe));
    h.tile_area = SquareMillimetres(
        r.number(m.require("tile_area_mm2", "a number of mm² in (0, 100]"), 0.0, true, kMaxTileAreaMm2));
    const std::string expected_stack =
        "a string of " + std::to_string(h.tiers) +
        " letters S, R or F (SRAM, ReRAM, FeFET), t1 nearest the heat sink first";
    const yaml::Field sf = m.require("stack", expected_stack);
    const std::string text_stack = r.string(sf);
    const std::optional<std::vector<hw::PimDevice>> stack = hw::parse_stack(text_stack);
    if (!stack || static_cast<int>(stack->size()) != h.tiers) {
        r.value_error(sf, expected_stack, "\"" + text_stack + "\"");
    }
    h.stack = *stack;
    hw::check(h);
    f.source_file = file_name;
    return f;
}

Hetero3dFile read_hetero3d_file(const std::filesystem::path& path) {
    return parse_hetero3d(read_text_file(path, kMaxConfigFileBytes), path);
}

bool is_hetero3d_file(const std::filesystem::path& path) {
    const std::string text = read_text_file(path, kMaxConfigFileBytes);
    const yaml::Reader r(path.string());
    try {
        const yaml::Field root = r.load(text, yaml::key_list(kTopKeys));
        // A sweep configuration of the hetero3d family has a `hetero3d:` section too; it names
        // its family, a hardware file does not.
        bool section = false;
        for (const auto& entry : root.node) {
            if (!entry.first.IsScalar()) continue;
            if (entry.first.Scalar() == "family") return false;
            section = section || entry.first.Scalar() == "hetero3d";
        }
        return section;
    } catch (const InputError&) {
        return false;
    }
    return false;
}

std::string to_yaml(const Hetero3dFile& f) {
    const hw::Hetero3dHardware& h = f.hardware;
    std::ostringstream out;
    out << "hetero3d:\n"
        << "  tiers: " << h.tiers << '\n'
        << "  pes_per_tier: " << h.pes_per_tier << '\n'
        << "  tiles_per_pe: " << h.tiles_per_pe << '\n'
        << "  tile_area_mm2: " << std::setprecision(15) << h.tile_area.value() << '\n'
        << "  stack: " << hw::stack_string(h.stack) << '\n';
    return out.str();
}

}  // namespace pimdse::io
