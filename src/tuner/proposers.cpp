#include "pimdse/tuner/proposers.hpp"

#include <stdexcept>
#include <string>

#include "history.hpp"

namespace pimdse::tuner {

const std::vector<std::string_view>& proposer_names() {
    static const std::vector<std::string_view> names{"random"};
    return names;
}

std::unique_ptr<Proposer> make_proposer(std::string_view name, const ProposerContext& context,
                                        const ProposerOptions& options) {
    if (name == "random") return make_random(context, options);
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
    throw std::invalid_argument(msg);
}

}  // namespace pimdse::tuner
