#!/usr/bin/env bash
# Formatting is checked in CI (.clang-format): every C++ file under include/, src/,
# tests/ and benchmarks/ must be unchanged by clang-format with the repository's style.
# usage: check_format.sh CLANG_FORMAT SOURCE_DIR
set -euo pipefail
clang_format=$1
cd "$2"
mapfile -t files < <(find include src tests benchmarks -name '*.hpp' -o -name '*.cpp' | sort)
"$clang_format" --dry-run --Werror "${files[@]}"
echo "${#files[@]} files formatted"
