#pragma once
// Range checks of command-line options, in the project's own words (docs/cli.md): CLI11's
// Range prints "Value 0 not in range 0.000000 to 1797693..." and lets NaN through, since
// every comparison with NaN is false. A failed check is a usage error (exit 2) that reads
// "--batch: expected an integer in [1, 65536], got '0'".

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace pimdse::cli {

/// A finite number in [lo, hi] ("nan", "inf" and "1e999" are refused).
[[nodiscard]] CLI::Validator number_in(double lo, double hi);
/// An integer in [lo, hi], written in decimal ("-1" is refused for an unsigned option).
[[nodiscard]] CLI::Validator integer_in(std::int64_t lo, std::int64_t hi);
/// An output file's path: not empty, not a directory, free of NUL characters and not starting
/// with '-' (an option's name taken as the value: "-o --force"). What may be written there is
/// checked when the command runs (io/output_file.hpp).
[[nodiscard]] CLI::Validator output_file();
/// An output's path, `what` it names ("a file name", "a directory name") in the message: not
/// empty, free of NUL characters and not starting with '-'.
[[nodiscard]] CLI::Validator output_path(const std::string& what);

/// `--intra-node` of map and evaluate: one of the `model.intra_node` names.
[[nodiscard]] CLI::Validator intra_node_model();

/// The default of `map --max-nodes` and `evaluate --max-nodes`: 64 x 64 nodes. The mapper's
/// work grows about tenfold per doubling of the array's side (ResNet-18: 1.4 s on 32 x 32,
/// 15 s on 64 x 64), and the ILP's final costing grows with the sets' sizes, so a larger
/// array is refused up front rather than left to run for minutes (docs/cli.md).
inline constexpr std::int64_t kDefaultMaxNodes = 4096;
/// The largest --max-nodes: sim::Mesh's 4096 x 4096.
inline constexpr std::int64_t kMostNodes = std::int64_t{4096} * 4096;

/// Throws UsageError (exit 2) when the `rows` x `cols` node array of `hardware` has more than
/// `max_nodes` nodes, naming the option that raises the limit.
void check_node_count(const std::string& command, const std::string& hardware, std::int32_t rows,
                      std::int32_t cols, std::int64_t max_nodes);

}  // namespace pimdse::cli
