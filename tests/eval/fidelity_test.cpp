// The cheap fidelities of an evaluation (at_fidelity; docs/tuner.md, "Cheap fidelity"): each
// is a different computation from the full evaluation (some candidate's cost differs), yet
// ranks a spread of candidates the same way more often than not (Kendall's tau above 0),
// and none keeps schedules or injects faults.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "pimdse/eval/evaluate.hpp"
#include "pimdse/io/network_file.hpp"

namespace pimdse::eval {
namespace {

// ResNet-18 at batch 1: enough layers and sharing for the mapper's later rounds and the ILP
// to matter on some of the candidates below (on most, the ILP's cycles cost exactly what
// the snake ring's do; on the 4 x 8 array they differ).
EvalContext resnet18_context() {
    EvalContext c;
    workload::Network n =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/resnet18.yaml");
    workload::Segmentation s = workload::decompose(n);
    c.workloads.push_back(Workload{std::move(n), std::move(s), 1.0});
    return c;
}

// A spread of node arrays, PE arrays and buffers (all legal under the default constraints).
std::vector<Candidate> spread() {
    std::vector<Candidate> out;
    const int arrays[][2] = {{2, 2}, {2, 4}, {4, 4}, {4, 4}, {4, 2}, {4, 4}, {4, 8}};
    const int pes[] = {16, 8, 8, 16, 32, 4, 8};
    const int bufs[] = {64, 32, 128, 16, 64, 256, 64};
    for (std::size_t i = 0; i < std::size(pes); ++i) {
        Candidate c;
        c.id = static_cast<std::int64_t>(i);
        c.params.node_rows = arrays[i][0];
        c.params.node_cols = arrays[i][1];
        c.params.pe_rows = c.params.pe_cols = pes[i];
        c.params.ibuf_kib = c.params.wbuf_kib = c.params.obuf_kib = bufs[i];
        out.push_back(c);
    }
    return out;
}

TEST(AtFidelity, SetsTheCheapKnobsOnly) {
    EvalContext full;
    full.record_schedules = true;
    full.faults.throw_candidates = {3};
    EXPECT_FALSE(at_fidelity(full, CheapFidelity::none).snake_costing);
    EXPECT_TRUE(at_fidelity(full, CheapFidelity::none).record_schedules);
    const EvalContext snake = at_fidelity(full, CheapFidelity::snake);
    EXPECT_TRUE(snake.snake_costing);
    EXPECT_EQ(snake.mapper_rounds, 3);
    EXPECT_FALSE(snake.record_schedules);
    EXPECT_TRUE(snake.faults.empty());
    const EvalContext one = at_fidelity(full, CheapFidelity::one_round);
    EXPECT_FALSE(one.snake_costing);
    EXPECT_EQ(one.mapper_rounds, 1);
    const EvalContext both = at_fidelity(full, CheapFidelity::snake_one_round);
    EXPECT_TRUE(both.snake_costing);
    EXPECT_EQ(both.mapper_rounds, 1);
}

class CheapFidelityPath : public ::testing::TestWithParam<CheapFidelity> {};

TEST_P(CheapFidelityPath, DiffersFromTheFullEvaluationAndRanksWithIt) {
    const EvalContext full = resnet18_context();
    const EvalContext cheap = at_fidelity(full, GetParam());
    std::vector<double> a, b;
    int differ = 0;
    for (const Candidate& c : spread()) {
        const Evaluation x = evaluate(full, c, Deadline{});
        const Evaluation y = evaluate(cheap, c, Deadline{});
        ASSERT_EQ(x.status, Status::ok) << x.message;
        ASSERT_EQ(y.status, Status::ok) << y.message;
        EXPECT_EQ(x.area_mm2, y.area_mm2);  // the hardware is the same
        if (x.cost != y.cost) ++differ;
        a.push_back(x.cost);
        b.push_back(y.cost);
    }
    EXPECT_GT(differ, 0) << "the cheap path computed exactly the full costs";
    // Kendall's tau-a over the 21 pairs, counted here without the tuner.
    int agree = 0, disagree = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (std::size_t j = i + 1; j < a.size(); ++j) {
            const double s = (a[i] - a[j]) * (b[i] - b[j]);
            agree += s > 0;
            disagree += s < 0;
        }
    }
    EXPECT_GT(agree, disagree);
}

INSTANTIATE_TEST_SUITE_P(Fidelities, CheapFidelityPath,
                         ::testing::Values(CheapFidelity::snake, CheapFidelity::one_round,
                                           CheapFidelity::snake_one_round),
                         [](const auto& test_info) {
                             return std::string(name_of(kCheapFidelityNames, test_info.param));
                         });

}  // namespace
}  // namespace pimdse::eval
