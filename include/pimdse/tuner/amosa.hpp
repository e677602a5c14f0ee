#pragma once
// AMOSA, archived multi-objective simulated annealing (Bandyopadhyay, Saha, Maulik and Deb,
// "A Simulated Annealing-Based Multiobjective Optimization Algorithm: AMOSA", IEEE TEC 12(3),
// 2008), as a unit of its own: the archive with its hard and soft limits and single-linkage
// clustering (the paper's section III-A and III-B), the amount of domination (III-C), the
// three acceptance cases of the main process with their probabilities (III-D) and the
// geometric temperature schedule. It sees objective vectors (all minimised) and opaque
// solution ids only, never a design space, a family or the engine. Two drivers use it:
// `Annealer`, several chains over one archive told their results by ask/tell (the "amosa"
// proposer, docs/tuner.md), and `minimise`, the paper's serial loop on an in-process
// objective function given as callbacks.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "pimdse/core/rng.hpp"

namespace pimdse::tuner::amosa {

/// The parameters of section III-D: the schedule T_max, T_min, alpha and iterations per
/// temperature, and the archive's hard limit HL and soft limit SL.
struct Settings {
    double t_max = 200;
    double t_min = 1e-7;
    double alpha = 0.8;
    std::int64_t iterations = 500;  ///< evaluations per temperature
    std::size_t hard_limit = 100;
    std::size_t soft_limit = 110;
};

/// Throws std::invalid_argument naming the first setting out of range: 0 < t_min <= t_max,
/// 0 < alpha <= 1, iterations >= 1, 1 <= hard_limit <= soft_limit.
void validate(const Settings& s);

/// How many temperatures of the schedule T_max alpha^k are at least T_min (0 for alpha = 1:
/// the temperature never falls).
[[nodiscard]] std::int64_t temperatures(const Settings& s);

/// The temperature of the evaluation told `told` evaluations into the run: T_max alpha^k,
/// k = told / iterations, restarting at T_max once the schedule has passed T_min (k taken
/// modulo temperatures()), so that a run longer than one schedule anneals again.
[[nodiscard]] double temperature(const Settings& s, std::int64_t told);

/// One solution as the archive sees it: an id the caller chose and its objective vector.
struct Member {
    std::int64_t id = 0;
    std::vector<double> objectives;
    friend bool operator==(const Member&, const Member&) = default;
};

/// R_i of section III-C: per objective, the range (max - min) over the archive's members
/// and the points a and b (the current and the new point).
[[nodiscard]] std::vector<double> ranges(std::span<const Member> archive, std::span<const double> a,
                                         std::span<const double> b);

/// The amount of domination of section III-C, Delta dom_{a,b} = prod over the objectives i
/// with f_i(a) != f_i(b) of |f_i(a) - f_i(b)| / R_i; 0 when a and b are equal.
[[nodiscard]] double domination_amount(std::span<const double> a, std::span<const double> b,
                                       std::span<const double> ranges);

/// Cases 1 and 2(a) of section III-D: the new point becomes current with probability
/// 1 / (1 + exp(Delta dom_avg * temp)), the equation as the paper prints it.
[[nodiscard]] double accept_dominated(double dom_avg, double temperature);

/// Case 3(a): the archive member nearest in domination becomes current with probability
/// 1 / (1 + exp(-Delta dom_min)).
[[nodiscard]] double accept_archive_member(double dom_min);

/// The archive of section III-A: mutually non-dominated members kept sorted by id. Whenever
/// an addition takes it past the soft limit SL it is clustered down to the hard limit HL.
class Archive {
public:
    /// Throws std::invalid_argument for zero objectives or limits outside 1 <= HL <= SL.
    Archive(std::size_t objectives, std::size_t hard_limit, std::size_t soft_limit);

    [[nodiscard]] const std::vector<Member>& members() const { return members_; }
    [[nodiscard]] std::size_t objectives() const { return objectives_; }

    /// Adds m unless a member dominates it or has its exact objectives (then returns false);
    /// evicts the members m dominates, then clusters to HL if the size passed SL. Throws
    /// std::invalid_argument for a size other than objectives() or a non-finite objective.
    bool add(Member m);

    /// Single-linkage clustering (section III-B) down to `size` members, if larger.
    void cluster(std::size_t size);

private:
    std::size_t objectives_;
    std::size_t hard_limit_, soft_limit_;
    std::vector<Member> members_;
};

/// Single-linkage clustering of the members' objective vectors (each objective scaled by its
/// range over the members) into min(clusters, members) clusters: the minimum spanning tree
/// less its clusters - 1 longest edges. Returns each cluster's representative, the member
/// with the least summed distance to the others of its cluster (ties: the lower index), as
/// indices into `members`, ascending.
[[nodiscard]] std::vector<std::size_t> cluster_representatives(std::span<const Member> members,
                                                               std::size_t clusters);

/// Which case of section III-D a step took.
enum class Case : std::uint8_t {
    one,      ///< the current point dominates the new one
    two_a,    ///< neither dominates the other; archive members dominate the new point
    two_b,    ///< neither dominates; the new point is non-dominated w.r.t. the archive
    two_c,    ///< neither dominates; the new point dominates archive members
    three_a,  ///< the new point dominates the current one; archive members dominate it
    three_b,  ///< the new point dominates the current one and is non-dominated w.r.t. the archive
    three_c,  ///< the new point dominates the current one and archive members
    start,    ///< the chain had no current point: the new one becomes current
    failed,   ///< the evaluation failed or was infeasible: nothing changes
};

/// What one step did.
struct Step {
    Case which = Case::start;
    double probability = 1;  ///< of the move left to chance (cases 1, 2(a), 3(a)); else 1
    Member current;          ///< the chain's current point after the step
};

/// One iteration of section III-D: a chain at `current` evaluated `next` at temperature
/// `temp`. Updates the archive (cases 2(b), 2(c), 3(b), 3(c)) and returns the new current
/// point; a chance move happens when `u` (uniform in [0, 1)) is below its probability.
[[nodiscard]] Step step(Archive& archive, const Member& current, const Member& next, double temp, double u);

/// Several annealing chains over one archive, told their evaluations one by one (ask/tell):
/// the caller proposes a neighbour of each chain's current point and tells the result. The
/// temperature follows the schedule over all evaluations told, in the order told.
class Annealer {
public:
    /// Throws std::invalid_argument for invalid settings or zero objectives.
    Annealer(std::size_t objectives, const Settings& settings);

    /// Chain `chain`'s current point; empty before it was told a feasible point.
    [[nodiscard]] const std::optional<Member>& current(std::size_t chain) const;
    [[nodiscard]] std::size_t chains() const { return current_.size(); }

    /// Sets chain `chain`'s current point (the paper's step 3 picks an archive member).
    void start(std::size_t chain, Member m);

    /// Offers a point to the archive without moving a chain (the paper's initialisation).
    bool seed(Member m) { return archive_.add(std::move(m)); }

    /// Tells the evaluation of a point chain `chain` proposed: its objectives, or nullopt when
    /// it failed or was infeasible, or when an objective is not finite (the point never enters
    /// the archive and the chain stays where it is). A chain without a current point moves to a feasible one,
    /// which joins the archive unless dominated. Every tell advances the schedule by one iteration.
    Step tell(std::size_t chain, std::int64_t id, std::optional<std::span<const double>> objectives,
              double u);

    /// The temperature the next tell is judged at.
    [[nodiscard]] double temperature() const { return amosa::temperature(settings_, told_); }
    [[nodiscard]] std::int64_t told() const { return told_; }
    [[nodiscard]] const Archive& archive() const { return archive_; }
    [[nodiscard]] const Settings& settings() const { return settings_; }

private:
    Settings settings_;
    Archive archive_;
    std::vector<std::optional<Member>> current_;
    std::int64_t told_ = 0;
};

/// What `minimise` returns: the final archive's solutions and objective vectors, in the
/// order they were evaluated, and the evaluations spent.
template <class Solution>
struct Result {
    std::vector<Solution> solutions;
    std::vector<std::vector<double>> objectives;
    std::int64_t evaluations = 0;
};

/// The serial AMOSA of section III-D on an in-process objective function. `evaluate(s)`
/// returns a solution's objectives (std::optional<std::vector<double>>, empty when it is
/// infeasible); `perturb(s, rng)` returns a neighbour. The initial solutions (the paper's
/// gamma SL random ones, refined as the caller sees fit) seed the archive, a random member
/// of which is the first current point; the loop then runs one schedule from T_max until the
/// temperature falls below T_min, or `max_evaluations` (0: no limit) are spent. Throws
/// std::invalid_argument for invalid settings, and for alpha = 1 without max_evaluations.
template <class Solution, class Evaluate, class Perturb>
[[nodiscard]] Result<Solution> minimise(const Settings& settings, std::size_t objectives,
                                        const std::vector<Solution>& initial, Evaluate evaluate,
                                        Perturb perturb, Rng& rng, std::int64_t max_evaluations = 0) {
    Annealer annealer(objectives, settings);
    if (temperatures(settings) == 0 && max_evaluations <= 0)
        throw std::invalid_argument("amosa::minimise: alpha = 1 never cools: give max_evaluations");
    std::vector<Solution> seen;  // index = id
    Result<Solution> out;
    for (const Solution& s : initial) {
        const auto f = evaluate(s);
        seen.push_back(s);
        if (f) (void)annealer.seed(Member{static_cast<std::int64_t>(seen.size() - 1), *f});
    }
    const auto& members = annealer.archive().members();
    const std::int64_t length = temperatures(settings) * settings.iterations;  // 0: endless
    const auto more = [&](std::int64_t n) {
        return (length == 0 || n < length) &&
               (max_evaluations == 0 || static_cast<std::int64_t>(seen.size()) < max_evaluations);
    };
    if (!members.empty()) {
        const auto pick = rng.uniform_int(0, static_cast<std::int64_t>(members.size()) - 1);
        annealer.start(0, members[static_cast<std::size_t>(pick)]);
        while (more(annealer.told())) {
            Solution next = perturb(seen[static_cast<std::size_t>(annealer.current(0)->id)], rng);
            const auto f = evaluate(next);
            seen.push_back(std::move(next));
            const auto id = static_cast<std::int64_t>(seen.size() - 1);
            std::optional<std::span<const double>> objs;
            if (f) objs = std::span<const double>(*f);
            (void)annealer.tell(0, id, objs, rng.uniform01());
        }
    }
    for (const Member& m : members) {
        out.solutions.push_back(seen[static_cast<std::size_t>(m.id)]);
        out.objectives.push_back(m.objectives);
    }
    out.evaluations = static_cast<std::int64_t>(seen.size());
    return out;
}

}  // namespace pimdse::tuner::amosa
