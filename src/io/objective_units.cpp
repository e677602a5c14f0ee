// The units of the cost and of the Pareto objectives (include/pimdse/io/objective_units.hpp).

#include "pimdse/io/objective_units.hpp"

#include <sstream>

namespace pimdse::io {

std::string cost_unit(const CostConfig& cost) {
    const auto power = [](const char* symbol, double exponent) -> std::string {
        if (exponent == 0) return "";
        if (exponent == 1) return symbol;
        std::ostringstream out;
        out << symbol << '^' << exponent;
        return out.str();
    };
    const std::string j = power("J", cost.alpha);
    const std::string s = power("s", cost.beta);
    if (j.empty() && s.empty()) return "1";
    return j.empty() || s.empty() ? j + s : j + ' ' + s;
}

std::string objective_unit(Objective o, const CostConfig& cost, std::string_view metric_unit) {
    switch (o) {
        case Objective::latency:
        case Objective::throughput:  // the archive holds seconds per sample
            return "s";
        case Objective::energy:
            return "J";
        case Objective::area:
            return "mm2";
        case Objective::cost:
            return cost_unit(cost);
        case Objective::power:
            return "W";
        case Objective::edp:
            return "J s";
        case Objective::adc_deficit:
        case Objective::accuracy_loss:
        case Objective::peak_temperature:
        case Objective::err:
            break;
    }
    return std::string(metric_unit);
}

}  // namespace pimdse::io
