// Sweep configurations and hardware files: the inputs/ files, defaults, the to_yaml round
// trip, and every malformed file of tests/data/malformed/config (EXPECTED.txt) failing with
// its own message naming file, line, key and expectation.

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/hw/node.hpp"
#include "pimdse/io/config.hpp"

namespace pimdse::io {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = PIMDSE_SOURCE_DIR;

// A scratch directory with a stand-in network file: reading a configuration only checks
// that each network file is readable (networks are parsed elsewhere).
class ConfigFiles : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("pimdse_config_test_" + std::to_string(::getpid()) + "_" + info->name());
        fs::create_directories(dir_ / "nets");
        write("nets/a.yaml", "# stand-in network file\n");
        write("nets/b.yaml", "# stand-in network file\n");
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path write(const std::string& name, const std::string& text) const {
        const fs::path p = dir_ / name;
        std::ofstream(p) << text;
        return p;
    }
    Config parse(const std::string& text) const { return parse_config(text, dir_ / "sweep.yaml"); }

    fs::path dir_;
};

const char* kMinimal =
    "workloads:\n"
    "  - network: nets/a.yaml\n"
    "sweep:\n"
    "  budget: 10\n"
    "output:\n"
    "  path: out/run.h5\n";

TEST_F(ConfigFiles, DefaultsFillEverythingNotGiven) {
    const Config c = parse(kMinimal);
    EXPECT_EQ(c.constraints, hw::Constraints{});
    EXPECT_EQ(c.space, hw::default_space(hw::Constraints{}));
    EXPECT_EQ(c.space.size(), 21743271936.0L);
    ASSERT_EQ(c.workloads.size(), 1u);
    EXPECT_EQ(c.workloads[0].network, dir_ / "nets/a.yaml");
    EXPECT_EQ(c.workloads[0].weight, 1.0);
    EXPECT_FALSE(c.workloads[0].batch.has_value());
    EXPECT_EQ(c.cost, (CostConfig{1.0, 1.0}));
    EXPECT_EQ(c.sweep.seed, 1u);
    EXPECT_EQ(c.sweep.batch_size, 8);
    EXPECT_EQ(c.sweep.budget, 10);
    EXPECT_FALSE(c.sweep.wall_time.has_value());
    EXPECT_EQ(c.sweep.proposer, Proposer::nicepim);
    EXPECT_EQ(c.sweep.samples_per_round, 16384);
    EXPECT_EQ(c.output.path, dir_ / "out/run.h5");
    EXPECT_EQ(c.schedule, pimdse::ScheduleOptions{});  // the ILP, 2 500 iterations per event, gap 0
    EXPECT_EQ(c.schedule.scheduler, pimdse::SchedulerKind::ilp);
    EXPECT_EQ(c.schedule.time_limit_seconds, 60.0);
    EXPECT_EQ(c.schedule.work_limit, 2500);
    EXPECT_EQ(c.schedule.relative_gap, 0.0);
    EXPECT_EQ(c.engine, EngineConfig{});  // no time limit; latency, energy, area; automatic reference
    EXPECT_EQ(c.source_text, kMinimal);   // kept byte for byte
    EXPECT_EQ(c.source_file, dir_ / "sweep.yaml");
}

TEST_F(ConfigFiles, EveryKeyIsRead) {
    const Config c = parse(
        "constraints:\n"
        "  technology_nm: 22\n"
        "  bank_array: [8, 4]\n"
        "  bank_width_bits: 64\n"
        "  bank_capacity_mib: 16\n"
        "  area_budget_mm2: 32.5\n"
        "  clock_mhz: 500\n"
        "  data_width_bits: 8\n"
        "  psum_width_bits: 24\n"
        "  node_rows: {min: 1}\n"
        "  pe_rows: {max: 128}\n"
        "  pe_cols: {min: 2, max: 64}\n"
        "  buffer_kib: {min: 4, max: 512}\n"
        "  dram_energy_pj_per_bit: 1.5\n"
        "  noc_energy_pj_per_bit_hop: 0.7\n"
        "  noc_virtual_channels: 4\n"
        "space:\n"
        "  pe_rows: {min: 4, max: 100, spacing: log2}\n"
        "  ibuf_kib: {values: [64, 4, 16]}\n"
        "  wbuf_kib: {min: 16, max: 512, spacing: linear, step: 16}\n"
        "workloads:\n"
        "  - {network: nets/a.yaml, weight: 2.5, batch: 4}\n"
        "  - {network: nets/a.yaml, batch: 8}\n"
        "  - network: " +
        (dir_ / "nets/b.yaml").string() +
        "\n"
        "cost: {alpha: 0, beta: 2}\n"
        "schedule: {scheduler: tsp, time_limit: 0.25, relative_gap: 0.02}\n"
        "sweep:\n"
        "  seed: 18446744073709551615\n"
        "  batch_size: 32\n"
        "  budget: 5000\n"
        "  wall_time: 90m\n"
        "  proposer: evolution\n"
        "  samples_per_round: 100\n"
        "output: {path: /tmp/x/y.h5}\n"
        "engine:\n"
        "  time_limit: 10m\n"
        "  objectives: [cost, area]\n"
        "  reference: [2.5, 40]\n"
        "  fault_injection: {throw: [3, 1], stall: [7]}\n");
    const hw::Constraints& k = c.constraints;
    EXPECT_EQ(k.technology_nm, 22);
    EXPECT_EQ(k.bank_rows, 8);
    EXPECT_EQ(k.bank_cols, 4);
    EXPECT_EQ(k.bank_width_bits, 64);
    EXPECT_EQ(k.bank_capacity, mebibytes(16));
    EXPECT_EQ(k.area_budget, SquareMillimetres(32.5));
    EXPECT_EQ(k.clock_mhz, 500.0);
    EXPECT_EQ(k.data_width_bits, 8);
    EXPECT_EQ(k.psum_width_bits, 24);
    EXPECT_EQ(k.node_rows, (hw::Bounds{1, 8}));  // max follows the bank array
    EXPECT_EQ(k.node_cols, (hw::Bounds{2, 4}));
    EXPECT_EQ(k.pe_rows, (hw::Bounds{1, 128}));
    EXPECT_EQ(k.pe_cols, (hw::Bounds{2, 64}));
    EXPECT_EQ(k.buffer_kib, (hw::Bounds{4, 512}));
    EXPECT_EQ(k.dram_energy_per_bit, Picojoules(1.5));
    EXPECT_EQ(k.noc_energy_per_bit_hop, Picojoules(0.7));
    EXPECT_EQ(k.noc_virtual_channels, 4);

    // Given ranges are taken as written; the others follow the overridden constraints.
    EXPECT_EQ(hw::range_of(c.space, hw::Param::node_rows).values(), (std::vector<int>{1, 2, 4, 8}));
    EXPECT_EQ(hw::range_of(c.space, hw::Param::node_cols).values(), (std::vector<int>{2, 4}));
    EXPECT_EQ(hw::range_of(c.space, hw::Param::pe_rows).values(), (std::vector<int>{4, 8, 16, 32, 64}));
    EXPECT_EQ(hw::range_of(c.space, hw::Param::pe_cols), ParamRange::log2(2, 64));
    EXPECT_EQ(hw::range_of(c.space, hw::Param::ibuf_kib), ParamRange::list({4, 16, 64}));
    EXPECT_EQ(hw::range_of(c.space, hw::Param::wbuf_kib), ParamRange::linear(16, 512, 16));
    EXPECT_EQ(hw::range_of(c.space, hw::Param::obuf_kib), ParamRange::linear(8, 512, 8));

    ASSERT_EQ(c.workloads.size(), 3u);
    EXPECT_EQ(c.workloads[0], (Workload{dir_ / "nets/a.yaml", 2.5, 4}));
    EXPECT_EQ(c.workloads[1], (Workload{dir_ / "nets/a.yaml", 1.0, 8}));  // same network, other batch
    EXPECT_EQ(c.workloads[2], (Workload{dir_ / "nets/b.yaml", 1.0, std::nullopt}));
    EXPECT_EQ(c.cost, (CostConfig{0.0, 2.0}));
    EXPECT_EQ(c.schedule, (pimdse::ScheduleOptions{pimdse::SchedulerKind::tsp, 0.25, 0.02}));
    EXPECT_EQ(c.sweep.seed, 18446744073709551615ULL);
    EXPECT_EQ(c.sweep.batch_size, 32);
    EXPECT_EQ(c.sweep.budget, 5000);
    EXPECT_EQ(c.sweep.wall_time, std::chrono::seconds(5400));
    EXPECT_EQ(c.sweep.proposer, Proposer::evolution);
    EXPECT_EQ(c.sweep.samples_per_round, 100);
    EXPECT_EQ(c.output.path, fs::path("/tmp/x/y.h5"));
    EXPECT_EQ(c.engine.time_limit, std::chrono::seconds(600));
    EXPECT_EQ(c.engine.objectives, (std::vector<Objective>{Objective::cost, Objective::area}));
    EXPECT_EQ(c.engine.reference, (std::vector<double>{2.5, 40}));
    EXPECT_EQ(c.engine.fault_throw, (std::vector<std::int64_t>{3, 1}));
    EXPECT_EQ(c.engine.fault_stall, (std::vector<std::int64_t>{7}));

    // And the whole of it survives to_yaml.
    EXPECT_EQ(parse(to_yaml(c)), c);
}

TEST_F(ConfigFiles, TechnologyOverrides) {
    EXPECT_EQ(parse(kMinimal).technology, hw::Technology{});  // defaults: the 28 nm table
    const Config c = parse(std::string(kMinimal) +
                           "technology:\n"
                           "  pe_area_um2: 950.5\n"
                           "  sram_area_mm2_per_kib: 0.002\n"
                           "  sram_area_mm2_per_buffer: 0\n"
                           "  router_area_mm2_base: 0.01\n"
                           "  router_buffer_area_um2_per_bit: 1.25\n"
                           "  router_buffer_depth_flits: 8\n"
                           "  dram_controller_area_mm2_per_bank: 0.03\n"
                           "  mac_energy_pj: 0.56\n"
                           "  sram_read_energy_pj_per_bit_1kib: 0.05\n"
                           "  sram_write_energy_pj_per_bit_1kib: 0.06\n"
                           "  dram_activation_energy_pj: 1200\n"
                           "  dram_trcd_ns: 15\n"
                           "  dram_trp_ns: 13.5\n"
                           "  dram_tccd_ns: 2.5\n"  // one cycle at 400 MHz: the slowest clock allowed
                           "  dram_row_buffer_bytes: 2048\n"
                           "  noc_hop_cycles: 3\n");
    const hw::Technology& t = c.technology;
    EXPECT_EQ(t.pe_area_um2, 950.5);
    EXPECT_EQ(t.sram_area_per_kib, SquareMillimetres(0.002));
    EXPECT_EQ(t.sram_area_per_buffer, SquareMillimetres(0.0));
    EXPECT_EQ(t.router_area_base, SquareMillimetres(0.01));
    EXPECT_EQ(t.router_buffer_area_um2_per_bit, 1.25);
    EXPECT_EQ(t.router_buffer_depth_flits, 8);
    EXPECT_EQ(t.dram_controller_area_per_bank, SquareMillimetres(0.03));
    EXPECT_EQ(t.mac_energy, Picojoules(0.56));
    EXPECT_EQ(t.sram_read_energy_per_bit_1kib, Picojoules(0.05));
    EXPECT_EQ(t.sram_write_energy_per_bit_1kib, Picojoules(0.06));
    EXPECT_EQ(t.dram_activation_energy, Picojoules(1200.0));
    EXPECT_EQ(t.dram_trcd_ns, 15.0);
    EXPECT_EQ(t.dram_trp_ns, 13.5);
    EXPECT_EQ(t.dram_tccd_ns, 2.5);
    EXPECT_EQ(t.dram_row_buffer, Bytes(2048));
    EXPECT_EQ(t.noc_hop_cycles, 3);
    EXPECT_EQ(parse(to_yaml(c)), c);

    // One key alone overrides that key alone; the same section in a hardware file.
    const HardwareFile h = parse_hardware(
        "technology: {mac_energy_pj: 1.5}\n"
        "hardware: {node_array: [4, 4], pe_array: [32, 32], buffers_kib: {input: 128, weight: 128, output: "
        "128}}\n",
        "h.yaml");
    hw::Technology expected;
    expected.mac_energy = Picojoules(1.5);
    EXPECT_EQ(h.technology, expected);
    EXPECT_EQ(parse_hardware(to_yaml(h), "h.yaml"), h);

    // The table decides the area rule: with twice the PE area the final system is over 48 mm².
    EXPECT_THROW((void)parse_hardware("technology: {pe_area_um2: 2203.2}\n"
                                      "hardware: {node_array: [4, 8], pe_array: [128, 8], "
                                      "buffers_kib: {input: 16, weight: 144, output: 32}}\n",
                                      "h.yaml"),
                 ConfigError);
    for (const char* bad : {"noc_hop_cycles: 0", "dram_trcd_ns: -1", "router_buffer_depth_flits: 2.5",
                            "mac_energy_pj: lots", "pe_area: 3"}) {
        EXPECT_THROW((void)parse(std::string(kMinimal) + "technology: {" + bad + "}\n"), InputError) << bad;
    }
}

TEST_F(ConfigFiles, ScheduleSection) {
    for (const auto& [text, kind] :
         {std::pair{"ilp", pimdse::SchedulerKind::ilp}, std::pair{"tsp", pimdse::SchedulerKind::tsp},
          std::pair{"shp", pimdse::SchedulerKind::shp}}) {
        const Config c = parse(std::string(kMinimal) + "schedule: {scheduler: " + text + "}\n");
        EXPECT_EQ(c.schedule.scheduler, kind) << text;
        EXPECT_EQ(c.schedule.time_limit_seconds, 60.0);  // the rest keep their defaults
        EXPECT_EQ(parse(to_yaml(c)), c);
    }
    EXPECT_EQ(parse(std::string(kMinimal) + "schedule: {time_limit: 86400, relative_gap: 1}\n").schedule,
              (pimdse::ScheduleOptions{pimdse::SchedulerKind::ilp, 86400.0, 1.0}));
    // Words where numbers belong are type errors; numbers out of range are value errors.
    for (const char* bad : {"scheduler: 1", "time_limit: soon", "relative_gap: [0]", "gap: 0.1"}) {
        EXPECT_THROW((void)parse(std::string(kMinimal) + "schedule: {" + bad + "}\n"), InputError) << bad;
    }
    for (const char* bad : {"scheduler: gurobi", "time_limit: 0", "time_limit: -1", "time_limit: 90000",
                            "relative_gap: -0.1", "relative_gap: 1.5"}) {
        EXPECT_THROW((void)parse(std::string(kMinimal) + "schedule: {" + bad + "}\n"), ConfigError) << bad;
    }
    // A hardware file may carry the section too (for `pimdse evaluate`).
    const HardwareFile h = parse_hardware(
        "hardware: {node_array: [4, 4], pe_array: [32, 32], buffers_kib: {input: 128, weight: 128, output: "
        "128}}\n"
        "schedule: {scheduler: shp}\n",
        "h.yaml");
    EXPECT_EQ(h.schedule.scheduler, pimdse::SchedulerKind::shp);
    EXPECT_EQ(parse_hardware(to_yaml(h), "h.yaml"), h);
}

TEST_F(ConfigFiles, ProposerOptions) {
    const std::string head = "workloads: [{network: nets/a.yaml}]\noutput: {path: o.h5}\n";
    const Config c =
        parse(head +
              "sweep:\n  budget: 8\n  proposer_options:\n    local_fraction: 0\n"
              "    kernel: rbf\n    hidden: [32, 8]\n    evolution_parents: 4\n    ucb_kappa: 1.5\n");
    const pimdse::ProposerOptions& o = c.sweep.proposer_options;
    EXPECT_EQ(o.local_fraction, 0.0);
    EXPECT_EQ(o.kernel, pimdse::KernelKind::rbf);
    EXPECT_EQ(o.hidden, (std::vector<int>{32, 8}));
    EXPECT_EQ(o.evolution_parents, 4);
    EXPECT_EQ(o.ucb_kappa, 1.5);
    EXPECT_EQ(o.initial_random, 16);  // the rest keep their defaults
    EXPECT_EQ(o.acquisition, pimdse::AcquisitionKind::expected_improvement);
    const Config amosa = parse(head +
                               "sweep: {budget: 8, proposer: amosa, proposer_options: {amosa_t_max: 10, "
                               "amosa_t_min: 0.5, amosa_hard_limit: 5, amosa_soft_limit: 8}}\n");
    EXPECT_EQ(amosa.sweep.proposer, Proposer::amosa);
    EXPECT_EQ(amosa.sweep.proposer_options.amosa_t_max, 10.0);
    EXPECT_EQ(amosa.sweep.proposer_options.amosa_t_min, 0.5);
    EXPECT_EQ(amosa.sweep.proposer_options.amosa_hard_limit, 5);
    EXPECT_EQ(amosa.sweep.proposer_options.amosa_soft_limit, 8);
    EXPECT_EQ(parse(to_yaml(amosa)), amosa);
    const Config xgb = parse(head +
                             "sweep: {budget: 8, proposer: xgboost, proposer_options: {xgb_trees: 40, "
                             "xgb_depth: 3, xgb_eta: 0.1, xgb_ensemble: 4}}\n");
    EXPECT_EQ(xgb.sweep.proposer, Proposer::xgboost);
    EXPECT_EQ(xgb.sweep.proposer_options.xgb_trees, 40);
    EXPECT_EQ(xgb.sweep.proposer_options.xgb_depth, 3);
    EXPECT_EQ(xgb.sweep.proposer_options.xgb_eta, 0.1);
    EXPECT_EQ(xgb.sweep.proposer_options.xgb_ensemble, 4);
    EXPECT_EQ(parse(to_yaml(xgb)), xgb);
    const Config parego = parse(head +
                                "sweep: {budget: 8, proposer: gp, proposer_options: {scalarisation: parego, "
                                "parego_weights: 4}}\n");
    EXPECT_EQ(parego.sweep.proposer_options.scalarisation, Scalarisation::parego);
    EXPECT_EQ(parego.sweep.proposer_options.parego_weights, 4);
    EXPECT_EQ(parse(to_yaml(parego)), parego);
    EXPECT_EQ(to_yaml(parego).find("scalarisation: eq1"), std::string::npos);
    EXPECT_EQ(to_yaml(c).find("scalarisation"), std::string::npos);  // the default is not written
    const Config subset =
        parse(head + "sweep: {budget: 8, proposer: gp, proposer_options: {posterior: subset}}\n");
    EXPECT_EQ(subset.sweep.proposer_options.posterior, GpPosteriorKind::subset);
    EXPECT_EQ(parse(to_yaml(subset)), subset);
    EXPECT_EQ(to_yaml(c).find("posterior"), std::string::npos);  // the default (fitc) is not written
    const Config filter = parse(head +
                                "sweep: {budget: 8, proposer: random, proposer_options: {filter: gp, "
                                "filter_pool: 16}}\n");
    EXPECT_EQ(filter.sweep.proposer_options.filter, pimdse::FilterPredictor::gp);
    EXPECT_EQ(filter.sweep.proposer_options.filter_pool, 16);
    EXPECT_EQ(parse(to_yaml(filter)), filter);
    EXPECT_EQ(to_yaml(c).find("filter"), std::string::npos);  // the default (none) is not written
    const Config cheap = parse(head +
                               "sweep: {budget: 8, proposer: random, proposer_options: {filter: xgboost, "
                               "cheap_fidelity: snake_one_round, cheap_pool: 3}}\n");
    EXPECT_EQ(cheap.sweep.proposer_options.cheap_fidelity, pimdse::CheapFidelity::snake_one_round);
    EXPECT_EQ(cheap.sweep.proposer_options.cheap_pool, 3);
    EXPECT_EQ(parse(to_yaml(cheap)), cheap);
    EXPECT_EQ(to_yaml(c).find("cheap"), std::string::npos);  // the defaults (none, 2) are not written
    // The cheap level ranks part of the filter's pool: cheap_pool above filter_pool names cheap_pool.
    try {
        (void)parse(head +
                    "sweep: {budget: 8, proposer_options: {cheap_fidelity: snake, filter_pool: 4, "
                    "cheap_pool: 5}}\n");
        ADD_FAILURE() << "cheap_pool > filter_pool accepted";
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.key(), "sweep.proposer_options.cheap_pool");
    }
    // The resolved form writes exactly the changed options and reads back equal.
    const std::string text = to_yaml(c);
    EXPECT_NE(text.find("    local_fraction: 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find("    hidden: [32, 8]\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("initial_random"), std::string::npos) << text;
    EXPECT_EQ(parse(text), c);
    // Without the section nothing is written: files from before it existed resume.
    EXPECT_EQ(to_yaml(parse(kMinimal)).find("proposer_options"), std::string::npos);

    // An unknown option names the known ones; a wrong type or range names the key.
    try {
        (void)parse(head + "sweep:\n  budget: 8\n  proposer_options:\n    local_fractoin: 0\n");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().line, 6u);
        EXPECT_NE(e.problem().find("local_fraction"), std::string::npos) << e.problem();
    }
    for (const char* bad :
         {"local_fraction: 1.5",   "fit_max: 1",          "kernel: cubic",       "hidden: []",
          "hidden: [16, 0]",       "anneal_cooling: 0",   "fit_best: 300",       "evolution_parents: 1",
          "amosa_alpha: 0",        "amosa_alpha: 1.5",    "amosa_t_min: 0",      "amosa_t_min: 300",
          "amosa_hard_limit: 111", "amosa_soft_limit: 0", "amosa_iterations: 0", "amosa_step: 0",
          "xgb_trees: 0",          "xgb_depth: 21",       "xgb_eta: 0",          "xgb_eta: 1.5",
          "xgb_ensemble: 1",       "scalarisation: ehvi", "parego_weights: 0",   "posterior: dtc",
          "filter: rnn",           "filter_pool: 0",      "filter_pool: 2000",   "cheap_fidelity: ilp",
          "cheap_fidelity: true",  "cheap_pool: 0",       "cheap_pool: 2000"}) {
        try {
            (void)parse(head + "sweep: {budget: 8, proposer_options: {" + bad + "}}\n");
            ADD_FAILURE() << bad << " accepted";
        } catch (const ConfigError& e) {
            const std::string key = std::string(bad).substr(0, std::string(bad).find(':'));
            EXPECT_EQ(e.key().rfind("sweep.proposer_options." + key, 0), 0u) << bad << ": " << e.key();
        }
    }
    for (const char* bad : {"initial_random: some", "hidden: 16", "gp_steps: 1.5"}) {
        EXPECT_THROW((void)parse(head + "sweep: {budget: 8, proposer_options: {" + bad + "}}\n"), InputError)
            << bad;
    }
}

TEST_F(ConfigFiles, ModelSection) {
    const Config plain = parse(kMinimal);
    EXPECT_EQ(plain.model.intra_node, pimdse::IntraNodeModel::analytic);  // the default
    const Config c = parse(std::string(kMinimal) + "model: {intra_node: analytic}\n");
    EXPECT_EQ(c, plain);
    EXPECT_NE(to_yaml(c).find("model:\n  intra_node: analytic"), std::string::npos);
    EXPECT_EQ(parse(to_yaml(c)), c);
    // An unknown model names the file, the line, the key and the choices.
    try {
        (void)parse(std::string(kMinimal) + "model:\n  intra_node: exact_typo\n");
        ADD_FAILURE() << "an unknown intra-node model was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "key 'model.intra_node': expected one of analytic or exact, got exact_typo"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)parse(std::string(kMinimal) + "model: {intra_node: [analytic]}\n"), InputError);
    EXPECT_THROW((void)parse(std::string(kMinimal) + "model: {inter_node: analytic}\n"), InputError);
    // A hardware file may carry the section too (for `pimdse evaluate` and `pimdse map`).
    const std::string hardware =
        "hardware: {node_array: [4, 4], pe_array: [32, 32], buffers_kib: {input: 128, weight: 128, output: "
        "128}}\n";
    const HardwareFile h = parse_hardware(hardware + "model: {intra_node: analytic}\n", "h.yaml");
    EXPECT_EQ(h.model.intra_node, pimdse::IntraNodeModel::analytic);
    EXPECT_EQ(parse_hardware(to_yaml(h), "h.yaml"), h);
    EXPECT_THROW((void)parse_hardware(hardware + "model: {intra_node: exact_typo}\n", "h.yaml"), ConfigError);
}

TEST_F(ConfigFiles, ModelExactSection) {
    // The exact node model, its objective and work limit; absent: latency, the default limit.
    const Config plain = parse(std::string(kMinimal) + "model: {intra_node: exact}\n");
    EXPECT_EQ(plain.model.intra_node, pimdse::IntraNodeModel::exact);
    EXPECT_EQ(plain.model.exact, pimdse::ExactNodeOptions{});
    const Config c = parse(std::string(kMinimal) +
                           "model:\n  intra_node: exact\n  exact: {objective: edp, work_limit: 500}\n");
    EXPECT_EQ(c.model.exact.objective, pimdse::NodeObjective::edp);
    EXPECT_EQ(c.model.exact.work_limit, 500);
    EXPECT_NE(to_yaml(c).find("  exact:"), std::string::npos);
    EXPECT_EQ(parse(to_yaml(c)), c);
    // The solver: enumeration unless `mip` is named; written when set, and read back.
    EXPECT_EQ(c.model.exact.solver, pimdse::ExactSolver::enumerate);
    const Config mip = parse(std::string(kMinimal) + "model:\n  intra_node: exact\n  exact: {solver: mip}\n");
    EXPECT_EQ(mip.model.exact.solver, pimdse::ExactSolver::mip);
    EXPECT_NE(to_yaml(mip).find("    solver: mip"), std::string::npos);
    EXPECT_EQ(parse(to_yaml(mip)), mip);
    // Left out of the resolved form while unused and at its defaults.
    EXPECT_EQ(to_yaml(parse(kMinimal)).find("  exact:"), std::string::npos);
    const std::pair<const char*, const char*> bad[] = {
        {"exact: {objective: power}", "key 'model.exact.objective': expected one of latency, energy or edp"},
        {"exact: {work_limit: 0}", "key 'model.exact.work_limit'"},
        {"exact: {solver: cbc}", "key 'model.exact.solver': expected one of enumerate or mip"},
        {"exact: {work_limit: 1.5}", "key 'model.exact.work_limit'"},
        {"exact: {time_limit: 3}", "model.exact.time_limit"},
        {"exact: latency", "key 'model.exact'"},
    };
    for (const auto& [text, want] : bad) {
        try {
            (void)parse(std::string(kMinimal) + "model: {" + text + "}\n");
            ADD_FAILURE() << text << " was accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
        }
    }
    const std::string hardware =
        "hardware: {node_array: [4, 4], pe_array: [32, 32], buffers_kib: {input: 128, weight: 128, output: "
        "128}}\n";
    const HardwareFile h =
        parse_hardware(hardware + "model: {intra_node: exact, exact: {objective: energy}}\n", "h.yaml");
    EXPECT_EQ(h.model.exact.objective, pimdse::NodeObjective::energy);
    EXPECT_EQ(parse_hardware(to_yaml(h), "h.yaml"), h);
    try {
        (void)parse_hardware(hardware + "model: {exact: {objective: speed}}\n", "h.yaml");
        ADD_FAILURE() << "objective: speed was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("h.yaml"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("model.exact.objective"), std::string::npos) << e.what();
    }
}

TEST_F(ConfigFiles, ModelOverlap) {
    EXPECT_FALSE(parse(kMinimal).model.overlap);  // off by default
    const Config on = parse(std::string(kMinimal) + "model: {overlap: true}\n");
    EXPECT_TRUE(on.model.overlap);
    EXPECT_EQ(on.model.intra_node, pimdse::IntraNodeModel::analytic);
    EXPECT_NE(to_yaml(on).find("  overlap: true"), std::string::npos);
    EXPECT_EQ(parse(to_yaml(on)), on);
    EXPECT_NE(to_yaml(parse(kMinimal)).find("  overlap: false"), std::string::npos);
    try {
        (void)parse(std::string(kMinimal) + "model:\n  overlap: yes\n");
        ADD_FAILURE() << "overlap: yes was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("key 'model.overlap': expected true or false, got yes"),
                  std::string::npos)
            << e.what();
    }
    const std::string hardware =
        "hardware: {node_array: [4, 4], pe_array: [32, 32], buffers_kib: {input: 128, weight: 128, output: "
        "128}}\n";
    const HardwareFile h = parse_hardware(hardware + "model: {overlap: true}\n", "h.yaml");
    EXPECT_TRUE(h.model.overlap);
    EXPECT_EQ(parse_hardware(to_yaml(h), "h.yaml"), h);
}

TEST_F(ConfigFiles, ModelOverlapTransform) {
    EXPECT_FALSE(parse(kMinimal).model.overlap_transform);  // off by default, and not written
    EXPECT_EQ(to_yaml(parse(kMinimal)).find("overlap_transform"), std::string::npos);
    const Config on = parse(std::string(kMinimal) + "model: {overlap: true, overlap_transform: true}\n");
    EXPECT_TRUE(on.model.overlap_transform);
    EXPECT_NE(to_yaml(on).find("  overlap_transform: true"), std::string::npos);
    EXPECT_EQ(parse(to_yaml(on)), on);
    try {  // the transformation reorders overlapped steps: alone it is refused
        (void)parse(std::string(kMinimal) + "model:\n  overlap_transform: true\n");
        ADD_FAILURE() << "overlap_transform without overlap was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("model.overlap_transform"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("model.overlap is true"), std::string::npos) << e.what();
    }
}

TEST_F(ConfigFiles, WallTimeForms) {
    const std::pair<const char*, long long> cases[] = {
        {"3600", 3600},          {"45s", 45},           {"90m", 5400},         {"12h", 43200}, {"2d", 172800},
        {"\"23:30:00\"", 84600}, {"1-00:00:00", 86400}, {"100:00:00", 360000},
    };
    for (const auto& [text, seconds] : cases) {
        const std::string cfg = std::string("workloads: [{network: nets/a.yaml}]\noutput: {path: o.h5}\n") +
                                "sweep: {budget: 1, wall_time: " + text + "}\n";
        EXPECT_EQ(parse(cfg).sweep.wall_time, std::chrono::seconds(seconds)) << text;
    }
    for (const char* bad : {"0", "-5", "1.5h", "12:60:00", "h", "5w", "1:2:3"}) {
        const std::string cfg = std::string("workloads: [{network: nets/a.yaml}]\noutput: {path: o.h5}\n") +
                                "sweep: {budget: 1, wall_time: \"" + bad + "\"}\n";
        EXPECT_THROW((void)parse(cfg), ConfigError) << bad;
    }
}

TEST_F(ConfigFiles, ToYamlRoundTripOfDefaults) {
    const Config c = parse(kMinimal);
    const std::string text = to_yaml(c);
    const Config again = parse(text);
    EXPECT_EQ(again, c);
    EXPECT_EQ(again.source_text, text);
    EXPECT_EQ(to_yaml(again), text);  // a fixed point
    // Every section and key is spelled out.
    for (const char* key : {"technology_nm:", "bank_array: [16, 16]", "dram_energy_pj_per_bit: 0.88",
                            "noc_energy_pj_per_bit_hop: 1.1", "node_rows: {values: [2, 4, 8, 16]}",
                            "pe_rows: {min: 1, max: 256, spacing: log2}",
                            "ibuf_kib: {min: 8, max: 2048, spacing: linear, step: 8}", "proposer: nicepim",
                            "samples_per_round: 16384", "alpha: 1", "seed: 1", "pe_area_um2: 1101.6",
                            "dram_row_buffer_bytes: 1024", "noc_hop_cycles: 2", "scheduler: ilp",
                            "work_limit: 2500", "time_limit: 60", "relative_gap: 0"}) {
        EXPECT_NE(text.find(key), std::string::npos) << key << " not in\n" << text;
    }
}

TEST_F(ConfigFiles, PathsWithSpecialCharactersSurviveToYaml) {
    fs::create_directories(dir_ / "odd: dir #1");
    write("odd: dir #1/n \"q\".yaml", "# stand-in\n");
    const Config c = parse(
        "workloads: [{network: 'odd: dir #1/n \"q\".yaml'}]\nsweep: {budget: 1}\noutput: {path: 'a "
        "#b.h5'}\n");
    EXPECT_EQ(c.workloads[0].network, dir_ / "odd: dir #1/n \"q\".yaml");
    EXPECT_EQ(parse(to_yaml(c)), c);
}

TEST_F(ConfigFiles, ReadsFromFileAndDetectsKind) {
    const fs::path sweep = write("s.yaml", kMinimal);
    const fs::path hw_file = write("h.yaml",
                                   "hardware: {node_array: [2, 8], pe_array: [16, 4], "
                                   "buffers_kib: {input: 1, weight: 2, output: 3}}\n");
    EXPECT_EQ(read_config_file(sweep), parse(kMinimal));
    EXPECT_TRUE(std::holds_alternative<Config>(read_config_or_hardware_file(sweep)));
    const auto h = read_config_or_hardware_file(hw_file);
    ASSERT_TRUE(std::holds_alternative<HardwareFile>(h));
    EXPECT_EQ(std::get<HardwareFile>(h).params, (hw::HardwareParams{2, 8, 16, 4, 1, 2, 3}));
}

TEST_F(ConfigFiles, MissingFileIsAnInputErrorNamingIt) {
    const fs::path missing = dir_ / "nope.yaml";
    try {
        (void)read_config_file(missing);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)read_hardware_file(dir_), InputError);  // a directory
}

TEST_F(ConfigFiles, TypeErrorsAreInputErrorsAndRangeErrorsConfigErrors) {
    const std::string head = "workloads: [{network: nets/a.yaml}]\noutput: {path: o.h5}\n";
    try {
        (void)parse(head + "sweep: {budget: many}\n");
        FAIL();
    } catch (const ConfigError&) {
        FAIL() << "a type error is not a ConfigError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().line, 3u);
        EXPECT_EQ(e.key(), "sweep.budget");
        EXPECT_EQ(e.problem(), "expected an integer >= 1, got many");
    }
    try {
        (void)parse(head + "sweep:\n  budget: 0\n");
        FAIL();
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.where().line, 4u);
        EXPECT_EQ(e.key(), "sweep.budget");
    }
}

TEST_F(ConfigFiles, BoundsErrorsPointAtTheWrittenKey) {
    const std::string tail =
        "workloads: [{network: nets/a.yaml}]\nsweep: {budget: 1}\noutput: {path: o.h5}\n";
    try {
        (void)parse("constraints:\n  node_rows: {max: 1}\n" + tail);
        FAIL();
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.key(), "constraints.node_rows.max");
        EXPECT_EQ(e.problem(), "expected at least min (2, the default), got 1");
    }
    try {
        (void)parse("constraints:\n  pe_rows:\n    min: 64\n    max: 32\n" + tail);
        FAIL();
    } catch (const ConfigError& e) {
        EXPECT_EQ(e.where().line, 3u);
        EXPECT_EQ(e.key(), "constraints.pe_rows.min");
        EXPECT_EQ(e.problem(), "expected at most max (32), got 64");
    }
    // A bank array of 7 rows with node rows bounded to 2..6: no node array could tile it.
    EXPECT_THROW((void)parse("constraints:\n  bank_array: [7, 16]\n  node_rows: {max: 6}\n" + tail),
                 ConfigError);
}

TEST_F(ConfigFiles, ClockAndDataWidthAxes) {
    const std::string tail =
        "workloads: [{network: nets/a.yaml}]\nsweep: {budget: 1}\noutput: {path: o.h5}\n";
    const auto axis = [](const Config& c, hw::Param p) {
        return c.space.range(static_cast<std::size_t>(p)).values();
    };
    // Left out: the constraints' one value, so the space is the seven-parameter one's.
    const Config plain = parse(tail);
    EXPECT_EQ(plain.space.dimensions(), hw::kParamCount);
    EXPECT_EQ(axis(plain, hw::Param::clock_mhz), (std::vector<int>{400}));
    EXPECT_EQ(axis(plain, hw::Param::data_width_bits), (std::vector<int>{16}));
    EXPECT_EQ(plain.space.size(), hw::default_space(hw::Constraints{}).size());
    const Config moved = parse("constraints: {clock_mhz: 500, data_width_bits: 8}\n" + tail);
    EXPECT_EQ(axis(moved, hw::Param::clock_mhz), (std::vector<int>{500}));
    EXPECT_EQ(axis(moved, hw::Param::data_width_bits), (std::vector<int>{8}));
    // Lists and ranges.
    const Config listed = parse(
        "space:\n  clock_mhz: {values: [800, 200, 400]}\n  data_width_bits: {min: 8, max: 32, spacing: "
        "linear, "
        "step: 8}\n" +
        tail);
    EXPECT_EQ(axis(listed, hw::Param::clock_mhz), (std::vector<int>{200, 400, 800}));
    EXPECT_EQ(axis(listed, hw::Param::data_width_bits), (std::vector<int>{8, 16, 24, 32}));
    const auto problem = [&](const std::string& text, const std::string& key) {
        try {
            (void)parse(text + tail);
        } catch (const ConfigError& e) {
            EXPECT_EQ(e.key(), key);
            return e.problem();
        }
        ADD_FAILURE() << "accepted: " << text;
        return std::string();
    };
    const std::string slow =
        "expected at least 167 MHz (a DRAM column access, technology.dram_tccd_ns = 6 ns, lasts at least one "
        "node cycle)";
    EXPECT_EQ(problem("space:\n  clock_mhz: {values: [400, 100]}\n", "space.clock_mhz.values[1]"),
              slow + ", got 100");
    EXPECT_EQ(
        problem("space:\n  clock_mhz: {min: 100, max: 400, spacing: log2}\n", "space.clock_mhz"),
        "expected only values that are at least 167 MHz (a DRAM column access, technology.dram_tccd_ns = 6 "
        "ns, lasts at least one node cycle), got 128 in log2 100..400");
    EXPECT_EQ(problem("constraints: {clock_mhz: 100}\n", "constraints.clock_mhz"), slow + ", got 100");
    // A faster DRAM column access lowers the bound: 5 ns -> 200 MHz.
    EXPECT_EQ(axis(parse("technology: {dram_tccd_ns: 5}\nspace:\n  clock_mhz: {values: [200]}\n" + tail),
                   hw::Param::clock_mhz),
              (std::vector<int>{200}));
    EXPECT_EQ(
        problem("constraints: {clock_mhz: 333.5}\n", "constraints.clock_mhz"),
        "expected a whole number of MHz (the clock is an axis of the space, space.clock_mhz), got 333.5");
    // A fractional clock is fine when the space lists whole ones.
    EXPECT_EQ(axis(parse("constraints: {clock_mhz: 333.5}\nspace:\n  clock_mhz: {values: [333]}\n" + tail),
                   hw::Param::clock_mhz),
              (std::vector<int>{333}));
    const std::string bytes = "expected widths of at most constraints.psum_width_bits (32)";
    EXPECT_EQ(problem("space:\n  data_width_bits: {values: [8, 33]}\n", "space.data_width_bits.values[1]"),
              bytes + ", got 33");
    // Any width up to the partial sums' is an axis value: the model bit-packs it.
    EXPECT_EQ(
        axis(parse("space:\n  data_width_bits: {values: [4, 12]}\n" + tail), hw::Param::data_width_bits),
        (std::vector<int>{4, 12}));
    EXPECT_EQ(problem("space:\n  data_width_bits: {values: [64]}\n", "space.data_width_bits.values[0]"),
              bytes + ", got 64");
    EXPECT_EQ(problem("space:\n  clock_mhz: {values: [0]}\n", "space.clock_mhz.values[0]"),
              "expected an integer in [1, 100000], got 0");
}

// A hardware file's clock obeys the sweep's rule (ClockAndDataWidthAxes) with the same message:
// at least ceil(1000 / tCCD_L) MHz, the technology's; it need not be a whole number of MHz.
TEST(HardwareFiles, ClockFollowsTheDramColumnAccess) {
    const std::string point =
        "hardware: {node_array: [4, 4], pe_array: [32, 32], buffers_kib: {input: 128, weight: 128, output: "
        "128}}\n";
    const auto refused = [&](const std::string& text) {
        try {
            (void)parse_hardware(text + point, "h.yaml");
        } catch (const ConfigError& e) {
            EXPECT_EQ(e.key(), "constraints.clock_mhz") << text;
            EXPECT_EQ(e.where().file, "h.yaml") << text;
            return e.problem();
        }
        ADD_FAILURE() << "accepted: " << text;
        return std::string();
    };
    const auto clock = [&](const std::string& text) {
        return parse_hardware(text + point, "h.yaml").constraints.clock_mhz;
    };
    const std::string slow =
        "expected at least 167 MHz (a DRAM column access, technology.dram_tccd_ns = 6 ns, lasts at least one "
        "node cycle)";
    // 6 ns: 1000 / 6 = 166.7, so 167 MHz and up.
    EXPECT_EQ(refused("constraints: {clock_mhz: 100}\n"), slow + ", got 100");
    EXPECT_EQ(refused("constraints: {clock_mhz: 166.5}\n"), slow + ", got 166.5");
    EXPECT_EQ(clock("constraints: {clock_mhz: 167}\n"), 167.0);
    EXPECT_EQ(clock("constraints: {clock_mhz: 333.5}\n"), 333.5);
    EXPECT_EQ(clock(""), 400.0);
    // The technology decides: 5 ns -> 200 MHz; 2 ns -> 500 MHz, above the default clock.
    EXPECT_EQ(
        refused("technology: {dram_tccd_ns: 5}\nconstraints: {clock_mhz: 199}\n"),
        "expected at least 200 MHz (a DRAM column access, technology.dram_tccd_ns = 5 ns, lasts at least one "
        "node cycle), got 199");
    EXPECT_EQ(clock("technology: {dram_tccd_ns: 5}\nconstraints: {clock_mhz: 200}\n"), 200.0);
    EXPECT_EQ(
        refused("technology: {dram_tccd_ns: 2}\n"),
        "expected at least 500 MHz (a DRAM column access, technology.dram_tccd_ns = 2 ns, lasts at least one "
        "node cycle), got 400 (the default)");
}

TEST(HardwareFiles, NicePimSystems) {
    struct Case {
        const char* file;
        hw::HardwareParams params;
        int banks;
    };
    for (const Case& k : {Case{"nicepim_4x4.yaml", {4, 4, 32, 32, 128, 128, 128}, 16},
                          Case{"nicepim_16x16.yaml", {16, 16, 8, 8, 8, 8, 8}, 1},
                          Case{"nicepim_final_4x8.yaml", {4, 8, 128, 8, 16, 144, 32}, 8}}) {
        const HardwareFile h = read_hardware_file(kSource / "inputs/hardware" / k.file);
        EXPECT_EQ(h.constraints, hw::Constraints{}) << k.file;
        EXPECT_EQ(h.params, k.params) << k.file;
        EXPECT_TRUE(hw::check(h.params, h.constraints).legal()) << k.file;
        EXPECT_EQ(hw::node_facts(h.params, h.constraints).banks_per_node, k.banks) << k.file;
        // A hardware file's point takes the constraints' clock and data width; the space's
        // points carry them.
        EXPECT_EQ(h.params.clock_mhz, 0) << k.file;
        hw::HardwareParams in_space = h.params;
        in_space.clock_mhz = 400;
        in_space.data_width_bits = 16;
        EXPECT_TRUE(hw::default_space(h.constraints).contains(hw::to_point(in_space))) << k.file;
        EXPECT_EQ(parse_hardware(to_yaml(h), h.source_file), h) << k.file;
    }
}

TEST(HardwareFiles, ConstraintsApplyToThePoint) {
    const HardwareFile h = parse_hardware(
        "constraints: {bank_array: [12, 12], pe_rows: {max: 512}}\n"
        "hardware: {node_array: [3, 6], pe_array: [512, 1], buffers_kib: {input: 1, weight: 1, output: 1}}\n",
        "h.yaml");
    EXPECT_EQ(h.constraints.bank_rows, 12);
    EXPECT_EQ(h.params.pe_rows, 512);
    EXPECT_EQ(hw::node_facts(h.params, h.constraints).banks_per_node, 8);
    EXPECT_EQ(parse_hardware(to_yaml(h), "h.yaml"), h);
}

bool networks_present(const std::vector<Workload>& workloads) {
    for (const Workload& w : workloads) {
        if (!fs::exists(w.network)) return false;
    }
    return true;
}

TEST(SweepFiles, DefaultAndFig9) {
    // The network library is written alongside; until it is, these files cannot validate.
    if (!fs::exists(kSource / "inputs/networks/bert_base.yaml")) {
        GTEST_SKIP() << "inputs/networks/ not present yet";
    }
    const Config d = read_config_file(kSource / "inputs/sweeps/default.yaml");
    EXPECT_EQ(d.constraints, hw::Constraints{});
    EXPECT_EQ(d.space, hw::default_space(hw::Constraints{}));
    ASSERT_EQ(d.workloads.size(), 5u);
    EXPECT_TRUE(networks_present(d.workloads));
    const char* names[] = {"googlenet.yaml", "resnet152.yaml", "vgg16.yaml", "darknet53.yaml",
                           "bert_base.yaml"};
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(d.workloads[i].network, (kSource / "inputs/networks" / names[i]).lexically_normal());
        EXPECT_EQ(d.workloads[i].weight, 1.0);
        EXPECT_EQ(d.workloads[i].batch, 1);
    }
    EXPECT_EQ(d.cost, (CostConfig{1.0, 1.0}));
    EXPECT_EQ(d.sweep.seed, 1u);
    EXPECT_EQ(d.sweep.proposer, Proposer::random);
    EXPECT_EQ(d.output.path, (kSource / "out/default.h5").lexically_normal());
    EXPECT_EQ(parse_config(to_yaml(d), d.source_file), d);

    const Config f = read_config_file(kSource / "inputs/sweeps/nicepim_fig9.yaml");
    EXPECT_EQ(f.sweep.proposer, Proposer::nicepim);
    EXPECT_EQ(f.sweep.samples_per_round, 16384);
    EXPECT_EQ(f.sweep.wall_time, std::chrono::seconds(23 * 3600 + 30 * 60));
    EXPECT_EQ(f.workloads, d.workloads);
    EXPECT_EQ(f.space, d.space);
    EXPECT_EQ(f.constraints, d.constraints);
    EXPECT_EQ(parse_config(to_yaml(f), f.source_file), f);
}

// tests/data/malformed/config/EXPECTED.txt: `file<TAB>expected message substring`.
std::vector<std::pair<std::string, std::string>> expected_errors(const fs::path& dir) {
    std::ifstream in(dir / "EXPECTED.txt");
    std::vector<std::pair<std::string, std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        rows.emplace_back(line.substr(0, tab), line.substr(tab + 1));
    }
    return rows;
}

TEST(MalformedConfigs, EachFailsWithItsOwnMessage) {
    const fs::path dir = kSource / "tests/data/malformed/config";
    const auto rows = expected_errors(dir);
    ASSERT_GE(rows.size(), 15u);

    std::set<std::string> listed;
    std::set<std::string> messages;
    for (const auto& [file, expected] : rows) {
        SCOPED_TRACE(file);
        EXPECT_TRUE(listed.insert(file).second) << "listed twice";
        EXPECT_TRUE(messages.insert(expected).second) << "the same error as another file";
        // The shape every message has: "<file>:<line>: ..." with the line known.
        EXPECT_EQ(expected.rfind(file + ":", 0), 0u) << expected;
        EXPECT_NE(expected.find("expected "), std::string::npos);
        EXPECT_NE(expected.find(", got "), std::string::npos);
        try {
            (void)read_config_or_hardware_file(dir / file);
            ADD_FAILURE() << "accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
                << "message: " << e.what() << "\nexpected to contain: " << expected;
            EXPECT_GE(e.where().line, 1u);
        }
    }
    // Every file in the directory is listed, so none goes unchecked.
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() == ".yaml") {
            EXPECT_TRUE(listed.count(entry.path().filename().string()))
                << entry.path() << " not in EXPECTED.txt";
        }
    }
}

}  // namespace
}  // namespace pimdse::io
