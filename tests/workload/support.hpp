#pragma once
// Shared helpers of the workload tests: where the library lives, and a parse cache so that
// a test program reads each library file once.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "pimdse/io/network_file.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::test {

inline std::filesystem::path source_dir() {
    return PIMDSE_SOURCE_DIR;
}
inline std::filesystem::path library_dir() {
    return source_dir() / "inputs" / "networks";
}

/// The networks of inputs/networks (NicePIM's five first), by file stem.
inline const std::vector<std::string>& library_names() {
    static const std::vector<std::string> names{"googlenet", "resnet152", "vgg16",    "darknet53",
                                                "bert_base", "resnet18",  "resnet50", "mobilenet_v2"};
    return names;
}

inline const workload::Network& library(const std::string& name) {
    static std::map<std::string, workload::Network> cache;
    auto it = cache.find(name);
    if (it == cache.end())
        it = cache.emplace(name, io::read_network_file(library_dir() / (name + ".yaml"))).first;
    return it->second;
}

}  // namespace pimdse::test
