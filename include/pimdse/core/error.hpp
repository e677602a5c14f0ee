#pragma once
// The pimdse error hierarchy and the one mapping of errors to exit codes. Library code throws
// these; the executable's main() and the MPI driver turn them into an exit code through
// exit_code_of() alone (docs/cli.md, "Errors and exit codes"). Outcomes expected during a
// search (an infeasible mapping, a solver limit) are values with a status, not exceptions.
//
//   Error                 base of every error pimdse throws on purpose
//   +-- InputError        a user's file or value is wrong: names file, line, key  -> exit 3
//   |   `-- ConfigError   ... parses but is inconsistent or out of range           -> exit 3
//   +-- UsageError        a command-line value the command cannot honour           -> exit 2
//   +-- IoError           a file could not be read or written                      -> exit 4
//   +-- SolverError       a solver failed outside its expected outcomes            -> exit 5
//   +-- ModelError        a model's precondition broken by its caller (a bug: the
//   |                     input layer validates user values before any model runs)  -> exit 1
//   `-- InternalError     an invariant broken inside pimdse (a bug)                -> exit 1
// Anything else (std::bad_alloc, a library's exception) is an internal error too.

#include <cstddef>
#include <exception>
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
    /// Memory ran out (std::bad_alloc) anywhere on any rank: every rank stops, the sweep file
    /// keeps every committed batch and resumes (no batch script should requeue on the same node
    /// without more memory).
    out_of_memory = 8,
};

/// Base of every error pimdse throws on purpose. A subclass says its exit code by
/// overriding exit_code(); nothing else decides it.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
    [[nodiscard]] virtual ExitCode exit_code() const noexcept { return ExitCode::internal_error; }
};

/// A configuration, hardware, workload or mapping file that is malformed. The message
/// always names the file, the line when known, the key path and what was expected.
class InputError : public Error {
public:
    InputError(SourceLocation where, std::string key, std::string problem);
    [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::input; }

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

/// A command line the command refuses after parsing it: a combination of options and input
/// beyond what the command supports (e.g. a node array above `map --max-nodes`). The message
/// names the option and says how to proceed.
class UsageError : public Error {
public:
    using Error::Error;
    [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::usage; }
};

/// A failure reading or writing a file (HDF5, YAML output, ...); names the file and object.
class IoError : public Error {
public:
    using Error::Error;
    [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::io; }
};

/// A solver (CBC) that failed in a way that is not an expected search outcome.
class SolverError : public Error {
public:
    using Error::Error;
    [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::solver; }
};

/// A model function called with arguments that break its documented precondition (a mesh
/// of 0 rows, mismatched vector sizes, a negative capacity). User values never reach a model
/// unvalidated, so this is a bug in the caller; the message names the function and the rule.
class ModelError : public Error {
public:
    using Error::Error;
};

/// An invariant that cannot fail failed (an enum value outside its switch, a simulation that
/// makes no progress): a bug inside pimdse.
class InternalError : public Error {
public:
    using Error::Error;
};

/// The exit code of an exception: Error::exit_code() for pimdse's errors, out_of_memory for
/// std::bad_alloc, internal_error for anything else. The only mapping from errors to exit
/// codes (main() and the MPI driver).
[[nodiscard]] ExitCode exit_code_of(const std::exception& e) noexcept;

/// An exception's message for a user: what() but for std::bad_alloc, whose what() names no
/// cause a user would recognise.
[[nodiscard]] std::string message_of(const std::exception& e);

/// How main() introduces an error's message: "error" for input and I/O errors, "solver
/// error", or "internal error" for a bug or an unexpected exception.
[[nodiscard]] const char* error_label(ExitCode code) noexcept;

}  // namespace pimdse
