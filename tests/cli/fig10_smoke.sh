#!/usr/bin/env bash
# postprocess/fig10.py draws and tabulates what `pimdse map --csv` writes.
# Usage: fig10_smoke.sh PIMDSE HARDWARE NETWORK WORKDIR
set -euo pipefail
pimdse=$1 hw=$2 net=$3 dir=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir" && mkdir -p "$dir"
for m in baseline nicepim; do "$pimdse" map --hardware "$hw" --network "$net" --mapper "$m" --csv "$dir/fig10.csv" > /dev/null; done
/usr/bin/python3 "$root/postprocess/fig10.py" "$dir/fig10.csv" --out "$dir" > "$dir/out.txt"
grep -Eq '^\| hardware_2x4 \| [a-z0-9_]+ \| [0-9.]+ \| [0-9.]+ \|' "$dir/fig10_table.md" || { cat "$dir/fig10_table.md" >&2; exit 1; }
[[ -s $dir/fig10.png ]] || { echo "fig10_smoke: no fig10.png" >&2; exit 1; }
# The bars' tick letters are spelled out on the figure (its SVG keeps text as text).
grep -q 'M: PIM-Mapper,  B: baseline of NicePIM VIII-D' "$dir/fig10.svg" || { echo "fig10_smoke: M and B not explained" >&2; exit 1; }
echo "fig10.py ok"
