// `pimdse schedule --mesh 8x8 --sets interleaved:16 --bytes 8KiB --flit-bits 64`: one
// data-sharing event scheduled by the ILP, TSP and SHP (NicePIM VII, Fig. 12), printed as a
// table (or CSV). The whole request is checked while the command line is parsed, so a
// malformed one exits with code 2 and says what is wrong (docs/cli.md).

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <variant>
#include <vector>

#include "option_checks.hpp"
#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/technology.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/sched/placements.hpp"
#include "pimdse/sched/scheduler.hpp"
#include "pimdse/sched/validate.hpp"
#include "pimdse/sim/noc_sharing.hpp"

namespace pimdse::cli {

namespace {

struct ScheduleRequest {
    std::string mesh_text;
    std::string sets_text;
    std::string bytes_text = "8KiB";
    std::int32_t flit_bits = 64;
    std::int32_t hop_cycles = hw::kDefaultNocHopCycles;
    std::uint64_t seed = 1;
    std::string config;  // a sweep configuration or hardware file whose `schedule:` applies
    std::int64_t work_limit = sched::kDefaultWorkLimit;
    double time_limit = sched::kDefaultTimeLimitSeconds;
    double gap = 0.0;
    bool work_limit_given = false;
    bool time_limit_given = false;
    bool gap_given = false;
    std::vector<std::string> schedulers{"ilp", "tsp", "shp"};
    bool csv = false;
    bool show_cycles = false;
    std::int64_t samples = 1;  // random placements: seeds seed .. seed + samples - 1

    // Filled in by resolve().
    std::int32_t rows = 0;
    std::int32_t cols = 0;
    Bytes bytes{0};
    std::int32_t random_count = 0;    // K of random:KxM (0: not a random placement)
    std::int32_t random_members = 0;  // M of random:KxM
    std::vector<sim::SharingSet> sets;
    std::vector<sched::SchedulerKind> kinds;
};

[[noreturn]] void bad(const std::string& option, const std::string& what) {
    throw CLI::ValidationError(option, what);
}

std::optional<std::int64_t> to_integer(std::string_view s) {
    std::int64_t v = 0;
    if (s.empty()) return std::nullopt;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (true) {
        const std::size_t next = s.find(sep, at);
        out.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
        if (next == std::string_view::npos) break;
        at = next + 1;
    }
    return out;
}

// The work of one event grows with the members of a set (SHP sends every ordered pair, the
// cycle searches are quadratic) and with all members together: past these bounds a request
// ran for minutes or ran out of memory (docs/cli.md, "pimdse schedule").
constexpr std::size_t kMaxSetMembers = 1024;
constexpr std::size_t kMaxEventMembers = 65536;

// "8x8" -> (8, 8), each in [1, 4096] (sim::Mesh's range).
std::pair<std::int32_t, std::int32_t> parse_mesh(const std::string& text) {
    const auto parts = split(text, 'x');
    const std::string want = "ROWSxCOLS with 1 <= ROWS, COLS <= 4096, e.g. 8x8";
    if (parts.size() != 2) bad("--mesh", "'" + text + "' is not " + want);
    const auto r = to_integer(parts[0]);
    const auto c = to_integer(parts[1]);
    if (!r || !c || *r < 1 || *c < 1 || *r > 4096 || *c > 4096)
        bad("--mesh", "'" + text + "' is not " + want);
    return {static_cast<std::int32_t>(*r), static_cast<std::int32_t>(*c)};
}

// "8192", "8192B", "8KiB", "1MiB" -> bytes in [1, 1 GiB].
std::int64_t parse_bytes(const std::string& text) {
    std::string_view s = text;
    std::int64_t scale = 1;
    for (const auto& [suffix, factor] :
         {std::pair<std::string_view, std::int64_t>{"KiB", kKiB}, {"MiB", kMiB}, {"B", 1}}) {
        if (s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix) {
            s.remove_suffix(suffix.size());
            scale = factor;
            break;
        }
    }
    const auto n = to_integer(s);
    const std::string want = "a size in bytes from 1 B to 1024 MiB, e.g. 8192, 8KiB or 1MiB";
    if (!n || *n < 1 || *n > (1024 * kMiB) / scale) bad("--bytes", "'" + text + "' is not " + want);
    return *n * scale;
}

/// `interleaved:N`: sets of side x side nodes, side^2 = N, spread over the mesh.
std::vector<sim::SharingSet> parse_interleaved(const std::string& text, const sim::Mesh& mesh, Bytes bytes) {
    const std::string_view s = text;
    const auto n = to_integer(s.substr(12));
    std::int32_t side = 0;
    while (n && static_cast<std::int64_t>(side + 1) * (side + 1) <= *n) ++side;
    if (!n || *n < 4 || static_cast<std::int64_t>(side) * side != *n) {
        bad("--sets", "'" + text + "': interleaved:N needs a square set size N >= 4 (4, 9, 16, ...)");
    }
    if (mesh.rows() % side != 0 || mesh.cols() % side != 0) {
        bad("--sets", "'" + text + "': sets of " + std::to_string(side) + " x " + std::to_string(side) +
                          " interleaved nodes need mesh dimensions divisible by " + std::to_string(side));
    }
    if (mesh.node_count() > static_cast<std::int64_t>(kMaxEventMembers)) {
        bad("--sets", "'" + text + "': " + std::to_string(mesh.node_count()) + " members in all; at most " +
                          std::to_string(kMaxEventMembers) + " are supported");
    }
    return sim::interleaved_sets(mesh, side, bytes);
}

/// `random:K` or `random:KxM`: K disjoint sets of M random nodes (M = nodes / K).
std::vector<sim::SharingSet> parse_random(ScheduleRequest& r, const sim::Mesh& mesh, Bytes bytes) {
    const std::string& text = r.sets_text;
    const std::string_view s = text;
    const auto parts = split(s.substr(7), 'x');
    const auto k = to_integer(parts[0]);
    std::optional<std::int64_t> m = parts.size() == 2 ? to_integer(parts[1]) : std::nullopt;
    if (k && parts.size() == 1 && *k >= 1) m = mesh.node_count() / *k;
    if (!k || !m || parts.size() > 2 || *k < 1) {
        bad("--sets",
            "'" + text + "': random:K or random:KxM needs integers K >= 1 (sets), M >= 2 (members)");
    }
    if (*m < 2) bad("--sets", "'" + text + "': a set needs at least 2 members, not " + std::to_string(*m));
    if (*k * *m > mesh.node_count()) {
        bad("--sets", "'" + text + "': " + std::to_string(*k) + " disjoint sets of " + std::to_string(*m) +
                          " members need " + std::to_string(*k * *m) + " nodes, the mesh has " +
                          std::to_string(mesh.node_count()));
    }
    if (*m > static_cast<std::int64_t>(kMaxSetMembers) ||
        *k * *m > static_cast<std::int64_t>(kMaxEventMembers)) {
        bad("--sets", "'" + text + "': " + std::to_string(*k) + " sets of " + std::to_string(*m) +
                          " members; at most " + std::to_string(kMaxSetMembers) + " members a set and " +
                          std::to_string(kMaxEventMembers) + " in all are supported");
    }
    r.random_count = static_cast<std::int32_t>(*k);
    r.random_members = static_cast<std::int32_t>(*m);
    return sched::random_disjoint_sets(mesh, r.random_count, r.random_members, bytes, r.seed);
}

/// Explicit sets: "0,2,4;1,3,5" (node ids, row-major: id = row x cols + col), disjoint.
std::vector<sim::SharingSet> parse_explicit(const ScheduleRequest& r, const sim::Mesh& mesh, Bytes bytes) {
    const std::string& text = r.sets_text;
    const std::string_view s = text;
    std::vector<sim::SharingSet> sets;
    std::vector<std::int64_t> owner(static_cast<std::size_t>(mesh.node_count()), -1);
    const auto groups = split(s, ';');
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const std::string where = "'" + text + "': set " + std::to_string(g + 1);
        sim::SharingSet set;
        set.bytes_per_node = bytes;
        for (const std::string_view item : split(groups[g], ',')) {
            const auto v = to_integer(item);
            if (!v) {
                bad("--sets", where + ": '" + std::string(item) +
                                  "' is not a node id (explicit sets are node ids, e.g. \"0,2,4;1,3,5\"; "
                                  "or interleaved:N, random:K, random:KxM)");
            }
            if (*v < 0 || *v >= mesh.node_count()) {
                bad("--sets", where + ": node " + std::to_string(*v) + " is outside the " + r.mesh_text +
                                  " mesh (ids 0.." + std::to_string(mesh.node_count() - 1) + ")");
            }
            auto& o = owner[static_cast<std::size_t>(*v)];
            if (o == static_cast<std::int64_t>(g)) {
                bad("--sets", where + ": node " + std::to_string(*v) + " appears twice");
            }
            if (o >= 0) {
                bad("--sets", where + ": node " + std::to_string(*v) + " is also in set " +
                                  std::to_string(o + 1) + " (the sets of one event are disjoint)");
            }
            o = static_cast<std::int64_t>(g);
            set.members.push_back(static_cast<sim::NodeId>(*v));
        }
        if (set.members.size() < 2) {
            bad("--sets", where + " has " + std::to_string(set.members.size()) +
                              " member; a sharing set needs at least 2");
        }
        sets.push_back(std::move(set));
    }
    return sets;
}

std::vector<sim::SharingSet> parse_sets(ScheduleRequest& r, const sim::Mesh& mesh, Bytes bytes) {
    const std::string_view s = r.sets_text;
    if (s.starts_with("interleaved:")) return parse_interleaved(r.sets_text, mesh, bytes);
    if (s.starts_with("random:")) return parse_random(r, mesh, bytes);
    return parse_explicit(r, mesh, bytes);
}

void check_event_size(const ScheduleRequest& r) {
    std::size_t total = 0;
    std::size_t largest = 0;
    for (const sim::SharingSet& set : r.sets) {
        total += set.members.size();
        largest = std::max(largest, set.members.size());
    }
    if (largest > kMaxSetMembers) {
        bad("--sets", "'" + r.sets_text + "': a set of " + std::to_string(largest) + " members; at most " +
                          std::to_string(kMaxSetMembers) + " are supported");
    }
    if (total > kMaxEventMembers) {
        bad("--sets", "'" + r.sets_text + "': " + std::to_string(total) + " members in all; at most " +
                          std::to_string(kMaxEventMembers) + " are supported");
    }
}

void resolve(ScheduleRequest& r) {
    std::tie(r.rows, r.cols) = parse_mesh(r.mesh_text);
    const sim::Mesh mesh(r.rows, r.cols);
    r.bytes = Bytes(parse_bytes(r.bytes_text));
    r.sets = parse_sets(r, mesh, r.bytes);
    check_event_size(r);
    if (r.samples > 1 && r.random_count == 0) {
        bad("--samples", std::to_string(r.samples) +
                             " samples need a random placement (--sets random:K or "
                             "random:KxM); '" +
                             r.sets_text + "' is fixed");
    }
    if (r.samples > 1 && r.show_cycles) bad("--cycles", "prints one event's cycles, not those of --samples");
    r.kinds.clear();
    for (const std::string& name : r.schedulers) {
        const auto k = sched::parse_scheduler_kind(name);
        if (!k) bad("--schedulers", "'" + name + "' is not one of ilp, tsp, shp");
        if (std::find(r.kinds.begin(), r.kinds.end(), *k) != r.kinds.end()) {
            bad("--schedulers", "'" + name + "' is listed twice");
        }
        r.kinds.push_back(*k);
    }
}

// Sum over every transfer of the event of its XY hops: (members - 1) steps of the cycle
// for each set, or every ordered member pair once for SHP.
std::int64_t total_hops(const sim::Mesh& mesh, const sched::ScheduleRecord& rec) {
    std::int64_t hops = 0;
    if (rec.scheduler == sched::SchedulerKind::shp) {
        for (const auto& s : rec.sets) {
            for (const sim::NodeId a : s.members)
                for (const sim::NodeId b : s.members) hops += mesh.hops(a, b);
        }
        return hops;
    }
    for (const auto& c : rec.cycles) {
        if (c.order.size() >= 2)
            hops += static_cast<std::int64_t>(c.order.size() - 1) * sched::cycle_hops(mesh, c.order);
    }
    return hops;
}

void print_csv_header() {
    std::cout << "mesh,sets,set_size,bytes,flit_bits,hop_cycles,placement,seed,scheduler,max_link_flits,"
                 "bound_flits,latency_cycles,total_hops,steps,solve_seconds,gap,status,objective_flits,"
                 "latency_fallback\n";
}

void print_csv_row(const ScheduleRequest& r, const sim::Mesh& mesh, std::uint64_t seed,
                   const sched::ScheduleRecord& rec) {
    std::size_t largest = 0;
    for (const auto& s : rec.sets) largest = std::max(largest, s.members.size());
    std::printf("%s,%zu,%zu,%lld,%d,%d,%s,%llu,", r.mesh_text.c_str(), rec.sets.size(), largest,
                static_cast<long long>(r.bytes.value()), r.flit_bits, r.hop_cycles, r.sets_text.c_str(),
                static_cast<unsigned long long>(seed));
    std::printf("%s,%lld,%lld,%.0f,%lld,%d,%.6f,%.6f,%s,%lld,%d\n",
                std::string(sched::to_string(rec.scheduler)).c_str(),
                static_cast<long long>(rec.cost.max_link_flits), static_cast<long long>(rec.bound_flits),
                rec.cost.latency.value(), static_cast<long long>(total_hops(mesh, rec)), rec.cost.steps,
                rec.solve_seconds, rec.gap, std::string(sched::to_string(rec.status)).c_str(),
                static_cast<long long>(rec.objective_flits), rec.latency_fallback ? 1 : 0);
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// --samples N: the same request on N random placements, then how often and by how much each
// baseline loses to the ILP (latency and heaviest link, as ratios to the ILP's).
/// Per scheduler, what --samples reports over the placements.
struct Tally {
    std::vector<double> latency_ratio, link_ratio, seconds;
    std::size_t loses = 0, ties = 0, wins = 0;
    std::map<std::string, std::size_t> statuses;
    std::vector<double> gaps;
    std::size_t fallbacks = 0;
};

/// The request's limits for one scheduler.
sched::ScheduleOptions options_for(const ScheduleRequest& r, sched::SchedulerKind kind) {
    sched::ScheduleOptions o;
    o.scheduler = kind;
    o.work_limit = r.work_limit;
    o.time_limit_seconds = r.time_limit;
    o.relative_gap = r.gap;
    return o;
}

/// Schedules every placement with every scheduler, printing CSV rows if asked.
std::vector<Tally> tally_samples(const ScheduleRequest& r, const sim::Mesh& mesh, const sim::NocParams& noc) {
    std::vector<std::unique_ptr<sched::DataScheduler>> schedulers;
    for (const sched::SchedulerKind kind : r.kinds) {
        schedulers.push_back(sched::make_scheduler(options_for(r, kind)));
    }
    const auto ilp_at = std::find(r.kinds.begin(), r.kinds.end(), sched::SchedulerKind::ilp);
    std::vector<Tally> tally(r.kinds.size());
    for (std::int64_t i = 0; i < r.samples; ++i) {
        const std::uint64_t seed = r.seed + static_cast<std::uint64_t>(i);
        const auto sets = sched::random_disjoint_sets(mesh, r.random_count, r.random_members, r.bytes, seed);
        std::vector<sched::ScheduleRecord> recs;
        for (auto& s : schedulers) recs.push_back(s->schedule(mesh, sets, noc));
        for (std::size_t k = 0; k < recs.size(); ++k) {
            if (r.csv) print_csv_row(r, mesh, seed, recs[k]);
            Tally& t = tally[k];
            t.seconds.push_back(recs[k].solve_seconds);
            ++t.statuses[std::string(sched::to_string(recs[k].status))];
            t.gaps.push_back(recs[k].gap);
            t.fallbacks += recs[k].latency_fallback ? 1 : 0;
            if (ilp_at == r.kinds.end()) continue;
            const auto& ilp = recs[static_cast<std::size_t>(ilp_at - r.kinds.begin())];
            const double lat = recs[k].cost.latency.value(), ilp_lat = ilp.cost.latency.value();
            t.latency_ratio.push_back(ilp_lat > 0 ? lat / ilp_lat : 1.0);
            t.link_ratio.push_back(ilp.cost.max_link_flits > 0
                                       ? static_cast<double>(recs[k].cost.max_link_flits) /
                                             static_cast<double>(ilp.cost.max_link_flits)
                                       : 1.0);
            (lat > ilp_lat ? t.loses : lat < ilp_lat ? t.wins : t.ties) += 1;
        }
    }
    return tally;
}

/// The statuses and solve times of every scheduler over the placements.
void print_sample_statuses(const ScheduleRequest& r, const std::vector<Tally>& tally) {
    std::printf(
        "%lld random placements (seeds %llu..%llu) of %d sets x %d nodes on a %s mesh, %lld B per node = "
        "%lld flits of %d bit, %d cycles per hop\n\n",
        static_cast<long long>(r.samples), static_cast<unsigned long long>(r.seed),
        static_cast<unsigned long long>(r.seed + static_cast<std::uint64_t>(r.samples) - 1), r.random_count,
        r.random_members, r.mesh_text.c_str(), static_cast<long long>(r.bytes.value()),
        static_cast<long long>(sim::flits_of(r.bytes, r.flit_bits)), r.flit_bits, r.hop_cycles);
    std::printf("%-9s %10s %10s  %s\n", "scheduler", "solve ms", "(max)", "statuses");
    for (std::size_t k = 0; k < r.kinds.size(); ++k) {
        const Tally& t = tally[k];
        std::string st;
        for (const auto& [name, n] : t.statuses)
            st += (st.empty() ? "" : ", ") + std::to_string(n) + " " + name;
        if (r.kinds[k] == sched::SchedulerKind::ilp) {
            st += "; gap median " + std::to_string(median(t.gaps)).substr(0, 6) + ", max " +
                  std::to_string(*std::max_element(t.gaps.begin(), t.gaps.end())).substr(0, 6);
            if (t.fallbacks > 0) st += "; " + std::to_string(t.fallbacks) + " latency fallbacks";
        }
        std::printf("%-9s %10.1f %10.1f  %s\n", std::string(sched::to_string(r.kinds[k])).c_str(),
                    median(t.seconds) * 1e3, *std::max_element(t.seconds.begin(), t.seconds.end()) * 1e3,
                    st.c_str());
    }
}

/// Each baseline's latency and heaviest link as ratios to the ILP's on the same placements.
void print_sample_ratios(const ScheduleRequest& r, const std::vector<Tally>& tally) {
    std::printf("\nlatency and heaviest link as ratios to the ILP's (> 1: the ILP is better):\n");
    std::printf("%-9s %6s %6s %6s  %9s %9s %9s %9s  %9s %9s\n", "scheduler", "loses", "ties", "wins",
                "lat geo", "lat med", "lat max", "when lost", "link geo", "link max");
    for (std::size_t k = 0; k < r.kinds.size(); ++k) {
        if (r.kinds[k] == sched::SchedulerKind::ilp) continue;
        const Tally& t = tally[k];
        double log_lat = 0, log_link = 0, lost = 0;
        for (std::size_t i = 0; i < t.latency_ratio.size(); ++i) {
            log_lat += std::log(t.latency_ratio[i]);
            log_link += std::log(t.link_ratio[i]);
            if (t.latency_ratio[i] > 1) lost += t.latency_ratio[i];
        }
        const auto n = static_cast<double>(t.latency_ratio.size());
        std::printf("%-9s %6zu %6zu %6zu  %9.3f %9.3f %9.3f %9.3f  %9.3f %9.3f\n",
                    std::string(sched::to_string(r.kinds[k])).c_str(), t.loses, t.ties, t.wins,
                    std::exp(log_lat / n), median(t.latency_ratio),
                    *std::max_element(t.latency_ratio.begin(), t.latency_ratio.end()),
                    t.loses > 0 ? lost / static_cast<double>(t.loses) : 1.0, std::exp(log_link / n),
                    *std::max_element(t.link_ratio.begin(), t.link_ratio.end()));
    }
    std::printf(
        "\n(loses: the baseline's latency is above the ILP's; 'when lost': its mean ratio over those "
        "placements)\n");
}

int run_samples(const ScheduleRequest& r, const sim::Mesh& mesh, const sim::NocParams& noc) {
    if (r.csv) print_csv_header();
    const std::vector<Tally> tally = tally_samples(r, mesh, noc);
    if (r.csv) return static_cast<int>(ExitCode::ok);
    print_sample_statuses(r, tally);
    if (std::find(r.kinds.begin(), r.kinds.end(), sched::SchedulerKind::ilp) == r.kinds.end())
        return static_cast<int>(ExitCode::ok);
    print_sample_ratios(r, tally);
    return static_cast<int>(ExitCode::ok);
}

/// One event's table: a row per scheduler, then the cycles (--cycles) and the notes.
void print_event_table(const ScheduleRequest& r, const sim::Mesh& mesh,
                       const std::vector<sched::ScheduleRecord>& records) {
    std::size_t largest = 0;
    for (const auto& s : r.sets) largest = std::max(largest, s.members.size());
    const Bytes bytes = r.sets.front().bytes_per_node;
    double shp_latency = 0;
    for (const auto& rec : records) {
        if (rec.scheduler == sched::SchedulerKind::shp) shp_latency = rec.cost.latency.value();
    }

    std::printf(
        "event: %zu sharing sets (largest %zu nodes) on a %s mesh, %lld B per node = %lld flits of %d bit, "
        "%d cycles per hop\n",
        r.sets.size(), largest, r.mesh_text.c_str(), static_cast<long long>(bytes.value()),
        static_cast<long long>(sim::flits_of(bytes, r.flit_bits)), r.flit_bits, r.hop_cycles);
    std::printf("sets: %s\n\n", r.sets_text.c_str());
    std::printf("%-9s %15s %13s %15s %8s %10s %6s %11s %8s  %s\n", "scheduler", "max link flits",
                "bound flits", "latency cycles", "vs SHP", "total hops", "steps", "solve ms", "gap",
                "status");
    for (const auto& rec : records) {
        char ratio[32] = "-";
        if (shp_latency > 0)
            std::snprintf(ratio, sizeof ratio, "%.3f", rec.cost.latency.value() / shp_latency);
        std::printf("%-9s %15lld %13lld %15.0f %8s %10lld %6d %11.1f %8.4f  %s\n",
                    std::string(sched::to_string(rec.scheduler)).c_str(),
                    static_cast<long long>(rec.cost.max_link_flits), static_cast<long long>(rec.bound_flits),
                    rec.cost.latency.value(), ratio, static_cast<long long>(total_hops(mesh, rec)),
                    rec.cost.steps, rec.solve_seconds * 1e3, rec.gap,
                    std::string(sched::to_string(rec.status)).c_str());
    }
    if (r.show_cycles) {
        for (const auto& rec : records) {
            if (rec.cycles.empty()) continue;
            std::printf("\n%s cycles:\n", std::string(sched::to_string(rec.scheduler)).c_str());
            for (std::size_t i = 0; i < rec.cycles.size(); ++i) {
                std::printf("  set %zu:", i + 1);
                for (const sim::NodeId v : rec.cycles[i].order) std::printf(" %d", v);
                std::printf("\n");
            }
        }
    }
    for (const auto& rec : records) {
        const std::string name(sched::to_string(rec.scheduler));
        if (!rec.reason.empty()) std::printf("\n%s: %s\n", name.c_str(), rec.reason.c_str());
        if (rec.latency_fallback) {
            std::printf(
                "\n%s: the Eq. 4 optimum (%lld flits on the heaviest link) is slower under the latency "
                "model than the baseline cycles used (%lld flits): chunks this short are dominated by "
                "hop latency\n",
                name.c_str(), static_cast<long long>(rec.objective_flits),
                static_cast<long long>(rec.cost.max_link_flits));
        }
    }
}

int run_schedule(const ScheduleRequest& request) {
    ScheduleRequest r = request;
    if (!r.config.empty()) {
        // The file's ILP settings, unless given on the command line (which wins).
        const auto file = io::read_config_or_hardware_file(r.config);
        const sched::ScheduleOptions o = std::visit([](const auto& f) { return f.schedule; }, file);
        if (!r.work_limit_given) r.work_limit = o.work_limit;
        if (!r.time_limit_given) r.time_limit = o.time_limit_seconds;
        if (!r.gap_given) r.gap = o.relative_gap;
    }
    const sim::Mesh mesh(r.rows, r.cols);
    sim::NocParams noc;
    noc.flit_bits = r.flit_bits;
    noc.hop_cycles = r.hop_cycles;
    if (r.samples > 1) return run_samples(r, mesh, noc);
    std::vector<sched::ScheduleRecord> records;
    for (const sched::SchedulerKind kind : r.kinds) {
        records.push_back(sched::make_scheduler(options_for(r, kind))->schedule(mesh, r.sets, noc));
    }
    if (r.csv) {
        print_csv_header();
        for (const auto& rec : records) print_csv_row(r, mesh, r.seed, rec);
        return static_cast<int>(ExitCode::ok);
    }

    print_event_table(r, mesh, records);
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_schedule_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand(
        "schedule",
        "Schedule one data-sharing event with the ILP, TSP and SHP (NicePIM Fig. 12; docs/cli.md)");
    auto r = std::make_shared<ScheduleRequest>();
    cmd->add_option("--mesh", r->mesh_text, "node array ROWSxCOLS, e.g. 8x8")->required();
    cmd->add_option(
           "--sets", r->sets_text,
           "the sharing sets: interleaved:N (N = side^2 nodes per set, Fig. 12), random:K or random:KxM "
           "(K disjoint random sets of M nodes; M = nodes/K if left out), or node ids \"0,2,4;1,3,5\"")
        ->required();
    cmd->add_option("--bytes", r->bytes_text, "bytes each node holds: 8192, 8KiB, 1MiB (default 8KiB)");
    cmd->add_option("--flit-bits", r->flit_bits, "flit width in bits (default 64)")
        ->check(integer_in(1, 65536));
    cmd->add_option("--hop-cycles", r->hop_cycles,
                    "cycles per router hop (default " + std::to_string(hw::kDefaultNocHopCycles) + ")")
        ->check(integer_in(1, 1024));
    cmd->add_option("--seed", r->seed, "seed of random:... placements (default 1)")
        ->check(integer_in(0, std::numeric_limits<std::int64_t>::max()));
    CLI::Option* work = cmd->add_option("--work-limit", r->work_limit,
                                        "ILP work limit: simplex iterations per event (default " +
                                            std::to_string(sched::kDefaultWorkLimit) + "; deterministic)")
                            ->check(integer_in(1, 1000000000));
    CLI::Option* limit = cmd->add_option("--time-limit", r->time_limit,
                                         "ILP wall-clock safety net in seconds (default 60; a result it "
                                         "stops depends on the machine)")
                             ->check(number_in(1e-3, 86400.0));
    CLI::Option* gap =
        cmd->add_option("--gap", r->gap, "ILP relative gap at which to stop (default 0: prove optimality)")
            ->check(number_in(0.0, 1.0));
    cmd->add_option(
        "--config", r->config,
        "take --work-limit, --time-limit and --gap from the schedule: section of this sweep configuration or "
        "hardware file (options given here win)");
    cmd->add_option("--schedulers", r->schedulers, "which to run, comma-separated (default ilp,tsp,shp)")
        ->delimiter(',');
    cmd->add_flag("--csv", r->csv, "print CSV (one row per scheduler) instead of the table");
    cmd->add_flag("--cycles", r->show_cycles, "also print the chosen cycles");
    cmd->add_option("--samples", r->samples,
                    "with random:... sets: schedule N placements (seeds --seed .. --seed+N-1) and print how "
                    "often and by how much each baseline loses to the ILP (with --csv: every row)")
        ->check(integer_in(1, 1000000));
    cmd->callback([&action, r, work, limit, gap] {
        r->work_limit_given = work->count() > 0;
        r->time_limit_given = limit->count() > 0;
        r->gap_given = gap->count() > 0;
        resolve(*r);
        action = [r] { return run_schedule(*r); };
    });
}

}  // namespace pimdse::cli
