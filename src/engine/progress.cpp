#include "pimdse/engine/progress.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "pimdse/core/clock.hpp"

namespace pimdse::engine {
namespace {

// A number as JSON: null when not finite (JSON has no infinity).
std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + '"';
}

}  // namespace

std::string seconds_text(double s) {
    char buf[32];
    if (!std::isfinite(s)) return "?";
    if (s < 120) {
        std::snprintf(buf, sizeof buf, "%.0f s", s);
    } else if (s < 7200) {
        std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    } else {
        std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
    }
    return buf;
}

void Progress::line(const char* event, std::int64_t batch, const ProgressState& s) {
    last_ = s.seconds;
    const double rate = static_cast<double>(s.done_now) / std::max(s.seconds, 1e-9);
    const double eta = s.done_now > 0 ? static_cast<double>(s.budget - s.evaluations) / rate
                                      : std::numeric_limits<double>::infinity();
    char buf[320];
    if (options_.format == ProgressFormat::json) {
        std::snprintf(buf, sizeof buf,
                      "{\"time\": \"%s\", \"event\": \"%s\", \"batch\": %lld, \"evaluations\": %lld, "
                      "\"budget\": %lld, \"rate_per_s\": %s, \"eta_s\": %s, \"best_cost\": %s, "
                      "\"best_candidate\": %lld, \"front\": %zu}\n",
                      utc_now().c_str(), event, static_cast<long long>(batch),
                      static_cast<long long>(s.evaluations), static_cast<long long>(s.budget),
                      json_number(rate).c_str(), json_number(eta).c_str(), json_number(s.best_cost).c_str(),
                      static_cast<long long>(s.best_candidate), s.front);
    } else {
        std::snprintf(buf, sizeof buf,
                      "%s %s %lld: %lld/%lld evaluations, %.2f eval/s, best cost %.6g (candidate %lld), "
                      "front %zu, ETA %s\n",
                      utc_now().c_str(), event, static_cast<long long>(batch),
                      static_cast<long long>(s.evaluations), static_cast<long long>(s.budget), rate,
                      s.best_cost, static_cast<long long>(s.best_candidate), s.front,
                      seconds_text(eta).c_str());
    }
    *out_ << buf << std::flush;
}

void Progress::batch(std::int64_t batch, const ProgressState& s) {
    if (enabled()) line("batch", batch, s);
}

void Progress::tick(std::int64_t batch, const ProgressState& s) {
    if (!enabled() || options_.interval_seconds <= 0 || s.seconds - last_ < options_.interval_seconds) return;
    line(options_.format == ProgressFormat::json ? "running" : "running batch", batch, s);
}

void Progress::message(const std::string& event, const std::string& text) {
    if (!enabled()) return;
    if (options_.format == ProgressFormat::json) {
        *out_ << "{\"time\": \"" << utc_now() << "\", \"event\": \"" << event
              << "\", \"message\": " << json_string(text) << "}\n"
              << std::flush;
    } else {
        *out_ << text << std::flush;
    }
}

}  // namespace pimdse::engine
