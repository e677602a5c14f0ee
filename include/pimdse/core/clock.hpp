#pragma once
// Wall-clock time as the project prints and stores it: UTC, ISO 8601, to the second
// ("2026-11-25T06:29:38Z"), in progress lines, lock files and the sweep file's attributes.

#include <string>

namespace pimdse {

/// The current UTC time as "YYYY-MM-DDTHH:MM:SSZ".
[[nodiscard]] std::string utc_now();

}  // namespace pimdse
