#pragma once
// What every proposer keeps of the ask/tell exchange: the observations in the order told and
// the set of points already evaluated. Private to src/tuner/.

#include <chrono>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/tuner/encoding.hpp"
#include "pimdse/tuner/proposer.hpp"
#include "pimdse/tuner/proposers.hpp"

namespace pimdse::tuner {

class HistoryProposer : public Proposer {
public:
    HistoryProposer(const ProposerContext& context, const ProposerOptions& options, std::uint64_t stream)
        : context_(context),
          options_(options),
          sampler_(context.space, context.legal),
          encoding_(context.space),
          stream_(stream) {}

    void observe(std::span<const Observation> batch) override {
        for (const Observation& o : batch) {
            history_.push_back(o);
            seen_.insert(o.params);
        }
    }

    // In-flight points join the observed ones: both only ever grow, and a resumed run tells
    // the in-flight points of the interrupted one, so the union before each propose() is the
    // points of every earlier batch in both runs.
    void exclude(std::span<const DesignPoint> points) override {
        for (const DesignPoint& p : points) seen_.insert(p);
    }

    [[nodiscard]] ProposalStats last_stats() const override { return stats_; }

protected:
    /// The stream of batch `batch`: a function of (seed, proposer, batch) only.
    [[nodiscard]] Rng batch_rng(std::int64_t batch) const {
        return Rng(context_.seed, stream_).split(static_cast<std::uint64_t>(batch));
    }
    [[nodiscard]] std::uint64_t stream() const { return stream_; }

    /// The end of a proposal: tops `out` up to `count` with uniform legal points not in
    /// `exclude` and records the proposal's stats (time since `start`, points returned).
    [[nodiscard]] std::vector<DesignPoint> finish_with_uniform(std::vector<DesignPoint> out, Rng& rng,
                                                               int count, const PointSet& exclude,
                                                               std::chrono::steady_clock::time_point start) {
        const std::vector<DesignPoint> rest = sampler_.sample(rng, count - std::ssize(out), exclude);
        out.insert(out.end(), rest.begin(), rest.end());
        stats_ = {};
        stats_.propose_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        stats_.samples = std::ssize(out);
        return out;
    }

    ProposerContext context_;
    ProposerOptions options_;
    LegalSampler sampler_;
    Encoding encoding_;
    std::vector<Observation> history_;
    PointSet seen_;  ///< observed or excluded: never proposed again
    ProposalStats stats_;

private:
    std::uint64_t stream_;
};

// Stream ids, one per proposer, so that two proposers with one seed draw differently.
inline constexpr std::uint64_t kRandomStream = 0x52414E44;     // "RAND"
inline constexpr std::uint64_t kGpStream = 0x47502020;         // "GP  "
inline constexpr std::uint64_t kNicepimStream = 0x4E494345;    // "NICE"
inline constexpr std::uint64_t kAnnealingStream = 0x414E4E4C;  // "ANNL"
inline constexpr std::uint64_t kEvolutionStream = 0x45564F4C;  // "EVOL"
inline constexpr std::uint64_t kAmosaStream = 0x414D4F53;      // "AMOS"
inline constexpr std::uint64_t kXgboostStream = 0x58474220;    // "XGB "

[[nodiscard]] std::unique_ptr<Proposer> make_random(const ProposerContext& context,
                                                    const ProposerOptions& options);
[[nodiscard]] std::unique_ptr<Proposer> make_grid(const ProposerContext& context,
                                                  const ProposerOptions& options);
/// "gp" or "nicepim".
[[nodiscard]] std::unique_ptr<Proposer> make_bayes(std::string_view name, const ProposerContext& context,
                                                   const ProposerOptions& options);
[[nodiscard]] std::unique_ptr<Proposer> make_annealing(const ProposerContext& context,
                                                       const ProposerOptions& options);
[[nodiscard]] std::unique_ptr<Proposer> make_evolution(const ProposerContext& context,
                                                       const ProposerOptions& options);
[[nodiscard]] std::unique_ptr<Proposer> make_amosa(const ProposerContext& context,
                                                   const ProposerOptions& options);
[[nodiscard]] std::unique_ptr<Proposer> make_xgboost(const ProposerContext& context,
                                                     const ProposerOptions& options);

}  // namespace pimdse::tuner
