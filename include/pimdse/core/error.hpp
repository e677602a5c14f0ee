#pragma once
// The pimdse error hierarchy. Library code throws these; only main() turns them into an
// exit code. Outcomes expected during a search (an infeasible mapping, a solver limit) are
// values with a status, not exceptions.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace pimdse {

/// Where in an input file something was found; line and column are 1-based, 0 if unknown.
struct SourceLocation {
    std::string file;
    std::size_t line = 0;
    std::size_t column = 0;

    /// "file:line:column", "file:line" or "file", whichever is known.
    [[nodiscard]] std::string str() const;
};

/// Base of every error pimdse throws on purpose.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A configuration, hardware, workload or mapping file that is malformed. The message
/// always names the file, the line when known, the key path and what was expected.
class InputError : public Error {
public:
    InputError(SourceLocation where, std::string key, std::string problem);

    [[nodiscard]] const SourceLocation& where() const noexcept { return where_; }
    [[nodiscard]] const std::string& key() const noexcept { return key_; }
    [[nodiscard]] const std::string& problem() const noexcept { return problem_; }

private:
    SourceLocation where_;
    std::string key_;
    std::string problem_;
};

/// A configuration that parses but is inconsistent or out of range (same message shape).
class ConfigError : public InputError {
public:
    using InputError::InputError;
};

/// A failure reading or writing a file (HDF5, YAML output, ...); names the file and object.
class IoError : public Error {
public:
    using Error::Error;
};

/// A solver (CBC) that failed in a way that is not an expected search outcome.
class SolverError : public Error {
public:
    using Error::Error;
};

/// Process exit codes of the pimdse executable (documented in README.md and docs/cli.md).
enum class ExitCode : int {
    ok = 0,
    internal_error = 1,  ///< a bug or an unexpected exception
    usage = 2,           ///< bad command line
    input = 3,           ///< malformed or inconsistent input file
    io = 4,              ///< a file could not be read or written
    solver = 5,          ///< a solver failed outside the expected outcomes
    stopped = 6,         ///< stopped by SIGTERM/SIGINT; the sweep file resumes (engine/signals.hpp)
    /// `explore` stopped cleanly before its wall time: the file is consistent and `--resume`
    /// continues it (batch scripts requeue on this code).
    wall_time_stop = 7,
};

}  // namespace pimdse
