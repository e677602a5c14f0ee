#pragma once
// The proposers of the sweep (docs/tuner.md) behind the Proposer seam of proposer.hpp, made
// by name: "random", "grid", "gp", "nicepim", "annealing", "evolution", "amosa", "xgboost". Every option has
// a documented default, which the configuration's `sweep.proposer_options:` may override (docs/config.md).

#include <memory>
#include <string_view>
#include <vector>

#include "pimdse/core/proposer_options.hpp"
#include "pimdse/tuner/proposer.hpp"

namespace pimdse::tuner {

// The options are core's plain values (core/proposer_options.hpp), named here as the tuner's.
using pimdse::AcquisitionKind;
using pimdse::CheapFidelity;
using pimdse::FilterPredictor;
using pimdse::GpPosteriorKind;
using pimdse::KernelKind;
using pimdse::ProposerOptions;
using pimdse::Scalarisation;

/// The proposer called `name` ("random", "grid", "gp", "nicepim", "annealing", "evolution",
/// "amosa", "xgboost"). Throws
/// std::invalid_argument for another name or invalid options.
[[nodiscard]] std::unique_ptr<Proposer> make_proposer(std::string_view name, const ProposerContext& context,
                                                      const ProposerOptions& options = {});

/// The names make_proposer accepts, in the order of docs/tuner.md.
[[nodiscard]] const std::vector<std::string_view>& proposer_names();

}  // namespace pimdse::tuner
