// "grid": every legal point of the space exactly once, in index order (lexicographic in
// Param order, the last parameter fastest), skipping observed and in-flight points; for a
// space small enough to evaluate whole, where sampling would waste evaluations on chance.

#include <chrono>

#include "history.hpp"

namespace pimdse::tuner {
namespace {

class GridProposer final : public HistoryProposer {
public:
    GridProposer(const ProposerContext& context, const ProposerOptions& options)
        : HistoryProposer(context, options, 0) {
        for (std::size_t k = 0; k < context.space.dimensions(); ++k) {
            const std::size_t n = context.space.range(k).size();
            sizes_[k] = n;
            if (n == 0) done_ = true;
        }
    }

    [[nodiscard]] std::string_view name() const override { return "grid"; }

    // The cursor only skips points that stay skipped (illegal, observed or in flight), so a
    // fresh proposer told the same history proposes the same points: it just walks further.
    [[nodiscard]] std::vector<DesignPoint> propose(std::int64_t /*batch*/, int count) override {
        const auto start = std::chrono::steady_clock::now();
        std::vector<DesignPoint> out;
        while (!done_ && std::ssize(out) < count) {
            const DesignPoint p = context_.space.at(cursor_);
            if (sampler_.legal(p) && !seen_.contains(p)) out.push_back(p);
            advance();
        }
        stats_ = {};
        stats_.propose_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        stats_.samples = std::ssize(out);
        return out;
    }

private:
    // The next index, the last parameter fastest; done_ after the last point.
    void advance() {
        for (std::size_t k = context_.space.dimensions(); k-- > 0;) {
            if (++cursor_[k] < sizes_[k]) return;
            cursor_[k] = 0;
        }
        done_ = true;
    }

    DesignSpace::Index sizes_{};
    DesignSpace::Index cursor_{};
    bool done_ = false;
};

}  // namespace

std::unique_ptr<Proposer> make_grid(const ProposerContext& context, const ProposerOptions& options) {
    return std::make_unique<GridProposer>(context, options);
}

}  // namespace pimdse::tuner
