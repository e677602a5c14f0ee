#!/usr/bin/env bash
# Runs the pimdse executable on every malformed input listed in EXPECTED.txt
# (`file<TAB>expected message substring`) and checks that each one fails with exit code 3,
# a single "pimdse: error:" line containing the expected text, no crash and no hang.
# usage: check_malformed.sh PIMDSE DIR "SUBCOMMAND..."
set -uo pipefail
pimdse=$1 dir=$2 subcommand=$3
failures=0 checked=0
while IFS=$'\t' read -r file expected; do
  [[ -z $file || $file == \#* ]] && continue
  checked=$((checked + 1))
  # shellcheck disable=SC2086
  out=$(cd "$dir" && timeout 20 "$pimdse" $subcommand "$file" 2>&1 >/dev/null)
  code=$?
  if [[ $code -ne 3 ]]; then
    echo "FAIL $file: exit code $code, expected 3; stderr: $out"; failures=$((failures + 1)); continue
  fi
  if [[ $out != *"pimdse: error: "* || $out != *"$expected"* ]]; then
    echo "FAIL $file: message does not contain '$expected': $out"; failures=$((failures + 1)); continue
  fi
  echo "ok   $file: $out"
done < "$dir/EXPECTED.txt"
echo "$checked files checked, $failures failures"
[[ $checked -gt 0 && $failures -eq 0 ]]
