#!/usr/bin/env bash
# What docs/cli.md and `pimdse --help` list agrees with the code's own tables: every exit
# code of enum ExitCode (include/pimdse/core/error.hpp) is in the --help footer and in the
# exit-code table of docs/cli.md; every value `map --mapper` accepts (as its error message
# lists them) is in cli.md's --mapper row; every column `map --csv` writes is in its --csv row,
# and every column of `map --layers` in its "Per-layer tables" section.
# Usage: docs_agree.sh PIMDSE WORKDIR
set -euo pipefail
pimdse=$1 dir=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=$root/docs/cli.md
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "docs_agree: $*" >&2; exit 1; }

codes=$(sed -n '/^enum class ExitCode/,/^};/p' "$root/include/pimdse/core/error.hpp" |
  sed -n 's/^ *[a-z_]* = \([0-9]*\),.*/\1/p')
(($(wc -w <<< "$codes") >= 8)) || fail "could not read enum ExitCode: '$codes'"
footer=$("$pimdse" --help | sed -n '/^Exit codes:/,$p' | tr '\n' ' ')
for c in $codes; do
  [[ $footer =~ (^|[:,] )$c\  ]] || fail "pimdse --help does not list exit code $c: $footer"
  grep -q "^| $c | " "$cli" || fail "docs/cli.md's exit-code table has no row for $c"
done

hw=$root/tests/data/mapping/hardware_2x4.yaml net=$root/tests/data/mapping/tiny.yaml
message=$("$pimdse" map --mapper no-such-mapper --hardware "$hw" --network "$net" 2>&1 || true)
mappers=$(sed -n 's/.*not in {\([^}]*\)}.*/\1/p' <<< "$message" | tr ',' ' ')
[[ -n $mappers ]] || fail "no list of mappers in: $message"
row=$(grep '^| `--mapper ' "$cli") || fail "no --mapper row in docs/cli.md"
for m in $mappers; do [[ $row == *"$m"* ]] || fail "docs/cli.md's --mapper row lacks '$m'"; done

"$pimdse" map --hardware "$hw" --network "$net" --csv "$dir/map.csv" > /dev/null
row=$(grep '^| `--csv F.csv` | append one row' "$cli") || fail "no map --csv row in docs/cli.md"
for column in $(head -1 "$dir/map.csv" | tr ',' ' '); do
  [[ $row == *"$column"* ]] || fail "docs/cli.md's map --csv row lacks the column '$column'"
done
"$pimdse" map --hardware "$hw" --network "$net" --layers "$dir/layers.csv" > /dev/null
table=$(sed -n '/^### Per-layer tables/,/^## /p' "$cli")
[[ -n $table ]] || fail "no 'Per-layer tables' section in docs/cli.md"
for column in $(head -1 "$dir/layers.csv" | tr ',' ' '); do
  [[ $table == *"\`$column\`"* ]] || fail "docs/cli.md's per-layer tables lack the column '$column'"
done
echo "docs_agree: exit codes $(echo $codes), mappers $mappers, the map --csv and --layers columns are documented"
