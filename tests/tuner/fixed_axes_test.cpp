// A parameter of one value changes no proposal (docs/tuner.md, "Encoding"): every proposer,
// given a space and the same space with two one-value axes appended (as the dram_pim space
// carries its clock and data width), proposes the same points for the same seed and history.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "proposer_setup.hpp"

namespace pimdse::tuner {
namespace {

DesignSpace space(bool with_fixed) {
    std::vector<ParamAxis> axes{{"a", "", "", ParamRange::log2(1, 64)},
                                {"b", "", "", ParamRange::linear(8, 256, 8)},
                                {"c", "", "", ParamRange::list({2, 3, 5, 7})}};
    if (with_fixed) {
        axes.push_back({"clock", "MHz", "", ParamRange::list({400})});
        axes.push_back({"width", "bit", "", ParamRange::list({16})});
    }
    return {0, std::move(axes)};
}

ProposerContext context(bool with_fixed) {
    // A budget that bites.
    return test_context(
        space(with_fixed), [](const DesignPoint& p) { return p[0] * p[1] <= 4096; }, 11, 512);
}

// A cost of the first three values only, and a second objective for AMOSA.
Observation observe(std::int64_t id, const DesignPoint& p) {
    Observation o;
    o.candidate = id;
    o.params = p;
    const double x = std::log2(p[0]) - 3.5, y = std::log2(p[1]) - 6.0, z = p[2] - 4.0;
    o.cost = std::exp(0.3 * x * x + 0.5 * y * y + 0.2 * z * z);
    o.objectives = {o.cost, static_cast<double>(p[0] * p[1])};
    return o;
}

// The first three values of every point of every batch.
std::vector<std::vector<int>> run(const std::string& name, bool with_fixed) {
    auto proposer = make_proposer(name, context(with_fixed), small_options(6, {16, 4}, 64, 20));
    std::vector<std::vector<int>> out;
    std::int64_t id = 0;
    for (int b = 0; b < 5; ++b) {
        const std::vector<DesignPoint> points = proposer->propose(b, 6);
        std::vector<Observation> told;
        for (const DesignPoint& p : points) {
            EXPECT_EQ(p.size, with_fixed ? 5 : 3);
            if (with_fixed) {
                EXPECT_EQ(p[3], 400);
                EXPECT_EQ(p[4], 16);
            }
            out.push_back({p[0], p[1], p[2]});
            told.push_back(observe(id++, p));
        }
        proposer->observe(told);
    }
    return out;
}

TEST(FixedAxes, EncodingFeaturesLeaveThemOut) {
    EXPECT_EQ(Encoding(space(true)).features(), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(Encoding(space(false)).features(), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_EQ(Encoding(space(true)).encode(space(true).at({})).at(3), 0.0);
}

class EveryProposerFixed : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryProposerFixed, ProposesWhatTheSpaceWithoutThemDoes) {
    const std::vector<std::vector<int>> plain = run(GetParam(), false);
    const std::vector<std::vector<int>> fixed = run(GetParam(), true);
    ASSERT_EQ(plain.size(), 30u);
    EXPECT_EQ(plain, fixed);
}

INSTANTIATE_TEST_SUITE_P(All, EveryProposerFixed,
                         ::testing::Values("random", "grid", "annealing", "evolution", "amosa", "gp",
                                           "nicepim"));

}  // namespace
}  // namespace pimdse::tuner
