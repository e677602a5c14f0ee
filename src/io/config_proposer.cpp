// `sweep.proposer_options:` (docs/config.md): the proposers' options, each read once from
// one table of names, ranges and members, and written back by the same table.

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config_sections.hpp"
#include "pimdse/core/proposer_options.hpp"

namespace pimdse::io::detail {
namespace {

using yaml::Field;
using yaml::Map;
using yaml::Reader;

struct IntOption {
    int ProposerOptions::*member;
    std::int64_t lo, hi;
};
struct RealOption {
    double ProposerOptions::*member;
    double lo;
    bool open;  // lo excluded
    double hi;
};
struct KernelOption {};
struct AcquisitionOption {};
struct ScalarisationOption {};
struct PosteriorOption {};
struct FilterOption {};
struct CheapOption {};
struct LayersOption {};  // `hidden`: a list of layer widths

struct Option {
    std::string_view name;
    std::variant<IntOption, RealOption, KernelOption, AcquisitionOption, ScalarisationOption, PosteriorOption,
                 FilterOption, CheapOption, LayersOption>
        kind;
};

// Every option of ProposerOptions (core/proposer_options.hpp), in its order. The ranges are
// the tuner's own (tuner::make_proposer) with an upper bound that keeps every run finite.
const std::vector<Option>& options() {
    using P = ProposerOptions;
    static const std::vector<Option> table{
        {"initial_random", IntOption{&P::initial_random, 0, 1 << 20}},
        {"kernel", KernelOption{}},
        {"acquisition", AcquisitionOption{}},
        {"ucb_kappa", RealOption{&P::ucb_kappa, 0, false, 100}},
        {"hidden", LayersOption{}},
        {"fit_max", IntOption{&P::fit_max, 2, 1 << 16}},
        {"fit_best", IntOption{&P::fit_best, 0, 1 << 16}},
        {"posterior", PosteriorOption{}},
        {"retrain_growth", RealOption{&P::retrain_growth, 1, false, 1000}},
        {"gp_steps", IntOption{&P::gp_steps, 0, 100000}},
        {"gp_learning_rate", RealOption{&P::gp_learning_rate, 0, true, 1}},
        {"dkl_steps", IntOption{&P::dkl_steps, 0, 100000}},
        {"dkl_learning_rate", RealOption{&P::dkl_learning_rate, 0, true, 1}},
        {"failure_margin", RealOption{&P::failure_margin, 0, false, 100}},
        {"local_fraction", RealOption{&P::local_fraction, 0, false, 1}},
        {"local_step", RealOption{&P::local_step, 0, true, 10}},
        {"samples_per_candidate", IntOption{&P::samples_per_candidate, 1, 1 << 16}},
        {"believer_max", IntOption{&P::believer_max, 1, 1 << 16}},
        {"scalarisation", ScalarisationOption{}},
        {"parego_weights", IntOption{&P::parego_weights, 1, 1 << 10}},
        {"anneal_initial_temperature", RealOption{&P::anneal_initial_temperature, 0, false, 1e6}},
        {"anneal_cooling", RealOption{&P::anneal_cooling, 0, true, 1}},
        {"anneal_step", RealOption{&P::anneal_step, 0, true, 10}},
        {"evolution_parents", IntOption{&P::evolution_parents, 2, 1 << 16}},
        {"evolution_mutation_step", RealOption{&P::evolution_mutation_step, 0, true, 10}},
        {"amosa_t_max", RealOption{&P::amosa_t_max, 0, true, 1e9}},
        {"amosa_t_min", RealOption{&P::amosa_t_min, 0, true, 1e9}},
        {"amosa_alpha", RealOption{&P::amosa_alpha, 0, true, 1}},
        {"amosa_iterations", IntOption{&P::amosa_iterations, 1, 1 << 24}},
        {"amosa_hard_limit", IntOption{&P::amosa_hard_limit, 1, 1 << 16}},
        {"amosa_soft_limit", IntOption{&P::amosa_soft_limit, 1, 1 << 16}},
        {"amosa_step", RealOption{&P::amosa_step, 0, true, 10}},
        {"xgb_trees", IntOption{&P::xgb_trees, 1, 10000}},
        {"xgb_depth", IntOption{&P::xgb_depth, 1, 20}},
        {"xgb_eta", RealOption{&P::xgb_eta, 0, true, 1}},
        {"xgb_ensemble", IntOption{&P::xgb_ensemble, 2, 256}},
        {"filter", FilterOption{}},
        {"filter_pool", IntOption{&P::filter_pool, 1, 1 << 10}},
        {"cheap_fidelity", CheapOption{}},
        {"cheap_pool", IntOption{&P::cheap_pool, 1, 1 << 10}},
    };
    return table;
}

std::vector<std::string_view> option_names() {
    std::vector<std::string_view> names;
    for (const Option& o : options()) names.push_back(o.name);
    return names;
}

constexpr std::int64_t kMaxLayers = 8;
constexpr std::int64_t kMaxWidth = 4096;

void read_option(const Reader& r, const Field& v, const Option& o, ProposerOptions& p) {
    if (const auto* i = std::get_if<IntOption>(&o.kind)) {
        p.*(i->member) = to_int(r.integer(v, i->lo, i->hi));
    } else if (const auto* d = std::get_if<RealOption>(&o.kind)) {
        p.*(d->member) = r.number(v, d->lo, d->open, d->hi);
    } else if (std::holds_alternative<KernelOption>(o.kind)) {
        p.kernel = static_cast<KernelKind>(r.choice(v, names_of(kKernelKindNames)));
    } else if (std::holds_alternative<AcquisitionOption>(o.kind)) {
        p.acquisition = static_cast<AcquisitionKind>(r.choice(v, names_of(kAcquisitionKindNames)));
    } else if (std::holds_alternative<ScalarisationOption>(o.kind)) {
        p.scalarisation = static_cast<Scalarisation>(r.choice(v, names_of(kScalarisationNames)));
    } else if (std::holds_alternative<PosteriorOption>(o.kind)) {
        p.posterior = static_cast<GpPosteriorKind>(r.choice(v, names_of(kGpPosteriorKindNames)));
    } else if (std::holds_alternative<FilterOption>(o.kind)) {
        p.filter = static_cast<FilterPredictor>(r.choice(v, names_of(kFilterPredictorNames)));
    } else if (std::holds_alternative<CheapOption>(o.kind)) {
        p.cheap_fidelity = static_cast<CheapFidelity>(r.choice(v, names_of(kCheapFidelityNames)));
    } else {
        const std::string want = "a list of 1 to 8 layer widths, each an integer in [1, 4096]";
        const std::vector<Field> items = r.list(v, want);
        if (items.empty() || static_cast<std::int64_t>(items.size()) > kMaxLayers)
            r.value_error(v, want, "a list of " + std::to_string(items.size()));
        p.hidden.clear();
        for (const Field& item : items) p.hidden.push_back(to_int(r.integer(item, 1, kMaxWidth)));
    }
}

// The option's value as the configuration spells it.
std::string text_of(const Option& o, const ProposerOptions& p) {
    if (const auto* i = std::get_if<IntOption>(&o.kind)) return std::to_string(p.*(i->member));
    if (const auto* d = std::get_if<RealOption>(&o.kind)) return number_text(p.*(d->member));
    if (std::holds_alternative<KernelOption>(o.kind)) return std::string(name_of(kKernelKindNames, p.kernel));
    if (std::holds_alternative<AcquisitionOption>(o.kind))
        return std::string(name_of(kAcquisitionKindNames, p.acquisition));
    if (std::holds_alternative<ScalarisationOption>(o.kind))
        return std::string(name_of(kScalarisationNames, p.scalarisation));
    if (std::holds_alternative<PosteriorOption>(o.kind))
        return std::string(name_of(kGpPosteriorKindNames, p.posterior));
    if (std::holds_alternative<FilterOption>(o.kind))
        return std::string(name_of(kFilterPredictorNames, p.filter));
    if (std::holds_alternative<CheapOption>(o.kind))
        return std::string(name_of(kCheapFidelityNames, p.cheap_fidelity));
    std::string out = "[";
    for (std::size_t k = 0; k < p.hidden.size(); ++k) out += (k ? ", " : "") + std::to_string(p.hidden[k]);
    return out + "]";
}

}  // namespace

ProposerOptions read_proposer_options(const Reader& r, const Field& f) {
    const Map m(r, f, option_names());
    ProposerOptions p;
    for (const Option& o : options())
        if (auto v = m.get(o.name)) read_option(r, *v, o, p);
    if (p.fit_best > p.fit_max) {
        const Field at = m.get("fit_best").value_or(m.get("fit_max").value_or(m.self()));
        r.value_error(at, "fit_best <= fit_max (" + std::to_string(p.fit_max) + ")",
                      std::to_string(p.fit_best));
    }
    if (p.amosa_hard_limit > p.amosa_soft_limit) {
        const Field at = m.get("amosa_hard_limit").value_or(m.get("amosa_soft_limit").value_or(m.self()));
        r.value_error(at, "amosa_hard_limit <= amosa_soft_limit (" + std::to_string(p.amosa_soft_limit) + ")",
                      std::to_string(p.amosa_hard_limit));
    }
    if (p.amosa_t_min > p.amosa_t_max) {
        const Field at = m.get("amosa_t_min").value_or(m.get("amosa_t_max").value_or(m.self()));
        r.value_error(at, "amosa_t_min <= amosa_t_max (" + number_text(p.amosa_t_max) + ")",
                      number_text(p.amosa_t_min));
    }
    if (p.cheap_fidelity != CheapFidelity::none && p.cheap_pool > p.filter_pool) {
        const Field at = m.get("cheap_pool").value_or(m.get("filter_pool").value_or(m.self()));
        r.value_error(at, "cheap_pool <= filter_pool (" + std::to_string(p.filter_pool) + ")",
                      std::to_string(p.cheap_pool));
    }
    return p;
}

std::string proposer_options_yaml(const ProposerOptions& p, std::string_view indent) {
    const ProposerOptions defaults;
    std::ostringstream out;
    for (const Option& o : options()) {
        const std::string value = text_of(o, p);
        if (value != text_of(o, defaults)) out << indent << o.name << ": " << value << '\n';
    }
    return out.str();
}

}  // namespace pimdse::io::detail
