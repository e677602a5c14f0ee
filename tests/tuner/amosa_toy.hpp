#pragma once
// A bi-objective toy problem for AMOSA's tests, whose front is known by brute force.

#include <algorithm>
#include <set>
#include <vector>

#include "pimdse/tuner/pareto.hpp"

namespace pimdse::tuner::amosa {

// The toy problem: x, y in 0..40, f1 = x / 40, f2 = (1 - x / 40)^2 + y / 40. Its front is
// y = 0, every x: 41 points (by brute force below).
inline std::vector<double> toy(int x, int y) {
    const double u = x / 40.0;
    return {u, (1 - u) * (1 - u) + y / 40.0};
}

inline std::set<std::vector<double>> true_front() {
    std::vector<std::vector<double>> all;
    for (int x = 0; x <= 40; ++x) {
        for (int y = 0; y <= 40; ++y) all.push_back(toy(x, y));
    }
    std::set<std::vector<double>> front;
    for (const auto& a : all) {
        if (std::none_of(all.begin(), all.end(), [&](const auto& b) { return dominates(b, a); }))
            front.insert(a);
    }
    return front;
}

}  // namespace pimdse::tuner::amosa
