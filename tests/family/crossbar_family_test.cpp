// The crossbar family through the interface the engine sees (family::make_family): its
// space (Gibbon's axes, names, units, defaults, ranges from `space:`), legality, describe,
// an evaluation equal to the cost model's (sim::cost_network_on_crossbars) with energy parts
// that sum to the energy, the area budget judged after evaluation, a workload without
// weights, and the configuration errors that name file, key and expectation.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "../scratch_files.hpp"
#include "family_config.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/eval/cost.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/io/workloads.hpp"
#include "pimdse/sim/crossbar_cost.hpp"

namespace pimdse::family {
namespace {

namespace fs = std::filesystem;
using pimdse::testing::message_of;
using pimdse::testing::scratch;

const fs::path kTiny = fs::path(PIMDSE_SOURCE_DIR) / "tests/data/mapping/tiny.yaml";

// A sweep configuration of the crossbar family over `network` with the given extra text.
io::Config config(const std::string& extra, const fs::path& network = kTiny) {
    return testing::family_config("crossbar", extra, network, 2, "crossbar.yaml");
}

eval::EvalContext context(const io::Config& c) {
    return testing::family_context(c);
}

DesignPoint point(const Family& f, std::initializer_list<int> values) {
    DesignPoint p;
    p.family = f.space().family();
    for (int v : values) p[p.size++] = v;
    return p;
}

TEST(CrossbarFamily, SpaceHasGibbonsAxesAndDefaults) {
    const auto f = make_family(config(""));
    EXPECT_EQ(f->name(), "crossbar");
    EXPECT_EQ(f->space().family(), 1);
    const DesignSpace& s = f->space();
    ASSERT_EQ(s.dimensions(), 6u);
    const std::vector<std::pair<std::string, std::vector<int>>> want{{"crossbar_size", {32, 64, 128, 256}},
                                                                     {"adc_bits", {4, 6, 8, 10}},
                                                                     {"dac_bits", {1, 2}},
                                                                     {"cell_bits", {1, 2}},
                                                                     {"weight_bits", {5, 7, 9}},
                                                                     {"activation_bits", {5, 7, 9}}};
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(s.axis(i).name, want[i].first);
        EXPECT_EQ(s.range(i).values(), want[i].second) << want[i].first;
        EXPECT_FALSE(s.axis(i).meaning.empty());
        EXPECT_EQ(s.axis(i).unit, i == 0 ? "" : "bit");
    }
    EXPECT_EQ(s.size(), 576.0L);
    ASSERT_EQ(f->energy_parts().size(), 6u);
    EXPECT_EQ(f->energy_parts()[0].name, "energy_crossbar_j");
    EXPECT_EQ(f->energy_parts()[4].name, "energy_buffer_j");
    EXPECT_EQ(f->energy_parts()[5].name, "energy_noc_j");
}

TEST(CrossbarFamily, SpaceRangesComeFromTheConfigurationByName) {
    const auto f =
        make_family(config("space:\n  adc_bits: {values: [6, 8]}\n  crossbar_size: {values: [64]}\n"));
    EXPECT_EQ(f->space().range(0).values(), std::vector<int>({64}));
    EXPECT_EQ(f->space().range(1).values(), std::vector<int>({6, 8}));
    EXPECT_EQ(f->space().range(4).values(), std::vector<int>({5, 7, 9}));  // the default kept
}

TEST(CrossbarFamily, ResolvedConfigurationReadsBackEqual) {
    for (const std::string& extra :
         {std::string(),
          std::string("space:\n  adc_bits: {values: [6, 8]}\ncrossbar: {schedule: sequential, "
                      "tile_budget: 64, polarity: 1, active_wordlines: 16, area_budget_mm2: 12.5, "
                      "accuracy_table: losses.csv}\n")}) {
        const io::Config c = config(extra);
        const std::string text = io::to_yaml(c);
        EXPECT_NE(text.find("\ncrossbar:\n"), std::string::npos) << text;
        const io::Config back = io::parse_config(text, c.source_file);
        EXPECT_EQ(back, c) << text;
        EXPECT_EQ(back.crossbar, c.crossbar) << text;
    }
    EXPECT_EQ(config("crossbar: {area_budget_mm2: 12.5, polarity: 1}\n").crossbar.area_budget_mm2, 12.5);
}

TEST(CrossbarFamily, LegalIsMembershipOfTheSpace) {
    const auto f = make_family(config("space:\n  adc_bits: {values: [6, 8]}\n"));
    EXPECT_TRUE(f->legal(point(*f, {128, 8, 1, 1, 9, 9})));
    EXPECT_FALSE(f->legal(point(*f, {128, 4, 1, 1, 9, 9})));  // ADC 4 not in this space
    EXPECT_FALSE(f->legal(point(*f, {100, 8, 1, 1, 9, 9})));  // not a listed size
    EXPECT_FALSE(f->legal(point(*f, {128, 8, 1, 1, 9})));     // a parameter short
    DesignPoint other = point(*f, {128, 8, 1, 1, 9, 9});
    other.family = 0;
    EXPECT_FALSE(f->legal(other));
}

TEST(CrossbarFamily, DescribesAPointForPeople) {
    const auto f = make_family(config(""));
    EXPECT_EQ(f->describe(point(*f, {128, 8, 1, 1, 9, 9})), "128x128 xbar, ADC 8b, DAC 1b, cell 1b, W9/A9");
    EXPECT_EQ(f->describe(point(*f, {32, 4, 2, 2, 5, 7})), "32x32 xbar, ADC 4b, DAC 2b, cell 2b, W5/A7");
}

TEST(CrossbarFamily, EvaluationIsTheCostModels) {
    const io::Config c = config("crossbar: {schedule: sequential, polarity: 1, active_wordlines: 32}\n");
    const auto f = make_family(c);
    const eval::EvalContext ctx = context(c);
    const DesignPoint p = point(*f, {64, 6, 2, 2, 7, 5});
    const eval::Evaluation e = f->evaluate(ctx, 3, p, Deadline{});
    ASSERT_EQ(e.status, eval::Status::ok) << e.message;
    EXPECT_EQ(e.candidate, 3);
    EXPECT_EQ(e.point, p);
    EXPECT_GT(e.seconds, 0);  // the evaluation's own wall time, for the dispatch order's model

    sim::CrossbarConfig x;
    x.size = 64, x.adc_bits = 6, x.dac_bits = 2, x.cell_bits = 2, x.weight_bits = 7, x.activation_bits = 5;
    x.polarity = 1, x.active_wordlines = 32;
    sim::CrossbarNetworkOptions o;
    o.schedule = sim::CrossbarSchedule::sequential;
    const sim::CrossbarNetworkCost want =
        sim::cost_network_on_crossbars(ctx.workloads[0].network, x, sim::mnsim2_technology(), o);
    EXPECT_DOUBLE_EQ(e.latency_seconds, want.latency_ns * 1e-9);
    EXPECT_DOUBLE_EQ(e.energy_joules, want.energy.total().value() * 1e-12);
    EXPECT_DOUBLE_EQ(e.area_mm2, want.area.total().value());
    ASSERT_EQ(e.networks.size(), 1u);
    const eval::NetworkResult& n = e.networks[0];
    ASSERT_EQ(n.energy_parts_pj.size(), 6u);
    EXPECT_DOUBLE_EQ(n.energy_parts_pj[1], want.energy.adc.value());
    EXPECT_DOUBLE_EQ(n.energy_parts_pj[5], want.energy.noc.value());
    EXPECT_DOUBLE_EQ(n.cost.energy.noc.value(), want.energy.noc.value());
    double parts = 0;
    for (double v : n.energy_parts_pj) parts += v;
    EXPECT_DOUBLE_EQ(parts, n.cost.energy.total().value());
    EXPECT_GT(n.cost.pe_utilisation, 0);
    EXPECT_LE(n.cost.pe_utilisation, 1);
    // Eq. 1 with the context's exponents and the workload's weight 2.
    const double eq1 = std::pow(e.energy_joules, c.cost.alpha) * std::pow(e.latency_seconds, c.cost.beta) * 2;
    EXPECT_DOUBLE_EQ(e.cost, eq1);
    EXPECT_DOUBLE_EQ(n.cost_term, eq1);
}

TEST(CrossbarFamily, SettingsChangeTheEvaluation) {
    const io::Config pipelined = config("");
    const io::Config sequential = config("crossbar: {schedule: sequential}\n");
    const auto a = make_family(pipelined);
    const auto b = make_family(sequential);
    const DesignPoint p = point(*a, {64, 8, 1, 1, 9, 9});
    const eval::Evaluation ea = a->evaluate(context(pipelined), 0, p, Deadline{});
    const eval::Evaluation eb = b->evaluate(context(sequential), 0, p, Deadline{});
    ASSERT_EQ(ea.status, eval::Status::ok);
    ASSERT_EQ(eb.status, eval::Status::ok);
    EXPECT_LT(ea.latency_seconds, eb.latency_seconds);  // tiny's layers overlap when pipelined
    EXPECT_DOUBLE_EQ(ea.energy_joules, eb.energy_joules);
}

TEST(CrossbarFamily, OverTheAreaBudgetIsInfeasibleAfterEvaluation) {
    const io::Config open = config("");
    const auto f = make_family(open);
    const DesignPoint p = point(*f, {256, 10, 1, 1, 9, 9});
    const double area = f->evaluate(context(open), 0, p, Deadline{}).area_mm2;
    ASSERT_GT(area, 0);

    const auto budget = [&](double mm2) {
        std::ostringstream text;
        text << "crossbar: {area_budget_mm2: " << mm2 << "}\n";
        const io::Config c = config(text.str());
        return make_family(c)->evaluate(context(c), 0, p, Deadline{});
    };
    const eval::Evaluation over = budget(area * 0.5);
    EXPECT_EQ(over.status, eval::Status::infeasible);
    EXPECT_NE(over.message.find("crossbar.area_budget_mm2"), std::string::npos) << over.message;
    EXPECT_TRUE(std::isinf(over.cost));
    EXPECT_DOUBLE_EQ(over.area_mm2, area);  // what it would take is kept
    EXPECT_EQ(budget(area * 2).status, eval::Status::ok);
}

TEST(CrossbarFamily, AWorkloadWithoutWeightsFailsTheCandidate) {
    const fs::path pool_only = scratch("pool_only.yaml");
    std::ofstream(pool_only) << "network: pool_only\ninput: {channels: 4, height: 8, width: 8}\n"
                                "layers:\n  - {name: p, type: pool, mode: max, kernel: 2, stride: 2}\n";
    const io::Config c = config("", pool_only);
    const auto f = make_family(c);
    const eval::Evaluation e = f->evaluate(context(c), 0, point(*f, {128, 8, 1, 1, 9, 9}), Deadline{});
    EXPECT_EQ(e.status, eval::Status::failed);
    EXPECT_NE(e.message.find("'pool_only' has no weighted layer"), std::string::npos) << e.message;
    EXPECT_TRUE(std::isinf(e.cost));
}

TEST(CrossbarFamily, AForeignPointFailsWithoutThrowing) {
    const io::Config c = config("");
    const auto f = make_family(c);
    const eval::Evaluation e = f->evaluate(context(c), 0, point(*f, {100, 8, 1, 1, 9, 9}), Deadline{});
    EXPECT_EQ(e.status, eval::Status::failed);
    EXPECT_FALSE(e.message.empty());
}

TEST(CrossbarFamily, ReportsTheAdcDeficitAndTheTablesAccuracyLoss) {
    const fs::path table = scratch("accuracy.csv");
    std::ofstream(table) << "network, adc_bits, accuracy_loss\ntiny, 6, 4.5\nother, 8, 1\n";
    const io::Config c = config("crossbar: {active_wordlines: 32, accuracy_table: " + table.string() +
                                "}\nengine: {objectives: [edp, adc_deficit, accuracy_loss]}\n");
    const auto f = make_family(c);
    ASSERT_EQ(f->metrics().size(), 2u);
    EXPECT_EQ(f->metrics()[0].name, "adc_deficit_bits");
    EXPECT_EQ(f->metrics()[1].name, "accuracy_loss");
    const eval::EvalContext ctx = context(c);
    // tiny's first conv has 8 x 3 x 3 = 72 rows; 32 of them are read at once: a column sums
    // to at most 32 x 3 x 3 (2-bit cells and DACs), 289 levels with zero, 9 bits: 3 more
    // than a 6-bit ADC resolves.
    const eval::Evaluation e = f->evaluate(ctx, 0, point(*f, {64, 6, 2, 2, 7, 5}), Deadline{});
    ASSERT_EQ(e.status, eval::Status::ok) << e.message;
    ASSERT_EQ(e.metrics.size(), 2u);
    EXPECT_EQ(e.metrics[0], 3);
    EXPECT_EQ(e.metrics[1], 4.5);  // the one workload's row (its weight 2 cancels)
    // An 8-bit ADC has no row for tiny: the loss is missing, not imputed; the deficit is 1.
    const eval::Evaluation adc8 = f->evaluate(ctx, 1, point(*f, {64, 8, 2, 2, 7, 5}), Deadline{});
    ASSERT_EQ(adc8.metrics.size(), 2u);
    EXPECT_EQ(adc8.metrics[0], 1);
    EXPECT_TRUE(std::isnan(adc8.metrics[1]));
    // Without a table there is no accuracy loss to report.
    EXPECT_EQ(make_family(config(""))->metrics().size(), 1u);
}

TEST(CrossbarFamily, MetricObjectivesNeedAFamilyThatReportsThem) {
    const std::string need_table =
        message_of([] { (void)make_family(config("engine: {objectives: [edp, accuracy_loss]}\n")); });
    EXPECT_NE(
        need_table.find("crossbar.yaml: key 'engine.objectives': the objective 'accuracy_loss' reads the "
                        "metric 'accuracy_loss', which family crossbar does not report (it reports "
                        "adc_deficit_bits); the crossbar family reports it with crossbar.accuracy_table"),
        std::string::npos)
        << need_table;
    io::Config dram = config("engine: {objectives: [latency, adc_deficit]}\n");
    dram.family = "dram_pim";
    const std::string none = message_of([&] { (void)make_family(dram); });
    EXPECT_NE(none.find("which family dram_pim does not report (it reports none)"), std::string::npos)
        << none;
}

TEST(CrossbarFamily, ConfigurationErrorsNameFileKeyAndExpectation) {
    const auto error = [](const std::string& extra) {
        return message_of([&] { (void)make_family(config(extra)); });
    };
    EXPECT_NE(
        error("space:\n  rows: {values: [64]}\n")
            .find("crossbar.yaml: key 'space.rows': expected a parameter of the crossbar family "
                  "(crossbar_size, adc_bits, dac_bits, cell_bits, weight_bits, activation_bits), got 'rows'"),
        std::string::npos);
    EXPECT_NE(error("space:\n  dac_bits: {values: [1, 32]}\n")
                  .find("key 'space.dac_bits': expected values in [1, 16], got list 1, 32"),
              std::string::npos);
    EXPECT_NE(error("crossbar: {technology: neurosim}\n")
                  .find("crossbar.yaml: key 'crossbar.technology': expected a technology preset (mnsim2), "
                        "got 'neurosim'"),
              std::string::npos);
}

}  // namespace
}  // namespace pimdse::family
