#include "pimdse/sched/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "hamilton.hpp"
#include "limits.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/sched/bounds.hpp"
#include "pimdse/sched/validate.hpp"

namespace pimdse::sched {

std::string_view to_string(ScheduleStatus status) noexcept {
    return name_of(kScheduleStatusNames, status);
}

void validate(const ScheduleOptions& options) {
    detail::check_limits("ScheduleOptions", options.time_limit_seconds, options.work_limit,
                         options.relative_gap);
}

std::string sets_text(std::span<const sim::SharingSet> sets) {
    std::string out;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        if (i > 0) out += ';';
        for (std::size_t k = 0; k < sets[i].members.size(); ++k) {
            if (k > 0) out += ',';
            out += std::to_string(sets[i].members[k]);
        }
    }
    return out;
}

namespace {

// Every scheduler rejects the same malformed events with the same messages.
void check_sets(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets) {
    for (std::size_t i = 0; i < sets.size(); ++i) {
        std::vector<sim::NodeId> m = sets[i].members;
        for (const sim::NodeId v : m) {
            if (!mesh.contains(v)) {
                throw ModelError("sharing set " + std::to_string(i) + ": node " + std::to_string(v) +
                                 " outside the " + std::to_string(mesh.rows()) + " x " +
                                 std::to_string(mesh.cols()) + " mesh");
            }
        }
        std::sort(m.begin(), m.end());
        if (auto it = std::adjacent_find(m.begin(), m.end()); it != m.end()) {
            throw ModelError("sharing set " + std::to_string(i) + ": node " + std::to_string(*it) +
                             " appears twice");
        }
    }
}

}  // namespace

DataScheduler::DataScheduler(ScheduleOptions options)
    : options_(options), ilp_([&] {
          validate(options);
          IlpOptions o;
          o.work_limit = options.work_limit;
          o.time_limit_seconds = options.time_limit_seconds;
          o.relative_gap = options.relative_gap;
          return o;
      }()) {}

const DataScheduler::Entry& DataScheduler::lookup(const sim::Mesh& mesh,
                                                  std::span<const sim::SharingSet> sets,
                                                  const sim::NocParams& params, bool& hit) {
    // Member order carries no meaning, set order does (the answer has one cycle per set).
    std::vector<std::int64_t> key{mesh.rows(), mesh.cols(), params.flit_bits, params.hop_cycles};
    for (const sim::SharingSet& s : sets) {
        key.push_back(s.bytes_per_node.value());
        key.push_back(static_cast<std::int64_t>(s.members.size()));
        const std::size_t at = key.size();
        key.insert(key.end(), s.members.begin(), s.members.end());
        std::sort(key.begin() + static_cast<std::ptrdiff_t>(at), key.end());
    }
    if (auto it = cache_.find(key); it != cache_.end()) {
        hit = true;
        ++hits_;
        return it->second;
    }
    hit = false;
    check_sets(mesh, sets);
    sim::validate(params);
    const auto t0 = std::chrono::steady_clock::now();
    Entry e;
    if (options_.scheduler == SchedulerKind::ilp) {
        IlpResult r = ilp_.solve(mesh, sets, params);
        e.cycles = std::move(r.cycles);
        e.objective_flits = r.objective_flits;
        e.bound_flits = r.best_bound_flits;
        e.gap = r.gap;
        e.latency_fallback = r.latency_fallback;
        e.status = r.status;
        if (r.status == ScheduleStatus::time_limit_incumbent) ++wall_clock_stops_;
        e.reason = std::move(r.reason);
    } else if (options_.scheduler == SchedulerKind::tsp) {
        e.cycles = ilp_.tsp().schedule(mesh, sets);
        e.objective_flits = step_max_link_flits(mesh, e.cycles, params.flit_bits);
    }
    e.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (cache_.size() >= kMaxCacheEntries) cache_.clear();
    return cache_.emplace(std::move(key), std::move(e)).first->second;
}

sim::ShareCost DataScheduler::share(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                    const sim::NocParams& params, sim::ChannelLoads& loads) {
    if (recording_) {
        ScheduleRecord r = schedule(mesh, sets, params);
        return r.cost;  // schedule() appended the record
    }
    if (options_.scheduler == SchedulerKind::shp) {
        check_sets(mesh, sets);
        return sim::share_shortest_paths(mesh, sets, params, loads);
    }
    bool hit = false;
    const Entry& e = lookup(mesh, sets, params, hit);
    return sim::share_along_cycles(mesh, e.cycles, params, loads);
}

ScheduleRecord DataScheduler::schedule(const sim::Mesh& mesh, std::span<const sim::SharingSet> sets,
                                       const sim::NocParams& params) {
    ScheduleRecord r;
    r.scheduler = options_.scheduler;
    r.mesh_rows = mesh.rows();
    r.mesh_cols = mesh.cols();
    r.flit_bits = params.flit_bits;
    r.sets.assign(sets.begin(), sets.end());
    if (options_.scheduler == SchedulerKind::shp) {
        check_sets(mesh, sets);
        const auto t0 = std::chrono::steady_clock::now();
        r.cost = sim::share_shortest_paths(mesh, sets, params);
        r.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } else {
        bool hit = false;
        const Entry& e = lookup(mesh, sets, params, hit);
        r.cycles = e.cycles;
        r.cost = sim::share_along_cycles(mesh, e.cycles, params);
        r.objective_flits = e.objective_flits;
        r.bound_flits = e.bound_flits;
        r.gap = e.gap;
        r.latency_fallback = e.latency_fallback;
        r.status = e.status;
        r.reason = e.reason;
        r.solve_seconds = e.solve_seconds;
        r.from_cache = hit;
    }
    // Baseline columns, and for the baselines the combinatorial bound.
    const std::vector<sim::SharingCycle> tsp = ilp_.tsp().schedule(mesh, sets);
    r.tsp_max_link_flits = step_max_link_flits(mesh, tsp, params.flit_bits);
    r.shp_max_link_flits = options_.scheduler == SchedulerKind::shp
                               ? r.cost.max_link_flits
                               : sim::share_shortest_paths(mesh, sets, params).max_link_flits;
    if (options_.scheduler != SchedulerKind::ilp) {
        std::vector<std::int64_t> hops(sets.size());
        for (std::size_t i = 0; i < sets.size(); ++i) {
            hops[i] = sets[i].members.size() <= detail::kHeldKarpMaxPoints
                          ? cycle_hops(mesh, tsp[i].order)
                          : min_cycle_hops_bound(mesh, sets[i].members);
        }
        r.bound_flits = max_link_lower_bound(mesh, sets, params.flit_bits, hops).flits;
    }
    if (recording_) records_.push_back(r);
    return r;
}

std::vector<ScheduleRecord> DataScheduler::take_records() {
    std::vector<ScheduleRecord> out;
    out.swap(records_);
    return out;
}

std::unique_ptr<DataScheduler> make_scheduler(const ScheduleOptions& options) {
    return std::make_unique<DataScheduler>(options);
}

}  // namespace pimdse::sched
