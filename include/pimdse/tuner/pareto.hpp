#pragma once
// The Pareto archive of a sweep: the non-dominated set of evaluated candidates over the
// configured objectives (all minimised, e.g. total latency, total energy, area), and its
// exact hypervolume for two, three and four objectives against a reference point.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace pimdse::tuner {

struct ParetoPoint {
    std::int64_t candidate = 0;
    std::vector<double> objectives;
    friend bool operator==(const ParetoPoint&, const ParetoPoint&) = default;
};

/// a dominates b: no objective worse and at least one better (minimisation).
[[nodiscard]] bool dominates(std::span<const double> a, std::span<const double> b);

class ParetoArchive {
public:
    /// Throws std::invalid_argument for zero objectives.
    explicit ParetoArchive(std::size_t objectives);

    /// Offers one evaluated point. Returns true when it joins the front (it then evicts the
    /// points it dominates); points with a non-finite objective, dominated points and exact
    /// duplicates of a front point's objectives (the lower candidate id is kept) do not join.
    /// Throws std::invalid_argument when the size differs from objectives().
    bool insert(std::int64_t candidate, std::span<const double> objectives);

    /// The front, sorted by candidate id: the same for any insertion order.
    [[nodiscard]] const std::vector<ParetoPoint>& front() const { return front_; }
    [[nodiscard]] std::size_t objectives() const { return objectives_; }

private:
    std::size_t objectives_;
    std::vector<ParetoPoint> front_;
};

/// Exact hypervolume (minimisation) of the region dominated by `points` and bounded by
/// `reference`, for 2, 3 or 4 objectives (four: O(n² log n), for small archives); points not strictly below
/// the reference in every objective contribute nothing. Throws std::invalid_argument for other dimensions or
/// mismatched sizes.
[[nodiscard]] double hypervolume(std::span<const ParetoPoint> points, std::span<const double> reference);

/// Each point's exclusive contribution: hypervolume(all) - hypervolume(all but that point).
[[nodiscard]] std::vector<double> hypervolume_contributions(std::span<const ParetoPoint> points,
                                                            std::span<const double> reference);

}  // namespace pimdse::tuner
