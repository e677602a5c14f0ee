// Reading and validating sweep configurations and hardware files (docs/config.md).
// Sections are read in a fixed order (constraints first: the space and the hardware point
// are checked against them); file-system checks of the workload files come last.

#include "pimdse/io/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>
#include <tuple>
#include <type_traits>

#include "config_sections.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/hw/legality.hpp"
#include "pimdse/io/yaml_reader.hpp"

namespace pimdse::io {

namespace fs = std::filesystem;
using detail::kIntMax;
using detail::read_constraints;
using detail::read_space;
using detail::read_technology;
using detail::to_int;
using yaml::Field;
using yaml::Map;
using yaml::Reader;

// A configuration's choice is read as an index into the names: every table lists 0, 1, ...
static_assert(is_dense(kObjectiveNames) && is_dense(kProposerNames) && is_dense(kEvaluatorNames) &&
              is_dense(kMappingRowsNames) && is_dense(pimdse::kIntraNodeModelNames) &&
              is_dense(pimdse::kNodeObjectiveNames));

std::string_view to_string(Objective o) {
    return name_of(kObjectiveNames, o);
}

double minimised_value(Objective o, const ObjectiveInputs& in) noexcept {
    constexpr double inf = std::numeric_limits<double>::infinity();
    switch (o) {
        case Objective::latency:
            return in.latency_seconds;
        case Objective::energy:
            return in.energy_joules;
        case Objective::area:
            return in.area_mm2;
        case Objective::cost:
            return in.cost;
        case Objective::power:
            return in.latency_seconds > 0 ? in.energy_joules / in.latency_seconds : inf;
        case Objective::throughput:
            return in.samples > 0 ? in.latency_seconds / in.samples : inf;
        case Objective::edp:
            return in.energy_joules * in.latency_seconds;
        case Objective::adc_deficit:
        case Objective::accuracy_loss:
        case Objective::peak_temperature:
        case Objective::err:
            return std::isnan(in.metric) ? inf : in.metric;
    }
    return inf;
}

std::string_view objective_metric(Objective o) noexcept {
    switch (o) {
        case Objective::adc_deficit:
            return "adc_deficit_bits";
        case Objective::accuracy_loss:
            return "accuracy_loss";
        case Objective::peak_temperature:
            return "peak_temperature_k";
        case Objective::err:
            return "err";
        default:
            return {};
    }
}

std::string_view to_string(Proposer p) {
    return name_of(kProposerNames, p);
}

std::string_view to_string(Evaluator e) {
    return name_of(kEvaluatorNames, e);
}

std::string_view to_string(MappingRows m) {
    return name_of(kMappingRowsNames, m);
}

const std::vector<std::string_view>& proposer_names() {
    static const std::vector<std::string_view> names = names_of(kProposerNames);
    return names;
}

bool operator==(const Config& a, const Config& b) {
    return a.family == b.family && a.constraints == b.constraints && a.technology == b.technology &&
           a.space == b.space && a.workloads == b.workloads && a.cost == b.cost && a.model == b.model &&
           a.schedule == b.schedule && a.crossbar == b.crossbar && a.hetero3d == b.hetero3d &&
           a.sweep == b.sweep && a.output == b.output && a.engine == b.engine;
}

bool operator==(const HardwareFile& a, const HardwareFile& b) {
    return a.constraints == b.constraints && a.technology == b.technology && a.params == b.params &&
           a.model == b.model && a.schedule == b.schedule;
}

namespace {

// Upper bounds of the floating-point keys (docs/config.md): far above any real value, low
// enough that no product of the cost model overflows or underflows to 0.
constexpr double kMaxCostExponent = 8;  // alpha, beta of Eq. 1

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
const std::vector<std::string_view> kConfigKeys{
    "family",   "constraints", "technology", "space", "workloads", "cost",  "model",
    "schedule", "crossbar",    "hetero3d",   "sweep", "output",    "engine"};
const std::vector<std::string_view> kHardwareFileKeys{"constraints", "technology", "hardware", "model",
                                                      "schedule"};
const std::vector<std::string_view> kSweepKeys{"seed",
                                               "batch_size",
                                               "budget",
                                               "wall_time",
                                               "proposer",
                                               "samples_per_round",
                                               "lag",
                                               "evaluator",
                                               "synthetic_median_seconds",
                                               "proposer_options"};

fs::path resolve(const fs::path& dir, const std::string& written) {
    fs::path p(written);
    if (p.is_relative()) p = dir / p;
    return p.lexically_normal();
}

// A workload as written, kept until the file-system check at the end.
struct PendingFile {
    Field field;
    std::string written;
};

std::vector<Workload> read_workloads(const Reader& r, const Field& f, const fs::path& dir,
                                     std::vector<PendingFile>& pending) {
    const std::string want = "a non-empty list of workloads {network, weight, batch}";
    std::vector<Field> items = r.list(f, want);
    if (items.empty()) r.value_error(f, want, "an empty list");
    std::vector<Workload> out;
    for (const Field& item : items) {
        Map m(r, item, {"network", "weight", "batch"});
        const Field network = m.require("network", "the path of a network file");
        Workload w;
        const std::string written = r.string(network);
        w.network = resolve(dir, written);
        if (auto v = m.get("weight")) w.weight = r.number(*v, 1e-6, false, 1e6);  // Eq. 1: gamma > 0
        if (auto v = m.get("batch")) w.batch = to_int(r.integer(*v, 1, 65536));
        for (std::size_t j = 0; j < out.size(); ++j) {
            if (out[j].network == w.network && out[j].batch == w.batch) {
                r.value_error(item, "each network once per batch size",
                              "'" + written + "' again (as " + items[j].path + ")");
            }
        }
        pending.push_back({network, written});
        out.push_back(std::move(w));
    }
    return out;
}

CostConfig read_cost(const Reader& r, const std::optional<Field>& f) {
    CostConfig cost;
    if (!f) return cost;
    Map m(r, *f, {"alpha", "beta"});
    if (auto v = m.get("alpha")) cost.alpha = r.number(*v, 0, false, kMaxCostExponent);  // Eq. 1: alpha >= 0
    if (auto v = m.get("beta")) cost.beta = r.number(*v, 0, false, kMaxCostExponent);    // Eq. 1: beta >= 0
    if (cost.alpha == 0 && cost.beta == 0) {
        r.value_error(*f, "alpha or beta above 0 (with both 0 every candidate costs the same)",
                      "alpha = 0 and beta = 0");
    }
    return cost;
}

// The exact node model's largest work limit: tilings costed per part-layer.
constexpr std::int64_t kMaxNodeWork = 1000000000000;

// `model:` (docs/config.md): which node model costs a part-layer, and whether layers overlap.
pimdse::ModelOptions read_model(const Reader& r, const std::optional<Field>& f) {
    pimdse::ModelOptions o;
    if (!f) return o;
    Map m(r, *f, {"intra_node", "exact", "overlap", "overlap_transform"});
    if (auto v = m.get("intra_node")) {
        o.intra_node =
            static_cast<pimdse::IntraNodeModel>(r.choice(*v, names_of(pimdse::kIntraNodeModelNames)));
    }
    // Read whatever intra_node says: `--intra-node exact` on the command line uses it too.
    if (auto v = m.get("exact")) {
        Map e(r, *v, {"objective", "work_limit", "solver"});
        if (auto obj = e.get("objective")) {
            o.exact.objective =
                static_cast<pimdse::NodeObjective>(r.choice(*obj, names_of(pimdse::kNodeObjectiveNames)));
        }
        if (auto w = e.get("work_limit")) o.exact.work_limit = r.integer(*w, 1, kMaxNodeWork);
        if (auto s = e.get("solver")) {
            o.exact.solver =
                static_cast<pimdse::ExactSolver>(r.choice(*s, names_of(pimdse::kExactSolverNames)));
        }
    }
    if (auto v = m.get("overlap")) o.overlap = r.boolean(*v);
    if (auto v = m.get("overlap_transform")) {
        o.overlap_transform = r.boolean(*v);
        // The transformation reorders the steps of overlapped layers; alone it means nothing.
        if (o.overlap_transform && !o.overlap)
            r.value_error(*v, "false unless model.overlap is true", "true");
    }
    return o;
}

// `schedule:` (docs/config.md): how data-sharing events are scheduled (NicePIM VII).
constexpr double kMaxScheduleSeconds = 86400;
constexpr std::int64_t kMaxScheduleWork = 1000000000;      // simplex iterations per event
constexpr std::int64_t kMaxCandidateWork = 1000000000000;  // mapper steps per candidate

pimdse::ScheduleOptions read_schedule(const Reader& r, const std::optional<Field>& f) {
    pimdse::ScheduleOptions o;
    if (!f) return o;
    Map m(r, *f, {"scheduler", "work_limit", "time_limit", "relative_gap"});
    if (auto v = m.get("scheduler")) {
        o.scheduler = static_cast<pimdse::SchedulerKind>(r.choice(*v, pimdse::scheduler_names()));
    }
    if (auto v = m.get("work_limit")) o.work_limit = r.integer(*v, 1, kMaxScheduleWork);
    if (auto v = m.get("time_limit")) {
        o.time_limit_seconds = r.number(*v, 0.001, false, kMaxScheduleSeconds);
    }
    if (auto v = m.get("relative_gap")) {
        // (incumbent - bound) / incumbent never exceeds 1: a larger target is a mistake.
        o.relative_gap = r.number(*v, 0, false, 1);
    }
    return o;
}

SweepConfig read_sweep(const Reader& r, const Field& f) {
    Map m(r, f, kSweepKeys);
    SweepConfig s;
    if (auto v = m.get("seed")) s.seed = r.unsigned64(*v);
    if (auto v = m.get("batch_size")) s.batch_size = to_int(r.integer(*v, 1, 1 << 20));
    s.budget = r.integer(m.require("budget", "an integer >= 1 (evaluations in total)"), 1, kInt64Max);
    if (auto v = m.get("wall_time")) {
        const std::string want =
            "a positive duration: whole seconds, or e.g. 90m, 12h, 2d, 12:00:00, 1-00:00:00";
        if (!v->node.IsScalar()) r.type_error(*v, want);
        const std::optional<std::int64_t> seconds = parse_duration(v->node.Scalar());
        if (!seconds || *seconds <= 0) r.value_error(*v, want, yaml::describe(v->node));
        s.wall_time = std::chrono::seconds(*seconds);
    }
    if (auto v = m.get("proposer")) s.proposer = static_cast<Proposer>(r.choice(*v, proposer_names()));
    if (auto v = m.get("samples_per_round")) s.samples_per_round = to_int(r.integer(*v, 1, 1 << 24));
    if (auto v = m.get("lag")) s.lag = to_int(r.integer(*v, 1, 1024));
    if (auto v = m.get("evaluator"))
        s.evaluator = static_cast<Evaluator>(r.choice(*v, names_of(kEvaluatorNames)));
    if (auto v = m.get("synthetic_median_seconds")) {
        s.synthetic_median_seconds = r.number(*v, 0, true, 3600);
    }
    if (auto v = m.get("proposer_options")) s.proposer_options = detail::read_proposer_options(r, *v);
    return s;
}

OutputConfig read_output(const Reader& r, const Field& f, const fs::path& dir) {
    Map m(r, f, {"path", "compression", "mappings", "best"});
    OutputConfig o;
    o.path = resolve(dir, r.string(m.require("path", "the path of the HDF5 output file")));
    if (auto v = m.get("compression")) o.compression = to_int(r.integer(*v, 0, 9));
    if (auto v = m.get("mappings"))
        o.mappings = static_cast<MappingRows>(r.choice(*v, names_of(kMappingRowsNames)));
    if (auto v = m.get("best")) o.best = to_int(r.integer(*v, 0, 1 << 20));
    return o;
}

// `engine:` (docs/config.md): per-candidate work limit and time limit, archive objectives and reference
// point, and the testing-only fault injection.

EngineConfig read_engine(const Reader& r, const std::optional<Field>& f) {
    EngineConfig e;
    if (!f) return e;
    Map m(r, *f, {"work_limit", "time_limit", "objectives", "reference", "fault_injection"});
    if (auto v = m.get("work_limit")) e.work_limit = r.integer(*v, 1, kMaxCandidateWork);
    if (auto v = m.get("time_limit")) {
        const std::string want = "a positive duration: whole seconds, or e.g. 90s, 10m, 1h, 00:10:00";
        if (!v->node.IsScalar()) r.type_error(*v, want);
        const std::optional<std::int64_t> seconds = parse_duration(v->node.Scalar());
        if (!seconds || *seconds <= 0) r.value_error(*v, want, yaml::describe(v->node));
        e.time_limit = std::chrono::seconds(*seconds);
    }
    if (auto v = m.get("objectives")) {
        const std::string want =
            "a list of 2 or 3 distinct objectives of " + yaml::key_list(names_of(kObjectiveNames));
        e.objectives.clear();
        for (const Field& item : r.list(*v, want)) {
            const auto o = static_cast<Objective>(r.choice(item, names_of(kObjectiveNames)));
            if (std::find(e.objectives.begin(), e.objectives.end(), o) != e.objectives.end()) {
                std::string got = "'";
                got += to_string(o);
                got += "' twice";
                r.value_error(item, want, got);
            }
            e.objectives.push_back(o);
        }
        if (e.objectives.size() < 2 || e.objectives.size() > 3) {
            r.value_error(*v, want, std::to_string(e.objectives.size()) + " objectives");
        }
    }
    if (auto v = m.get("reference")) {
        const std::string want = "a list of one positive number per objective";
        const std::vector<Field> items = r.list(*v, want);
        for (const Field& item : items) e.reference.push_back(r.number(item, 0, true, 1e30));
        if (e.reference.size() != e.objectives.size()) {
            r.value_error(*v, want + " (" + std::to_string(e.objectives.size()) + ")",
                          std::to_string(e.reference.size()) + " numbers");
        }
    }
    if (auto v = m.get("fault_injection")) {
        Map fi(r, *v, {"throw", "stall"});
        const auto ids = [&](std::string_view key, std::vector<std::int64_t>& out) {
            if (auto l = fi.get(key)) {
                for (const Field& item : r.list(*l, "a list of candidate ids")) {
                    out.push_back(r.integer(item, 0, kInt64Max));
                }
            }
        };
        ids("throw", e.fault_throw);
        ids("stall", e.fault_stall);
    }
    return e;
}

// Runs last: the only check that touches the file system.
void check_files_readable(const Reader& r, const std::vector<Workload>& workloads,
                          const std::vector<PendingFile>& pending) {
    for (std::size_t i = 0; i < workloads.size(); ++i) {
        const fs::path& p = workloads[i].network;
        std::error_code ec;
        std::string problem;
        if (!fs::exists(p, ec)) {
            problem = "no such file";
        } else if (fs::is_directory(p, ec)) {
            problem = "a directory";
        } else if (!fs::is_regular_file(p, ec)) {
            problem = "not a regular file";  // a FIFO would block the open, /dev/zero never end
        } else if (::access(p.c_str(), R_OK) != 0) {
            problem = "cannot be opened";
        }
        if (!problem.empty()) {
            r.value_error(pending[i].field, "a readable network file",
                          "'" + pending[i].written + "' (" + p.string() + ": " + problem + ")");
        }
    }
}

fs::path directory_of(const fs::path& file_name) {
    return fs::absolute(file_name.empty() ? fs::path("config.yaml") : file_name).parent_path();
}

bool has_top_key(const YAML::Node& root, std::string_view key) {
    for (const auto& entry : root) {
        if (entry.first.IsScalar() && entry.first.Scalar() == key) return true;
    }
    return false;
}

}  // namespace

std::optional<std::int64_t> parse_duration(std::string_view s) {
    const auto digits = [](std::string_view t) {
        return !t.empty() && t.size() <= 12 && t.find_first_not_of("0123456789") == std::string_view::npos;
    };
    const auto num = [](std::string_view t) { return std::stoll(std::string(t)); };
    if (digits(s)) return num(s);
    if (s.size() >= 2 && digits(s.substr(0, s.size() - 1))) {
        const std::int64_t n = num(s.substr(0, s.size() - 1));
        switch (s.back()) {
            case 's':
                return n;
            case 'm':
                return n * 60;
            case 'h':
                return n * 3600;
            case 'd':
                return n * 86400;
            default:
                return std::nullopt;
        }
    }
    std::string_view rest = s;
    std::int64_t days = 0;
    if (auto dash = rest.find('-'); dash != std::string_view::npos) {
        if (!digits(rest.substr(0, dash))) return std::nullopt;
        days = num(rest.substr(0, dash));
        rest = rest.substr(dash + 1);
    }
    if (rest.size() < 8 || rest[rest.size() - 3] != ':' || rest[rest.size() - 6] != ':') return std::nullopt;
    const std::string_view h = rest.substr(0, rest.size() - 6);
    const std::string_view mm = rest.substr(rest.size() - 5, 2);
    const std::string_view ss = rest.substr(rest.size() - 2, 2);
    if (!digits(h) || !digits(mm) || !digits(ss) || num(mm) >= 60 || num(ss) >= 60) return std::nullopt;
    return days * 86400 + num(h) * 3600 + num(mm) * 60 + num(ss);
}

namespace {

// The files' readers from a loaded document, so that `config check` parses its file once.
Config config_from(const Reader& r, const Field& root, std::string_view text, const fs::path& file_name) {
    const Map top(r, root, kConfigKeys);
    const fs::path dir = directory_of(file_name);

    Config c;
    c.constraints = read_constraints(r, top.get("constraints"));
    c.technology = read_technology(r, top.get("technology"));
    detail::check_bank_width(r, top.get("constraints"), top.get("technology"), c.constraints, c.technology);
    if (auto f = top.get("family")) c.family = r.string(*f);
    c.space = c.family == "dram_pim"
                  ? read_space(r, top.get("space"), top.get("constraints"), c.constraints, c.technology)
                  : detail::read_open_space(r, top.get("space"));
    std::vector<PendingFile> pending;
    c.workloads = read_workloads(r, top.require("workloads", "a non-empty list of workloads"), dir, pending);
    c.cost = read_cost(r, top.get("cost"));
    c.model = read_model(r, top.get("model"));
    c.schedule = read_schedule(r, top.get("schedule"));
    c.crossbar = detail::read_crossbar(r, top.get("crossbar"), c.family, dir);
    c.hetero3d = detail::read_hetero3d(r, top.get("hetero3d"), c.family);
    c.sweep = read_sweep(r, top.require("sweep", "a mapping with the keys " + yaml::key_list(kSweepKeys)));
    c.output = read_output(r, top.require("output", "a mapping with the key path"), dir);
    c.engine = read_engine(r, top.get("engine"));
    check_files_readable(r, c.workloads, pending);

    c.source_file = file_name;
    c.source_text = std::string(text);
    return c;
}

HardwareFile hardware_from(const Reader& r, const Field& root, std::string_view text,
                           const fs::path& file_name) {
    const Map top(r, root, kHardwareFileKeys);

    HardwareFile h;
    h.constraints = read_constraints(r, top.get("constraints"));
    h.technology = read_technology(r, top.get("technology"));
    detail::check_bank_width(r, top.get("constraints"), top.get("technology"), h.constraints, h.technology);
    detail::check_clock(r, top.get("constraints"), h.constraints, h.technology);
    const Map hw_map(r, top.require("hardware", "a mapping with the keys node_array, pe_array, buffers_kib"),
                     {"node_array", "pe_array", "buffers_kib"});

    // Types first; ranges and divisibility come from hw::check, so that a file and the tuner
    // judge a point by the same rules.
    std::array<Field, hw::kTableIParamCount> fields;  // the clock and data width: the constraints'
    const auto pair_of = [&](std::string_view key, hw::Param first, hw::Param second) {
        const Field f = hw_map.require(key, "a list of two integers [rows, columns]");
        std::vector<Field> items = r.list(f, "a list of two integers [rows, columns]");
        if (items.size() != 2) {
            r.value_error(f, "a list of two integers [rows, columns]",
                          "a list of " + std::to_string(items.size()));
        }
        fields[static_cast<std::size_t>(first)] = items[0];
        fields[static_cast<std::size_t>(second)] = items[1];
    };
    pair_of("node_array", hw::Param::node_rows, hw::Param::node_cols);
    pair_of("pe_array", hw::Param::pe_rows, hw::Param::pe_cols);
    const Map buffers(r, hw_map.require("buffers_kib", "a mapping with the keys input, weight, output"),
                      {"input", "weight", "output"});
    fields[static_cast<std::size_t>(hw::Param::ibuf_kib)] = buffers.require("input", "an integer (KiB)");
    fields[static_cast<std::size_t>(hw::Param::wbuf_kib)] = buffers.require("weight", "an integer (KiB)");
    fields[static_cast<std::size_t>(hw::Param::obuf_kib)] = buffers.require("output", "an integer (KiB)");

    for (hw::Param p : hw::kTableIParams) {
        const Field& f = fields[static_cast<std::size_t>(p)];
        h.params.set(p, to_int(r.integer(f, std::numeric_limits<int>::min(), kIntMax, "an integer")));
    }
    const hw::Legality legality = hw::check(h.params, h.constraints, h.technology);
    for (const hw::Violation& v : legality.violations) {
        const Field& at = v.param ? fields[static_cast<std::size_t>(*v.param)] : hw_map.self();
        r.value_error(at, v.expected, v.got);
    }

    h.model = read_model(r, top.get("model"));
    h.schedule = read_schedule(r, top.get("schedule"));

    h.source_file = file_name;
    h.source_text = std::string(text);
    return h;
}

}  // namespace

Config parse_config(std::string_view text, const fs::path& file_name) {
    const Reader r(file_name.string());
    return config_from(r, r.load(text, yaml::key_list(kConfigKeys)), text, file_name);
}

HardwareFile parse_hardware(std::string_view text, const fs::path& file_name) {
    const Reader r(file_name.string());
    return hardware_from(r, r.load(text, yaml::key_list(kHardwareFileKeys)), text, file_name);
}

Config read_config_file(const fs::path& path) {
    return parse_config(read_text_file(path, kMaxConfigFileBytes), path);
}

HardwareFile read_hardware_file(const fs::path& path) {
    return parse_hardware(read_text_file(path, kMaxConfigFileBytes), path);
}

std::variant<Config, HardwareFile> read_config_or_hardware_file(const fs::path& path) {
    const std::string text = read_text_file(path, kMaxConfigFileBytes);
    const Reader r(path.string());
    const Field root = r.load(text, yaml::key_list(kConfigKeys) + " (or " +
                                        yaml::key_list(kHardwareFileKeys) + " for a hardware file)");
    if (has_top_key(root.node, "hardware")) return hardware_from(r, root, text, path);
    return config_from(r, root, text, path);
}

}  // namespace pimdse::io
