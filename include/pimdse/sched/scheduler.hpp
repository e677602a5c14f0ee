#pragma once
// The configured Data-Scheduler (NicePIM VII): the sim::SharingScheduler the evaluator, the
// mapper and the sweep use. It schedules every data-sharing event with the ILP (default), the
// TSP baseline or SHP; solves identical events once (a cache); and, when asked, keeps one
// ScheduleRecord per event for the /schedules table. docs/model.md, "Data-Scheduler";
// the `schedule:` configuration section is in docs/config.md.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/schedule_options.hpp"
#include "pimdse/sched/ilp_scheduler.hpp"
#include "pimdse/sched/schedule_status.hpp"
#include "pimdse/sched/tsp_scheduler.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::sched {

// The scheduler's choice and limits are plain values in core (core/schedule_options.hpp), so
// that the configuration reader fills them in without depending on sched or sim.
using pimdse::parse_scheduler_kind;
using pimdse::ScheduleOptions;
using pimdse::scheduler_names;
using pimdse::SchedulerKind;
using pimdse::to_string;

/// Throws ModelError naming the field when an option is out of range.
void validate(const ScheduleOptions& options);

/// One scheduled data-sharing event: what the /schedules table needs.
struct ScheduleRecord {
    SchedulerKind scheduler = SchedulerKind::ilp;
    std::int32_t mesh_rows = 0;
    std::int32_t mesh_cols = 0;
    std::int32_t flit_bits = 0;
    std::vector<sim::SharingSet> sets;
    /// The chosen cycles, one per set (empty for SHP).
    std::vector<sim::SharingCycle> cycles;
    /// Cost of the chosen schedule (max link and channel loads, steps, hops, latency, energy).
    sim::ShareCost cost;
    /// Heaviest link of the baselines on the same event, flits (TSP: one step; SHP: its one
    /// step), for comparison columns.
    std::int64_t tsp_max_link_flits = 0;
    std::int64_t shp_max_link_flits = 0;
    /// NicePIM Eq. 4, the heaviest link of the best cycles the ILP found, flits; equal to
    /// cost.max_link_flits unless `latency_fallback` (for TSP: its own; SHP: 0, no cycles).
    std::int64_t objective_flits = 0;
    /// Proven lower bound on the heaviest link of any Hamilton-cycle schedule, flits (ILP;
    /// for the baselines the combinatorial bound).
    std::int64_t bound_flits = 0;
    /// (objective_flits - bound_flits) / objective_flits for the ILP; 0 otherwise.
    double gap = 0.0;
    /// ILP: the cycles used are TSP's (or the warm start's), faster under the latency model
    /// than the Eq. 4 optimum although their heaviest link is heavier (chunks of few flits).
    bool latency_fallback = false;
    ScheduleStatus status = ScheduleStatus::baseline;
    /// Why the status is not optimal (ILP), empty otherwise.
    std::string reason;
    /// Time to schedule the event when it was first solved, seconds.
    double solve_seconds = 0.0;
    /// True when this event was answered from the cache.
    bool from_cache = false;
};

/// "0,1,4,5;2,3,6,7": the members of each set, sets separated by ';'.
[[nodiscard]] std::string sets_text(std::span<const sim::SharingSet> sets);

/// The Data-Scheduler. One instance per worker process (or thread): the cache, the TSP memo
/// and the records make it NOT thread-safe, and it is meant to be shared by every
/// candidate and network a worker evaluates, so identical events (same mesh shape, set
/// members and bytes in the same order, NoC flit width and hop cycles) are solved once.
/// The cache holds at most `kMaxCacheEntries` events and is emptied when full.
class DataScheduler final : public sim::SharingScheduler {
public:
    static constexpr std::size_t kMaxCacheEntries = 1 << 16;

    explicit DataScheduler(ScheduleOptions options = {});

    /// sim::SharingScheduler: schedule (or look up) the event and cost it with `params`.
    [[nodiscard]] sim::ShareCost share(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                       const sim::NocParams& params, sim::ChannelLoads& loads) override;

    /// The whole record of one event (cycles, cost, solver status, baselines); also appended
    /// to records() when recording. Throws as share().
    [[nodiscard]] ScheduleRecord schedule(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                          const sim::NocParams& params);

    /// Keep a ScheduleRecord of every event share() or schedule() handles (off by default:
    /// the mapper's inner loop must not accumulate records). Computing the baseline columns
    /// costs a TSP (memoised per set shape) and an SHP evaluation per event.
    void set_recording(bool on) noexcept { recording_ = on; }
    [[nodiscard]] bool recording() const noexcept { return recording_; }
    [[nodiscard]] const std::vector<ScheduleRecord>& records() const noexcept { return records_; }
    /// The records so far, leaving none.
    [[nodiscard]] std::vector<ScheduleRecord> take_records();

    [[nodiscard]] const ScheduleOptions& options() const noexcept { return options_; }
    [[nodiscard]] std::size_t cache_size() const noexcept { return cache_.size(); }
    [[nodiscard]] std::size_t cache_hits() const noexcept { return hits_; }
    /// Events the wall-clock safety net (time_limit_seconds) stopped so far: their cycles
    /// depend on the machine's speed and load, so a result that used one is not reproducible
    /// (eval::evaluate records the candidate as `timeout`).
    [[nodiscard]] std::size_t wall_clock_stops() const noexcept { return wall_clock_stops_; }
    void clear_cache() noexcept { cache_.clear(); }

private:
    struct Entry {
        std::vector<sim::SharingCycle> cycles;  // empty for SHP
        std::int64_t objective_flits = 0;
        std::int64_t bound_flits = 0;
        double gap = 0.0;
        bool latency_fallback = false;
        ScheduleStatus status = ScheduleStatus::baseline;
        std::string reason;
        double solve_seconds = 0.0;
    };
    const Entry& lookup(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                        const sim::NocParams& params, bool& hit);

    ScheduleOptions options_;
    IlpCycleScheduler ilp_;  // also the TSP baseline (ilp_.tsp()), so one memo of set shapes
    std::map<std::vector<std::int64_t>, Entry> cache_;
    std::size_t hits_ = 0;
    std::size_t wall_clock_stops_ = 0;
    bool recording_ = false;
    std::vector<ScheduleRecord> records_;
};

/// The scheduler the configuration asks for; the mapper and the sweep construct it with
/// this one function. Throws std::invalid_argument for invalid options.
[[nodiscard]] std::unique_ptr<DataScheduler> make_scheduler(const ScheduleOptions& options);

}  // namespace pimdse::sched
