#!/usr/bin/env bash
# Runs every case of hostile_inputs.tsv (code, message, arguments) against PIMDSE and checks
# the exit code, that the output contains the message, that no case crashes, hangs (20 s)
# or reports an internal error, and that a refused case (non-zero exit) changes no file of
# the fixture directory. usage: check_hostile.sh PIMDSE SRC WORK
set -uo pipefail
pimdse=$1 src=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
"$here/make_fixtures.sh" "$src" "$work" || { echo "fixtures failed"; exit 1; }
# A sweep file for the cases that read one (export, summary, compare).
"$pimdse" explore "$work/own_sweep.yaml" -o "$work/own_sweep.h5" --quiet > /dev/null 2>&1 \
  || { echo "the fixture sweep failed"; exit 1; }
# Every node of the fixture directory: kind, inode, size and, for files, the modification
# time (a directory's changes with any file made and removed in it, so not its own).
snapshot() {
  find "$work" ! -type d -printf '%y %i %s %T@ %p\n' | sort
  find "$work" -type d -printf '%p\n' | sort
}
checked=0 failures=0
while IFS=$'\t' read -r code expected args; do
  [[ -z $code || $code == \#* ]] && continue
  checked=$((checked + 1))
  args=${args//@W/$work}
  expected=${expected//@W/$work}
  args=${args//@S/$src}
  # shellcheck disable=SC2206
  words=($args)
  # A trailing option without a value means an empty value ("-o ''").
  case "${words[-1]}" in -o | --write-mapping) words+=("") ;; esac
  before=$(snapshot)
  out=$(cd "$work" && timeout 20 "$pimdse" "${words[@]}" 2>&1)
  got=$?
  problem=""
  if [[ $got -ne $code ]]; then problem="exit code $got, expected $code"
  elif [[ $code -ne 0 && $(snapshot) != "$before" ]]; then
    problem="refused, but changed files: $(diff <(echo "$before") <(snapshot) | head -4 | tr '\n' ' ')"
  elif [[ $out != *"$expected"* ]]; then problem="output lacks '$expected'"
  elif [[ $out == *"internal error"* ]]; then problem="internal error"
  elif [[ $out == *"SECRETHASH"* ]]; then problem="echoes the file's content"
  fi
  if [[ -n $problem ]]; then
    failures=$((failures + 1))
    echo "FAIL pimdse ${words[*]:0:6}...: $problem; output: ${out:0:400}"
  else
    echo "ok   [$code] $expected"
  fi
done < "$here/hostile_inputs.tsv"
# The refused NUL path wrote nothing, not even the truncated name.
[[ -e $work/ab ]] && { echo "FAIL the NUL path wrote $work/ab"; failures=$((failures + 1)); }
for dev in /dev/null /dev/full; do
  [[ -c $dev ]] || { echo "FAIL $dev is no longer a character device"; failures=$((failures + 1)); }
done
echo "hostile: $((checked - failures)) passed, $failures failed"
[[ $checked -ge 60 && $failures -eq 0 ]]
