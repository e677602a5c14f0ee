#pragma once
// An accuracy table (docs/config.md, `crossbar.accuracy_table`): measured accuracy losses of
// networks at given quantisation and hardware settings, read from a CSV file. pimdse does not
// train networks, so accuracy enters a sweep only as such a table; a candidate without a
// matching row has no accuracy (recorded as missing, never imputed).
//
// The file: `#` comment lines and blank lines are skipped; the first other line is the
// header. It names a `network` column (a workload network's name, the network file's
// `network:`), an `accuracy_loss` column (percentage points lost against the full-precision
// network, a finite number) and any of the family's parameters (their `space:` names) as
// key columns. A row matches a candidate on a network when the names are equal and every key
// column equals the candidate's parameter value; no two rows have the same network and keys.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pimdse::io {

class AccuracyTable {
public:
    AccuracyTable() = default;

    /// Reads `path`; `params` are the family's parameter names in design-point order. Throws
    /// InputError naming the file, the line and the column for a malformed table (a missing or
    /// unknown column, a value that is not a number, a repeated key).
    static AccuracyTable read(const std::filesystem::path& path, std::span<const std::string> params);

    /// The loss of `network` at the design point whose values are `values` (design-point
    /// order); nullopt when no row matches.
    [[nodiscard]] std::optional<double> find(std::string_view network,
                                             std::span<const std::int32_t> values) const;

    /// The key columns as indices into the family's parameters, in the file's order.
    [[nodiscard]] const std::vector<std::size_t>& keys() const { return keys_; }
    [[nodiscard]] std::size_t rows() const { return losses_.size(); }

private:
    using Key = std::pair<std::string, std::vector<std::int64_t>>;
    std::vector<std::size_t> keys_;
    std::map<Key, double, std::less<>> losses_;
};

}  // namespace pimdse::io
