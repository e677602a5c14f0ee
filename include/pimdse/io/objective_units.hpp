#pragma once
// The units of what a sweep's configuration makes: NicePIM Eq. 1's cost, whose unit follows
// `cost.alpha` and `cost.beta`, and each Pareto objective as the archive minimises it. The
// sweep file's cost fields and its hypervolume and reference point carry them
// (docs/output.md, "Units").

#include <string>
#include <string_view>

#include "pimdse/io/config.hpp"

namespace pimdse::io {

/// The unit of NicePIM Eq. 1's cost, Energy^alpha x Latency^beta with energy in J and latency
/// in s: "J s" for the energy-delay product (alpha = beta = 1), "J^2 s", "s" for alpha = 0,
/// "1" when both are 0.
[[nodiscard]] std::string cost_unit(const CostConfig& cost);

/// The unit of objective `o` as the Pareto archive minimises it (minimised_value): "s", "J",
/// "mm2", cost_unit(cost), "W", "s" (seconds per sample), "J s"; a family metric's is
/// `metric_unit`, its family::Metric unit.
[[nodiscard]] std::string objective_unit(Objective o, const CostConfig& cost, std::string_view metric_unit);

}  // namespace pimdse::io
