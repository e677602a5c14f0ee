#include "pimdse/tuner/proposers.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "history.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/tuner/filter.hpp"

namespace pimdse::tuner {

const std::vector<std::string_view>& proposer_names() {
    static const std::vector<std::string_view> names{"random",    "grid",      "gp",    "nicepim",
                                                     "annealing", "evolution", "amosa", "xgboost"};
    return names;
}

namespace {

void require(bool ok, const char* what) {
    if (ok) return;
    std::string msg = "tuner::make_proposer: invalid option: ";
    msg += what;
    throw ModelError(msg);
}

void validate(const ProposerContext& c, const ProposerOptions& o) {
    require(c.samples_per_round >= 1, "samples_per_round >= 1");
    require(o.initial_random >= 0, "initial_random >= 0");
    require(o.ucb_kappa >= 0, "ucb_kappa >= 0");
    require(!o.hidden.empty(), "hidden has at least one layer");
    for (int w : o.hidden) require(w >= 1, "hidden layer widths >= 1");
    require(o.fit_max >= 2, "fit_max >= 2");
    require(o.fit_best >= 0 && o.fit_best <= o.fit_max, "0 <= fit_best <= fit_max");
    require(o.retrain_growth >= 1, "retrain_growth >= 1");
    require(o.gp_steps >= 0 && o.dkl_steps >= 0, "gp_steps, dkl_steps >= 0");
    require(o.gp_learning_rate > 0 && o.dkl_learning_rate > 0, "learning rates > 0");
    require(o.failure_margin >= 0, "failure_margin >= 0");
    require(o.local_fraction >= 0 && o.local_fraction <= 1, "local_fraction in [0, 1]");
    require(o.local_step > 0, "local_step > 0");
    require(o.samples_per_candidate >= 1, "samples_per_candidate >= 1");
    require(o.believer_max >= 1, "believer_max >= 1");
    require(o.parego_weights >= 1, "parego_weights >= 1");
    require(o.anneal_initial_temperature >= 0, "anneal_initial_temperature >= 0");
    require(o.anneal_cooling > 0 && o.anneal_cooling <= 1, "anneal_cooling in (0, 1]");
    require(o.anneal_step > 0, "anneal_step > 0");
    require(o.evolution_parents >= 2, "evolution_parents >= 2");
    require(o.evolution_mutation_step > 0, "evolution_mutation_step > 0");
    require(o.amosa_t_max > 0 && std::isfinite(o.amosa_t_max), "amosa_t_max > 0");
    require(o.amosa_t_min > 0 && o.amosa_t_min <= o.amosa_t_max, "0 < amosa_t_min <= amosa_t_max");
    require(o.amosa_alpha > 0 && o.amosa_alpha <= 1, "amosa_alpha in (0, 1]");
    require(o.amosa_iterations >= 1, "amosa_iterations >= 1");
    require(o.amosa_hard_limit >= 1 && o.amosa_hard_limit <= o.amosa_soft_limit,
            "1 <= amosa_hard_limit <= amosa_soft_limit");
    require(o.amosa_step > 0, "amosa_step > 0");
    require(o.xgb_trees >= 1, "xgb_trees >= 1");
    require(o.xgb_depth >= 1, "xgb_depth >= 1");
    require(o.xgb_eta > 0 && o.xgb_eta <= 1, "xgb_eta in (0, 1]");
    require(o.xgb_ensemble >= 2, "xgb_ensemble >= 2");
    require(o.filter_pool >= 1, "filter_pool >= 1");
    require(o.cheap_pool >= 1, "cheap_pool >= 1");
    require(o.cheap_fidelity == CheapFidelity::none || o.cheap_pool <= o.filter_pool,
            "cheap_pool <= filter_pool");
    require(o.cheap_fidelity == CheapFidelity::none || static_cast<bool>(c.cheap_costs),
            "cheap_fidelity needs the evaluation's cheap costs (ProposerContext::cheap_costs)");
}

std::unique_ptr<Proposer> make_unfiltered(std::string_view name, const ProposerContext& context,
                                          const ProposerOptions& options) {
    if (name == "random") return make_random(context, options);
    if (name == "grid") return make_grid(context, options);
    if (name == "gp" || name == "nicepim") return make_bayes(name, context, options);
    if (name == "annealing") return make_annealing(context, options);
    if (name == "evolution") return make_evolution(context, options);
    if (name == "amosa") return make_amosa(context, options);
    if (name == "xgboost") return make_xgboost(context, options);
    return nullptr;
}

}  // namespace

std::unique_ptr<Proposer> make_proposer(std::string_view name, const ProposerContext& context,
                                        const ProposerOptions& options) {
    validate(context, options);
    if (std::unique_ptr<Proposer> p = make_unfiltered(name, context, options)) {
        if (options.filter == FilterPredictor::none && options.cheap_fidelity == CheapFidelity::none)
            return p;
        return make_filtered(std::move(p), context, options);
    }
    std::string msg = "tuner::make_proposer: unknown proposer '";
    msg += name;
    msg += "' (known: ";
    bool first = true;
    for (std::string_view n : proposer_names()) {
        if (!first) msg += ", ";
        msg += n;
        first = false;
    }
    msg += ')';
    throw ModelError(msg);
}

}  // namespace pimdse::tuner
