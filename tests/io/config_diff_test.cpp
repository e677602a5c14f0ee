// The resume check's comparison of two resolved configurations, key by key: hand-written
// cases, and the resolved form of the shipped default sweep against itself and against
// edited copies.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pimdse/io/config.hpp"
#include "pimdse/io/config_diff.hpp"

namespace pimdse::io {
namespace {

using Diffs = std::vector<std::string>;

TEST(ConfigDifferences, EqualTreesAgreeWhateverTheirFormatting) {
    EXPECT_EQ(config_differences("a: 1\nb: {c: 2}\n", "b:\n  c: 2\na: 1   # same\n"), Diffs{});
}

TEST(ConfigDifferences, NamesEachChangedKeyWithBothValues) {
    const std::string stored = "sweep:\n  seed: 7\n  batch_size: 4\ncost:\n  alpha: 1\n";
    const std::string now = "sweep:\n  seed: 8\n  batch_size: 4\ncost:\n  alpha: 2\n";
    EXPECT_EQ(config_differences(stored, now),
              (Diffs{"sweep.seed: stored 7, now 8", "cost.alpha: stored 1, now 2"}));
}

TEST(ConfigDifferences, KeysOnOneSideAndSequencesByIndex) {
    const std::string stored = "engine:\n  fault_injection: {fail: [3]}\nworkloads:\n  - {network: a.yaml}\n";
    const std::string now = "engine: {}\nworkloads:\n  - {network: a.yaml}\n  - {network: b.yaml}\n";
    EXPECT_EQ(config_differences(stored, now),
              (Diffs{"engine.fault_injection: stored {fail: [3]}, now absent",
                     "workloads[1]: stored absent, now {network: b.yaml}"}));
}

TEST(ConfigDifferences, ASectionAddedSinceMatchesItsAbsence) {
    const std::string stored = "cost:\n  alpha: 1\n";
    EXPECT_EQ(config_differences(stored, "cost:\n  alpha: 1\nmodel:\n  intra_node: analytic\n"), Diffs{});
    EXPECT_EQ(config_differences(stored, "cost:\n  alpha: 1\nmodel:\n  intra_node: exact\n"),
              (Diffs{"model: stored absent, now intra_node: exact"}));
    // model.overlap came later: absent meant false.
    EXPECT_EQ(
        config_differences(stored, "cost:\n  alpha: 1\nmodel:\n  intra_node: analytic\n  overlap: false\n"),
        Diffs{});
    EXPECT_EQ(
        config_differences(stored, "cost:\n  alpha: 1\nmodel:\n  intra_node: analytic\n  overlap: true\n"),
        (Diffs{"model: stored absent, now intra_node: analytic\noverlap: true"}));
    const std::string with_model = "model:\n  intra_node: analytic\n";
    EXPECT_EQ(config_differences(with_model, "model:\n  intra_node: analytic\n  overlap: false\n"), Diffs{});
    EXPECT_EQ(config_differences(with_model, "model:\n  intra_node: analytic\n  overlap: true\n"),
              (Diffs{"model.overlap: stored absent, now true"}));
}

TEST(ConfigDifferences, AHetero3dFileWithoutTheGradientModelMeantFloatGradients) {
    const std::string stored = "family: hetero3d\nhetero3d:\n  amosa_seed: 2\n";
    EXPECT_EQ(config_differences(
                  stored, "family: hetero3d\nhetero3d:\n  amosa_seed: 2\n  gradients: digital_float32\n"),
              Diffs{});
    EXPECT_EQ(
        config_differences(stored, "family: hetero3d\nhetero3d:\n  amosa_seed: 2\n  gradients: in_memory\n"),
        (Diffs{"hetero3d.gradients: stored absent, now in_memory"}));
}

TEST(ConfigDifferences, WhatAResumeMayChangeIsIgnored) {
    const std::string stored = "sweep:\n  budget: 12\n  wall_time: 1h\n  seed: 1\noutput:\n  path: a.h5\n";
    const std::string now = "sweep:\n  budget: 20\n  seed: 1\noutput:\n  path: elsewhere/b.h5\n";
    EXPECT_EQ(config_differences(stored, now), Diffs{});
}

TEST(ConfigDifferences, AStoredTextThatIsNotYamlIsOneDifference) {
    const Diffs d = config_differences("a: [1, 2\n", "a: 1\n");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].find("cannot be read"), std::string::npos);
}

TEST(ConfigDifferences, TheDefaultSweepResolvedAgainstItselfAndAnEdit) {
    const Config c = read_config_file(PIMDSE_SOURCE_DIR "/inputs/sweeps/default.yaml");
    const std::string resolved = to_yaml(c);
    EXPECT_EQ(config_differences(resolved, resolved), Diffs{});
    Config other = c;
    other.sweep.seed = c.sweep.seed + 1;
    other.sweep.budget = c.sweep.budget * 2;  // allowed
    EXPECT_EQ(config_differences(resolved, to_yaml(other)),
              Diffs{"sweep.seed: stored " + std::to_string(c.sweep.seed) + ", now " +
                    std::to_string(c.sweep.seed + 1)});
}

}  // namespace
}  // namespace pimdse::io
