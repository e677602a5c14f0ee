// Key-by-key comparison of two resolved configurations (include/pimdse/io/config_diff.hpp).

#include "pimdse/io/config_diff.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace pimdse::io {

namespace {

// What a resumed run may change (docs/cli.md, "Resume").
constexpr std::array<std::string_view, 3> kMayChange{"sweep.budget", "sweep.wall_time", "output.path"};

// Keys added after sweep files were first written, with the value a file without them meant.
struct Added {
    std::string_view path;
    std::string_view value;
};
constexpr std::array<Added, 4> kAddedSince{{{"model.intra_node", "analytic"},
                                            {"model.overlap", "false"},
                                            {"model.overlap_transform", "false"},
                                            {"hetero3d.gradients", "digital_float32"}}};

// A stored file without a key that was added since, and now has the key's old meaning.
bool added_since(const YAML::Node& now, const std::string& path) {
    if (!now.IsScalar()) return false;
    return std::any_of(kAddedSince.begin(), kAddedSince.end(),
                       [&](const Added& a) { return a.path == path && a.value == now.Scalar(); });
}

std::string show(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "absent";
    if (node.IsScalar()) return node.Scalar();
    YAML::Emitter out;
    out << YAML::Flow << node;
    return out.c_str();
}

std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

void compare(const YAML::Node& a, const YAML::Node& b, const std::string& path,
             std::vector<std::string>& diffs) {
    if (std::find(kMayChange.begin(), kMayChange.end(), path) != kMayChange.end()) return;
    const bool a_null = !a.IsDefined() || a.IsNull();
    const bool b_null = !b.IsDefined() || b.IsNull();
    if (a_null && b_null) return;
    if (a_null && added_since(b, path)) return;  // a key added to a section the stored file has
    if (a_null && b.IsMap() && b.size() > 0) {
        // A section the stored file lacks: each of its keys, so that those added since pass.
        bool all_added = true;
        for (const auto& kv : b)
            all_added = all_added && added_since(kv.second, join(path, kv.first.Scalar()));
        if (all_added) return;
    }
    if (!a_null && !b_null && a.Type() == b.Type()) {
        if (a.IsMap()) {
            // Keys in the present run's order, then those only the stored one has.
            std::vector<std::string> keys;
            for (const auto& kv : b) keys.push_back(kv.first.Scalar());
            for (const auto& kv : a)
                if (!b[kv.first.Scalar()].IsDefined()) keys.push_back(kv.first.Scalar());
            for (const std::string& k : keys) compare(a[k], b[k], join(path, k), diffs);
            return;
        }
        if (a.IsSequence()) {
            const std::size_t n = std::max(a.size(), b.size());
            for (std::size_t i = 0; i < n; ++i) {
                const YAML::Node none;
                compare(i < a.size() ? a[i] : none, i < b.size() ? b[i] : none,
                        path + "[" + std::to_string(i) + "]", diffs);
            }
            return;
        }
        if (a.Scalar() == b.Scalar()) return;
    }
    diffs.push_back((path.empty() ? std::string("the configuration") : path) + ": stored " + show(a) +
                    ", now " + show(b));
}

}  // namespace

std::vector<std::string> config_differences(const std::string& stored, const std::string& now) {
    YAML::Node a;
    YAML::Node b;
    try {
        a = YAML::Load(stored);
    } catch (const YAML::Exception& e) {
        return {"the stored configuration cannot be read (" + std::string(e.what()) + ")"};
    }
    b = YAML::Load(now);  // written by io::to_yaml in this run
    std::vector<std::string> diffs;
    compare(a, b, "", diffs);
    return diffs;
}

}  // namespace pimdse::io
