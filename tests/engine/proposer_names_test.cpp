// The configuration's proposer choices (io::kProposerNames) are names the tuner makes: io
// keeps its own enum so that it does not depend on the tuner (docs/architecture.md, "Why
// `io` sits just above `sim`"), and this test keeps the two lists from drifting apart.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "pimdse/io/config.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace pimdse {
namespace {

TEST(ProposerNames, TheConfigurationAndTheTunerKnowTheSameProposers) {
    const std::set<std::string_view> config(io::proposer_names().begin(), io::proposer_names().end());
    const std::set<std::string_view> tuner(tuner::proposer_names().begin(), tuner::proposer_names().end());
    EXPECT_EQ(config, tuner);
}

TEST(ProposerNames, EveryEnumValueRoundTripsThroughItsName) {
    for (const auto& [value, name] : io::kProposerNames) {
        EXPECT_EQ(io::to_string(value), name);
        EXPECT_EQ(value_of(io::kProposerNames, name), value);
    }
    EXPECT_FALSE(value_of(io::kProposerNames, "bayes").has_value());
}

}  // namespace
}  // namespace pimdse
