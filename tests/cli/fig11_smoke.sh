#!/usr/bin/env bash
# postprocess/fig11.py picks each mapper's best batch from `pimdse map --csv` rows of the
# PIM-Mapper and the DDAM pipeline, and draws and tabulates them (NicePIM Fig. 11).
# Usage: fig11_smoke.sh PIMDSE HARDWARE NETWORK WORKDIR
set -euo pipefail
pimdse=$1 hw=$2 net=$3 dir=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/job_smoke.sh"
rm -rf "$dir" && mkdir -p "$dir"
for m in nicepim ddam; do
  for b in 1 4; do
    "$pimdse" map --hardware "$hw" --network "$net" --mapper "$m" --batch "$b" --csv "$dir/rows.csv" > /dev/null
  done
done
/usr/bin/python3 "$root/postprocess/fig11.py" "$dir/rows.csv" --out "$dir" > "$dir/out.txt"
# One row per mapper, each at the batch of its best throughput, which is at least batch 1's.
/usr/bin/python3 - "$dir" <<'PY'
import sys
import pandas as pd
d = sys.argv[1]
rows = pd.read_csv(f"{d}/rows.csv")
best = pd.read_csv(f"{d}/fig11.csv")
assert sorted(best.mapper) == ["ddam", "nicepim"], best
for r in best.itertuples():
    mine = rows[rows.mapper == r.mapper]
    assert r.throughput_per_s == mine.throughput_per_s.max(), (r, mine)
    assert abs(r.energy_j - mine.loc[mine.throughput_per_s.idxmax(), "energy_pj"] * 1e-12 / r.batch) < 1e-18
PY
grep -Eq '^\| hardware_2x4 \| [a-z0-9_]+ \| [0-9]+ / [0-9]+ \| [0-9.]+ \|' "$dir/fig11_table.md" || { cat "$dir/fig11_table.md" >&2; exit 1; }
job_smoke_figures fig11_smoke fig11
# The bars' tick letters are spelled out on the figure (its SVG keeps text as text).
grep -q 'M: PIM-Mapper,  D: DDAM pipeline (NicePIM VIII-D)' "$dir/fig11.svg" ||
  { echo "fig11_smoke: M and D not explained" >&2; exit 1; }
echo "fig11.py ok"
