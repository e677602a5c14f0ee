#include "pimdse/core/error.hpp"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

namespace pimdse {
namespace {

TEST(InputError, MessageNamesFileLineKeyAndProblem) {
    const InputError e({"inputs/a.yaml", 12, 3}, "space.pe_rows.max",
                       "expected an integer in [1, 256], got 300");
    EXPECT_STREQ(e.what(),
                 "inputs/a.yaml:12:3: key 'space.pe_rows.max': expected an integer in [1, 256], got 300");
    EXPECT_EQ(e.key(), "space.pe_rows.max");
    EXPECT_EQ(e.where().line, 12u);
}

TEST(InputError, OmitsUnknownParts) {
    EXPECT_STREQ(InputError({"n.yaml", 0, 0}, "", "file is empty").what(), "n.yaml: file is empty");
    EXPECT_STREQ(ConfigError({"c.yaml", 4, 0}, "cost.alpha", "must be >= 0").what(),
                 "c.yaml:4: key 'cost.alpha': must be >= 0");
}

// The one mapping from errors to exit codes (docs/cli.md, "Errors and exit codes"): every
// class of the hierarchy, caught as std::exception as main() and the MPI driver catch it.
TEST(ExitCodeOf, EveryErrorClassHasItsCode) {
    const auto code_of = [](const std::exception& e) { return exit_code_of(e); };
    EXPECT_EQ(code_of(InputError({"a.yaml", 1, 0}, "k", "bad")), ExitCode::input);
    EXPECT_EQ(code_of(ConfigError({"a.yaml", 1, 0}, "k", "bad")), ExitCode::input);
    EXPECT_EQ(code_of(UsageError("--max-nodes: 4096 is too few")), ExitCode::usage);
    EXPECT_EQ(code_of(IoError("out.h5: H5Dwrite failed")), ExitCode::io);
    EXPECT_EQ(code_of(SolverError("CBC: abandoned")), ExitCode::solver);
    EXPECT_EQ(code_of(ModelError("Mesh: rows must be >= 1")), ExitCode::internal_error);
    EXPECT_EQ(code_of(InternalError("no progress")), ExitCode::internal_error);
    EXPECT_EQ(code_of(Error("plain")), ExitCode::internal_error);
}

TEST(ExitCodeOf, ForeignExceptionsAreInternalErrors) {
    EXPECT_EQ(exit_code_of(std::invalid_argument("x")), ExitCode::internal_error);
    EXPECT_EQ(exit_code_of(std::runtime_error("x")), ExitCode::internal_error);
}

TEST(ExitCodeOf, RunningOutOfMemoryHasItsOwnCodeAndWords) {
    // Not a bug of pimdse: every rank stops and the sweep file resumes (exit 8).
    EXPECT_EQ(exit_code_of(std::bad_alloc()), ExitCode::out_of_memory);
    EXPECT_STREQ(error_label(ExitCode::out_of_memory), "error");
    EXPECT_NE(message_of(std::bad_alloc()).find("out of memory"), std::string::npos);
    EXPECT_EQ(message_of(std::runtime_error("as is")), "as is");
}

TEST(ExitCodeOf, SubclassesOverrideTheirCode) {
    // A class further down (the engine's CollectiveError does this) says its own code.
    struct Carried : Error {
        using Error::Error;
        [[nodiscard]] ExitCode exit_code() const noexcept override { return ExitCode::stopped; }
    };
    EXPECT_EQ(exit_code_of(Carried("stopped")), ExitCode::stopped);
    struct DerivedIo : IoError {
        using IoError::IoError;
    };
    EXPECT_EQ(exit_code_of(DerivedIo("disk full")), ExitCode::io);
}

TEST(ErrorLabel, NamesTheKindOfFailure) {
    EXPECT_STREQ(error_label(ExitCode::input), "error");
    EXPECT_STREQ(error_label(ExitCode::io), "error");
    EXPECT_STREQ(error_label(ExitCode::usage), "error");
    EXPECT_STREQ(error_label(ExitCode::solver), "solver error");
    EXPECT_STREQ(error_label(ExitCode::internal_error), "internal error");
}

}  // namespace
}  // namespace pimdse
