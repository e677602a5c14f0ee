#pragma once
// Rank 0's view of a sweep (internal to the engine): the proposer, the Pareto archive and its
// history, the best cost, the dispatch-time model, and which candidates keep their mapping
// rows (output.mappings). Built by telling it every batch's results in batch order, sorted by
// candidate id; a resumed sweep replays the stored batches the same way, which gives exactly
// the state the interrupted run had.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "pimdse/engine/dispatch.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/store.hpp"
#include "pimdse/tuner/pareto.hpp"
#include "pimdse/tuner/proposer.hpp"

namespace pimdse::engine::detail {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

inline tuner::Outcome outcome_of(eval::Status s) {
    switch (s) {
        case eval::Status::ok:
            return tuner::Outcome::ok;
        case eval::Status::infeasible:
            return tuner::Outcome::infeasible;
        case eval::Status::failed:
        case eval::Status::timeout:
        case eval::Status::work_limit:
            break;
    }
    return tuner::Outcome::failed;
}

// Rank 0's view of the sweep: proposer, archive and its history, best cost; rebuilt on resume
// by replaying the stored batches in order, which gives exactly the state the interrupted run
// had.
class SweepState {
public:
    /// `columns`: the family's (its metrics are objectives); `samples`: the workloads' batch
    /// sizes summed (the throughput objective's numerator); `times`: the dispatch order's
    /// model with the family's prior.
    SweepState(const io::Config& config, store::FamilyColumns columns,
               std::unique_ptr<tuner::Proposer> proposer, double samples, EvalTimeModel times)
        : config_(config),
          columns_(std::move(columns)),
          samples_(samples),
          proposer_(std::move(proposer)),
          archive_(config.engine.objectives.size()),
          times_(std::move(times)),
          reference_(config.engine.reference) {}

    [[nodiscard]] tuner::Proposer& proposer() { return *proposer_; }
    /// Predicts evaluation times from the evaluations so far (the order of dispatch).
    [[nodiscard]] const EvalTimeModel& times() const { return times_; }

    /// Tells the proposer and the archive batch `batch`'s results (sorted by id).
    void observe(std::int64_t batch, const std::vector<store::CandidateRecord>& results) {
        ok_in_last_ = 0;
        std::vector<tuner::Observation> obs;
        for (const store::CandidateRecord& c : results) {
            tuner::Observation o;
            o.candidate = c.id;
            o.params = c.params;
            o.outcome = outcome_of(c.status);
            o.cost = c.status == eval::Status::ok ? c.cost : kInfinity;
            for (io::Objective k : config_.engine.objectives) {
                o.objectives.push_back(c.status == eval::Status::ok
                                           ? store::objective_value(c, columns_, k, samples_)
                                           : kInfinity);
            }
            if (c.status == eval::Status::ok) {
                // Only full evaluations teach the dispatch order: a time-out is cut short and an
                // infeasible candidate may stop early.
                times_.observe(c.params, c.seconds);
                (void)archive_.insert(c.id, o.objectives);
                if (c.cost < best_cost_) best_cost_ = c.cost, best_ = c.id;
                remember_best(c);
                ok_in_last_ += 1;
            }
            obs.push_back(std::move(o));
            records_[c.id] = c;
        }
        update_history(batch);
        // The automatic reference point (docs/config.md): fixed by the first batch with an
        // ok candidate, 1.1 x its worst value of each objective.
        if (reference_.empty()) {
            std::vector<double> worst(config_.engine.objectives.size(), 0.0);
            bool any = false;
            for (const tuner::Observation& o : obs) {
                // A missing metric (accuracy_loss without a table entry) is +inf: not a bound.
                const auto finite = [](double v) { return std::isfinite(v); };
                if (o.outcome != tuner::Outcome::ok ||
                    !std::all_of(o.objectives.begin(), o.objectives.end(), finite))
                    continue;
                any = true;
                for (std::size_t k = 0; k < worst.size(); ++k) worst[k] = std::max(worst[k], o.objectives[k]);
            }
            if (any) {
                for (double& w : worst) w *= 1.1;
                reference_ = worst;
            }
        }
        proposer_->observe(obs);
        evaluations_ += static_cast<std::int64_t>(results.size());
    }

    [[nodiscard]] std::int64_t ok_in_last() const { return ok_in_last_; }
    [[nodiscard]] double best_cost() const { return best_cost_; }
    [[nodiscard]] std::int64_t best() const { return best_; }
    [[nodiscard]] std::int64_t evaluations() const { return evaluations_; }
    [[nodiscard]] std::size_t front_size() const { return archive_.front().size(); }
    [[nodiscard]] double hypervolume() const {
        if (reference_.empty()) return 0.0;
        return tuner::hypervolume(archive_.front(), reference_);
    }
    /// The reference point as the batch rows store it: NaN where unset or unused.
    [[nodiscard]] std::array<double, 3> reference() const {
        std::array<double, 3> out;
        out.fill(std::numeric_limits<double>::quiet_NaN());
        for (std::size_t k = 0; k < reference_.size() && k < out.size(); ++k) out[k] = reference_[k];
        return out;
    }
    /// The ids of `batch` (its results, sorted by id, just observed) whose mapping rows the file
    /// keeps under output.mappings: all, none, or (front) those on the Pareto front or among the
    /// best output.best by cost after this batch. Decided once, when the batch is written, from
    /// the state every run reaches at that point: deterministic and resumable.
    [[nodiscard]] std::vector<std::int64_t> kept_mappings(
        const std::vector<store::CandidateRecord>& batch) const {
        std::vector<std::int64_t> keep;
        for (const store::CandidateRecord& c : batch) {
            const bool kept = config_.output.mappings == io::MappingRows::all ||
                              (config_.output.mappings == io::MappingRows::front &&
                               (on_front(c.id) || best_ids_.count(c.id) > 0));
            if (kept) keep.push_back(c.id);
        }
        return keep;
    }

    /// Every candidate that joined the front, in joining order (the /pareto table).
    [[nodiscard]] const std::vector<store::ParetoRecord>& history() const { return history_; }

private:
    [[nodiscard]] bool on_front(std::int64_t id) const {
        const auto& f = archive_.front();
        return std::binary_search(f.begin(), f.end(), tuner::ParetoPoint{id, {}},
                                  [](const tuner::ParetoPoint& a, const tuner::ParetoPoint& b) {
                                      return a.candidate < b.candidate;
                                  });
    }
    // The best output.best candidates by cost (ties: lower id).
    void remember_best(const store::CandidateRecord& c) {
        const auto limit = static_cast<std::size_t>(config_.output.best);
        if (limit == 0) return;
        best_set_.insert({c.cost, c.id});
        best_ids_.insert(c.id);
        if (best_set_.size() > limit) {
            best_ids_.erase(std::prev(best_set_.end())->second);
            best_set_.erase(std::prev(best_set_.end()));
        }
    }

    // The front after `batch` against the one before: leavers get left_batch, joiners a row.
    void update_history(std::int64_t batch) {
        std::map<std::int64_t, bool> now;
        for (const tuner::ParetoPoint& p : archive_.front()) now[p.candidate] = false;
        for (store::ParetoRecord& h : history_) {
            if (h.left_batch >= 0) continue;
            auto it = now.find(h.candidate);
            if (it == now.end()) {
                h.left_batch = batch;
            } else {
                it->second = true;  // still on the front
            }
        }
        for (const auto& [id, kept] : now) {
            if (kept) continue;
            const store::CandidateRecord& c = records_.at(id);
            history_.push_back({c.id, batch, -1, c.latency_seconds, c.energy_joules, c.area_mm2, c.cost});
        }
    }

    const io::Config& config_;
    store::FamilyColumns columns_;
    double samples_;
    std::unique_ptr<tuner::Proposer> proposer_;
    tuner::ParetoArchive archive_;
    EvalTimeModel times_;
    std::vector<double> reference_;
    std::map<std::int64_t, store::CandidateRecord> records_;
    std::vector<store::ParetoRecord> history_;
    double best_cost_ = kInfinity;
    std::int64_t best_ = -1;
    std::int64_t evaluations_ = 0;
    std::int64_t ok_in_last_ = 0;
    std::set<std::pair<double, std::int64_t>> best_set_;
    std::set<std::int64_t> best_ids_;
};

}  // namespace pimdse::engine::detail
