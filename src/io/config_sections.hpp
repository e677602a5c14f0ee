#pragma once
// The readers of the sections shared by sweep configurations and hardware files, and of the
// proposers' options (private to io): config.cpp reads the files, config_hardware.cpp the
// hardware sections, config_proposer.cpp `sweep.proposer_options`, config_crossbar.cpp
// `crossbar:`, config_hetero3d.cpp `hetero3d:`.

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "pimdse/core/crossbar_options.hpp"
#include "pimdse/core/hetero3d_options.hpp"
#include "pimdse/core/proposer_options.hpp"
#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/design_space.hpp"
#include "pimdse/hw/technology.hpp"
#include "pimdse/io/yaml_reader.hpp"

namespace pimdse::io::detail {

inline constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

/// A number in the shortest form that reads back exactly (1.1 stays 1.1).
inline std::string number_text(double v) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

/// An integer the reader has checked to lie within int's range.
inline int to_int(std::int64_t v) {
    return static_cast<int>(v);
}

/// `constraints:` (NicePIM Table II defaults when absent).
[[nodiscard]] hw::Constraints read_constraints(const yaml::Reader& r, const std::optional<yaml::Field>& f);
/// `technology:` (the technology table's defaults when absent).
[[nodiscard]] hw::Technology read_technology(const yaml::Reader& r, const std::optional<yaml::Field>& f);
/// Throws ConfigError unless a bank's port width divides its row buffer (the DRAM model's
/// rule for every node array), naming technology.dram_row_buffer_bytes when it is given and
/// constraints.bank_width_bits otherwise.
void check_bank_width(const yaml::Reader& r, const std::optional<yaml::Field>& constraints,
                      const std::optional<yaml::Field>& technology, const hw::Constraints& c,
                      const hw::Technology& t);
/// Throws ConfigError, naming constraints.clock_mhz, when the clock is below
/// hw::min_clock_mhz of the technology: a DRAM column access (tCCD_L) must last at least one
/// node cycle. A sweep's default clock axis and a hardware file's clock alike.
void check_clock(const yaml::Reader& r, const std::optional<yaml::Field>& constraints,
                 const hw::Constraints& c, const hw::Technology& t);
/// `space:`, each range checked against the constraints `c` and, for the clock, the
/// technology `t`; `constraints` is the section, named when a default axis is refused.
[[nodiscard]] DesignSpace read_space(const yaml::Reader& r, const std::optional<yaml::Field>& f,
                                     const std::optional<yaml::Field>& constraints, const hw::Constraints& c,
                                     const hw::Technology& t);
/// `space:` of a family other than dram_pim: every key a parameter, each range of positive
/// integers; the family checks the names (family::make_family).
[[nodiscard]] DesignSpace read_open_space(const yaml::Reader& r, const std::optional<yaml::Field>& f);
/// `crossbar:` (config_crossbar.cpp), its defaults when absent; a ConfigError when it is given
/// and `family` is not crossbar. `dir`: the sweep file's directory, against which
/// `accuracy_table` resolves; none for a single design's file, which refuses that key.
[[nodiscard]] CrossbarOptions read_crossbar(const yaml::Reader& r, const std::optional<yaml::Field>& f,
                                            const std::string& family,
                                            const std::optional<std::filesystem::path>& dir);
/// `hetero3d:` (config_hetero3d.cpp), its defaults when absent; a ConfigError when it is given
/// and `family` is not hetero3d.
[[nodiscard]] Hetero3dOptions read_hetero3d(const yaml::Reader& r, const std::optional<yaml::Field>& f,
                                            const std::string& family);
/// `sweep.proposer_options:`, each option checked against its range (config_proposer.cpp).
[[nodiscard]] ProposerOptions read_proposer_options(const yaml::Reader& r, const yaml::Field& f);
/// The options that differ from their defaults, one `name: value` line each after `indent`
/// (nothing when all are defaults, so a configuration without the section reads back equal).
[[nodiscard]] std::string proposer_options_yaml(const ProposerOptions& p, std::string_view indent);

}  // namespace pimdse::io::detail
