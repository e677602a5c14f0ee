#include "pimdse/tuner/encoding.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/legality.hpp"

namespace pimdse::tuner {

Encoding::Encoding(hw::DesignSpace space) : space_(std::move(space)) {
    for (hw::Param p : hw::kAllParams) {
        const std::vector<int>& values = space_.range(p).values();
        auto& c = coords_[static_cast<std::size_t>(p)];
        c.resize(values.size());
        const double lo = std::log(static_cast<double>(values.front()));
        const double span = std::log(static_cast<double>(values.back())) - lo;
        for (std::size_t i = 0; i < values.size(); ++i) {
            c[i] = span > 0 ? (std::log(static_cast<double>(values[i])) - lo) / span : 0.0;
        }
        c.back() = span > 0 ? 1.0 : 0.0;  // exactly 1 despite rounding
    }
}

double Encoding::coordinate(hw::Param p, std::size_t index) const {
    return coords_[static_cast<std::size_t>(p)].at(index);
}

Unit Encoding::encode(const hw::HardwareParams& p) const {
    const auto index = space_.index_of(p);
    if (!index) {
        std::string msg = "tuner::Encoding::encode: not a point of the design space: ";
        msg += hw::to_string(p);
        throw ModelError(msg);
    }
    Unit u{};
    for (std::size_t k = 0; k < hw::kParamCount; ++k) u[k] = coords_[k][(*index)[k]];
    return u;
}

std::size_t Encoding::nearest(hw::Param p, double x) const {
    const std::vector<double>& c = coords_[static_cast<std::size_t>(p)];
    x = std::clamp(x, 0.0, 1.0);
    const auto hi = std::lower_bound(c.begin(), c.end(), x);
    auto i = static_cast<std::size_t>(hi - c.begin());
    if (i == c.size()) return c.size() - 1;
    if (i > 0 && x - c[i - 1] <= c[i] - x) --i;
    return i;
}

hw::HardwareParams Encoding::decode(const Unit& u) const {
    hw::DesignSpace::Index index{};
    for (std::size_t k = 0; k < hw::kParamCount; ++k) index[k] = nearest(hw::kAllParams[k], u[k]);
    return space_.at(index);
}

LegalSampler::LegalSampler(hw::DesignSpace space, hw::Constraints constraints, hw::Technology technology)
    : space_(std::move(space)), constraints_(std::move(constraints)), technology_(std::move(technology)) {}

bool LegalSampler::legal(const hw::HardwareParams& p) const {
    return space_.contains(p) && hw::check(p, constraints_, technology_).legal();
}

std::optional<hw::HardwareParams> LegalSampler::draw(Rng& rng, std::int64_t max_attempts) const {
    for (std::int64_t a = 0; a < max_attempts; ++a) {
        hw::DesignSpace::Index index{};
        for (hw::Param p : hw::kAllParams) {
            const auto n = static_cast<std::int64_t>(space_.range(p).size());
            index[static_cast<std::size_t>(p)] = static_cast<std::size_t>(rng.uniform_int(0, n - 1));
        }
        const hw::HardwareParams point = space_.at(index);
        if (hw::check(point, constraints_, technology_).legal()) return point;
    }
    return std::nullopt;
}

std::vector<hw::HardwareParams> LegalSampler::sample(Rng& rng, int count, const PointSet& exclude,
                                                     std::int64_t attempts_per_point,
                                                     double enumerate_limit) const {
    std::vector<hw::HardwareParams> out;
    if (count <= 0) return out;
    out.reserve(static_cast<std::size_t>(count));
    PointSet taken;
    const std::int64_t budget = std::max<std::int64_t>(attempts_per_point * count, 4096);
    std::int64_t used = 0;
    while (static_cast<int>(out.size()) < count && used < budget) {
        // One attempt per draw of seven indices, legal or not, repeated or not.
        hw::DesignSpace::Index index{};
        for (hw::Param p : hw::kAllParams) {
            const auto n = static_cast<std::int64_t>(space_.range(p).size());
            index[static_cast<std::size_t>(p)] = static_cast<std::size_t>(rng.uniform_int(0, n - 1));
        }
        ++used;
        const hw::HardwareParams point = space_.at(index);
        if (exclude.contains(point) || taken.contains(point)) continue;
        if (!hw::check(point, constraints_, technology_).legal()) continue;
        taken.insert(point);
        out.push_back(point);
    }
    if (static_cast<int>(out.size()) < count && static_cast<double>(space_.size()) <= enumerate_limit) {
        std::vector<hw::HardwareParams> rest;
        for (const hw::HardwareParams& p : enumerate()) {
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

std::vector<hw::HardwareParams> LegalSampler::enumerate() const {
    std::vector<hw::HardwareParams> out;
    hw::DesignSpace::Index index{};
    for (;;) {
        const hw::HardwareParams p = space_.at(index);
        if (hw::check(p, constraints_, technology_).legal()) out.push_back(p);
        // Odometer increment, last parameter fastest.
        std::size_t k = hw::kParamCount;
        while (k > 0) {
            --k;
            if (++index[k] < space_.range(hw::kAllParams[k]).size()) break;
            index[k] = 0;
            if (k == 0) return out;
        }
    }
}

}  // namespace pimdse::tuner
