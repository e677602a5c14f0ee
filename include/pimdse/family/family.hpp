#pragma once
// A design-point family (docs/architecture.md, "Design-point families"): one kind of
// accelerator that a sweep can search, with its parameters, its energy components, its
// legality and its evaluation. NicePIM's DRAM-PIM accelerator (`dram_pim`) is the built-in
// family; others register beside it. The engine, the tuner and the store see a family only
// through this interface and the DesignPoints it defines: they never name a parameter. A
// ReRAM crossbar accelerator (`crossbar`, after Gibbon on MNSIM 2.0) is the second built-in,
// HuNT's heterogeneous 3-D manycore for training (`hetero3d`) the third.
//
// A family object is built from a sweep configuration (its `family:` key selects the
// factory) and is read-only afterwards: every rank builds its own, and evaluate() is a pure
// function of (context, id, point), which is what makes a sweep's file the same for any
// rank count.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/deadline.hpp"
#include "pimdse/core/design_point.hpp"
#include "pimdse/core/design_space.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/io/config.hpp"

namespace pimdse::family {

/// One energy component of a workload's result: a column of /metrics after energy_j, in J
/// (the model's pJ, eval::NetworkResult::energy_parts_pj, converted as the file is written),
/// in the order of Family::energy_parts().
struct EnergyPart {
    std::string name;     ///< "energy_sram_j"
    std::string meaning;  ///< "of which SRAM buffers"
};

/// A per-candidate number a family computes beside latency, energy and area: a column of
/// /candidates after `cost`, in the order of Family::metrics() (eval::Evaluation::metrics),
/// NaN where the candidate has no value. An objective may name it (io::objective_metric).
struct Metric {
    std::string name;     ///< "adc_deficit_bits"
    std::string unit;     ///< "bit"; empty when none
    std::string meaning;  ///< "ADC resolution short of a column's full sum, max over layers"
};

class Family {
public:
    virtual ~Family() = default;

    /// The configuration name: "dram_pim", ...
    [[nodiscard]] virtual std::string_view name() const = 0;
    /// The configured design space: the parameters' names, units and ranges, in the order of
    /// a DesignPoint's values; its family id is this family's.
    [[nodiscard]] virtual const DesignSpace& space() const = 0;
    /// The energy components every evaluation reports per workload.
    [[nodiscard]] virtual const std::vector<EnergyPart>& energy_parts() const = 0;
    /// The per-candidate metrics every evaluation reports; the default has none.
    [[nodiscard]] virtual const std::vector<Metric>& metrics() const;

    /// Buildable under the family's constraints, area budget included. On the tuner's
    /// sampling path (millions of calls): no allocation.
    [[nodiscard]] virtual bool legal(const DesignPoint& p) const = 0;
    /// The point for people: "4x4 nodes, 32x32 PEs, 128/128/128 KiB".
    [[nodiscard]] virtual std::string describe(const DesignPoint& p) const = 0;

    /// Evaluates candidate `id` at `p` on every workload of `ctx`. Never throws for the
    /// candidate's own failure: the status and message say what happened.
    [[nodiscard]] virtual eval::Evaluation evaluate(const eval::EvalContext& ctx, std::int64_t id,
                                                    const DesignPoint& p, const Deadline& deadline) const = 0;
    /// `sweep.evaluator: synthetic` (a test facility of the engine): a seeded sleep and rows
    /// shaped like a real evaluation's. The default throws ConfigError: not every family has one.
    [[nodiscard]] virtual eval::Evaluation evaluate_synthetic(const eval::EvalContext& ctx, std::int64_t id,
                                                              const DesignPoint& p, std::uint64_t seed,
                                                              double median_seconds) const;

    /// The dispatch order's prior (engine/dispatch.hpp): ln(seconds) of one evaluation as an
    /// intercept and one slope per parameter on log2 of its value. The default, 0 everywhere,
    /// predicts one second for every point.
    [[nodiscard]] virtual std::vector<double> eval_time_prior() const;
};

/// Builds a family from a sweep configuration; `id` is the registry's id for it (the family
/// of its space and points). Throws ConfigError naming the file and key on a bad setting.
using Factory = std::function<std::unique_ptr<Family>(const io::Config& config, FamilyId id)>;

/// Adds a family under `name`; returns its id. Throws InternalError when the name is taken.
/// The built-in families are always there: dram_pim with id 0, crossbar with id 1, hetero3d
/// with id 2.
FamilyId register_family(std::string name, Factory factory);

/// The family `config.family` names, built from `config`; ConfigError naming the file and the
/// `family` key when no family has that name, or the `engine.objectives` key when an objective
/// names a metric (io::objective_metric) that this family does not report.
[[nodiscard]] std::unique_ptr<Family> make_family(const io::Config& config);

/// Every registered family's name, in id order.
[[nodiscard]] std::vector<std::string> family_names();

}  // namespace pimdse::family
