// The family registry and the interface's defaults (include/pimdse/family/family.hpp).

#include <mutex>
#include <utility>

#include "crossbar/crossbar_family.hpp"
#include "dram_pim/dram_pim_family.hpp"
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
    std::vector<Entry> entries{{"dram_pim", make_dram_pim}, {"crossbar", make_crossbar}};
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
    return factory(config, id);
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
