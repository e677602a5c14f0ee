#include "pimdse/core/rng.hpp"

#include <cmath>
#include <stdexcept>

#include "pimdse/core/error.hpp"

namespace pimdse {

namespace {
constexpr std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

__extension__ using u128 = unsigned __int128;  // GCC/Clang extension; pedantic otherwise warns
}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream) : seed_(seed), stream_(stream) {
    // Mix seed and stream through two SplitMix64 chains so that neighbouring seeds and
    // neighbouring streams do not give correlated states.
    std::uint64_t a = seed;
    std::uint64_t mixed = splitmix64(a) ^ (stream * 0xD1B54A32D192ED03ULL + 0x8CB92BA72F3D8DD7ULL);
    for (auto& word : s_) word = splitmix64(mixed);
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;  // the all-zero state is a fixed point
}

Rng Rng::split(std::uint64_t child) const {
    std::uint64_t z = stream_ ^ 0x6A09E667F3BCC909ULL;
    const std::uint64_t parent = splitmix64(z);
    return Rng(seed_, parent ^ (child * 0x9E3779B97F4A7C15ULL + 1));
}

Rng::result_type Rng::operator()() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

std::int64_t Rng::uniform_int(std::int64_t lo, std::int64_t hi) {
    if (hi < lo) throw ModelError("Rng::uniform_int: empty range");
    const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (range == ~std::uint64_t{0}) return static_cast<std::int64_t>((*this)());
    const std::uint64_t n = range + 1;
    // Lemire (2019): multiply-shift with a rejection zone that removes the bias.
    u128 m = static_cast<u128>((*this)()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            m = static_cast<u128>((*this)()) * n;
            low = static_cast<std::uint64_t>(m);
        }
    }
    return lo + static_cast<std::int64_t>(m >> 64);
}

double Rng::uniform01() {
    return static_cast<double>((*this)() >> 11) * 0x1.0p-53;
}

double Rng::normal() {
    double u = 0;
    double v = 0;
    double s = 0;
    do {
        u = 2 * uniform01() - 1;
        v = 2 * uniform01() - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    return u * std::sqrt(-2 * std::log(s) / s);
}

}  // namespace pimdse
