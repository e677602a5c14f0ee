// HuNT's tier mapping by AMOSA (mapper/tier_mapping.hpp) on a network small enough to
// enumerate every layer-to-PE mapping of a 2 x 2 x 2 mesh: the archive is exactly the
// non-dominated set of what it evaluated, it finds the brute-force front, it is the same for
// a seed, and the perturbations keep a layer's PEs its own.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/mapper/tier_mapping.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::mapper {
namespace {

using hw::PimDevice;

// Two tiers of 2 x 2 PEs: t1 ReRAM, t2 SRAM (the gradients' tier).
hw::Hetero3dHardware mesh_2x2x2(const char* stack = "RS") {
    return {2, 4, 4, SquareMillimetres(0.40), *hw::parse_stack(stack)};
}

// fc1 -> relu -> fc2 -> fc3, batch 4: three weighted layers of one PE each on either device.
workload::Network small_network() {
    workload::NetworkBuilder b({"three_fc", "", ""}, 4, {64, 1, 1});
    workload::LinearSpec spec;
    spec.flatten = true;
    spec.out_features = 48;
    const auto fc1 = b.linear("fc1", workload::kNetworkInput, spec);
    const auto relu = b.activation("relu", fc1, workload::Activation::relu);
    spec.out_features = 32;
    const auto fc2 = b.linear("fc2", relu, spec);
    spec.out_features = 10;
    (void)b.linear("fc3", fc2, spec);
    return std::move(b).build().with_mode(workload::NetworkMode::training);
}

TierModel model(HeatObjective heat = HeatObjective::power) {
    TierModel m;
    m.preset = &hw::neurosim_v2_1_preset();
    m.thermal = sim::thermal_stack(sim::hotspot_layer_stack(1.6, 4), 2);
    m.heat = heat;
    return m;
}

TierMappingOptions unclustered(std::int64_t iterations, std::uint64_t seed = 7) {
    TierMappingOptions o;
    o.amosa.hard_limit = o.amosa.soft_limit = 100000;  // no clustering: the archive is the front
    o.iterations = iterations;
    o.seed = seed;
    return o;
}

using Front = std::set<std::vector<double>>;

Front front_of(const std::vector<std::optional<std::vector<double>>>& points) {
    tuner::ParetoArchive a(4);
    for (std::size_t i = 0; i < points.size(); ++i)
        if (points[i]) (void)a.insert(static_cast<std::int64_t>(i), *points[i]);
    Front f;
    for (const tuner::ParetoPoint& p : a.front()) f.insert(p.objectives);
    return f;
}

// Every mapping of the three weighted layers to distinct PEs of the 8: 8 x 7 x 6.
std::vector<sim::Hetero3dPlacement> every_placement(const workload::Network& net,
                                                    const hw::Hetero3dHardware& h) {
    const sim::Hetero3dPlacement start = sim::greedy_placement(net, h);
    std::vector<sim::Hetero3dPlacement> out;
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b)
            for (int c = 0; c < 8; ++c) {
                if (a == b || b == c || a == c) continue;
                sim::Hetero3dPlacement p = start;
                p.forward[0] = {a / 4, {a % 4}};
                p.forward[2] = {b / 4, {b % 4}};
                p.forward[3] = {c / 4, {c % 4}};
                attach_auxiliary(net, p);
                out.push_back(std::move(p));
            }
    return out;
}

TEST(TierMapping, ArchiveIsTheNonDominatedSetOfEverythingEvaluated) {
    const auto net = small_network();
    for (HeatObjective heat : {HeatObjective::power, HeatObjective::peak_temperature}) {
        const TierMappingResult r = map_tiers(net, mesh_2x2x2(), model(heat), unclustered(400));
        ASSERT_EQ(r.evaluated.size(), 400U);
        const Front archive(r.front_objectives.begin(), r.front_objectives.end());
        EXPECT_EQ(archive.size(), r.front_objectives.size());  // no two members alike
        EXPECT_EQ(archive, front_of(r.evaluated));
        EXPECT_GT(archive.size(), 1U);  // the objectives conflict on this network
    }
}

TEST(TierMapping, FindsTheBruteForceFront) {
    const auto net = small_network();
    const auto h = mesh_2x2x2();
    const TierModel m = model();
    std::vector<std::optional<std::vector<double>>> all;
    for (const sim::Hetero3dPlacement& p : every_placement(net, h)) {
        const auto e = evaluate_placement(net, h, p, m);
        all.push_back(e ? std::optional(e->objectives) : std::nullopt);
    }
    ASSERT_EQ(all.size(), 336U);
    const Front truth = front_of(all);
    for (std::uint64_t seed : {1, 2, 3}) {
        const TierMappingResult r = map_tiers(net, h, m, unclustered(4000, seed));
        EXPECT_EQ(Front(r.front_objectives.begin(), r.front_objectives.end()), truth) << "seed " << seed;
    }
}

TEST(TierMapping, SameSeedSameSearch) {
    const auto net = small_network();
    const TierMappingResult a = map_tiers(net, mesh_2x2x2(), model(), TierMappingOptions{});
    const TierMappingResult b = map_tiers(net, mesh_2x2x2(), model(), TierMappingOptions{});
    EXPECT_EQ(a.evaluated, b.evaluated);
    EXPECT_EQ(a.front_objectives, b.front_objectives);
    EXPECT_EQ(a.evaluated.size(), 100U);  // HuNT's 100 iterations by default
    TierMappingOptions other;
    other.seed = 2;
    EXPECT_NE(map_tiers(net, mesh_2x2x2(), model(), other).evaluated, a.evaluated);
}

TEST(TierMapping, PerturbationsKeepEachLayersPesItsOwn) {
    const auto net = small_network();
    const auto h = mesh_2x2x2();
    sim::Hetero3dPlacement p = sim::greedy_placement(net, h);
    Rng rng(3);
    std::set<std::pair<int, int>> visited;
    for (int i = 0; i < 500; ++i) {
        p = perturb_placement(net, h, p, rng);
        std::set<std::pair<int, int>> held;
        for (int l : {0, 2, 3}) {
            const sim::PeGroup& g = p.forward[static_cast<std::size_t>(l)];
            ASSERT_EQ(g.pes.size(), 1U);
            EXPECT_TRUE(held.insert({g.tier, g.pes[0]}).second);  // no PE holds two layers
            visited.insert({g.tier, g.pes[0]});
        }
        EXPECT_EQ(p.forward[1].tier, p.forward[0].tier);  // relu follows fc1
        EXPECT_EQ(p.forward[1].pes, p.forward[0].pes);
    }
    EXPECT_EQ(visited.size(), 8U);  // every PE of both tiers is reached
}

TEST(TierMapping, ObjectivesOfAPlacement) {
    const auto net = small_network();
    const auto h = mesh_2x2x2();
    const auto p = sim::greedy_placement(net, h);  // every weighted layer on ReRAM t1
    const auto e = evaluate_placement(net, h, p, model(HeatObjective::peak_temperature));
    ASSERT_TRUE(e);
    EXPECT_DOUBLE_EQ(e->objectives[0], e->cost.latency_ns);
    EXPECT_DOUBLE_EQ(e->objectives[1], e->cost.area_mm2);
    EXPECT_DOUBLE_EQ(e->objectives[2], std::max(e->tier_peak_k[0], e->tier_peak_k[1]));
    // Err: each layer at its one PE's temperature on ReRAM (HuNT Eq. 6-7).
    double err = 0;
    for (int l : {0, 2, 3}) {
        const int pe = p.forward[static_cast<std::size_t>(l)].pes[0];
        err += sim::error_surrogate(net.layer(l), PimDevice::reram,
                                    e->pe_temperature_k[0][static_cast<std::size_t>(pe)], {});
    }
    EXPECT_DOUBLE_EQ(e->err, err);
    EXPECT_GT(err, 0.0);
    // On the SRAM tier the surrogate vanishes.
    sim::Hetero3dPlacement s = p;
    for (int l : {0, 2, 3}) s.forward[static_cast<std::size_t>(l)] = {1, {l == 0 ? 0 : l - 1}};
    attach_auxiliary(net, s);
    EXPECT_EQ(evaluate_placement(net, h, s, model())->err, 0.0);
    // A stack that cannot train the network has no search.
    EXPECT_THROW((void)map_tiers(net, mesh_2x2x2("RF"), model(), {}), ModelError);
}

TEST(TierMapping, PickByEfficiencyAfterTheErrorFilter) {
    const auto net = small_network();
    const auto h = mesh_2x2x2();
    std::vector<TierEvaluation> front;
    for (const sim::Hetero3dPlacement& p : map_tiers(net, h, model(), unclustered(400)).front)
        front.push_back(*evaluate_placement(net, h, p, model()));
    ASSERT_GT(front.size(), 1U);
    const auto score = [&](std::size_t i, PickBy by) {
        const Efficiency e = efficiency(front[i].cost);
        return by == PickBy::tops_per_w ? e.tops_per_w : e.tops_per_mm2;
    };
    // TOPS/W is 2 x MACs over latency over power: by hand for the first member.
    double power = 0;
    for (double w : front[0].cost.tier_power_w) power += w;
    EXPECT_DOUBLE_EQ(efficiency(front[0].cost).tops_per_w,
                     static_cast<double>(front[0].cost.ops) / (front[0].cost.latency_ns * 1e3) / power);
    double least_err = front[0].err;
    for (const TierEvaluation& e : front) least_err = std::min(least_err, e.err);
    for (PickBy by : {PickBy::tops_per_w, PickBy::tops_per_mm2}) {
        const auto best = pick_mapping(front, by, std::nullopt);
        ASSERT_TRUE(best);
        for (std::size_t i = 0; i < front.size(); ++i) EXPECT_GE(score(*best, by), score(i, by));
        // Only the members within the filter compete.
        const auto filtered = pick_mapping(front, by, least_err);
        ASSERT_TRUE(filtered);
        EXPECT_EQ(front[*filtered].err, least_err);
        for (std::size_t i = 0; i < front.size(); ++i) {
            if (front[i].err <= least_err) {
                EXPECT_GE(score(*filtered, by), score(i, by));
            }
        }
    }
    EXPECT_FALSE(pick_mapping(front, PickBy::tops_per_w, least_err - 1));
}

}  // namespace
}  // namespace pimdse::mapper
