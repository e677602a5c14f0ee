// The family registry and the interface's defaults (include/pimdse/family/family.hpp).

#include <algorithm>
#include <mutex>
#include <utility>

#include "crossbar/crossbar_family.hpp"
#include "dram_pim/dram_pim_family.hpp"
#include "hetero3d/hetero3d_family.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/family/family.hpp"

namespace pimdse::family {

namespace {

struct Entry {
    std::string name;
    Factory factory;
};

// Registration happens at setup (and in tests), lookups after; one lock keeps both safe.
struct Registry {
    std::mutex lock;
    std::vector<Entry> entries{
        {"dram_pim", make_dram_pim}, {"crossbar", make_crossbar}, {"hetero3d", make_hetero3d}};
};

Registry& registry() {
    static Registry r;
    return r;
}

}  // namespace

FamilyId register_family(std::string name, Factory factory) {
    Registry& r = registry();
    const std::lock_guard<std::mutex> hold(r.lock);
    for (const Entry& e : r.entries) {
        if (e.name == name) throw InternalError("register_family: a family named '" + name + "' exists");
    }
    r.entries.push_back({std::move(name), std::move(factory)});
    return static_cast<FamilyId>(r.entries.size() - 1);
}

std::vector<std::string> family_names() {
    Registry& r = registry();
    const std::lock_guard<std::mutex> hold(r.lock);
    std::vector<std::string> out;
    for (const Entry& e : r.entries) out.push_back(e.name);
    return out;
}

namespace {

// Every objective that reads a family metric (io::objective_metric) names one `family` reports.
void check_objectives(const io::Config& config, const Family& family) {
    for (io::Objective o : config.engine.objectives) {
        const std::string_view metric = io::objective_metric(o);
        if (metric.empty()) continue;
        const std::vector<Metric>& have = family.metrics();
        if (std::any_of(have.begin(), have.end(), [&](const Metric& m) { return m.name == metric; }))
            continue;
        std::string reported;
        for (const Metric& m : have) reported += (reported.empty() ? "" : ", ") + m.name;
        std::string problem = "the objective '" + std::string(io::to_string(o)) + "' reads the metric '" +
                              std::string(metric) + "', which family " + std::string(family.name()) +
                              " does not report (it reports " + (reported.empty() ? "none" : reported) + ")";
        if (o == io::Objective::accuracy_loss)
            problem += "; the crossbar family reports it with crossbar.accuracy_table";
        throw ConfigError({config.source_file.string()}, "engine.objectives", problem);
    }
}

}  // namespace

std::unique_ptr<Family> make_family(const io::Config& config) {
    Factory factory;
    FamilyId id = 0;
    {
        Registry& r = registry();
        const std::lock_guard<std::mutex> hold(r.lock);
        for (std::size_t i = 0; i < r.entries.size(); ++i) {
            if (r.entries[i].name == config.family) {
                factory = r.entries[i].factory;
                id = static_cast<FamilyId>(i);
            }
        }
    }
    if (!factory) {
        std::string known;
        for (const std::string& n : family_names()) known += (known.empty() ? "" : ", ") + n;
        throw ConfigError({config.source_file.string()}, "family",
                          "expected one of " + known + ", got '" + config.family + "'");
    }
    std::unique_ptr<Family> family = factory(config, id);
    check_objectives(config, *family);
    return family;
}

const std::vector<Metric>& Family::metrics() const {
    static const std::vector<Metric> none;
    return none;
}

eval::Evaluation Family::evaluate_synthetic(const eval::EvalContext& /*ctx*/, std::int64_t /*id*/,
                                            const DesignPoint& /*p*/, std::uint64_t /*seed*/,
                                            double /*median_seconds*/) const {
    throw ConfigError({}, "sweep.evaluator",
                      "the " + std::string(name()) + " family has no synthetic evaluator; expected model");
}

std::vector<double> Family::eval_time_prior() const {
    return std::vector<double>(1 + space().dimensions(), 0.0);
}

}  // namespace pimdse::family
