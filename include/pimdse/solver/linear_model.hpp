#pragma once
// A solver-neutral sparse linear model: columns with bounds, costs and integrality, rows
// with bounds, and the matrix as (row, column, value) triplets. What src/solver hands to
// COIN-OR; built by anything that needs an LP or a MIP (solver/mip.hpp).

#include <cstddef>
#include <vector>

namespace pimdse::solver {

/// min obj·x subject to row_lo <= A x <= row_hi, col_lo <= x <= col_hi, some x integer.
struct LinearModel {
    std::vector<double> col_lo, col_hi, obj;
    std::vector<char> integer;
    std::vector<double> row_lo, row_hi;
    std::vector<int> entry_row, entry_col;
    std::vector<double> entry_val;

    std::size_t add_col(double lo, double hi, double cost, bool is_integer);
    std::size_t add_row(double lo, double hi);
    void add(std::size_t row, std::size_t col, double value);
    [[nodiscard]] std::size_t cols() const noexcept { return obj.size(); }
    [[nodiscard]] std::size_t rows() const noexcept { return row_lo.size(); }
};

/// +infinity for bounds (COIN_DBL_MAX without the Coin header).
[[nodiscard]] double infinity() noexcept;

}  // namespace pimdse::solver
