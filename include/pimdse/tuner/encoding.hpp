#pragma once
// The tuner's view of a family's design space (docs/tuner.md, "Encoding"): every parameter
// as a coordinate in [0, 1] on the log scale of its value, and the legal points of the space
// (the family's legality, area budget included) sampled uniformly by rejection.

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_set>
#include <vector>

#include "pimdse/core/design_point.hpp"
#include "pimdse/core/design_space.hpp"
#include "pimdse/core/rng.hpp"

namespace pimdse::tuner {

/// A point of the unit cube, one coordinate per parameter in the space's order (the first
/// DesignSpace::dimensions() are used).
using Unit = std::array<double, kMaxDesignParams>;

/// The family's legality of a point (area budget included), asked for every sampled point.
using LegalityTest = std::function<bool(const DesignPoint&)>;

using PointSet = std::unordered_set<DesignPoint>;

/// Coordinate of value v in a range with first value lo and last value hi:
/// log(v / lo) / log(hi / lo), 0 when the range holds one value. For a log2 range this is the
/// index divided by (size - 1); for the linear buffer grid it spaces 8, 16, 32 KiB as evenly
/// as 512, 1024, 2048 KiB, which is how a buffer's effect scales.
class Encoding {
public:
    explicit Encoding(DesignSpace space);

    [[nodiscard]] const DesignSpace& space() const { return space_; }

    /// Throws std::invalid_argument when p is not a point of the space.
    [[nodiscard]] Unit encode(const DesignPoint& p) const;
    /// The space's point nearest to u on each coordinate (on the log scale); u is clamped to [0, 1].
    [[nodiscard]] DesignPoint decode(const Unit& u) const;
    /// The coordinate of the `index`-th value of parameter `p`.
    [[nodiscard]] double coordinate(std::size_t p, std::size_t index) const;
    /// The index of parameter `p`'s value nearest to coordinate x (clamped to [0, 1]); ties go
    /// to the smaller value.
    [[nodiscard]] std::size_t nearest(std::size_t p, double x) const;

    /// The parameters of more than one value, ascending: a model's inputs. A parameter the
    /// space fixes tells a model nothing, and leaving it out keeps a model of the space
    /// without that axis unchanged.
    [[nodiscard]] const std::vector<std::size_t>& features() const { return features_; }

private:
    DesignSpace space_;
    std::vector<std::size_t> features_;
    std::vector<std::vector<double>> coords_;  // per parameter, per value index
};

/// Legal points of a design space: the space's values and the family's legality test.
class LegalSampler {
public:
    LegalSampler(DesignSpace space, LegalityTest legal);

    [[nodiscard]] const DesignSpace& space() const { return space_; }
    [[nodiscard]] bool legal(const DesignPoint& p) const;

    /// One point drawn uniformly over the legal points of the space (every index uniform,
    /// then rejection), or nothing after `max_attempts` illegal draws. A parameter of one
    /// value takes no random number, here and in sample().
    [[nodiscard]] std::optional<DesignPoint> draw(Rng& rng, std::int64_t max_attempts) const;

    /// Up to `count` distinct legal points, none in `exclude`, drawn uniformly by rejection
    /// with at most max(`attempts_per_point` * count, 4096) draws. If that bound is hit and
    /// the space holds at most `enumerate_limit` points, the missing points are drawn
    /// uniformly from an enumeration of every legal point not yet taken, so that fewer than
    /// `count` come back only when the space has no more legal unseen points.
    [[nodiscard]] std::vector<DesignPoint> sample(Rng& rng, int count, const PointSet& exclude,
                                                  std::int64_t attempts_per_point = 2048,
                                                  double enumerate_limit = 1 << 22) const;

    /// Every legal point of the space in index order (lexicographic in parameter order).
    [[nodiscard]] std::vector<DesignPoint> enumerate() const;

private:
    DesignSpace space_;
    LegalityTest legal_;
};

}  // namespace pimdse::tuner
