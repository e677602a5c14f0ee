#pragma once
// The hetero3d hardware file (docs/config.md, "Hetero3d hardware files"): one heterogeneous
// 3-D manycore after HuNT (hw/hetero3d.hpp) under a top-level `hetero3d:` key, read strictly
// like every input file: unknown keys, a value out of range and a stack that is not one
// letter S, R or F per tier are errors naming the file, the line, the key and what was
// expected. `pimdse config check` prints its storage and silicon.

#include <filesystem>
#include <string>
#include <string_view>

#include "pimdse/hw/hetero3d.hpp"

namespace pimdse::io {

struct Hetero3dFile {
    hw::Hetero3dHardware hardware;
    std::filesystem::path source_file;
};

/// Read and validate a hetero3d hardware file (at most kMaxConfigFileBytes).
[[nodiscard]] Hetero3dFile read_hetero3d_file(const std::filesystem::path& path);
/// As read_hetero3d_file, from text; `file_name` names the file in messages.
[[nodiscard]] Hetero3dFile parse_hetero3d(std::string_view text, const std::filesystem::path& file_name);

/// True when the YAML document at `path` is a mapping with a top-level `hetero3d:` key and no
/// `family:` key (a sweep configuration of the hetero3d family has both); a file that does not
/// parse is not one (its own reader reports why).
[[nodiscard]] bool is_hetero3d_file(const std::filesystem::path& path);

/// The file as YAML, every key present.
[[nodiscard]] std::string to_yaml(const Hetero3dFile& f);

}  // namespace pimdse::io
