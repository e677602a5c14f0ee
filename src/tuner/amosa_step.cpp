// AMOSA's main process (section III-D of Bandyopadhyay et al., "A Simulated Annealing-Based
// Multiobjective Optimization Algorithm: AMOSA", IEEE TEC 12(3), 2008): the three cases of
// the new point's domination status against the current point and the archive, and the
// chains of the ask/tell Annealer (include/pimdse/tuner/amosa.hpp).

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "pimdse/tuner/amosa.hpp"
#include "pimdse/tuner/pareto.hpp"

namespace pimdse::tuner::amosa {
namespace {

// The archive members that dominate `p`, and whether `p` dominates any member.
struct Status {
    std::vector<std::size_t> dominating;
    bool dominates_some = false;
};

Status status(const Archive& archive, std::span<const double> p) {
    Status s;
    const std::vector<Member>& m = archive.members();
    for (std::size_t i = 0; i < m.size(); ++i) {
        if (dominates(m[i].objectives, p))
            s.dominating.push_back(i);
        else if (dominates(p, m[i].objectives))
            s.dominates_some = true;
    }
    return s;
}

// Sum of Delta dom over the dominating members.
double dominating_sum(const Archive& archive, const Status& s, std::span<const double> p,
                      std::span<const double> range) {
    double sum = 0;
    for (std::size_t i : s.dominating) sum += domination_amount(archive.members()[i].objectives, p, range);
    return sum;
}

}  // namespace

Step step(Archive& archive, const Member& current, const Member& next, double temp, double u) {
    const std::vector<double> range = ranges(archive.members(), current.objectives, next.objectives);
    const Status s = status(archive, next.objectives);
    const auto k = static_cast<double>(s.dominating.size());
    Step out;
    if (dominates(current.objectives, next.objectives)) {
        // Case 1: Delta dom_avg over the k dominating members and the current point.
        const double avg = (dominating_sum(archive, s, next.objectives, range) +
                            domination_amount(current.objectives, next.objectives, range)) /
                           (k + 1);
        out.which = Case::one;
        out.probability = accept_dominated(avg, temp);
        out.current = u < out.probability ? next : current;
        return out;
    }
    if (!dominates(next.objectives, current.objectives)) {  // Case 2: neither dominates
        if (!s.dominating.empty()) {
            out.which = Case::two_a;
            out.probability = accept_dominated(dominating_sum(archive, s, next.objectives, range) / k, temp);
            out.current = u < out.probability ? next : current;
            return out;
        }
        out.which = s.dominates_some ? Case::two_c : Case::two_b;
        out.current = next;
        (void)archive.add(next);  // evicts what it dominates; clusters past SL
        return out;
    }
    // Case 3: the new point dominates the current one.
    if (!s.dominating.empty()) {
        // 3(a): the dominating member of least Delta dom is taken by chance, else the new point.
        std::size_t nearest = s.dominating[0];
        double least = domination_amount(archive.members()[nearest].objectives, next.objectives, range);
        for (std::size_t i : s.dominating) {
            const double d = domination_amount(archive.members()[i].objectives, next.objectives, range);
            if (d < least) {
                least = d;
                nearest = i;
            }
        }
        out.which = Case::three_a;
        out.probability = accept_archive_member(least);
        out.current = u < out.probability ? archive.members()[nearest] : next;
        return out;
    }
    // 3(b), 3(c): the new point joins; the current point, if archived, is evicted with the
    // other members it dominates.
    out.which = s.dominates_some ? Case::three_c : Case::three_b;
    out.current = next;
    (void)archive.add(next);
    return out;
}

Annealer::Annealer(std::size_t objectives, const Settings& settings)
    : settings_((validate(settings), settings)),
      archive_(objectives, settings.hard_limit, settings.soft_limit) {}

const std::optional<Member>& Annealer::current(std::size_t chain) const {
    static const std::optional<Member> none;
    return chain < current_.size() ? current_[chain] : none;
}

void Annealer::start(std::size_t chain, Member m) {
    if (m.objectives.size() != archive_.objectives())
        throw std::invalid_argument("amosa::Annealer::start: " + std::to_string(m.objectives.size()) +
                                    " objectives, the archive has " + std::to_string(archive_.objectives()));
    if (chain >= current_.size()) current_.resize(chain + 1);
    current_[chain] = std::move(m);
}

Step Annealer::tell(std::size_t chain, std::int64_t id, std::optional<std::span<const double>> objectives,
                    double u) {
    const double temp = temperature();
    ++told_;
    if (chain >= current_.size()) current_.resize(chain + 1);
    std::optional<Member>& at = current_[chain];
    Step out;
    if (objectives &&
        !std::all_of(objectives->begin(), objectives->end(), [](double f) { return std::isfinite(f); }))
        objectives.reset();  // a non-finite objective counts as a failure
    if (!objectives) {
        out.which = Case::failed;
        if (at) out.current = *at;
        return out;
    }
    Member next{id, std::vector<double>(objectives->begin(), objectives->end())};
    if (next.objectives.size() != archive_.objectives())
        throw std::invalid_argument("amosa::Annealer::tell: " + std::to_string(next.objectives.size()) +
                                    " objectives, the archive has " + std::to_string(archive_.objectives()));
    if (!at) {
        out.which = Case::start;
        out.current = next;
        (void)archive_.add(next);  // the paper's initial archive: the non-dominated start points
        at = std::move(next);
        return out;
    }
    out = step(archive_, *at, next, temp, u);
    at = out.current;
    return out;
}

}  // namespace pimdse::tuner::amosa
