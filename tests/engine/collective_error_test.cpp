#include <gtest/gtest.h>

#include "pimdse/core/error.hpp"
#include "pimdse/engine/explore.hpp"

namespace pimdse::engine {
namespace {

// A setup failure every rank saw carries the code of the error it stands for, and the one
// mapping of core/error.hpp gives that code back (explore_command's abort path uses it).
TEST(CollectiveError, ExitCodeIsTheCarriedOne) {
    for (ExitCode c : {ExitCode::input, ExitCode::io, ExitCode::solver, ExitCode::internal_error}) {
        const CollectiveError e(c, "every rank failed alike");
        const std::exception& as_std = e;
        EXPECT_EQ(exit_code_of(as_std), c);
        EXPECT_EQ(e.code(), c);
    }
}

}  // namespace
}  // namespace pimdse::engine
