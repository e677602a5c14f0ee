#pragma once
// Deterministic, splittable random numbers. Every candidate, proposer and test draws from
// its own stream derived from (seed, stream id), so results never depend on rank, thread or
// evaluation order. The draws are defined here bit for bit (no std:: distributions, whose
// algorithms differ between standard libraries).

#include <array>
#include <cstdint>

namespace pimdse {

/// SplitMix64 step (Steele, Lea, Flood 2014): a bijective mixer used to seed streams.
[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// xoshiro256** (Blackman and Vigna 2018): small, fast, and reproducible everywhere.
class Rng {
public:
    using result_type = std::uint64_t;

    /// The stream `stream` of the run seeded with `seed`; distinct (seed, stream) pairs give
    /// independent-looking sequences.
    Rng(std::uint64_t seed, std::uint64_t stream = 0);

    /// A child stream, e.g. one per candidate id; does not advance this generator.
    [[nodiscard]] Rng split(std::uint64_t child) const;

    result_type operator()();
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }

    /// Uniform integer in [lo, hi] (inclusive), unbiased (Lemire's method with rejection).
    [[nodiscard]] std::int64_t uniform_int(std::int64_t lo, std::int64_t hi);
    /// Uniform double in [0, 1) with 53 random bits.
    [[nodiscard]] double uniform01();
    /// Standard normal deviate (Marsaglia polar method).
    [[nodiscard]] double normal();

private:
    std::array<std::uint64_t, 4> s_{};
    std::uint64_t seed_ = 0;
    std::uint64_t stream_ = 0;
};

}  // namespace pimdse
