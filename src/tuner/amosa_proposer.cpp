// "amosa": archived multi-objective simulated annealing (AMOSA, include/pimdse/tuner/amosa.hpp)
// over the legal points, batch-parallel: C chains (the sweep's batch size) share one archive,
// and a batch holds one neighbour of each chain's current point. Candidate id i belongs to
// chain i mod C. A batch's ids are known when it is proposed: the engine numbers candidates
// in the order proposed, from 0, and before each proposal every earlier point is observed or
// excluded, so the batch's first id is the number of points seen. The chain of an
// observation is thus a function of its id alone, and a resumed proposer told the stored
// batches rebuilds every chain and the archive exactly. The state is a function of the
// observations told (in order) and the seed (docs/tuner.md, "amosa").

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "history.hpp"
#include "mutation.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/tuner/amosa.hpp"

namespace pimdse::tuner {
namespace {

amosa::Settings settings_of(const ProposerOptions& o) {
    amosa::Settings s;
    s.t_max = o.amosa_t_max;
    s.t_min = o.amosa_t_min;
    s.alpha = o.amosa_alpha;
    s.iterations = o.amosa_iterations;
    s.hard_limit = static_cast<std::size_t>(o.amosa_hard_limit);
    s.soft_limit = static_cast<std::size_t>(o.amosa_soft_limit);
    return s;
}

// Chains without the sweep's batch size (a caller outside the engine).
constexpr std::int64_t kDefaultChains = 16;

bool usable(const Observation& o) {
    if (o.outcome != Outcome::ok || o.objectives.empty()) return false;
    for (double f : o.objectives) {
        if (!std::isfinite(f)) return false;
    }
    return true;
}

class AmosaProposer final : public HistoryProposer {
public:
    AmosaProposer(const ProposerContext& context, const ProposerOptions& options)
        : HistoryProposer(context, options, kAmosaStream),
          settings_(settings_of(options)),
          chains_(context.batch_size > 0 ? context.batch_size : kDefaultChains) {
        amosa::validate(settings_);
    }

    [[nodiscard]] std::string_view name() const override { return "amosa"; }

    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t batch, int count) override {
        const auto start = std::chrono::steady_clock::now();
        Rng rng = batch_rng(batch);
        PointSet exclude = seen_;
        ParamWeights uniform;
        uniform.fill(1.0);
        // Position i will be candidate first + i, a neighbour of its chain's current point; a
        // chain without one, or whose neighbourhood is used up, takes a uniform legal point.
        const auto first = static_cast<std::int64_t>(seen_.size());
        std::vector<std::optional<DesignPoint>> slots(static_cast<std::size_t>(std::max(count, 0)));
        int missing = 0;
        for (std::size_t i = 0; i < slots.size(); ++i) {
            const std::size_t chain = chain_of(first + static_cast<std::int64_t>(i));
            const std::optional<amosa::Member>* at = annealer_ ? &annealer_->current(chain) : nullptr;
            if (at != nullptr && at->has_value()) {
                const std::vector<DesignPoint> parent{points_.at((*at)->id)};
                std::vector<DesignPoint> m =
                    mutants(sampler_, encoding_, parent, 1, rng, options_.amosa_step, uniform, exclude);
                if (!m.empty()) {
                    slots[i] = std::move(m.front());
                    continue;
                }
            }
            ++missing;
        }
        std::vector<DesignPoint> fill = sampler_.sample(rng, missing, exclude);
        std::vector<DesignPoint> out;
        std::size_t next = 0;
        for (auto& slot : slots) {
            if (slot)
                out.push_back(std::move(*slot));
            else if (next < fill.size())
                out.push_back(std::move(fill[next++]));
        }
        stats_ = {};
        stats_.propose_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        stats_.samples = std::ssize(out);
        return out;
    }

    void observe(std::span<const Observation> batch) override {
        HistoryProposer::observe(batch);
        const Rng accept(context_.seed, kAmosaStream ^ 0x41435054);  // "ACPT"
        for (const Observation& o : batch) {
            const bool ok = usable(o);
            if (ok && !annealer_) annealer_.emplace(o.objectives.size(), settings_);
            if (!annealer_) continue;  // nothing feasible yet: no chain has moved
            if (ok && o.objectives.size() != annealer_->archive().objectives()) {
                throw ModelError("tuner amosa: candidate " + std::to_string(o.candidate) + " has " +
                                 std::to_string(o.objectives.size()) + " objectives, the archive has " +
                                 std::to_string(annealer_->archive().objectives()));
            }
            std::optional<std::span<const double>> objectives;
            if (ok) {
                objectives = std::span<const double>(o.objectives);
                points_.emplace(o.candidate, o.params);
            }
            const double u = accept.split(static_cast<std::uint64_t>(o.candidate)).uniform01();
            (void)annealer_->tell(chain_of(o.candidate), o.candidate, objectives, u);
        }
    }

private:
    [[nodiscard]] std::size_t chain_of(std::int64_t id) const {
        return static_cast<std::size_t>(id % chains_);
    }

    amosa::Settings settings_;
    std::int64_t chains_;
    std::optional<amosa::Annealer> annealer_;               // made at the first feasible observation
    std::unordered_map<std::int64_t, DesignPoint> points_;  // the feasible observations by id
};

}  // namespace

std::unique_ptr<Proposer> make_amosa(const ProposerContext& context, const ProposerOptions& options) {
    return std::make_unique<AmosaProposer>(context, options);
}

}  // namespace pimdse::tuner
