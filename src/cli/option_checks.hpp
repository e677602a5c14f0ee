#pragma once
// Range checks of command-line options, in the project's own words (docs/cli.md): CLI11's
// Range prints "Value 0 not in range 0.000000 to 1797693..." and lets NaN through, since
// every comparison with NaN is false. A failed check is a usage error (exit 2) that reads
// "--batch: expected an integer in [1, 65536], got '0'".

#include <CLI/CLI.hpp>

#include <cstdint>

namespace pimdse::cli {

/// A finite number in [lo, hi] ("nan", "inf" and "1e999" are refused).
[[nodiscard]] CLI::Validator number_in(double lo, double hi);
/// An integer in [lo, hi], written in decimal ("-1" is refused for an unsigned option).
[[nodiscard]] CLI::Validator integer_in(std::int64_t lo, std::int64_t hi);
/// A path that is not empty, not a directory and free of NUL characters.
[[nodiscard]] CLI::Validator file_path();

}  // namespace pimdse::cli
