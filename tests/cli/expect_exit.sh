#!/usr/bin/env bash
# usage: expect_exit.sh CODE PATTERN COMMAND... — passes when COMMAND exits with CODE and its
# combined output matches the extended regular expression PATTERN.
set -uo pipefail
want=$1 pattern=$2
shift 2
out=$(timeout 20 "$@" 2>&1)
code=$?
echo "$out"
[[ $code -eq $want ]] || { echo "expected exit code $want, got $code"; exit 1; }
grep -Eq -- "$pattern" <<<"$out" || { echo "output does not match /$pattern/"; exit 1; }
