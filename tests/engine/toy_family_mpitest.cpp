// A second design-point family, defined here and nowhere else: two parameters (a PE count
// and a clock in MHz), a legality rule, and an analytic cost of each workload. Registered
// with family::register_family, it runs a sweep under mpirun through the engine, the tuner
// and the store unchanged, and the file it leaves is read back: its candidates are points of
// the toy space, legal, distinct, and costed by the toy's own formula.

#include <gtest/gtest.h>
#include <boost/mpi/communicator.hpp>

#include <unistd.h>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/engine/explore.hpp"
#include "pimdse/eval/cost.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/store/store.hpp"

namespace pimdse {
namespace {

namespace fs = std::filesystem;

// A workload's latency is its MACs over (PEs x clock); its energy a fixed cost per MAC plus
// a leakage that grows with the PE count over the latency. Legal: pes * mhz <= 409600.
class ToyFamily final : public family::Family {
public:
    /// `unwritable`: the candidate whose result has more energy parts than a row holds.
    ToyFamily(const io::Config& c, FamilyId id, std::int64_t unwritable = -1) : unwritable_(unwritable) {
        std::vector<ParamAxis> axes{{"pes", "", "processing elements", ParamRange::log2(1, 1024)},
                                    {"mhz", "MHz", "clock", ParamRange::linear(100, 1000, 100)}};
        for (const ParamAxis& given : c.space.axes()) {
            bool known = false;
            for (ParamAxis& a : axes) {
                if (a.name == given.name) a.range = given.range, known = true;
            }
            if (!known)
                throw ConfigError({c.source_file.string()}, "space." + given.name, "a parameter of toy");
        }
        space_ = DesignSpace(id, std::move(axes));
    }

    [[nodiscard]] std::string_view name() const override { return "toy"; }
    [[nodiscard]] const DesignSpace& space() const override { return space_; }
    [[nodiscard]] const std::vector<family::EnergyPart>& energy_parts() const override { return parts_; }
    [[nodiscard]] bool legal(const DesignPoint& p) const override {
        return space_.contains(p) && static_cast<long>(p[0]) * p[1] <= 4096L * 100;
    }
    [[nodiscard]] std::string describe(const DesignPoint& p) const override {
        return std::to_string(p[0]) + " PEs at " + std::to_string(p[1]) + " MHz";
    }

    [[nodiscard]] eval::Evaluation evaluate(const eval::EvalContext& ctx, std::int64_t id,
                                            const DesignPoint& p,
                                            const Deadline& /*deadline*/) const override {
        eval::Evaluation e;
        e.candidate = id;
        e.point = p;
        e.area_mm2 = 0.01 * p[0];
        e.area_total_mm2 = e.area_mm2;
        std::vector<sim::NetworkCost> costs;
        std::vector<double> gammas;
        for (const eval::Workload& w : ctx.workloads) {
            eval::NetworkResult r;
            const double macs = static_cast<double>(w.network.total_macs());
            r.cost.seconds = seconds(macs, p);
            r.cost.latency = Cycles(std::ceil(macs / p[0]));
            r.cost.energy.pe = Picojoules(macs * 1.0);
            r.cost.energy.sram = Picojoules(leakage(p) * r.cost.seconds);
            r.energy_parts_pj = {r.cost.energy.pe.value(), r.cost.energy.sram.value()};
            if (id == unwritable_) r.energy_parts_pj.assign(store::kMaxFamilyColumns + 1, 1.0);
            costs.push_back(r.cost);
            gammas.push_back(w.weight);
            e.latency_seconds += r.cost.seconds;
            e.energy_joules += r.cost.energy.total().value() * 1e-12;
            e.networks.push_back(std::move(r));
        }
        e.cost = eval::cost_eq1(costs, gammas, ctx.alpha, ctx.beta);
        return e;
    }

    static double seconds(double macs, const DesignPoint& p) { return macs / (p[0] * p[1] * 1e6); }
    static double leakage(const DesignPoint& p) { return 5e9 * p[0]; }  // pJ per second

private:
    std::int64_t unwritable_;
    DesignSpace space_;
    std::vector<family::EnergyPart> parts_{{"energy_mac_j", "of which MACs"},
                                           {"energy_leak_j", "of which leakage"}};
};

const FamilyId kToy = family::register_family(
    "toy", [](const io::Config& c, FamilyId id) { return std::make_unique<ToyFamily>(c, id); });
// The same family, but candidate 5's result cannot be written as rows.
const FamilyId kToyUnwritable = family::register_family(
    "toy_unwritable", [](const io::Config& c, FamilyId id) { return std::make_unique<ToyFamily>(c, id, 5); });

// Writes a toy sweep configuration of `family` for this rank count; returns its path.
fs::path toy_config(const boost::mpi::communicator& world, const std::string& family, fs::path& out) {
    const fs::path dir = fs::path(PIMDSE_BINARY_DIR) / "tests" / "toy_family";
    const std::string stem = family + "_np" + std::to_string(world.size());
    const fs::path config = dir / (stem + ".yaml");
    out = dir / (stem + ".h5");
    if (world.rank() == 0) {
        fs::create_directories(dir);
        std::ofstream(config) << "family: " << family
                              << "\n"
                                 "space:\n"
                                 "  pes: {min: 4, max: 1024, spacing: log2}\n"
                                 "  mhz: {values: [100, 200, 400, 800]}\n"
                                 "workloads:\n"
                                 "  - {network: "
                              << PIMDSE_SOURCE_DIR
                              << "/inputs/networks/resnet18.yaml, weight: 1, batch: 1}\n"
                                 "sweep: {seed: 3, batch_size: 4, budget: 16, proposer: evolution}\n"
                                 "output: {path: "
                              << out.string() << ", mappings: none}\n";
    }
    world.barrier();
    return config;
}

TEST(ToyFamily, SweepsThroughTheEngineUnchanged) {
    const boost::mpi::communicator world;
    fs::path out;
    const fs::path config = toy_config(world, "toy", out);
    engine::ExploreOptions options;
    options.config = config;
    options.force = true;
    const engine::ExploreResult result = engine::explore(options, world);
    EXPECT_EQ(result.evaluations, 16);
    if (world.rank() != 0) return;

    const store::Store file = store::Store::open_read_only(out, MPI_COMM_SELF);
    // The file's family columns are the toy's: its parameters and energy parts, with units.
    ASSERT_EQ(file.columns().params.size(), 2u);
    EXPECT_EQ(file.columns().params[0], (store::FamilyColumn{"pes", "", "processing elements"}));
    EXPECT_EQ(file.columns().params[1], (store::FamilyColumn{"mhz", "MHz", "clock"}));
    ASSERT_EQ(file.columns().energy_parts.size(), 2u);
    EXPECT_EQ(file.columns().energy_parts[1],
              (store::FamilyColumn{"energy_leak_j", "J", "of which leakage"}));
    const store::StoredSweep s = file.read();
    io::Config c = io::read_config_file(config);
    const std::unique_ptr<family::Family> toy = family::make_family(c);
    ASSERT_EQ(toy->space().family(), kToy);
    ASSERT_EQ(s.candidates.size(), 16u);
    std::set<std::pair<int, int>> seen;
    for (const store::CandidateRecord& r : s.candidates) {
        // The store keeps the values in the family's order; the family id is the reader's.
        ASSERT_EQ(r.params.size, 2u);
        DesignPoint p = r.params;
        p.family = kToy;
        EXPECT_TRUE(toy->legal(p)) << toy->describe(p);
        EXPECT_TRUE(seen.insert({p[0], p[1]}).second) << "repeated " << toy->describe(p);
        ASSERT_EQ(r.status, eval::Status::ok);
        // Latency: the toy's formula, MACs over PEs x clock.
        const eval::EvalContext ctx = engine::make_context(c);
        const double want = ToyFamily::seconds(static_cast<double>(ctx.workloads[0].network.total_macs()), p);
        EXPECT_DOUBLE_EQ(r.latency_seconds, want);
        EXPECT_DOUBLE_EQ(r.area_mm2, 0.01 * p[0]);
    }
}

TEST(ToyFamily, RowsThatCannotBeWrittenFailTheCandidateNotTheSweep) {
    const boost::mpi::communicator world;
    fs::path out;
    engine::ExploreOptions options;
    options.config = toy_config(world, "toy_unwritable", out);
    options.force = true;
    EXPECT_EQ(engine::explore(options, world).evaluations, 16);
    if (world.rank() != 0) return;
    const store::StoredSweep s = store::Store::open_read_only(out, MPI_COMM_SELF).read();
    ASSERT_EQ(s.candidates.size(), 16u);
    for (const store::CandidateRecord& r : s.candidates) {
        EXPECT_EQ(r.status, r.id == 5 ? eval::Status::failed : eval::Status::ok) << r.id;
        EXPECT_EQ(r.metric_rows, r.id == 5 ? 0 : 1) << r.id;
    }
    (void)kToyUnwritable;
}

}  // namespace
}  // namespace pimdse
