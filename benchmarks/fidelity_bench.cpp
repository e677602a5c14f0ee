// The cheap fidelities of the predictor filter's second level (docs/tuner.md, "Cheap
// fidelity") against the full evaluation: uniform legal points of a sweep configuration's
// space (`random` proposer, seed 1) are evaluated in full and at every cheap fidelity, and the
// counters give, per fidelity, Kendall's tau (Gibbon Eq. 6) and Spearman's rho of its Eq. 1
// cost against the full one over the points ok at both, how many of those costs differ from
// the full one and by at most what relative amount, and the CPU time of its evaluations
// against the full ones. This measures a ranking and a time ratio: read the counters.
//
//   build/benchmarks/bench_fidelity            (inputs/sweeps/nicepim_fig9.yaml, 64 points)
//   PIMDSE_FIDELITY_CONFIG=... PIMDSE_FIDELITY_POINTS=... build/benchmarks/bench_fidelity
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <numeric>
#include <string>
#include <vector>

#include "pimdse/core/deadline.hpp"
#include "pimdse/engine/explore.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/family/family.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/tuner/proposers.hpp"
#include "pimdse/tuner/rank_correlation.hpp"

namespace {

using namespace pimdse;

double cpu_now() {
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// Ranks 1..n, ties sharing their mean rank.
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
        for (std::size_t k = i; k <= j; ++k) r[order[k]] = 0.5 * static_cast<double>(i + j) + 1.0;
        i = j + 1;
    }
    return r;
}

// Spearman's rho: the Pearson correlation of the ranks.
double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const std::vector<double> x = ranks(a), y = ranks(b);
    const double n = static_cast<double>(x.size());
    const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
    const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / std::sqrt(sxx * syy);
}

struct Costs {
    std::vector<double> cost;  // +inf unless ok
    double cpu_seconds = 0;
};

Costs evaluate_all(const family::Family& fam, const eval::EvalContext& ctx,
                   const std::vector<DesignPoint>& points) {
    Costs c;
    const double start = cpu_now();
    for (std::size_t i = 0; i < points.size(); ++i) {
        const eval::Evaluation e = fam.evaluate(ctx, static_cast<std::int64_t>(i), points[i], Deadline());
        c.cost.push_back(e.status == eval::Status::ok ? e.cost : std::numeric_limits<double>::infinity());
    }
    c.cpu_seconds = cpu_now() - start;
    return c;
}

void BM_CheapFidelity(benchmark::State& state) {
    const char* path = std::getenv("PIMDSE_FIDELITY_CONFIG");
    const char* count = std::getenv("PIMDSE_FIDELITY_POINTS");
    const io::Config config =
        io::read_config_file(path ? path : PIMDSE_SOURCE_DIR "/inputs/sweeps/nicepim_fig9.yaml");
    const std::unique_ptr<family::Family> fam = family::make_family(config);
    const eval::EvalContext full = engine::make_context(config);
    tuner::ProposerContext pc;
    pc.space = fam->space();
    pc.legal = [&fam](const DesignPoint& p) { return fam->legal(p); };
    const std::vector<DesignPoint> points =
        tuner::make_proposer("random", pc)->propose(0, count ? std::atoi(count) : 64);
    for (auto _ : state) {
        const Costs reference = evaluate_all(*fam, full, points);
        state.counters["points"] = static_cast<double>(points.size());
        state.counters["full_cpu_s"] = reference.cpu_seconds;
        for (CheapFidelity f :
             {CheapFidelity::snake, CheapFidelity::one_round, CheapFidelity::snake_one_round}) {
            const Costs cheap = evaluate_all(*fam, eval::at_fidelity(full, f), points);
            std::vector<double> a, b;
            int differ = 0;
            double max_relative = 0;
            for (std::size_t i = 0; i < points.size(); ++i) {
                if (!std::isfinite(reference.cost[i]) || !std::isfinite(cheap.cost[i])) continue;
                a.push_back(reference.cost[i]);
                b.push_back(cheap.cost[i]);
                differ += reference.cost[i] != cheap.cost[i];
                max_relative = std::max(max_relative, std::abs(cheap.cost[i] / reference.cost[i] - 1));
            }
            const std::string tag(name_of(kCheapFidelityNames, f));
            state.counters["differ_" + tag] = differ;
            state.counters["max_rel_" + tag] = max_relative;
            state.counters["ok_" + tag] = static_cast<double>(a.size());
            state.counters["tau_" + tag] = tuner::kendall_tau(a, b);
            state.counters["rho_" + tag] = spearman(a, b);
            state.counters["cpu_ratio_" + tag] = cheap.cpu_seconds / reference.cpu_seconds;
        }
    }
}
BENCHMARK(BM_CheapFidelity)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
