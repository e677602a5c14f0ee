#pragma once
// What a resumed sweep must not change: the comparison of two resolved configurations (the
// YAML that io::to_yaml writes and the sweep file keeps in /config/resolved), key by key on
// the parsed trees, so that a refused `explore --resume` names each changed key with both
// values rather than quoting text lines.

#include <string>
#include <vector>

namespace pimdse::io {

/// The keys whose values differ between two resolved configurations, one entry per key path,
/// "sweep.seed: stored 7, now 8" (a key on one side only: "absent" on the other). What a
/// resumed run may change is left out: `sweep.budget` (to extend a sweep), `sweep.wall_time`
/// (a new allocation) and `output.path` (the file may move). A key or section added since
/// sweep files were first written (`model:`, `hetero3d.gradients`) is no difference when the
/// stored file lacks it and it now holds what its absence meant. Empty when they agree. A
/// stored text that is not YAML gives one entry saying so.
[[nodiscard]] std::vector<std::string> config_differences(const std::string& stored, const std::string& now);

}  // namespace pimdse::io
