#pragma once
// A simple legal mapping for tests, benchmarks and `pimdse evaluate --uniform`, until the
// PIM-Mapper exists: every segment runs all its branches one after another on one region,
// every layer is cut over that region by its own prime factors. docs/model.md,
// "Network timeline", gives the rule.

#include <cstdint>
#include <optional>

#include "pimdse/sim/mapping.hpp"
#include "pimdse/workload/layer.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::sim {

/// Partitions of `layer` over a region_rows x region_cols region: the prime factors of the
/// rows, then of the columns, largest first, each go to the first loop of K, P, Q, B, C that
/// stays within its bound (never C of a grouped convolution), backtracking when one cannot
/// be placed. WR = N_node for layers with weights (else 1), layouts BCHW, order BPQKC.
/// Nothing when no assignment exists.
[[nodiscard]] std::optional<LayerMapping> uniform_layer_mapping(const workload::Layer& layer,
                                                                std::int32_t region_rows,
                                                                std::int32_t region_cols);

/// Every segment one region with all branches on it: the whole node_rows x node_cols array
/// when every layer of the segment can be cut over it, else the largest rectangle at the
/// array's corner (most nodes, then most rows) that every layer can. The result passes
/// check_mapping. Throws ModelError for an empty array.
[[nodiscard]] NetworkMapping uniform_mapping(const workload::Network& network,
                                             const workload::Segmentation& seg, std::int32_t node_rows,
                                             std::int32_t node_cols);

}  // namespace pimdse::sim
