#pragma once
// What the family tests share: a sweep configuration of one family over one network, read
// from text as `pimdse explore` reads its file, and the evaluation context the engine builds
// from it.

#include <filesystem>
#include <string>

#include "../scratch_files.hpp"
#include "pimdse/eval/evaluate.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/workloads.hpp"

namespace pimdse::testing {

/// `family:` `family` with the sections in `extra`, one workload (`network`, `weight`), budget
/// 4, read as the scratch file `file`.
inline io::Config family_config(const std::string& family, const std::string& extra,
                                const std::filesystem::path& network, double weight,
                                const std::string& file) {
    const std::string text =
        "family: " + family + "\n" + extra + "workloads:\n  - {network: " + network.string() +
        ", weight: " + std::to_string(weight) + "}\nsweep: {budget: 4}\noutput: {path: out.h5}\n";
    return io::parse_config(text, scratch(file));
}

/// The evaluation context of `c`: its cost weights and its loaded workloads.
inline eval::EvalContext family_context(const io::Config& c) {
    eval::EvalContext ctx;
    ctx.alpha = c.cost.alpha;
    ctx.beta = c.cost.beta;
    for (io::LoadedWorkload& w : io::load_workloads(c))
        ctx.workloads.push_back({std::move(w.network), {}, w.spec.weight});
    return ctx;
}

}  // namespace pimdse::testing
