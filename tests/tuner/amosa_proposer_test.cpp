// The "amosa" proposer (src/tuner/amosa_proposer.cpp): on a bi-objective toy problem over a
// small grid space it evaluates the whole front (known by brute force) within its budget and
// no point twice; it is deterministic for a seed, and a fresh proposer told the history
// through observe() proposes the next batch of the run; invalid options are refused.

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <span>
#include <string>
#include <utility>

#include "amosa_toy.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace pimdse::tuner::amosa {
namespace {

// The "amosa" proposer on the toy problem as a design space of two parameters, 1..41 each.
ProposerContext toy_context(std::uint64_t seed, int batch_size) {
    ProposerContext ctx;
    ctx.batch_size = batch_size;
    const ParamRange values = ParamRange::linear(1, 41, 1);
    ctx.space = DesignSpace(
        1, {ParamAxis{std::string("x"), {}, {}, values}, ParamAxis{std::string("y"), {}, {}, values}});
    ctx.legal = [](const DesignPoint&) { return true; };
    ctx.seed = seed;
    return ctx;
}

Observation toy_observation(std::int64_t id, const DesignPoint& p) {
    Observation o;
    o.candidate = id;
    o.params = p;
    if (p[0] == 7 && p[1] > 20) {  // some failures, which must never matter
        o.outcome = Outcome::failed;
        o.cost = INFINITY;
        return o;
    }
    o.objectives = toy(p[0] - 1, p[1] - 1);
    o.cost = o.objectives[0] + o.objectives[1];
    return o;
}

struct ToyRun {
    std::vector<std::vector<DesignPoint>> batches;
    std::vector<Observation> history;
};

ToyRun run_toy(std::uint64_t seed, int batches, int size, const ProposerOptions& options) {
    auto proposer = make_proposer("amosa", toy_context(seed, size), options);
    ToyRun r;
    for (int b = 0; b < batches; ++b) {
        std::vector<DesignPoint> points = proposer->propose(b, size);
        std::vector<Observation> obs;
        for (const DesignPoint& p : points)
            obs.push_back(toy_observation(static_cast<std::int64_t>(r.history.size() + obs.size()), p));
        proposer->observe(obs);
        r.history.insert(r.history.end(), obs.begin(), obs.end());
        r.batches.push_back(std::move(points));
    }
    return r;
}

ProposerOptions toy_options() {
    ProposerOptions o;
    o.amosa_t_max = 10;
    o.amosa_t_min = 0.01;
    o.amosa_alpha = 0.7;
    o.amosa_iterations = 40;
    return o;
}

TEST(AmosaProposer, ReachesTheToyFrontWithoutEvaluatingAPointTwice) {
    // 60 batches of 8: 480 of the 1681 points.
    const ToyRun r = run_toy(5, 60, 8, toy_options());
    ParetoArchive archive(2);
    PointSet seen;
    for (const Observation& o : r.history) {
        EXPECT_TRUE(seen.insert(o.params).second) << "evaluated twice: " << to_string(o.params);
        if (o.outcome == Outcome::ok) (void)archive.insert(o.candidate, o.objectives);
    }
    std::set<std::vector<double>> found;
    for (const ParetoPoint& p : archive.front()) found.insert(p.objectives);
    EXPECT_EQ(found, true_front());
    EXPECT_EQ(r.history.size(), 480u);
}

TEST(AmosaProposer, DeterministicAndReplayable) {
    const ToyRun a = run_toy(9, 12, 6, toy_options());
    EXPECT_EQ(run_toy(9, 12, 6, toy_options()).batches, a.batches);
    EXPECT_NE(run_toy(10, 12, 6, toy_options()).batches, a.batches);
    // A fresh proposer told batches 0..10 through observe() proposes batch 11 as the run did,
    // whether it is told batch by batch or all at once (a chain is a function of the id).
    auto replay = make_proposer("amosa", toy_context(9, 6), toy_options());
    for (std::size_t b = 0; b + 1 < a.batches.size(); ++b)
        replay->observe(std::span<const Observation>(a.history).subspan(b * 6, 6));
    EXPECT_EQ(replay->propose(11, 6), a.batches[11]);
    auto at_once = make_proposer("amosa", toy_context(9, 6), toy_options());
    at_once->observe(std::span<const Observation>(a.history).first(66));
    EXPECT_EQ(at_once->propose(11, 6), a.batches[11]);
    // Another batch size is another set of chains: another run.
    auto other = make_proposer("amosa", toy_context(9, 3), toy_options());
    other->observe(std::span<const Observation>(a.history).first(66));
    EXPECT_NE(other->propose(11, 6), a.batches[11]);
}

TEST(AmosaProposer, InvalidOptionsAreRefused) {
    ProposerOptions o;
    o.amosa_hard_limit = 20;
    o.amosa_soft_limit = 10;
    EXPECT_THROW((void)make_proposer("amosa", toy_context(1, 8), o), pimdse::ModelError);
    o = {};
    o.amosa_t_min = 1000;
    EXPECT_THROW((void)make_proposer("amosa", toy_context(1, 8), o), pimdse::ModelError);
    o = {};
    o.amosa_alpha = 0;
    EXPECT_THROW((void)make_proposer("amosa", toy_context(1, 8), o), pimdse::ModelError);
}

}  // namespace
}  // namespace pimdse::tuner::amosa
