// "random": uniform over the legal points of the space that have not been evaluated; the
// baseline of NicePIM VIII-C (Fig. 9).

#include <chrono>

#include "history.hpp"

namespace pimdse::tuner {
namespace {

class RandomProposer final : public HistoryProposer {
public:
    RandomProposer(const ProposerContext& context, const ProposerOptions& options)
        : HistoryProposer(context, options, kRandomStream) {}

    [[nodiscard]] std::string_view name() const override { return "random"; }

    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t batch, int count) override {
        const auto start = std::chrono::steady_clock::now();
        Rng rng = batch_rng(batch);
        return finish_with_uniform({}, rng, count, seen_, start);
    }
};

}  // namespace

std::unique_ptr<Proposer> make_random(const ProposerContext& context, const ProposerOptions& options) {
    return std::make_unique<RandomProposer>(context, options);
}

}  // namespace pimdse::tuner
