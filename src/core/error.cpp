#include "pimdse/core/error.hpp"

#include <new>

namespace pimdse {

std::string SourceLocation::str() const {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        out += ':' + std::to_string(line);
        if (column > 0) out += ':' + std::to_string(column);
    }
    return out;
}

namespace {
std::string compose(const SourceLocation& where, const std::string& key, const std::string& problem) {
    std::string out = where.str() + ": ";
    if (!key.empty()) out += "key '" + key + "': ";
    out += problem;
    return out;
}
}  // namespace

ExitCode exit_code_of(const std::exception& e) noexcept {
    if (const auto* error = dynamic_cast<const Error*>(&e)) return error->exit_code();
    if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return ExitCode::out_of_memory;
    return ExitCode::internal_error;
}

std::string message_of(const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) {
        return std::string("out of memory (") + e.what() + "): the process could not allocate what it needed";
    }
    return e.what();
}

const char* error_label(ExitCode code) noexcept {
    switch (code) {
        case ExitCode::input:
        case ExitCode::io:
        case ExitCode::usage:
        case ExitCode::out_of_memory:
            return "error";
        case ExitCode::solver:
            return "solver error";
        default:
            return "internal error";
    }
}

InputError::InputError(SourceLocation where, std::string key, std::string problem)
    : Error(compose(where, key, problem)),
      where_(std::move(where)),
      key_(std::move(key)),
      problem_(std::move(problem)) {}

}  // namespace pimdse
