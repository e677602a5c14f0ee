// `pimdse summary OUT.h5`: what a sweep file holds (docs/cli.md, docs/output.md): its
// provenance, the best candidates with their hardware, the Pareto front and the per-batch
// progress. Reads only the committed part of the file.

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "option_checks.hpp"
#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/store/store.hpp"

namespace pimdse::cli {

namespace {

// A dram_pim point as NicePIM's parameters; another family's as its values.
std::string point_text(const DesignPoint& p) {
    return p.family == hw::kDramPimFamily && p.size == hw::kParamCount ? hw::to_string(hw::from_point(p))
                                                                       : to_string(p);
}

std::string format_line(const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

// At most `limit` batch rows: evenly spaced, always the last.
std::vector<std::size_t> rows_to_show(std::size_t n, std::size_t limit) {
    std::vector<std::size_t> out;
    if (n <= limit) {
        for (std::size_t i = 0; i < n; ++i) out.push_back(i);
        return out;
    }
    for (std::size_t k = 0; k < limit; ++k) out.push_back(k * (n - 1) / (limit - 1));
    return out;
}

void print_header(const std::string& path, const store::StoredSweep& s) {
    std::cout << "sweep file " << path << '\n';
    for (const auto& [key, value] : s.info) std::cout << "  " << key << ": " << value << '\n';
    std::cout << "  workloads:";
    for (std::size_t i = 0; i < s.workloads.size(); ++i) {
        std::cout << (i ? ", " : " ") << s.workloads[i].name;
    }
    std::cout << '\n';

    std::map<eval::Status, std::int64_t> by_status;
    for (const store::CandidateRecord& c : s.candidates) ++by_status[c.status];
    std::cout << "\n" << s.batches << " committed batches, " << s.candidates.size() << " candidates:";
    for (std::size_t i = 0; i < eval::kStatusCount; ++i) {
        const auto st = static_cast<eval::Status>(i);
        std::cout << (i ? ", " : " ") << by_status[st] << ' ' << eval::to_string(st);
    }
    std::cout << '\n';
}

void print_best(const store::StoredSweep& s, int best_count) {
    std::vector<store::CandidateRecord> ok;
    for (const store::CandidateRecord& c : s.candidates) {
        if (c.status == eval::Status::ok) ok.push_back(c);
    }
    std::sort(ok.begin(), ok.end(),
              [](const auto& a, const auto& b) { return a.cost != b.cost ? a.cost < b.cost : a.id < b.id; });
    std::cout << "\nbest candidates by NicePIM Eq. 1 cost:\n"
              << format_line("  %9s %6s %13s %12s %12s %9s  %s\n", "candidate", "batch", "cost", "latency ms",
                             "energy mJ", "area mm2", "hardware");
    for (std::size_t i = 0; i < ok.size() && static_cast<int>(i) < best_count; ++i) {
        const store::CandidateRecord& c = ok[i];
        std::cout << format_line("  %9lld %6lld %13.6g %12.5g %12.5g %9.3f  %s\n",
                                 static_cast<long long>(c.id), static_cast<long long>(c.batch), c.cost,
                                 c.latency_seconds * 1e3, c.energy_joules * 1e3, c.area_mm2,
                                 point_text(c.params).c_str());
    }
    if (ok.empty()) std::cout << "  (no candidate evaluated ok)\n";
}

void print_front(const store::StoredSweep& s) {
    std::vector<store::ParetoRecord> front;
    for (const store::ParetoRecord& p : s.pareto) {
        if (p.left_batch < 0) front.push_back(p);
    }
    std::string objectives = "?";
    for (const auto& [key, value] : s.info) {
        if (key == "objectives") objectives = value;
    }
    std::cout << "\nPareto front over " << objectives << " (" << front.size() << " candidates";
    if (!s.tuner.empty() && std::isfinite(s.tuner.back().reference[0])) {
        std::cout << "; hypervolume " << format_line("%.6g", s.tuner.back().hypervolume) << " against";
        for (double r : s.tuner.back().reference) {
            if (std::isfinite(r)) std::cout << ' ' << format_line("%.6g", r);
        }
    }
    std::cout << "):\n"
              << format_line("  %9s %6s %12s %12s %9s %13s\n", "candidate", "joined", "latency ms",
                             "energy mJ", "area mm2", "cost");
    for (const store::ParetoRecord& p : front) {
        std::cout << format_line("  %9lld %6lld %12.5g %12.5g %9.3f %13.6g\n",
                                 static_cast<long long>(p.candidate), static_cast<long long>(p.joined_batch),
                                 p.latency_seconds * 1e3, p.energy_joules * 1e3, p.area_mm2, p.cost);
    }
}

void print_batches(const store::StoredSweep& s, int batch_rows) {
    std::cout << "\nper-batch progress"
              << (s.tuner.size() > static_cast<std::size_t>(batch_rows) ? " (a sample of the batches)" : "")
              << ":\n"
              << format_line("  %5s %11s %4s %13s %9s %13s %6s %9s %9s\n", "batch", "evaluations", "ok",
                             "best cost", "best cand", "hypervolume", "front", "eval s", "wall s");
    for (std::size_t i : rows_to_show(s.tuner.size(), static_cast<std::size_t>(batch_rows))) {
        const store::BatchRecord& b = s.tuner[i];
        std::cout << format_line("  %5lld %11lld %4lld %13.6g %9lld %13.6g %6lld %9.2f %9.2f\n",
                                 static_cast<long long>(b.batch), static_cast<long long>(b.evaluations),
                                 static_cast<long long>(b.ok), b.best_cost,
                                 static_cast<long long>(b.best_candidate), b.hypervolume,
                                 static_cast<long long>(b.front_size), b.evaluate_seconds, b.wall_seconds);
    }
}

int run_summary(const std::string& path, int best_count, int batch_rows) {
    boost::mpi::environment env(false);
    boost::mpi::communicator world;
    if (world.rank() != 0) return 0;
    io::check_input_file(path);
    const store::Store store = store::Store::open_read_only(path, MPI_COMM_SELF);
    const store::StoredSweep s = store.read();
    print_header(path, s);
    print_best(s, best_count);
    print_front(s);
    print_batches(s, batch_rows);
    return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_summary_command(CLI::App& app, Action& action) {
    CLI::App* cmd =
        app.add_subcommand("summary", "Summarise a sweep's HDF5 file (docs/cli.md, docs/output.md)");
    auto path = std::make_shared<std::string>();
    auto best = std::make_shared<int>(10);
    auto batches = std::make_shared<int>(20);
    cmd->add_option("file", *path, "the HDF5 file of `pimdse explore`")->required();
    cmd->add_option("--best", *best, "how many of the best candidates to list (default 10)")
        ->check(integer_in(1, 1000000));
    cmd->add_option("--batches", *batches, "at most this many per-batch rows, evenly spaced (default 20)")
        ->check(integer_in(2, 1000000));
    cmd->callback([&action, path, best, batches] {
        action = [path, best, batches] { return run_summary(*path, *best, *batches); };
    });
}

}  // namespace pimdse::cli
