#pragma once
// Helpers shared by tests that make files and check error messages: a scratch path per test
// process, and the message a call fails with.

#include <unistd.h>

#include <exception>
#include <filesystem>
#include <string>

namespace pimdse::testing {

/// `name` in a directory of this process under the system's temporary directory, removed
/// if it exists.
inline std::filesystem::path scratch(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("pimdse_input_safety_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    fs::remove(p);
    return p;
}

/// What `f()` throws, or "no error".
inline std::string message_of(const auto& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace pimdse::testing
