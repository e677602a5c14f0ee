#pragma once
// The sweep configuration and the hardware-point file (docs/config.md): one typed struct per
// section, read from YAML and validated completely before anything runs. Every error is an
// InputError (malformed) or ConfigError (inconsistent) naming the file, the 1-based line,
// the key path and what was expected.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pimdse/core/crossbar_options.hpp"
#include "pimdse/core/enum_names.hpp"
#include "pimdse/core/hetero3d_options.hpp"
#include "pimdse/core/model_options.hpp"
#include "pimdse/core/proposer_options.hpp"
#include "pimdse/core/schedule_options.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"

namespace pimdse::io {

/// Which proposer drives the sweep (docs/architecture.md, `tuner`; NicePIM VIII-C compares them).
enum class Proposer {
    nicepim,    ///< PIM-Tuner: area filter + deep-kernel-GP suggestion model (NicePIM V)
    gp,         ///< the suggestion model replaced by a plain Gaussian process (VIII-C)
    random,     ///< uniform random points of the space (VIII-C)
    annealing,  ///< simulated annealing (VIII-C)
    evolution,  ///< an evolutionary algorithm
    grid,       ///< every legal point once, in index order (small spaces)
    amosa,      ///< archived multi-objective simulated annealing (AMOSA; HuNT's search)
    xgboost,    ///< the PIM-Tuner with boosted trees as its suggestion model (VIII-C)
};
/// `sweep.proposer`'s choices, in enum order (the values are stored in sweep files: append
/// only); each is a name tuner::make_proposer accepts.
inline constexpr EnumNames<Proposer, 8> kProposerNames{{{Proposer::nicepim, "nicepim"},
                                                        {Proposer::gp, "gp"},
                                                        {Proposer::random, "random"},
                                                        {Proposer::annealing, "annealing"},
                                                        {Proposer::evolution, "evolution"},
                                                        {Proposer::grid, "grid"},
                                                        {Proposer::amosa, "amosa"},
                                                        {Proposer::xgboost, "xgboost"}}};

[[nodiscard]] std::string_view to_string(Proposer p);
/// Every proposer's name, in enum order.
[[nodiscard]] const std::vector<std::string_view>& proposer_names();

/// One workload DNN of the cost function (NicePIM Eq. 1).
struct Workload {
    std::filesystem::path network;  ///< absolute path of the network file
    double weight = 1.0;            ///< gamma of Eq. 1, > 0
    std::optional<int> batch;       ///< batch size; empty: the network file's own

    friend bool operator==(const Workload&, const Workload&) = default;
};

/// NicePIM Eq. 1: Cost = sum over DNNs of Energy^alpha * Latency^beta * gamma.
struct CostConfig {
    double alpha = 1.0;  ///< energy exponent; alpha = beta = 1 is the energy-delay product (VIII-C)
    double beta = 1.0;   ///< latency exponent

    friend bool operator==(const CostConfig&, const CostConfig&) = default;
};

/// Who evaluates a candidate: the cost model (PIM-Mapper + timeline), or, as a test facility
/// of the engine's dispatch and write path, a seeded heavy-tailed sleep (docs/config.md).
enum class Evaluator { model, synthetic };
inline constexpr EnumNames<Evaluator, 2> kEvaluatorNames{
    {{Evaluator::model, "model"}, {Evaluator::synthetic, "synthetic"}}};
[[nodiscard]] std::string_view to_string(Evaluator e);

struct SweepConfig {
    std::uint64_t seed = 1;                         ///< the one seed of every random stream
    int batch_size = 8;                             ///< candidates proposed and evaluated per batch
    std::int64_t budget = 0;                        ///< evaluations in total (required)
    std::optional<std::chrono::seconds> wall_time;  ///< stop cleanly before this; empty: no limit
    Proposer proposer = Proposer::nicepim;
    int samples_per_round = 16384;  ///< points the model-based proposers score per batch (VIII-B)
    /// Batch k is proposed from the results of batches <= k - lag (docs/engine.md): 1 is a
    /// barrier between batches, larger values keep the workers busy through a batch's tail.
    int lag = 4;
    Evaluator evaluator = Evaluator::model;
    double synthetic_median_seconds = 1.0;  ///< `synthetic` only: median of the sleep
    /// `proposer_options:` (docs/config.md): the proposers' options; their defaults when absent.
    ProposerOptions proposer_options;

    friend bool operator==(const SweepConfig&, const SweepConfig&) = default;
};

/// The largest input file read (a network file of the library is under 100 KiB).
inline constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{16} << 20;
/// The largest sweep configuration or hardware file read (those of the repository are under
/// 8 KiB). Parsing YAML costs seconds and about 100 MB per MB read, on every rank, so a
/// larger file is refused before it is parsed (docs/config.md).
inline constexpr std::uint64_t kMaxConfigFileBytes = std::uint64_t{2} << 20;

/// The whole text of an input file; InputError naming it when it is missing, a directory,
/// not a regular file (a FIFO, /dev/zero), larger than kMaxInputFileBytes or unreadable.
/// Every input file (configuration, hardware, network, mapping) is read through it.
[[nodiscard]] std::string read_text_file(const std::filesystem::path& path,
                                         std::uint64_t max_bytes = kMaxInputFileBytes);

/// Throws IoError unless `path` names an existing regular file ("no such file", "expected a
/// regular file, got a FIFO"); for inputs opened by another library (a sweep's HDF5 file).
void check_input_file(const std::filesystem::path& path);

/// An ONNX model holds its weights unless they are external: up to protobuf's 2 GiB limit.
inline constexpr std::uint64_t kMaxOnnxFileBytes = std::uint64_t{2} << 30;

/// What a sweep file keeps of a workload's network file (/workloads/<net>/source) and what
/// --resume compares: a network file's text; for an ONNX model (`.onnx`, binary, weights
/// included, up to kMaxOnnxFileBytes like its import) one line with its size and a 64-bit
/// FNV-1a hash of its bytes, read a chunk at a time.
[[nodiscard]] std::string workload_source(const std::filesystem::path& path);

/// Seconds of a duration as the configuration spells it: seconds ("3600"), a number with a
/// unit s, m, h or d ("90m"), or Slurm's "[D-]HH:MM:SS"; empty when it is none of these.
[[nodiscard]] std::optional<std::int64_t> parse_duration(std::string_view text);

/// An objective of the sweep's Pareto archive (all minimised).
enum class Objective {
    latency,  ///< total latency over the workloads, seconds
    energy,   ///< total energy over the workloads, joules
    area,     ///< NN-engine area of all nodes, mm2
    cost,     ///< NicePIM Eq. 1
    /// Average power running the workloads back to back, W: total energy / total latency.
    power,
    /// Samples per second running the workloads back to back: the batch sizes summed over
    /// total latency. Maximised; the archive minimises its reciprocal, seconds per sample.
    throughput,
    /// Energy-delay product running the workloads back to back, J s: total energy x total
    /// latency (Gibbon's figure of merit).
    edp,
    /// The crossbar family's accuracy proxy, bits: the ADC resolution a column's full sum
    /// lacks, max over layers and workloads (docs/model.md, "ADC deficit"). A family metric.
    adc_deficit,
    /// Accuracy lost to quantisation and hardware, percentage points, from the sweep's
    /// accuracy table (crossbar.accuracy_table), the workloads' weighted mean. A family metric.
    accuracy_loss,
    /// The hetero3d family's peak temperature, K: the hottest PE over the workloads (docs/model.md,
    /// "HuNT: thermal model"). A family metric.
    peak_temperature,
    /// The hetero3d family's error surrogate Err (HuNT Eq. 6), the workloads' weighted mean.
    /// A family metric.
    err,
};
inline constexpr EnumNames<Objective, 11> kObjectiveNames{{{Objective::latency, "latency"},
                                                           {Objective::energy, "energy"},
                                                           {Objective::area, "area"},
                                                           {Objective::cost, "cost"},
                                                           {Objective::power, "power"},
                                                           {Objective::throughput, "throughput"},
                                                           {Objective::edp, "edp"},
                                                           {Objective::adc_deficit, "adc_deficit"},
                                                           {Objective::accuracy_loss, "accuracy_loss"},
                                                           {Objective::peak_temperature, "peak_temperature"},
                                                           {Objective::err, "err"}}};
[[nodiscard]] std::string_view to_string(Objective o);
/// The family metric (family::Metric, a /candidates column) objective `o` reads, or empty
/// when `o` is computed from the workloads' sums: adc_deficit reads "adc_deficit_bits",
/// accuracy_loss "accuracy_loss".
[[nodiscard]] std::string_view objective_metric(Objective o) noexcept;

/// What a candidate's objectives are computed from: its sums over the workloads.
struct ObjectiveInputs {
    double latency_seconds = 0;
    double energy_joules = 0;
    double area_mm2 = 0;
    double cost = 0;     ///< NicePIM Eq. 1
    double samples = 0;  ///< the workloads' batch sizes summed
    /// The family metric the objective names (objective_metric), NaN where the candidate has
    /// none; unused by the other objectives.
    double metric = std::numeric_limits<double>::quiet_NaN();
};
/// The value of `o` as the Pareto archive minimises it: seconds, joules, mm2, Eq. 1, watts,
/// seconds per sample (throughput's reciprocal), J s, a family metric as it is; +infinity
/// where it is undefined (no latency, no samples, a missing metric).
[[nodiscard]] double minimised_value(Objective o, const ObjectiveInputs& in) noexcept;

/// `engine:` how the sweep engine runs candidates and keeps its archive (docs/config.md).
struct EngineConfig {
    /// Per candidate: deterministic work limit in mapper steps (eval::StepBudget); empty: none.
    std::optional<std::int64_t> work_limit;
    /// Per candidate: wall-clock safety net; empty: no limit. Breaks reproducibility when it binds.
    std::optional<std::chrono::seconds> time_limit;
    std::vector<Objective> objectives{Objective::latency, Objective::energy, Objective::area};
    /// Hypervolume reference point, one value per objective; empty: automatic (docs/config.md).
    std::vector<double> reference;
    /// Testing only: candidate ids whose evaluation throws / stalls (docs/config.md).
    std::vector<std::int64_t> fault_throw;
    std::vector<std::int64_t> fault_stall;

    friend bool operator==(const EngineConfig&, const EngineConfig&) = default;
};

/// Which candidates keep their per-layer and per-segment rows (docs/output.md).
enum class MappingRows { all, front, none };
inline constexpr EnumNames<MappingRows, 3> kMappingRowsNames{
    {{MappingRows::all, "all"}, {MappingRows::front, "front"}, {MappingRows::none, "none"}}};
[[nodiscard]] std::string_view to_string(MappingRows m);

struct OutputConfig {
    std::filesystem::path path;  ///< absolute path of the HDF5 output file
    int compression = 1;         ///< deflate level of the batch tables (with shuffle); 0: none
    MappingRows mappings = MappingRows::front;
    int best = 16;  ///< `front`: also keep the rows of the best this many by Eq. 1 cost

    friend bool operator==(const OutputConfig&, const OutputConfig&) = default;
};

/// A sweep configuration, every default filled in and every relative path resolved against
/// the configuration file's directory.
struct Config {
    /// `family:` the design-point family searched (family/family.hpp); its parameters are
    /// the keys of `space:`. The sections constraints, technology and model are dram_pim's,
    /// `crossbar:` the crossbar family's, `hetero3d:` the hetero3d family's.
    std::string family = "dram_pim";
    hw::Constraints constraints;
    hw::Technology technology;  ///< the table's defaults unless overridden (`technology:`)
    DesignSpace space = hw::default_space(hw::Constraints{});  ///< the dram_pim family's space (`space:`)
    std::vector<Workload> workloads;
    CostConfig cost;
    pimdse::ModelOptions model;        ///< the node model (`model:`)
    pimdse::ScheduleOptions schedule;  ///< the Data-Scheduler (`schedule:`; NicePIM VII)
    pimdse::CrossbarOptions crossbar;  ///< the crossbar family's settings (`crossbar:`)
    pimdse::Hetero3dOptions hetero3d;  ///< the hetero3d family's settings (`hetero3d:`)
    SweepConfig sweep;
    OutputConfig output;
    EngineConfig engine;

    std::filesystem::path source_file;  ///< the file as named when read
    std::string source_text;            ///< its exact text (stored in the output file)

    /// Equal settings; the source file name and text are not compared.
    friend bool operator==(const Config& a, const Config& b);
};

/// One hardware point with its constraints and, optionally, its node model and
/// Data-Scheduler settings (for `pimdse evaluate` and `pimdse map`).
struct HardwareFile {
    hw::Constraints constraints;
    hw::Technology technology;
    hw::HardwareParams params;
    pimdse::ModelOptions model;        ///< the node model `pimdse evaluate` and `map` cost with
    pimdse::ScheduleOptions schedule;  ///< how `pimdse evaluate` schedules data sharing

    std::filesystem::path source_file;
    std::string source_text;

    /// Equal settings; the source file name and text are not compared.
    friend bool operator==(const HardwareFile& a, const HardwareFile& b);
};

/// Read and validate a sweep configuration. The network files must exist and be readable;
/// they are not parsed here.
[[nodiscard]] Config read_config_file(const std::filesystem::path& path);
/// As read_config_file, from text; `file_name` names the file in messages and its directory
/// anchors relative paths.
[[nodiscard]] Config parse_config(std::string_view text, const std::filesystem::path& file_name);

/// Read and validate a hardware file; the point must pass hw::check (area budget included).
[[nodiscard]] HardwareFile read_hardware_file(const std::filesystem::path& path);
[[nodiscard]] HardwareFile parse_hardware(std::string_view text, const std::filesystem::path& file_name);

/// A file with a top-level `hardware:` key is a hardware file, anything else a sweep
/// configuration; read it as the one it is.
[[nodiscard]] std::variant<Config, HardwareFile> read_config_or_hardware_file(
    const std::filesystem::path& path);

/// The resolved configuration as YAML: every key present, defaults filled in, paths absolute.
/// Parsing it again gives an equal Config.
[[nodiscard]] std::string to_yaml(const Config& c);
[[nodiscard]] std::string to_yaml(const HardwareFile& h);

}  // namespace pimdse::io
