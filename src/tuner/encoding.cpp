#include "pimdse/tuner/encoding.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"

namespace pimdse::tuner {

namespace {

// One index per parameter, uniform; a parameter of one value takes it without a draw, so
// that an axis fixed to one value leaves every random stream as it was without the axis.
DesignSpace::Index draw_index(const DesignSpace& space, Rng& rng) {
    DesignSpace::Index index{};
    for (std::size_t p = 0; p < space.dimensions(); ++p) {
        const auto n = static_cast<std::int64_t>(space.range(p).size());
        index[p] = n > 1 ? static_cast<std::size_t>(rng.uniform_int(0, n - 1)) : 0;
    }
    return index;
}

}  // namespace

Encoding::Encoding(DesignSpace space) : space_(std::move(space)) {
    coords_.resize(space_.dimensions());
    for (std::size_t p = 0; p < space_.dimensions(); ++p) {
        if (space_.range(p).size() > 1) features_.push_back(p);
        const std::vector<int>& values = space_.range(p).values();
        auto& c = coords_[p];
        c.resize(values.size());
        const double lo = std::log(static_cast<double>(values.front()));
        const double span = std::log(static_cast<double>(values.back())) - lo;
        for (std::size_t i = 0; i < values.size(); ++i) {
            c[i] = span > 0 ? (std::log(static_cast<double>(values[i])) - lo) / span : 0.0;
        }
        c.back() = span > 0 ? 1.0 : 0.0;  // exactly 1 despite rounding
    }
}

double Encoding::coordinate(std::size_t p, std::size_t index) const {
    return coords_.at(p).at(index);
}

Unit Encoding::encode(const DesignPoint& p) const {
    const auto index = space_.index_of(p);
    if (!index) {
        std::string msg = "tuner::Encoding::encode: not a point of the design space: ";
        msg += to_string(p);
        throw ModelError(msg);
    }
    Unit u{};
    for (std::size_t k = 0; k < space_.dimensions(); ++k) u[k] = coords_[k][(*index)[k]];
    return u;
}

std::size_t Encoding::nearest(std::size_t p, double x) const {
    const std::vector<double>& c = coords_.at(p);
    x = std::clamp(x, 0.0, 1.0);
    const auto hi = std::lower_bound(c.begin(), c.end(), x);
    auto i = static_cast<std::size_t>(hi - c.begin());
    if (i == c.size()) return c.size() - 1;
    if (i > 0 && x - c[i - 1] <= c[i] - x) --i;
    return i;
}

DesignPoint Encoding::decode(const Unit& u) const {
    DesignSpace::Index index{};
    for (std::size_t k = 0; k < space_.dimensions(); ++k) index[k] = nearest(k, u[k]);
    return space_.at(index);
}

LegalSampler::LegalSampler(DesignSpace space, LegalityTest legal)
    : space_(std::move(space)), legal_(std::move(legal)) {}

bool LegalSampler::legal(const DesignPoint& p) const {
    return space_.contains(p) && legal_(p);
}

std::optional<DesignPoint> LegalSampler::draw(Rng& rng, std::int64_t max_attempts) const {
    for (std::int64_t a = 0; a < max_attempts; ++a) {
        const DesignPoint point = space_.at(draw_index(space_, rng));
        if (legal_(point)) return point;
    }
    return std::nullopt;
}

std::vector<DesignPoint> LegalSampler::sample(Rng& rng, int count, const PointSet& exclude,
                                              std::int64_t attempts_per_point, double enumerate_limit) const {
    std::vector<DesignPoint> out;
    if (count <= 0) return out;
    out.reserve(static_cast<std::size_t>(count));
    PointSet taken;
    const std::int64_t budget = std::max<std::int64_t>(attempts_per_point * count, 4096);
    std::int64_t used = 0;
    while (static_cast<int>(out.size()) < count && used < budget) {
        // One attempt per draw of one index per parameter, legal or not, repeated or not.
        ++used;
        const DesignPoint point = space_.at(draw_index(space_, rng));
        if (exclude.contains(point) || taken.contains(point)) continue;
        if (!legal_(point)) continue;
        taken.insert(point);
        out.push_back(point);
    }
    if (static_cast<int>(out.size()) < count && static_cast<double>(space_.size()) <= enumerate_limit) {
        std::vector<DesignPoint> rest;
        for (const DesignPoint& p : enumerate()) {
            if (!exclude.contains(p) && !taken.contains(p)) rest.push_back(p);
        }
        // A partial Fisher-Yates shuffle: uniform without replacement.
        for (std::size_t i = 0; i < rest.size() && static_cast<int>(out.size()) < count; ++i) {
            const auto j = static_cast<std::size_t>(
                rng.uniform_int(static_cast<std::int64_t>(i), static_cast<std::int64_t>(rest.size()) - 1));
            std::swap(rest[i], rest[j]);
            out.push_back(rest[i]);
        }
    }
    return out;
}

std::vector<DesignPoint> LegalSampler::enumerate() const {
    std::vector<DesignPoint> out;
    DesignSpace::Index index{};
    for (;;) {
        const DesignPoint p = space_.at(index);
        if (legal_(p)) out.push_back(p);
        if (space_.dimensions() == 0) return out;  // the one point of an empty space
        // Odometer increment, last parameter fastest.
        std::size_t k = space_.dimensions();
        while (k > 0) {
            --k;
            if (++index[k] < space_.range(k).size()) break;
            index[k] = 0;
            if (k == 0) return out;
        }
    }
}

}  // namespace pimdse::tuner
