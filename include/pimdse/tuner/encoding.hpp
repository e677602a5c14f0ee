#pragma once
// The tuner's view of the design space (docs/tuner.md, "Encoding"): every hardware parameter
// as a coordinate in [0, 1] on the log scale of its value, and the legal points of the space
// (hw::check, area budget included) sampled uniformly by rejection.

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "pimdse/core/rng.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"

namespace pimdse::tuner {

/// A point of the unit cube, one coordinate per hw::Param in Param order.
using Unit = std::array<double, hw::kParamCount>;

using PointSet = std::unordered_set<hw::HardwareParams>;

/// Coordinate of value v in a range with first value lo and last value hi:
/// log(v / lo) / log(hi / lo), 0 when the range holds one value. For a log2 range this is the
/// index divided by (size - 1); for the linear buffer grid it spaces 8, 16, 32 KiB as evenly
/// as 512, 1024, 2048 KiB, which is how a buffer's effect scales.
class Encoding {
public:
    explicit Encoding(hw::DesignSpace space);

    [[nodiscard]] const hw::DesignSpace& space() const { return space_; }

    /// Throws std::invalid_argument when p is not a point of the space.
    [[nodiscard]] Unit encode(const hw::HardwareParams& p) const;
    /// The space's point nearest to u on each coordinate (on the log scale); u is clamped to [0, 1].
    [[nodiscard]] hw::HardwareParams decode(const Unit& u) const;
    /// The coordinate of the `index`-th value of parameter `p`.
    [[nodiscard]] double coordinate(hw::Param p, std::size_t index) const;
    /// The index of parameter `p`'s value nearest to coordinate x (clamped to [0, 1]); ties go
    /// to the smaller value.
    [[nodiscard]] std::size_t nearest(hw::Param p, double x) const;

private:
    hw::DesignSpace space_;
    std::array<std::vector<double>, hw::kParamCount> coords_;  // per parameter, per value index
};

/// Legal points of a design space: the space's values and hw::check under the constraints
/// and technology, area budget included.
class LegalSampler {
public:
    LegalSampler(hw::DesignSpace space, hw::Constraints constraints, hw::Technology technology);

    [[nodiscard]] const hw::DesignSpace& space() const { return space_; }
    [[nodiscard]] bool legal(const hw::HardwareParams& p) const;

    /// One point drawn uniformly over the legal points of the space (every index uniform,
    /// then rejection), or nothing after `max_attempts` illegal draws.
    [[nodiscard]] std::optional<hw::HardwareParams> draw(Rng& rng, std::int64_t max_attempts) const;

    /// Up to `count` distinct legal points, none in `exclude`, drawn uniformly by rejection
    /// with at most max(`attempts_per_point` * count, 4096) draws. If that bound is hit and
    /// the space holds at most `enumerate_limit` points, the missing points are drawn
    /// uniformly from an enumeration of every legal point not yet taken, so that fewer than
    /// `count` come back only when the space has no more legal unseen points.
    [[nodiscard]] std::vector<hw::HardwareParams> sample(Rng& rng, int count, const PointSet& exclude,
                                                         std::int64_t attempts_per_point = 2048,
                                                         double enumerate_limit = 1 << 22) const;

    /// Every legal point of the space in index order (lexicographic in Param order).
    [[nodiscard]] std::vector<hw::HardwareParams> enumerate() const;

private:
    hw::DesignSpace space_;
    hw::Constraints constraints_;
    hw::Technology technology_;
};

}  // namespace pimdse::tuner
