#include "pimdse/core/error.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace pimdse
