#include "pimdse/tuner/pareto.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include "pimdse/core/error.hpp"

namespace pimdse::tuner {

bool dominates(std::span<const double> a, std::span<const double> b) {
    if (a.size() != b.size()) throw ModelError("tuner::dominates: objective counts differ");
    bool better = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] > b[i]) return false;
        better = better || a[i] < b[i];
    }
    return better;
}

ParetoArchive::ParetoArchive(std::size_t objectives) : objectives_(objectives) {
    if (objectives == 0) throw ModelError("tuner::ParetoArchive: zero objectives");
}

bool ParetoArchive::insert(std::int64_t candidate, std::span<const double> objectives) {
    if (objectives.size() != objectives_) {
        std::string msg = "tuner::ParetoArchive::insert: expected ";
        msg += std::to_string(objectives_);
        msg += " objectives, got ";
        msg += std::to_string(objectives.size());
        throw ModelError(msg);
    }
    for (double v : objectives) {
        if (!std::isfinite(v)) return false;
    }
    for (ParetoPoint& q : front_) {
        if (dominates(q.objectives, objectives)) return false;
        if (std::equal(q.objectives.begin(), q.objectives.end(), objectives.begin())) {
            // An exact duplicate: the lower id represents it, whatever the insertion order.
            if (candidate >= q.candidate) return false;
            q.candidate = candidate;
            std::sort(front_.begin(), front_.end(),
                      [](const ParetoPoint& a, const ParetoPoint& b) { return a.candidate < b.candidate; });
            return true;
        }
    }
    std::erase_if(front_, [&](const ParetoPoint& q) { return dominates(objectives, q.objectives); });
    ParetoPoint p{candidate, std::vector<double>(objectives.begin(), objectives.end())};
    const auto at = std::upper_bound(front_.begin(), front_.end(), candidate,
                                     [](std::int64_t c, const ParetoPoint& q) { return c < q.candidate; });
    front_.insert(at, std::move(p));
    return true;
}

namespace {

// The 2-D staircase of non-dominated (x, y) points (x ascending, y descending) with the area
// it dominates inside the box bounded by the reference (rx, ry), updated point by point in
// O(log n) amortised: the sweep of Beume et al. (IEEE TEC 13(5), 2009) for three objectives.
class Staircase {
public:
    Staircase(double rx, double ry) : rx_(rx), ry_(ry) {}

    void insert(double x, double y) {
        auto it = steps_.lower_bound(x);  // first step with x' >= x
        if (it != steps_.end() && it->first == x && it->second <= y) return;
        double height = ry_;  // the staircase at x, before p: the lowest y of the steps left of x
        if (it != steps_.begin()) {
            height = std::prev(it)->second;
            if (height <= y) return;  // dominated
        }
        // Walk right over the steps p dominates, adding the strip between p and the staircase.
        double cur = x;
        while (it != steps_.end() && it->second >= y) {
            area_ += (it->first - cur) * (height - y);
            cur = it->first;
            height = it->second;
            it = steps_.erase(it);
        }
        const double end = it == steps_.end() ? rx_ : it->first;
        area_ += (end - cur) * (height - y);
        steps_.emplace_hint(it, x, y);
    }

    [[nodiscard]] double area() const { return area_; }

private:
    double rx_, ry_;
    double area_ = 0;
    std::map<double, double> steps_;
};

void check_sizes(std::span<const ParetoPoint> points, std::span<const double> reference, const char* who) {
    if (reference.size() < 2 || reference.size() > 4) {
        std::string msg = who;
        msg += ": only 2, 3 or 4 objectives, got ";
        msg += std::to_string(reference.size());
        throw ModelError(msg);
    }
    for (const ParetoPoint& p : points) {
        if (p.objectives.size() != reference.size()) {
            std::string msg = who;
            msg += ": candidate ";
            msg += std::to_string(p.candidate);
            msg += " has a different number of objectives than the reference";
            throw ModelError(msg);
        }
    }
}

using Points = std::vector<const std::vector<double>*>;

// The volume in the first two or three objectives (the staircase, swept over z for three).
double low_volume(Points in, std::span<const double> ref, std::size_t dims) {
    Staircase stairs(ref[0], ref[1]);
    if (dims == 2) {
        for (const auto* o : in) stairs.insert((*o)[0], (*o)[1]);
        return stairs.area();
    }
    // Three objectives: sweep z upwards; between consecutive z the dominated slice is the
    // staircase of the points seen so far.
    std::sort(in.begin(), in.end(), [](const auto* a, const auto* b) { return (*a)[2] < (*b)[2]; });
    double v = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        stairs.insert((*in[i])[0], (*in[i])[1]);
        const double next_z = i + 1 < in.size() ? (*in[i + 1])[2] : ref[2];
        v += stairs.area() * (next_z - (*in[i])[2]);
    }
    return v;
}

// Four objectives: slicing by the last one (While et al.'s HSO, IEEE TEC 10(1), 2006), each
// slab between consecutive values the 3-objective volume of the points below it:
// O(n² log n), exact, for the small archives of a tier mapping.
double sliced_volume(Points in, std::span<const double> ref) {
    std::sort(in.begin(), in.end(), [](const auto* a, const auto* b) { return (*a)[3] < (*b)[3]; });
    double v = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double next = i + 1 < in.size() ? (*in[i + 1])[3] : ref[3];
        if (next == (*in[i])[3]) continue;  // an empty slab
        v += low_volume(Points(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(i) + 1), ref, 3) *
             (next - (*in[i])[3]);
    }
    return v;
}

// Hypervolume of the points (indices into `points`) other than `skip`.
double volume(std::span<const ParetoPoint> points, std::span<const double> ref, std::size_t skip) {
    Points in;
    in.reserve(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i == skip) continue;
        const std::vector<double>& o = points[i].objectives;
        bool below = true;
        for (std::size_t k = 0; k < ref.size(); ++k) below = below && o[k] < ref[k];
        if (below) in.push_back(&o);
    }
    return ref.size() == 4 ? sliced_volume(std::move(in), ref) : low_volume(std::move(in), ref, ref.size());
}

}  // namespace

double hypervolume(std::span<const ParetoPoint> points, std::span<const double> reference) {
    check_sizes(points, reference, "tuner::hypervolume");
    return volume(points, reference, points.size());
}

std::vector<double> hypervolume_contributions(std::span<const ParetoPoint> points,
                                              std::span<const double> reference) {
    check_sizes(points, reference, "tuner::hypervolume_contributions");
    const double all = volume(points, reference, points.size());
    std::vector<double> out(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        // Clamped at 0: the two sums may differ in the last bit for a point that adds nothing.
        out[i] = std::max(0.0, all - volume(points, reference, i));
    }
    return out;
}

}  // namespace pimdse::tuner
