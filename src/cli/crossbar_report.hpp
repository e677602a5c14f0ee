#pragma once
// What `pimdse evaluate --crossbar` prints: one crossbar design's cost of one network (the
// crossbar family's model, sim/crossbar_cost.hpp), a row per weighted layer (its geometry on
// the crossbars, ADC conversions and deficit, latency and energy by part) and a summary
// (latency under the schedule, energy and area by part, tiles, the area budget).

#include <optional>
#include <ostream>
#include <string>

#include "pimdse/sim/crossbar_cost.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::cli {

/// One costed crossbar design: what the report and the --layers table describe.
struct CrossbarEvaluation {
    const workload::Network* network = nullptr;
    sim::CrossbarConfig config;
    const sim::CrossbarTechnology* tech = nullptr;
    sim::CrossbarNetworkOptions options;
    std::optional<double> area_budget_mm2;  ///< `crossbar.area_budget_mm2`, mm²; empty: none
    sim::CrossbarNetworkCost cost;

    /// "128x128 crossbars, ADC 8b, DAC 1b, cell 2b, W9/A9, polarity 2, mnsim2".
    [[nodiscard]] std::string design() const;
    /// `ok`, or `infeasible` when the area exceeds the budget (as the crossbar family judges).
    [[nodiscard]] std::string status() const;
    /// Why the status is not ok; empty when it is.
    [[nodiscard]] std::string reason() const;
};

/// The per-layer table and the summary.
void print_crossbar_report(std::ostream& out, const CrossbarEvaluation& e);

}  // namespace pimdse::cli
