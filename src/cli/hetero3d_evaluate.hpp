#pragma once
// `pimdse evaluate --hardware H.yaml --network N.yaml` on a hetero3d hardware file: one
// network (training or inference) on one tier stack, its layer-to-PE mapping searched by AMOSA
// (mapper/tier_mapping.hpp) or the greedy placement, printed per layer (tier, device, PEs),
// per tier (power, temperature) and as a summary with TOPS/W and TOPS/mm² (docs/cli.md).

#include <cstdint>
#include <optional>
#include <string>

namespace pimdse::cli {

struct Hetero3dEvaluateOptions {
    std::string hardware;
    std::string network;
    bool greedy = false;            ///< --tier-mapping greedy: no search
    std::int64_t iterations = 100;  ///< AMOSA's evaluations (HuNT IV-A)
    std::uint64_t seed = 1;
    bool pick_area = false;         ///< pick by TOPS/mm² instead of TOPS/W
    std::optional<double> max_err;  ///< the error filter before the pick
    bool peak_objective = false;    ///< the third objective: peak temperature, not power
    std::string adc_reading = "table_ii_tile";
    std::string gradients = "digital_float32";  ///< how the SRAM tier costs ΔAG and ΔWG
    std::string csv;                            ///< append one summary row to this CSV file (empty: none)
};

/// Runs the evaluation and prints it to stdout; returns the exit code.
[[nodiscard]] int run_evaluate_hetero3d(const Hetero3dEvaluateOptions& o);

}  // namespace pimdse::cli
