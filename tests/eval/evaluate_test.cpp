// One candidate's evaluation: the sums and the NicePIM Eq. 1 cost by hand, a pure function of
// its inputs, and every way it can end (ok, infeasible, failed, timeout, work_limit) as a status.
#include "pimdse/eval/evaluate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "pimdse/hw/area.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/io/network_file.hpp"

namespace pimdse::eval {
namespace {

const char* const kSmall = R"(
network: small
input: {channels: 8, height: 16, width: 16}
layers:
  - {name: c1, type: conv, out_channels: 16, kernel: 3, padding: 1}
  - {name: c2, type: conv, out_channels: 16, kernel: 1}
  - {name: fc, type: matmul, out_features: 10, flatten: true}
)";

const char* const kTiny = R"(
network: tiny
input: {channels: 4, height: 8, width: 8}
layers:
  - {name: c1, type: conv, out_channels: 8, kernel: 1}
)";

Workload workload_of(const char* text, const char* file, double weight) {
    workload::Network n = io::parse_network(text, file);
    workload::Segmentation s = workload::decompose(n);
    return Workload{std::move(n), std::move(s), weight};
}

EvalContext context() {
    EvalContext c;
    c.workloads.push_back(workload_of(kSmall, "small.yaml", 1.0));
    c.workloads.push_back(workload_of(kTiny, "tiny.yaml", 2.0));
    return c;
}

Candidate candidate(std::int64_t id = 7) {
    Candidate c;
    c.id = id;
    c.params.node_rows = 2;
    c.params.node_cols = 2;
    c.params.pe_rows = c.params.pe_cols = 8;
    c.params.ibuf_kib = c.params.wbuf_kib = c.params.obuf_kib = 16;
    return c;
}

TEST(Evaluate, SumsAndCostFollowEquationOne) {
    EvalContext ctx = context();
    ctx.alpha = 1.0;
    ctx.beta = 2.0;
    const Evaluation e = evaluate(ctx, candidate(), Deadline{});
    ASSERT_EQ(e.status, Status::ok) << e.message;
    EXPECT_EQ(e.candidate, 7);
    ASSERT_EQ(e.networks.size(), 2u);
    double latency = 0, energy = 0, cost = 0;
    for (std::size_t i = 0; i < e.networks.size(); ++i) {
        const NetworkResult& r = e.networks[i];
        ASSERT_EQ(r.cost.status, sim::EvalStatus::ok);
        const double joules = r.cost.energy.total().value() * 1e-12;
        // NicePIM Eq. 1: energy^alpha x latency^beta x gamma, per network.
        EXPECT_DOUBLE_EQ(r.cost_term, joules * r.cost.seconds * r.cost.seconds * ctx.workloads[i].weight);
        latency += r.cost.seconds;
        energy += joules;
        cost += r.cost_term;
        EXPECT_EQ(r.mapping.layers.size(), static_cast<std::size_t>(ctx.workloads[i].network.size()));
    }
    EXPECT_DOUBLE_EQ(e.latency_seconds, latency);
    EXPECT_DOUBLE_EQ(e.energy_joules, energy);
    EXPECT_DOUBLE_EQ(e.cost, cost);
    const hw::AreaBreakdown a = hw::area(hw::from_point(e.point), ctx.constraints, ctx.technology);
    EXPECT_DOUBLE_EQ(e.area_mm2, a.nn_engines.value());
    EXPECT_DOUBLE_EQ(e.area_total_mm2, a.total.value());
}

TEST(Evaluate, IsAPureFunctionOfItsInputs) {
    const EvalContext ctx = context();
    const Evaluation a = evaluate(ctx, candidate(), Deadline{});
    const Evaluation b = evaluate(ctx, candidate(), Deadline{});
    ASSERT_EQ(a.status, Status::ok) << a.message;
    EXPECT_EQ(a.cost, b.cost);
    for (std::size_t i = 0; i < a.networks.size(); ++i) {
        EXPECT_EQ(a.networks[i].cost, b.networks[i].cost);
        EXPECT_EQ(a.networks[i].mapping, b.networks[i].mapping);
    }
}

TEST(Evaluate, OverlapComposesTheSameMappingOverlapped) {
    // model.overlap changes when the layers run, not the mapping or what each layer costs.
    EvalContext ctx = context();
    const Evaluation seq = evaluate(ctx, candidate(), Deadline{});
    ctx.model.overlap = true;
    const Evaluation ov = evaluate(ctx, candidate(), Deadline{});
    ASSERT_EQ(ov.status, Status::ok) << ov.message;
    ASSERT_EQ(ov.networks.size(), seq.networks.size());
    for (std::size_t i = 0; i < ov.networks.size(); ++i) {
        const sim::NetworkCost& a = seq.networks[i].cost;
        const sim::NetworkCost& b = ov.networks[i].cost;
        EXPECT_EQ(ov.networks[i].mapping, seq.networks[i].mapping);
        EXPECT_LE(b.latency.value(), a.latency.value());
        for (std::size_t l = 0; l < a.layers.size(); ++l) {
            EXPECT_EQ(b.layers[l].redistribution, a.layers[l].redistribution);
            EXPECT_EQ(b.layers[l].sharing, a.layers[l].sharing);
            EXPECT_EQ(b.layers[l].compute, a.layers[l].compute);
            EXPECT_EQ(b.layers[l].energy, a.layers[l].energy);
        }
        // Only the background power follows the latency.
        EXPECT_DOUBLE_EQ(b.energy.pe.value(), a.energy.pe.value());
        EXPECT_DOUBLE_EQ(b.energy.noc.value(), a.energy.noc.value());
        EXPECT_DOUBLE_EQ(b.energy.dram_background.value() * a.latency.value(),
                         a.energy.dram_background.value() * b.latency.value());
    }
    EXPECT_LE(ov.latency_seconds, seq.latency_seconds);
}

TEST(Evaluate, AWorkloadsWeightScalesOnlyItsTerm) {
    EvalContext ctx = context();
    const Evaluation a = evaluate(ctx, candidate(), Deadline{});
    ctx.workloads[1].weight *= 3;
    const Evaluation b = evaluate(ctx, candidate(), Deadline{});
    ASSERT_EQ(a.status, Status::ok);
    EXPECT_DOUBLE_EQ(b.networks[0].cost_term, a.networks[0].cost_term);
    EXPECT_DOUBLE_EQ(b.networks[1].cost_term, 3 * a.networks[1].cost_term);
    EXPECT_DOUBLE_EQ(b.cost, a.networks[0].cost_term + 3 * a.networks[1].cost_term);
}

TEST(Evaluate, WeightsBeyondTheDramAreInfeasibleWithInfiniteCost) {
    EvalContext ctx = context();
    ctx.constraints.bank_capacity = Bytes(64);  // 64 banks per node: 4 KiB of DRAM
    const Evaluation e = evaluate(ctx, candidate(), Deadline{});
    EXPECT_EQ(e.status, Status::infeasible);
    EXPECT_NE(e.message.find("DRAM capacity"), std::string::npos) << e.message;
    EXPECT_TRUE(std::isinf(e.cost));
}

TEST(Evaluate, AThrowIsRecordedAsFailed) {
    EvalContext ctx = context();
    ctx.faults.throw_candidates = {7};
    const Evaluation e = evaluate(ctx, candidate(7), Deadline{});
    EXPECT_EQ(e.status, Status::failed);
    EXPECT_FALSE(e.message.empty());
    EXPECT_TRUE(std::isinf(e.cost));
    // Another candidate of the same context is untouched.
    EXPECT_EQ(evaluate(ctx, candidate(8), Deadline{}).status, Status::ok);
}

TEST(Evaluate, AnExpiredDeadlineIsATimeout) {
    const Evaluation e =
        evaluate(context(), candidate(), Deadline::after(std::chrono::duration<double>(0.0)));
    EXPECT_EQ(e.status, Status::timeout);
    EXPECT_TRUE(std::isinf(e.cost));
}

TEST(Evaluate, TheWorkLimitBindsAtTheSameStepWhateverTheClock) {
    // Count the steps of an unlimited run: each workload is one, and the mapper takes at least
    // one per search round, so two workloads take more than two.
    EvalContext ctx = context();
    std::int64_t steps = 0;
    for (std::int64_t limit = 1; limit < 100000; limit *= 2) {
        ctx.work_limit = limit;
        if (evaluate(ctx, candidate(), Deadline{}).status == Status::ok) {
            steps = limit;
            break;
        }
    }
    ASSERT_GT(steps, 2);
    // Just below what the candidate needs (found by bisection): work_limit, with its message,
    // and the same outcome twice; one more step and it is ok, with the unlimited result.
    std::int64_t lo = steps / 2, hi = steps;  // lo runs out, hi suffices
    while (hi - lo > 1) {
        const std::int64_t mid = (lo + hi) / 2;
        ctx.work_limit = mid;
        (evaluate(ctx, candidate(), Deadline{}).status == Status::ok ? hi : lo) = mid;
    }
    ctx.work_limit = lo;
    const Evaluation a = evaluate(ctx, candidate(), Deadline{});
    const Evaluation b = evaluate(ctx, candidate(), Deadline{});
    EXPECT_EQ(a.status, Status::work_limit);
    EXPECT_EQ(a.message, b.message);
    EXPECT_NE(a.message.find("engine.work_limit = " + std::to_string(lo) + " mapper steps"),
              std::string::npos)
        << a.message;
    EXPECT_TRUE(std::isinf(a.cost));
    ctx.work_limit = hi;
    const Evaluation limited = evaluate(ctx, candidate(), Deadline{});
    ctx.work_limit.reset();
    const Evaluation free = evaluate(ctx, candidate(), Deadline{});
    ASSERT_EQ(limited.status, Status::ok);
    EXPECT_EQ(limited.cost, free.cost);
    EXPECT_EQ(limited.latency_seconds, free.latency_seconds);
}

TEST(Evaluate, AStallEndsAsASpentWorkLimitOrTheSafetyNet) {
    EvalContext ctx = context();
    ctx.faults.stall_candidates = {7};
    // The wall-clock safety net fires first here (it is shorter than the stall): timeout.
    const Evaluation e = evaluate(ctx, candidate(7), Deadline::after(std::chrono::duration<double>(0.05)));
    EXPECT_EQ(e.status, Status::timeout);
    EXPECT_NE(e.message.find("engine.time_limit"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace pimdse::eval
