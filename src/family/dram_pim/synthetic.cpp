// The dram_pim family's synthetic evaluator (synthetic.hpp): a test facility.

#include "synthetic.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <span>
#include <thread>

#include "pimdse/core/rng.hpp"
#include "pimdse/eval/cost.hpp"
#include "pimdse/hw/area.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/node.hpp"
#include "pimdse/sim/uniform_mapping.hpp"

namespace pimdse::family {

namespace {

// Streams of the seed no proposer uses (proposers derive theirs from small stream ids).
constexpr std::uint64_t kSleepStream = 0x5EED'0001'0000'0000ULL;
constexpr std::uint64_t kNoiseStream = 0x5EED'0002'0000'0000ULL;
// sigma of ln(seconds): the default sweep's 95th percentile (4.3 s) over its median (1.24 s)
// is 3.5 = exp(1.645 sigma).
constexpr double kSigma = 0.76;
constexpr double kCap = 20.0;

// Latency and energy of one layer on `nodes` nodes of `pes` PEs: a roofline-like smooth
// function of the point with a seeded +-20 % ripple, so a tuner has something to learn.
sim::LayerCost layer_cost(const workload::Layer& l, std::int32_t nodes, const hw::HardwareParams& p,
                          const hw::Technology& t, Rng& rng) {
    const double pes = static_cast<double>(p.pe_rows) * p.pe_cols;
    const double macs = static_cast<double>(std::max<std::int64_t>(l.macs(), 1));
    const double buffers = static_cast<double>(p.ibuf_kib + p.wbuf_kib + p.obuf_kib);
    const double ripple = 0.8 + 0.4 * rng.uniform01();
    sim::LayerCost c;
    c.compute = Cycles(std::ceil(macs / (pes * nodes) * ripple * (1.0 + 64.0 / buffers)));
    c.redistribution = Cycles(std::floor(c.compute.value() * 0.05 * rng.uniform01()));
    c.sharing = Cycles(std::floor(c.compute.value() * 0.1 * rng.uniform01() * std::sqrt(nodes)));
    c.latency = c.compute + c.redistribution + c.sharing;
    c.energy.pe = Picojoules(macs * t.mac_energy.value());
    c.energy.sram =
        Picojoules(macs * 3 * 16 * t.sram_read_energy_per_bit_1kib.value() * std::sqrt(buffers / 3) * 0.1);
    c.energy.dram_access = Picojoules(static_cast<double>(l.weights()) * 16 * 0.88 * ripple);
    c.energy.noc = Picojoules(c.sharing.value() * 64 * 1.1);
    c.pe_utilisation = macs / (c.compute.value() * pes * nodes);
    return c;
}

}  // namespace

double synthetic_seconds(std::uint64_t seed, std::int64_t id, double median_seconds) {
    Rng rng = Rng(seed, kSleepStream).split(static_cast<std::uint64_t>(id));
    return median_seconds * std::min(std::exp(kSigma * rng.normal()), kCap);
}

eval::Evaluation synthetic_evaluate(const eval::EvalContext& ctx, const eval::Candidate& candidate,
                                    std::uint64_t seed, double median_seconds) {
    const auto start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(
        std::chrono::duration<double>(synthetic_seconds(seed, candidate.id, median_seconds)));
    eval::Evaluation e;
    e.candidate = candidate.id;
    e.point = hw::to_point(candidate.params);
    const hw::AreaBreakdown area = hw::area(candidate.params, ctx.constraints, ctx.technology);
    e.area_mm2 = area.nn_engines.value();
    e.area_total_mm2 = area.total.value();
    Rng rng = Rng(seed, kNoiseStream).split(static_cast<std::uint64_t>(candidate.id));
    const double seconds_per_cycle = 1e-6 / hw::with_point(ctx.constraints, candidate.params).clock_mhz;
    std::vector<sim::NetworkCost> costs;
    std::vector<double> gammas;
    for (const eval::Workload& w : ctx.workloads) {
        eval::NetworkResult r;
        r.mapping = sim::uniform_mapping(w.network, w.segmentation, candidate.params.node_rows,
                                         candidate.params.node_cols);
        std::int64_t macs = 0;
        for (workload::LayerIndex i = 0; i < w.network.size(); ++i) {
            const sim::Region& region = sim::layer_region(w.segmentation, r.mapping, i);
            r.cost.layers.push_back(
                layer_cost(w.network.layer(i), region.nodes(), candidate.params, ctx.technology, rng));
            r.cost.latency += r.cost.layers.back().latency;
            r.cost.energy += r.cost.layers.back().energy;
            macs += w.network.layer(i).macs();
        }
        for (std::size_t s = 0; s < r.mapping.segments.size(); ++s) r.cost.segments.push_back(r.cost.latency);
        r.cost.seconds = r.cost.latency.value() * seconds_per_cycle;
        const double all_pes = static_cast<double>(candidate.params.pe_rows) * candidate.params.pe_cols *
                               candidate.params.node_rows * candidate.params.node_cols;
        r.cost.pe_utilisation = static_cast<double>(macs) / std::max(r.cost.latency.value() * all_pes, 1.0);
        const std::array<double, 1> gamma{w.weight};
        r.cost_term = eval::cost_eq1(std::span(&r.cost, 1), gamma, ctx.alpha, ctx.beta);
        e.latency_seconds += r.cost.seconds;
        e.energy_joules += r.cost.energy.total().value() * 1e-12;
        e.cost += r.cost_term;
        e.networks.push_back(std::move(r));
    }
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return e;
}

}  // namespace pimdse::family
