// Range checks of command-line options (option_checks.hpp).

#include "option_checks.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/core/model_options.hpp"

namespace pimdse::cli {

namespace {

std::string bound(double v) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string shown(const std::string& s) {
    return "'" + (s.size() <= 40 ? s : s.substr(0, 37) + "...") + "'";
}

}  // namespace

CLI::Validator number_in(double lo, double hi) {
    const std::string want = "a number in [" + bound(lo) + ", " + bound(hi) + "]";
    return CLI::Validator(
        [lo, hi, want](std::string& s) -> std::string {
            double v = 0;
            const char* end = s.data() + s.size();
            const auto [ptr, ec] = std::from_chars(s.data(), end, v);
            if (ec != std::errc() || ptr != end || !std::isfinite(v) || v < lo || v > hi)
                return "expected " + want + ", got " + shown(s);
            return {};
        },
        "NUMBER in [" + bound(lo) + ", " + bound(hi) + "]");
}

CLI::Validator integer_in(std::int64_t lo, std::int64_t hi) {
    const std::string want = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    return CLI::Validator(
        [lo, hi, want](std::string& s) -> std::string {
            std::int64_t v = 0;
            const char* end = s.data() + s.size();
            const auto [ptr, ec] = std::from_chars(s.data(), end, v);
            if (ec != std::errc() || ptr != end || v < lo || v > hi)
                return "expected " + want + ", got " + shown(s);
            return {};
        },
        "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

namespace {

std::string output_problem(const std::string& s, const std::string& what) {
    if (s.empty()) return "expected " + what + ", got an empty string";
    if (s.find('\0') != std::string::npos) return "expected " + what + ", got one with a NUL character";
    // An option's name taken as the value ("-o --force") would name a file "--force".
    if (s[0] == '-')
        return "expected " + what + ", got " + shown(s) + ", which reads as an option; write ./" + s +
               " if that name is meant";
    return {};
}

}  // namespace

CLI::Validator output_path(const std::string& what) {
    return CLI::Validator([what](std::string& s) { return output_problem(s, what); },
                          what == "a directory name" ? "DIR" : "FILE");
}

CLI::Validator output_file() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            if (std::string problem = output_problem(s, "a file name"); !problem.empty()) return problem;
            std::error_code ec;
            if (std::filesystem::is_directory(s, ec))
                return "expected a file name, got the directory " + shown(s);
            return {};
        },
        "FILE");
}

CLI::Validator intra_node_model() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            if (value_of(kIntraNodeModelNames, s)) return {};
            std::string want;
            for (std::string_view n : names_of(kIntraNodeModelNames))
                want += (want.empty() ? "" : " or ") + std::string(n);
            return "expected " + want + ", got " + shown(s);
        },
        "MODEL");
}

void check_node_count(const std::string& command, const std::string& hardware, std::int32_t rows,
                      std::int32_t cols, std::int64_t max_nodes) {
    const std::int64_t nodes = std::int64_t{rows} * cols;
    if (nodes <= max_nodes) return;
    throw UsageError(
        "--max-nodes: " + hardware + " has a " + std::to_string(rows) + " x " + std::to_string(cols) +
        " node array (" + std::to_string(nodes) + " nodes); `" + command + "` takes at most " +
        std::to_string(max_nodes) +
        " nodes (its work grows about tenfold per doubling of the array's side); give --max-nodes " +
        std::to_string(nodes) + " to run it anyway");
}

}  // namespace pimdse::cli
