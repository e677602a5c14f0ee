// Building a solver-neutral model (include/pimdse/solver/linear_model.hpp).
#include "pimdse/solver/linear_model.hpp"

namespace pimdse::solver {

std::size_t LinearModel::add_col(double lo, double hi, double cost, bool is_integer) {
    col_lo.push_back(lo);
    col_hi.push_back(hi);
    obj.push_back(cost);
    integer.push_back(is_integer ? 1 : 0);
    return obj.size() - 1;
}

std::size_t LinearModel::add_row(double lo, double hi) {
    row_lo.push_back(lo);
    row_hi.push_back(hi);
    return row_lo.size() - 1;
}

void LinearModel::add(std::size_t row, std::size_t col, double value) {
    entry_row.push_back(static_cast<int>(row));
    entry_col.push_back(static_cast<int>(col));
    entry_val.push_back(value);
}

}  // namespace pimdse::solver
