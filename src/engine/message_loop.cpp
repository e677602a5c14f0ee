// Rank 0's message loop without a batch barrier (src/engine/sweep_loop.hpp,
// docs/engine.md).

#include <boost/mpi/environment.hpp>
#include <boost/mpi/status.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/engine/progress.hpp"
#include "pimdse/engine/write_failure.hpp"
#include "pimdse/tuner/rank_correlation.hpp"
#include "sweep_loop.hpp"

namespace pimdse::engine::detail {

namespace {

using Clock = std::chrono::steady_clock;

// A proposed batch until it is written.
struct Pending {
    std::int64_t first_id = 0;
    std::size_t size = 0;
    std::vector<DesignPoint> points;  ///< excluded from proposals until observed
    tuner::ProposalStats stats;
    std::vector<store::CandidateRecord> results;
    store::BatchRows rows;
    std::optional<Clock::time_point> first_dispatch;
    bool stored = false;  ///< replayed from the file: observed, not written
};

// How the batch's predictions, made before it was dispatched, matched its evaluations:
// candidate i of the batch has id first_id + i; a cost counts only when the evaluation was ok.
tuner::PredictionQuality prediction_quality(const Pending& p) {
    std::vector<double> cost(p.size, std::numeric_limits<double>::infinity());
    for (const store::CandidateRecord& r : p.results) {
        const std::int64_t i = r.id - p.first_id;
        if (i >= 0 && i < std::ssize(cost) && r.status == eval::Status::ok)
            cost[static_cast<std::size_t>(i)] = r.cost;
    }
    // A proposer that predicted only some of its points has no ranking of the batch.
    if (p.stats.predicted.size() != p.size) return tuner::prediction_quality({}, cost, false);
    return tuner::prediction_quality(p.stats.predicted, cost, p.stats.predicted_is_cost);
}

// How the batch's cheap costs (the filter's second level) ranked its full evaluations:
// Kendall's tau over the ok candidates, NaN without cheap costs or two ok results.
double cheap_tau(const Pending& p) {
    if (p.stats.cheap.size() != p.size) return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> cost(p.size, std::numeric_limits<double>::infinity());
    for (const store::CandidateRecord& r : p.results) {
        const std::int64_t i = r.id - p.first_id;
        if (i >= 0 && i < std::ssize(cost) && r.status == eval::Status::ok)
            cost[static_cast<std::size_t>(i)] = r.cost;
    }
    return tuner::prediction_quality(p.stats.cheap, cost, false).tau;
}

// A proposal running on a thread of rank 0 beside the message loop (docs/engine.md, "Rank 0").
struct Proposal {
    std::int64_t batch = 0;
    std::future<std::vector<DesignPoint>> points;
    [[nodiscard]] bool ready() const {
        return points.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    }
};

class Root {
public:
    Root(const RootInputs& in, const boost::mpi::communicator& world)
        : in_(in),
          world_(world),
          lag_(in.config.sweep.lag),
          // A proposal thread needs MPI to allow threads that make no MPI call (funneled);
          // alone, rank 0 evaluates itself and there is nothing to overlap.
          overlap_(world.size() > 1 &&
                   boost::mpi::environment::thread_level() >= boost::mpi::threading::funneled),
          progress_(in.progress, in.progress_options) {
        for (int w = 1; w < world.size(); ++w) idle_.push_back(w);
        // With a proposal thread the workers evaluate its cheap requests; without one the
        // loop waits for the proposal, so the proposal evaluates them itself.
        if (in.cheap != nullptr && overlap_) in.cheap->use_workers();
        if (in.cheap != nullptr) cheap_by_rank_.assign(static_cast<std::size_t>(world.size()), 0);
    }

    // Leaving by an exception (a failed allocation or write on rank 0) while a proposal waits
    // for cheap costs: no worker will deliver them, and the proposal's future, destroyed
    // after this, would wait for its thread forever; released, the proposal ends at once.
    ~Root() {
        if (in_.cheap != nullptr) in_.cheap->abandon();
    }
    Root(const Root&) = delete;
    Root& operator=(const Root&) = delete;

    RootOutcome run() {
        for (;;) {
            check_wall_time();
            if (!stop_) {
                if (closing_) {
                    harvest(false);  // nothing new is proposed; a finished proposal is queued
                } else {
                    propose_due();
                }
                dispatch();
                stop_when_closed();
            }
            if (stop_) {
                abandon_proposal();
                queue_.clear();  // proposed again, identically, when the sweep is resumed
                cheap_queue_.clear();
            }
            // While a proposal runs the proposer must not be told anything: the complete batch
            // waits, and the loop keeps serving the workers until the proposal is queued.
            if (!pending_.empty() && !proposing_ && complete(pending_.begin()->second)) {
                finish_oldest();
                continue;
            }
            if (pending_.empty() && !proposing_) break;
            // Stopping: the complete batches are written, the rest is abandoned.
            if (stop_ && in_flight() == 0) break;
            take_one_result();
        }
        abandon_proposal();
        for (int w = 1; w < world_.size(); ++w) world_.send(w, kTagStop, 0);
        out_.budget_reached = in_.state.evaluations() >= in_.config.sweep.budget;
        out_.batches = observed_ + 1;
        out_.propose_seconds = propose_seconds_;
        out_.busy_while_work_remains = busy_while_work_remains();
        if (in_.cheap != nullptr) cheap_by_rank_[0] += in_.cheap->evaluated_here();
        out_.cheap_by_rank = cheap_by_rank_;
        return out_;
    }

private:
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - in_.started).count(); }

    // Every batch k <= observed + lag not proposed yet, in order: batch k is proposed after
    // batch k - lag is observed and before batch k - lag + 1 is (docs/engine.md). Stored
    // batches are not proposed again (a proposal depends only on the seed, the batch index
    // and the observations told before it: tuner/proposer.hpp).
    void propose_due() {
        harvest(false);
        while (!stop_proposing_ && !proposing_ && next_propose_ <= observed_ + lag_) {
            const std::int64_t k = next_propose_;
            if (k < in_.stored_batches) {
                Pending p;
                p.stored = true;
                p.first_id = proposed_;
                while (stored_at_ < in_.stored.size() && in_.stored[stored_at_].batch == k) {
                    p.points.push_back(in_.stored[stored_at_].params);
                    p.results.push_back(in_.stored[stored_at_++]);
                }
                p.size = p.results.size();
                proposed_ += static_cast<std::int64_t>(p.size);
                pending_.emplace(k, std::move(p));
                ++next_propose_;
                continue;
            }
            if (proposed_ >= in_.config.sweep.budget) {
                stop_proposing_ = true;
                break;
            }
            if (waits_for_warmup()) break;
            const int count = static_cast<int>(
                std::min<std::int64_t>(in_.config.sweep.batch_size, in_.config.sweep.budget - proposed_));
            launch(k, count);
            if (!overlap_) harvest(true);
        }
    }

    // A batch that starts past the proposer's warm-up waits until the warm-up's observations
    // exist, so a model-based proposer uses its model from there on whatever the lag; before
    // it, proposals are uniform anyway. Decided by candidate counts at fixed points of the
    // call sequence, so it depends on the configuration only (docs/engine.md, "The protocol").
    [[nodiscard]] bool waits_for_warmup() const {
        const std::int64_t warmup = in_.state.proposer().warmup();
        return proposed_ >= warmup && in_.state.evaluations() < warmup;
    }

    // propose(k) on a thread: the loop keeps dispatching and receiving meanwhile. Nothing
    // observes the proposer until the proposal is harvested (finish_oldest waits for it), so
    // the calls on the proposer keep the order of docs/engine.md "Determinism". The points of
    // the batches in flight (proposed or stored, not yet observed) are excluded first, so no
    // point is evaluated twice; a resumed run excludes the same ones.
    void launch(std::int64_t k, int count) {
        tuner::Proposer& proposer = in_.state.proposer();
        for (const auto& [batch, p] : pending_) proposer.exclude(p.points);
        proposing_.emplace();
        proposing_->batch = k;
        proposing_->points =
            std::async(std::launch::async, [&proposer, k, count] { return proposer.propose(k, count); });
    }

    // The running proposal's batch joins the queue (waiting for it if `wait`).
    void harvest(bool wait) {
        if (!proposing_ || (!wait && !proposing_->ready())) return;
        const std::int64_t k = proposing_->batch;
        const std::vector<DesignPoint> points = proposing_->points.get();
        proposing_.reset();
        const tuner::ProposalStats stats = in_.state.proposer().last_stats();
        propose_seconds_ += stats.fit_seconds + stats.propose_seconds;
        if (points.empty()) {
            stop_proposing_ = true;
            out_.space_exhausted = true;
            return;
        }
        Pending p;
        p.first_id = proposed_;
        p.size = points.size();
        p.points = points;
        p.stats = stats;
        // The slowest predicted first (dispatch.hpp); older batches stay ahead in the queue.
        for (std::size_t i : slowest_first(points, in_.state.times()))
            queue_.push_back(Work{proposed_ + static_cast<std::int64_t>(i), k, points[i]});
        proposed_ += static_cast<std::int64_t>(points.size());
        pending_.emplace(k, std::move(p));
        ++next_propose_;
    }

    // Stopping: a running proposal is awaited and dropped (the resumed sweep proposes it again);
    // one that waits for cheap costs is released first (CheapAbandoned ends it).
    void abandon_proposal() {
        if (!proposing_) return;
        if (in_.cheap != nullptr) in_.cheap->abandon();
        proposing_->points.wait();
        proposing_.reset();
    }

    // The running proposal's cheap request goes out first: the proposal waits for it, and the
    // candidates of the batches before it keep the other workers busy meanwhile. None while
    // closing: the proposal's batch would not be started.
    void dispatch() {
        if (in_.cheap != nullptr) {
            if (std::optional<CheapRequest> r = in_.cheap->take_request()) {
                for (std::size_t i = 0; i < r->points.size(); ++i)
                    cheap_queue_.push_back(CheapWork{r->serial, static_cast<std::int64_t>(i), r->points[i]});
            }
        }
        while (!idle_.empty() && !cheap_queue_.empty() && !closing_) {
            send_to_idle(kTagCheap, to_bytes(cheap_queue_.front()));
            cheap_queue_.pop_front();
        }
        while (!idle_.empty() && !queue_.empty() && may_take_next()) {
            const Work w = queue_.front();
            queue_.pop_front();
            Pending& p = pending_.at(w.batch);
            if (!p.first_dispatch) p.first_dispatch = Clock::now();
            send_to_idle(kTagWork, to_bytes(w));
        }
    }

    void send_to_idle(int tag, const std::vector<char>& bytes) {
        world_.send(idle_.front(), tag, bytes);
        const double at = elapsed();
        held_since_[idle_.front()] = at;
        first_dispatch_ = std::min(first_dispatch_, at);
        last_dispatch_ = at;
        idle_.pop_front();
    }

    // A worker's result is in: it is idle again, and held its work since the dispatch.
    void release(int worker) {
        idle_.push_back(worker);
        if (auto it = held_since_.find(worker); it != held_since_.end()) {
            spans_.emplace_back(it->second, elapsed());
            held_since_.erase(it);
        }
    }

    static bool complete(const Pending& p) { return p.results.size() == p.size; }

    // The workers' share of time with work in hand (a candidate or a cheap point, from its
    // dispatch to its result) between the first and the last dispatch of this run: idle time there is idle
    // time while work remained; the end of the sweep, when no work is left, is not counted.
    [[nodiscard]] double busy_while_work_remains() const {
        const double window = last_dispatch_ - first_dispatch_;
        if (world_.size() == 1 || window <= 0) return 1.0;
        double held = 0;
        for (const auto& [from, to] : spans_) held += std::max(0.0, std::min(to, last_dispatch_) - from);
        return held / (static_cast<double>(world_.size() - 1) * window);
    }
    [[nodiscard]] std::size_t in_flight() const {
        return static_cast<std::size_t>(world_.size() - 1) - idle_.size();
    }

    // Whether the queue's next candidate may be handed out. A batch is started only if it can
    // end within the wall time: once the queue reaches one that cannot, no batch is started
    // any more and the started ones are finished, so a wall-time stop writes every evaluation
    // instead of abandoning a half-evaluated batch (which --resume would evaluate again). With
    // W workers kept busy and no evaluation longer than L (the longest of this run so far),
    // the last of n candidates (those in flight, then the batch's) is handed out within
    // (n - 1) L / W and ends L later; the hard stop of check_wall_time() stays the safety net.
    bool may_take_next() {
        if (closing_) return started(queue_.front());
        if (!in_.wall_time || started(queue_.front())) return true;
        const double workers = std::max(world_.size() - 1, 1);
        const std::size_t n = in_flight() + pending_.at(queue_.front().batch).size;
        const double needed = (static_cast<double>(n - 1) / workers + 1) * longest_;
        if (elapsed() + needed < static_cast<double>(in_.wall_time->count())) return true;
        closing_ = true;
        return false;
    }

    [[nodiscard]] bool started(const Work& w) const {
        return pending_.at(w.batch).first_dispatch.has_value();
    }

    // Closing: once nothing is in flight and no started batch has work left, stop.
    void stop_when_closed() {
        if (!closing_ || in_flight() != 0) return;
        if (!queue_.empty() && started(queue_.front())) return;
        stop_ = true;
        out_.wall_time_stop = true;
    }

    // No candidate is handed out that could not end within the wall time, judged by the
    // longest evaluation of this run so far; in-flight candidates are awaited, the batches
    // they complete are written, and the sweep stops resumably.
    void check_wall_time() {
        if (stop_) return;
        if (in_.stop_requested != nullptr && in_.stop_requested->load()) {
            stop_ = true;
            out_.stop_requested = true;
            return;
        }
        if (!in_.wall_time) return;
        if (elapsed() + longest_ >= static_cast<double>(in_.wall_time->count())) {
            stop_ = true;
            out_.wall_time_stop = true;
        }
    }

    // One result: from a worker, or (one rank) evaluated here.
    void take_one_result() {
        if (world_.size() == 1) {
            if (queue_.empty() || !may_take_next()) return;  // closing: the loop stops
            const Work w = queue_.front();
            queue_.pop_front();
            Pending& p = pending_.at(w.batch);
            if (!p.first_dispatch) p.first_dispatch = Clock::now();
            store::CandidateRecord r = evaluate_into(in_.config, in_.family, in_.ctx, w, 0, scratch_);
            add_result(r, scratch_.to_bytes());
            return;
        }
        const std::optional<boost::mpi::status> st =
            wait_for(world_, boost::mpi::any_source, {kTagResult, kTagCheapResult}, [this] {
                return (proposing_ && proposing_->ready()) ||
                       (in_.cheap != nullptr && in_.cheap->request_waiting());
            });
        if (!st) return;  // the proposal is ready or asks for cheap costs: the loop serves it
        std::vector<char> bytes;
        world_.recv(st->source(), st->tag(), bytes);
        release(st->source());
        if (st->tag() == kTagCheapResult) {
            const auto c = from_bytes<CheapResult>(bytes, "cheap result");
            if (in_.cheap != nullptr) in_.cheap->deliver(c.request, c.index, c.cost);
            out_.busy_seconds += c.seconds;
            ++cheap_by_rank_.at(static_cast<std::size_t>(st->source()));
            return;
        }
        if (bytes.size() < sizeof(store::CandidateRecord)) throw Error("a malformed result message");
        store::CandidateRecord r;
        std::memcpy(&r, bytes.data(), sizeof r);
        add_result(r, std::span<const char>(bytes).subspan(sizeof r));
    }

    void add_result(const store::CandidateRecord& r, std::span<const char> rows) {
        Pending& p = pending_.at(r.batch);
        p.results.push_back(r);
        p.rows.append_bytes(rows);
        out_.busy_seconds += r.seconds;
        longest_ = std::max(longest_, r.seconds);
        ++out_.evaluated_now;
        progress_.tick(r.batch, progress_state());
    }

    // Evaluations done so far: the stored ones and this run's, observed or not.
    [[nodiscard]] ProgressState progress_state() const {
        ProgressState s;
        s.evaluations = static_cast<std::int64_t>(in_.stored.size()) + out_.evaluated_now;
        s.budget = in_.config.sweep.budget;
        s.done_now = out_.evaluated_now;
        s.seconds = elapsed();
        s.best_cost = in_.state.best_cost();
        s.best_candidate = in_.state.best();
        s.front = in_.state.front_size();
        return s;
    }

    // The oldest batch is complete: observe it, then write it (stored batches: observe only).
    void finish_oldest() {
        auto it = pending_.begin();
        const std::int64_t batch = it->first;
        Pending& p = it->second;
        std::sort(
            p.results.begin(), p.results.end(),
            [](const store::CandidateRecord& a, const store::CandidateRecord& b) { return a.id < b.id; });
        in_.state.observe(batch, p.results);
        observed_ = batch;
        if (p.stored) {
            pending_.erase(it);
            // The replayed history undoes what an interrupted batch may have written to /pareto.
            if (batch + 1 == in_.stored_batches) in_.store.rewrite_pareto(in_.state.history());
            return;
        }
        write(batch, p);
        pending_.erase(it);
    }

    void write(std::int64_t batch, Pending& p) {
        const std::vector<std::int64_t> keep = in_.state.kept_mappings(p.results);
        std::vector<store::CandidateRecord> layout = p.results;
        for (store::CandidateRecord& c : layout) {
            c.rank = 0;  // rank 0 writes every row
            if (!std::binary_search(keep.begin(), keep.end(), c.id)) c.layer_rows = 0, c.segment_rows = 0;
        }
        if (in_.config.output.mappings != io::MappingRows::all) p.rows.drop_mappings_except(keep);

        const auto now = Clock::now();
        const double span = std::chrono::duration<double>(now - p.first_dispatch.value_or(now)).count();
        store::BatchRecord row;
        row.batch = batch;
        row.proposer = in_.config.sweep.proposer;
        row.candidates = static_cast<std::int64_t>(p.results.size());
        row.evaluations = in_.state.evaluations();
        row.ok = in_.state.ok_in_last();
        row.best_cost = in_.state.best_cost();
        row.best_candidate = in_.state.best();
        row.hypervolume = in_.state.hypervolume();
        row.front_size = static_cast<std::int64_t>(in_.state.front_size());
        row.reference = in_.state.reference();
        row.samples = p.stats.samples;
        const tuner::PredictionQuality quality = prediction_quality(p);
        row.predicted_tau = quality.tau;
        row.predicted_error = quality.error;
        row.cheap_tau = cheap_tau(p);
        row.fit_seconds = p.stats.fit_seconds;
        row.propose_seconds = p.stats.propose_seconds;
        row.evaluate_seconds = span;
        row.wall_seconds = in_.wall_before + elapsed();
        const auto t0 = Clock::now();
        // A failed write stops every rank with the system's reason (write_failure.hpp).
        write_or_stop_all(world_, in_.output,
                          [&] { in_.store.write_batch(p.rows, layout, row, in_.state.history()); });
        out_.write_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
        progress_.batch(batch, progress_state());
    }

    const RootInputs& in_;
    const boost::mpi::communicator& world_;
    const std::int64_t lag_;
    const bool overlap_;                       // proposals run on a thread beside the loop
    std::optional<Proposal> proposing_;        // the running proposal, not yet queued
    std::map<std::int64_t, Pending> pending_;  // by batch: proposed, not yet written
    std::deque<Work> queue_;                   // not yet handed out, oldest batch first
    std::deque<int> idle_;                     // workers without a candidate
    store::BatchRows scratch_;
    std::int64_t next_propose_ = 0;
    std::int64_t observed_ = -1;  // the last batch observed
    std::int64_t proposed_ = 0;   // candidates proposed (ids handed out)
    std::size_t stored_at_ = 0;
    bool stop_proposing_ = false;  // the budget is proposed, or the space is exhausted
    bool stop_ = false;            // hand out nothing more (wall time)
    bool closing_ = false;         // start no batch, finish the started ones (wall time)
    double longest_ = 0;           // the longest evaluation of this run [s]
    Progress progress_;
    std::map<int, double> held_since_;              // in flight: worker -> elapsed() at dispatch
    std::deque<CheapWork> cheap_queue_;             // the running proposal's cheap work, not handed out
    std::vector<std::int64_t> cheap_by_rank_;       // cheap evaluations of this run by rank
    std::vector<std::pair<double, double>> spans_;  // dispatch to result, elapsed() [s]
    double first_dispatch_ = std::numeric_limits<double>::infinity();
    double last_dispatch_ = 0;
    double propose_seconds_ = 0;
    RootOutcome out_;
};

}  // namespace

RootOutcome run_root(const RootInputs& in, const boost::mpi::communicator& world) {
    return Root(in, world).run();
}

}  // namespace pimdse::engine::detail
