// A worker's side of the sweep (src/engine/sweep_loop.hpp, docs/engine.md): full evaluations
// of candidates and cheap evaluations of a proposal's points, one at a time, until rank 0
// says stop.

#include <chrono>
#include <limits>
#include <string>

#include "pimdse/core/error.hpp"
#include "sweep_loop.hpp"
#include "wire.hpp"

namespace pimdse::engine::detail {

eval::Evaluation evaluate_candidate(const io::Config& config, const family::Family& family,
                                    const eval::EvalContext& ctx, std::int64_t id, const DesignPoint& point) {
    if (config.sweep.evaluator == io::Evaluator::synthetic) {
        return family.evaluate_synthetic(ctx, id, point, config.sweep.seed,
                                         config.sweep.synthetic_median_seconds);
    }
    return family.evaluate(ctx, id, point, Deadline::after(config.engine.time_limit));
}

store::CandidateRecord evaluate_into(const io::Config& config, const family::Family& family,
                                     const eval::EvalContext& ctx, const Work& w, int rank,
                                     store::BatchRows& rows) {
    rows.clear();
    eval::Evaluation e = evaluate_candidate(config, family, ctx, w.id, w.params);
    store::CandidateRecord r;
    try {
        r = rows.add(e, w.batch, config.sweep.proposer, rank, ctx.workloads);
    } catch (const Error& error) {
        // Rows the evaluation's result cannot make (a family's result the file has no room
        // for) fail this candidate, recorded like a failed evaluation, not the sweep. Memory
        // exhaustion is not caught here: it stops the run, which resumes.
        rows.clear();
        e.status = eval::Status::failed;
        e.message = std::string("its rows could not be written: ") + error.what();
        e.networks.clear();
        e.latency_seconds = e.energy_joules = 0;
        e.cost = std::numeric_limits<double>::infinity();
        r = rows.add(e, w.batch, config.sweep.proposer, rank, ctx.workloads);
    }
    if (config.output.mappings == io::MappingRows::none) {
        rows.drop_mappings_except({});
        r.layer_rows = 0;
        r.segment_rows = 0;
    }
    return r;
}

void run_worker(const io::Config& config, const family::Family& family, const eval::EvalContext& ctx,
                const CheapLevel* cheap, const boost::mpi::communicator& world) {
    store::BatchRows rows;
    for (;;) {
        const boost::mpi::status st = *wait_for(world, 0, {kTagWork, kTagCheap, kTagStop});
        if (st.tag() == kTagStop) {
            int dummy = 0;
            world.recv(0, kTagStop, dummy);
            return;
        }
        std::vector<char> bytes;
        world.recv(0, st.tag(), bytes);
        if (st.tag() == kTagCheap) {
            const auto w = from_bytes<CheapWork>(bytes, "cheap work");
            if (cheap == nullptr) throw Error("cheap work for a sweep without cheap_fidelity");
            const auto start = std::chrono::steady_clock::now();
            const double cost = cheap->cost(w.params);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            world.send(0, kTagCheapResult, to_bytes(CheapResult{w.request, w.index, cost, seconds}));
            continue;
        }
        const auto w = from_bytes<Work>(bytes, "work");
        const store::CandidateRecord r = evaluate_into(config, family, ctx, w, world.rank(), rows);
        world.send(0, kTagResult, result_message(r, rows));
    }
}

}  // namespace pimdse::engine::detail
